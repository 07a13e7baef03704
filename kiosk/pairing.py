"""Pairing a phone with the table: a QR code's token, the short code, and the limits on guesses.

A phone (any device that is not this machine) may control the table only with a credential shown
on the kiosk's own screen, sent in the ``X-Pairing-Code`` header; a device that sent the right one
is *paired* for the run and let in when the kiosk is crowded (``kiosk.guard.Door``). Both are new
at every start.

- **The token** (``TOKEN_BYTES`` = 16 random bytes, 128 bits, 22 characters) travels in the QR
  code on the kiosk's screen as ``http://ADDRESS:PORT/?pair=TOKEN``: one scan and the phone's page
  keeps it. Nothing limits it, and no failure of any device (its own included) ever keeps it out:
  at a million guesses a second, the expected time to guess it is 2^127 / 10^6 s, about 5 × 10^24
  years.
- **The short code** (six digits, 10^6 values) is for typing. Guessing it is limited twice:
  per device, ``FREE_TRIES`` (5) wrong codes, then a wait of ``FIRST_WAIT_S`` (2 s) doubled at
  each further wrong code up to ``MAX_WAIT_S`` (10 min): at most 18 wrong codes in any hour
  (its first) and 6 an hour after that. And for the whole network, at most
  ``NETWORK_WRONG_PER_HOUR`` (30) wrong codes in any hour: beyond, the short code is paused for
  devices not yet paired (429: "scan the QR code") until the hour's oldest wrong code is an hour
  old. Whatever the number of addresses an attacker holds, a guess of the code is then checked at
  most 30 times an hour: the expected number of guesses to find a code is (10^6 + 1) / 2, so the
  expected time is 500,000 / 30 h ≈ 16,700 h ≈ 1.9 years (and 26 % in a year), while the code
  changes at every start of the kiosk. One device alone never pauses the code for the others
  (18 < 30 in any hour); a paired phone, and any phone that scans the QR code, is never held
  back by it.

The short code cannot be both limited network-wide and never paused for a stranger with the right
code: while wrong codes are refused unchecked, an answer that let a right one in would tell an
attacker with many addresses which guess was right, at whatever rate he sends them. So the
network's limit pauses the short code only, and the QR code's token is the way in that nothing
can block. Values that cannot be the code (not six digits: an old run's token, say) are refused
without counting as guesses.
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
from urllib.parse import urlencode

PAIRING_HEADER = "X-Pairing-Code"
CODE_DIGITS = 6
TOKEN_BYTES = 16
"""The QR code's token: 128 random bits (``secrets.token_urlsafe``)."""
FREE_TRIES = 5
"""Wrong pairing codes a device may send before it must wait between tries."""
FIRST_WAIT_S = 2.0
"""The first wait; it doubles with every further wrong code, up to ``MAX_WAIT_S``."""
MAX_WAIT_S = 600.0
NETWORK_WRONG_PER_HOUR = 30
"""Wrong codes from all devices together in any hour; beyond, the short code is paused for
devices not paired (many addresses guessing together gain nothing). The token is never paused."""
NETWORK_WINDOW_S = 3600.0
MAX_DEVICES = 4096
"""Devices remembered (wrong tries, pairing); the oldest are forgotten beyond."""


def new_code() -> str:
    """A fresh six-digit pairing code."""
    return f"{secrets.randbelow(10**CODE_DIGITS):0{CODE_DIGITS}d}"


def new_token() -> str:
    """A fresh token for the pairing QR code (URL-safe, 128 bits)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def looks_like_code(value: str) -> bool:
    """Whether ``value`` has the short code's shape (a guess at it), six ASCII digits."""
    return len(value) == CODE_DIGITS and value.isascii() and value.isdigit()


class TooManyTriesError(Exception):
    """A device may not try a pairing code now; it may try again after ``retry_after`` s.

    ``network`` says the whole network's wrong codes paused the short code (the QR code's token
    still pairs)."""

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
    """The credentials a phone must send to control the table, shown on the kiosk's own screen:
    the QR code's ``token`` and the short ``code`` (see the module's text for the limits).

    Both stay the same for the whole run (a phone already paired stays paired whatever another
    device guesses). A device that sent either is *paired*: its address is let in when the kiosk
    is crowded (``kiosk.guard.Door``) and never held back by the network's limit.
    """

    code: str = field(default_factory=new_code)
    token: str = field(default_factory=new_token)
    clock: Callable[[], float] = field(default=time.monotonic, repr=False)
    _tries: OrderedDict[str, _Tries] = field(default_factory=OrderedDict, repr=False)
    _paired: OrderedDict[str, float] = field(default_factory=OrderedDict, repr=False)
    _wrong_times: deque[float] = field(default_factory=deque, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def check(self, offered: str | None, client: str = "") -> bool:
        """Whether ``offered`` is the token or the code, for the device at address ``client``.

        The token is always checked. For the code, raises TooManyTriesError while that device
        must wait, or while the network's wrong codes paused the code for a device not paired;
        no credential at all, or a value that cannot be the code, is not a try.
        """
        with self._lock:
            now = self.clock()
            if offered is not None and secrets.compare_digest(
                offered.encode("utf-8", "replace"), self.token.encode()
            ):
                return self._pair(client, now)
            tries = self._tries.get(client)
            if tries is not None and now < tries.until:
                raise TooManyTriesError(tries.until - now)
            if offered is None or not looks_like_code(offered):
                return False
            while self._wrong_times and now - self._wrong_times[0] >= NETWORK_WINDOW_S:
                self._wrong_times.popleft()
            paused = len(self._wrong_times) >= NETWORK_WRONG_PER_HOUR
            if paused and client not in self._paired:
                raise TooManyTriesError(
                    NETWORK_WINDOW_S - (now - self._wrong_times[0]), network=True
                )
            if secrets.compare_digest(offered.encode(), self.code.encode()):
                return self._pair(client, now)
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
        """Whether the device at ``client`` sent the right token or code during this run."""
        return client in self._paired

    def link(self, address: str, port: int) -> str:
        """The page a phone opens from the QR code: the table page with the token, at the
        kiosk's ``address`` on the network (an IPv6 address in brackets) and ``port``."""
        host = f"[{address}]" if ":" in address else address
        return f"http://{host}:{port}/?{urlencode({'pair': self.token})}"

    def _pair(self, client: str, now: float) -> bool:
        self._tries.pop(client, None)
        self._remember(self._paired, client, now)
        return True

    @staticmethod
    def _remember(table: OrderedDict[str, Any], key: str, value: Any) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > MAX_DEVICES:
            table.popitem(last=False)
