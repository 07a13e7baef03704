"""Ctrl-C and SIGTERM for the long-running kiosk, safe from a C library that resets SIGINT.

The AprilTag binding (``apriltag-python``) sets SIGINT to its default action for the length of
every detection, so that Ctrl-C can cut a long one short. The kiosk detects on a thread all the
time; a Ctrl-C inside that window ended the process at once: no clean stop, no "stopped" line,
exit status -2 (seen as a flaky start-up test and traced with ``strace``).

:func:`held_stop_signals` blocks SIGINT and SIGTERM in every thread started inside it (enter it
before numpy starts its OpenBLAS threads), and one watcher thread takes them with
``sigtimedwait`` and hands each to the main thread's Python handler (uvicorn's, or
``KeyboardInterrupt``) as if it had arrived there: the handler runs at the main thread's next
Python step (at once for asyncio's loop, which a handed signal wakes). A signal with no Python
handler does what it would have done. A child process started inside inherits the mask: the
kiosk ends its own children (the speech engine's) when it stops.

:func:`serve` runs uvicorn so that a stop with pages open is as quiet as one without: a page
holds its event stream (``/api/live``, the camera's picture) open for ever, and uvicorn's
graceful stop waited for it, gave up after its timeout and cancelled it with about 90 lines of
tracebacks. Here the stop first tells every response still streaming that its client left (the
ASGI ``http.disconnect`` a closed tab would send), so each stream ends on its own and its
response is finished; uvicorn's timeout stays the bound for anything else.
"""

from __future__ import annotations

import _thread
import asyncio
import signal
import sys
import threading
from collections.abc import Awaitable, Callable, Iterator, MutableMapping
from contextlib import contextmanager, suppress
from typing import Any

STOP_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})
"""The signals that stop the kiosk."""

POLL_S = 0.2
"""How often the watcher looks whether it should end (it wakes at once for a signal)."""


@contextmanager
def held_stop_signals() -> Iterator[None]:
    """Inside: SIGINT and SIGTERM reach the main thread's Python handlers whatever a C library
    does to their disposition in the meantime. Only in the main thread (elsewhere: as is)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    done = threading.Event()
    watcher = threading.Thread(target=_forward, args=(done,), name="stop-signals", daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
        # A signal raised again at the main thread on the way out (uvicorn does so after its
        # graceful stop) has been handled already: drop it rather than interrupt the exit.
        while signal.sigtimedwait(STOP_SIGNALS, 0) is not None:
            pass
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def _forward(done: threading.Event) -> None:
    """Take each stop signal and hand it to the main thread, until ``done``."""
    while not done.is_set():
        info = signal.sigtimedwait(STOP_SIGNALS, POLL_S)
        if info is None:
            continue
        number = signal.Signals(info.si_signo)
        handler = signal.getsignal(number)
        if callable(handler):
            _thread.interrupt_main(number)
        elif handler != signal.SIG_IGN:  # the default action: end the process as it would
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {number})
            signal.pthread_kill(threading.get_ident(), number)


Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

STARTUP_FAILURE = 3
"""uvicorn's exit status when the server could not start (as ``uvicorn.run``)."""


class EndStreams:
    """An ASGI app around ``app`` whose :meth:`stop` ends every HTTP response still going on:
    each is told that its client left (as a closed tab tells it), and one the app leaves
    unfinished is finished with an empty last chunk, so the client sees a clean end."""

    def __init__(self, app: Any) -> None:
        self.app = app
        self.stopping = False
        self._ends: set[asyncio.Event] = set()

    def stop(self) -> None:
        """End every response going on, and every one that starts from now (on the server's
        loop)."""
        self.stopping = True
        for end in self._ends:
            end.set()

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        """Serve ``scope``; an HTTP request is ended by :meth:`stop`."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        end = asyncio.Event()
        if self.stopping:
            end.set()
        self._ends.add(end)
        started = finished = False

        async def receive_or_end() -> Message:
            if end.is_set():
                return {"type": "http.disconnect"}
            message = asyncio.ensure_future(receive())
            ended = asyncio.ensure_future(end.wait())
            try:
                await asyncio.wait({message, ended}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                ended.cancel()
                if not message.done():
                    message.cancel()
            if message.done() and not message.cancelled():
                return message.result()
            return {"type": "http.disconnect"}

        async def send_and_note(message: Message) -> None:
            nonlocal started, finished
            if message["type"] == "http.response.start":
                started = True
            elif message["type"] == "http.response.body" and not message.get("more_body"):
                finished = True
            await send(message)

        try:
            await self.app(scope, receive_or_end, send_and_note)
            if end.is_set() and started and not finished:
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self._ends.discard(end)


def serve(app: Any, **options: Any) -> None:
    """``uvicorn.run(app, **options)`` whose stop (Ctrl-C, SIGTERM) first ends the responses
    still streaming (:class:`EndStreams`), so that pages left open never hold the stop up."""
    import uvicorn

    streams = EndStreams(app)

    class Server(uvicorn.Server):
        async def shutdown(self, sockets: Any = None) -> None:
            streams.stop()
            await super().shutdown(sockets)

    config = uvicorn.Config(streams, **options)
    server = Server(config)
    with suppress(KeyboardInterrupt):  # as uvicorn.run: a second Ctrl-C during the stop
        server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)
