"""Dependencies of the routes, as ``Annotated`` aliases (FastAPI "bigger applications" style).

The app keeps one of each thing on ``app.state`` (built in ``kiosk.app.create_app``); routes ask
for them by type, and tests swap them with ``app.dependency_overrides``.
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, HTTPException, Request

from engine.core import Text
from kiosk.guard import is_loopback
from kiosk.settings import Settings
from kiosk.table import Table

PAIRING_HEADER = "X-Pairing-Code"
FREE_TRIES = 5
"""Wrong pairing codes a device may send before it must wait between tries."""
FIRST_WAIT_S = 2.0
"""The first wait; it doubles with every further wrong code, up to ``MAX_WAIT_S``."""
MAX_WAIT_S = 600.0
NETWORK_WRONG_PER_MINUTE = 30
"""Wrong codes from all unpaired devices together per minute; beyond, they all wait (many
addresses guessing together gain nothing). Paired devices are never held back by it."""
MAX_DEVICES = 4096
"""Devices remembered (wrong tries, pairing); the oldest are forgotten beyond."""


def new_code() -> str:
    """A fresh six-digit pairing code."""
    return f"{secrets.randbelow(10**6):06d}"


class TooManyTriesError(Exception):
    """A device sent too many wrong pairing codes; it may try again after ``retry_after`` s."""

    def __init__(self, retry_after: float, network: bool = False) -> None:
        super().__init__(f"try again in {math.ceil(retry_after)} s")
        self.retry_after = retry_after
        self.network = network


@dataclass
class _Tries:
    wrong: int = 0
    until: float = 0.0


@dataclass
class Pairing:
    """The code a phone must send to control the table; shown on the kiosk's own screen.

    The code stays the same for the whole run (a phone already paired stays paired whatever
    another device guesses). Guessing is slowed per device instead: after ``FREE_TRIES`` wrong
    codes a device waits ``FIRST_WAIT_S``, doubled at each further wrong code (at most
    ``MAX_WAIT_S``), and beyond ``NETWORK_WRONG_PER_MINUTE`` wrong codes from the whole network
    every unpaired device waits. A device that sent the right code is *paired*: its address is
    let in when the kiosk is crowded (``kiosk.guard.Door``).
    """

    code: str = field(default_factory=new_code)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
    _tries: OrderedDict[str, _Tries] = field(default_factory=OrderedDict, repr=False)
    _paired: OrderedDict[str, float] = field(default_factory=OrderedDict, repr=False)
    _wrong_times: deque[float] = field(default_factory=deque, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def check(self, offered: str | None, client: str = "") -> bool:
        """Whether ``offered`` is the code, for the device at address ``client``.

        Raises TooManyTriesError while that device (or, for a device not paired, the whole
        network) must wait; no code at all is not a try.
        """
        with self._lock:
            now = self.clock()
            tries = self._tries.get(client)
            if tries is not None and now < tries.until:
                raise TooManyTriesError(tries.until - now)
            while self._wrong_times and now - self._wrong_times[0] >= 60:
                self._wrong_times.popleft()
            if offered is None:
                return False
            if client not in self._paired and len(self._wrong_times) >= NETWORK_WRONG_PER_MINUTE:
                raise TooManyTriesError(60 - (now - self._wrong_times[0]), network=True)
            if secrets.compare_digest(offered.encode(), self.code.encode()):
                self._tries.pop(client, None)
                self._remember(self._paired, client, now)
                return True
            tries = tries or _Tries()
            tries.wrong += 1
            if tries.wrong >= FREE_TRIES:
                tries.until = now + min(FIRST_WAIT_S * 2 ** (tries.wrong - FREE_TRIES), MAX_WAIT_S)
            self._remember(self._tries, client, tries)
            self._wrong_times.append(now)
            return False

    def tries_left(self, client: str) -> int:
        """Wrong codes ``client`` may still send before it must wait."""
        with self._lock:
            tries = self._tries.get(client)
            return max(0, FREE_TRIES - (tries.wrong if tries else 0))

    def is_paired(self, client: str) -> bool:
        """Whether the device at ``client`` sent the right code during this run."""
        return client in self._paired

    @staticmethod
    def _remember(table: OrderedDict[str, object], key: str, value: object) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > MAX_DEVICES:
            table.popitem(last=False)


def is_local(request: Request) -> bool:
    """Whether the request comes from this machine (the kiosk's own screen)."""
    return is_loopback(request.client.host if request.client else None)


def get_table(request: Request) -> Table:
    """The table being played."""
    return request.app.state.table


def get_settings(request: Request) -> Settings:
    """The running service's settings."""
    return request.app.state.settings


def get_pairing(request: Request) -> Pairing:
    """The pairing code of this run."""
    return request.app.state.pairing


NEED_CODE = Text(
    "用其他设备操作需要看板屏幕上显示的配对码(放在 {header} 请求头里)",
    "control from another device needs the pairing code shown on the kiosk screen"
    " (send it in the {header} header)",
)
WRONG_CODE = Text(
    "配对码不对;请输入看板屏幕上显示的配对码(还可再试 {left} 次,之后需等待)",
    "wrong pairing code; enter the code shown on the kiosk screen ({left} more tries before"
    " a wait)",
)
WRONG_CODE_LAST = Text(
    "配对码不对;请输入看板屏幕上显示的配对码(下一次尝试需先等待)",
    "wrong pairing code; enter the code shown on the kiosk screen (the next try must wait)",
)
TOO_MANY = Text(
    "这台设备输错配对码次数太多;请 {seconds} 秒后再试",
    "too many wrong pairing codes from this device; try again in {seconds} s",
)
TOO_MANY_NETWORK = Text(
    "网络上输错配对码的次数太多;请 {seconds} 秒后再试",
    "too many wrong pairing codes from the network; try again in {seconds} s",
)


def require_control(request: Request, pairing: Annotated[Pairing, Depends(get_pairing)]) -> None:
    """Allow a control action: always from this machine, else only with the pairing code
    (429 with Retry-After while the device must wait after too many wrong codes). The
    messages are in the kiosk's language."""
    if is_local(request):
        return
    lang = get_settings(request).lang
    client = request.client.host if request.client else ""
    offered = request.headers.get(PAIRING_HEADER)
    try:
        if pairing.check(offered, client):
            return
    except TooManyTriesError as exc:
        seconds = math.ceil(exc.retry_after)
        text = TOO_MANY_NETWORK if exc.network else TOO_MANY
        raise HTTPException(
            429, text.format(seconds=seconds).in_(lang), headers={"Retry-After": str(seconds)}
        ) from None
    if offered is None:
        text = NEED_CODE.format(header=PAIRING_HEADER)
    elif left := pairing.tries_left(client):
        text = WRONG_CODE.format(left=left)
    else:
        text = WRONG_CODE_LAST
    raise HTTPException(403, text.in_(lang))


TableDep = Annotated[Table, Depends(get_table)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
PairingDep = Annotated[Pairing, Depends(get_pairing)]
Control = Depends(require_control)
"""Add to a route's ``dependencies`` to make it a control action."""
