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
"""

from __future__ import annotations

import _thread
import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

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
