"""Pairing a phone with the table: the code shown on the kiosk's screen, and the slowing of guesses.

A phone (any device that is not this machine) may control the table only with the code; a device
that sent it is *paired* for the run and let in when the kiosk is crowded (``kiosk.guard.Door``).
"""

from __future__ import annotations

import math
import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

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
    def _remember(table: OrderedDict[str, Any], key: str, value: Any) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > MAX_DEVICES:
            table.popitem(last=False)
