"""Dependencies of the routes, as ``Annotated`` aliases (FastAPI "bigger applications" style).

The app keeps one of each thing on ``app.state`` (built in ``kiosk.app.create_app``); routes ask
for them by type, and tests swap them with ``app.dependency_overrides``.
"""

from __future__ import annotations

import ipaddress
import secrets
import threading
from dataclasses import dataclass, field
from typing import Annotated

from fastapi import Depends, HTTPException, Request

from kiosk.settings import Settings
from kiosk.table import Table

PAIRING_HEADER = "X-Pairing-Code"
MAX_WRONG_CODES = 10
"""After this many wrong pairing codes in a row, the code is replaced by a new one."""


def new_code() -> str:
    """A fresh six-digit pairing code."""
    return f"{secrets.randbelow(10**6):06d}"


@dataclass
class Pairing:
    """The code a phone must send to control the table; shown on the kiosk's own screen."""

    code: str = field(default_factory=new_code)
    wrong: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def check(self, offered: str | None) -> bool:
        """Whether ``offered`` is the code; too many wrong tries replace the code."""
        with self._lock:
            if offered is not None and secrets.compare_digest(offered.encode(), self.code.encode()):
                self.wrong = 0
                return True
            if offered is not None:
                self.wrong += 1
                if self.wrong >= MAX_WRONG_CODES:
                    self.code, self.wrong = new_code(), 0
            return False


def is_local(request: Request) -> bool:
    """Whether the request comes from this machine (the kiosk's own screen)."""
    host = request.client.host if request.client else ""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def get_table(request: Request) -> Table:
    """The table being played."""
    return request.app.state.table


def get_settings(request: Request) -> Settings:
    """The running service's settings."""
    return request.app.state.settings


def get_pairing(request: Request) -> Pairing:
    """The pairing code of this run."""
    return request.app.state.pairing


def require_control(request: Request, pairing: Annotated[Pairing, Depends(get_pairing)]) -> None:
    """Allow a control action: always from this machine, else only with the pairing code."""
    if is_local(request):
        return
    if not pairing.check(request.headers.get(PAIRING_HEADER)):
        raise HTTPException(
            403,
            "control from another device needs the pairing code shown on the kiosk screen"
            f" (send it in the {PAIRING_HEADER} header)",
        )


TableDep = Annotated[Table, Depends(get_table)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
PairingDep = Annotated[Pairing, Depends(get_pairing)]
Control = Depends(require_control)
"""Add to a route's ``dependencies`` to make it a control action."""
