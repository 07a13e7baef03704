"""Dependencies of the routes, as ``Annotated`` aliases (FastAPI "bigger applications" style).

The app keeps one of each thing on ``app.state`` (built in ``kiosk.app.create_app``); routes ask
for them by type, and tests swap them with ``app.dependency_overrides``.
"""

from __future__ import annotations

import math
from typing import Annotated

from fastapi import Depends, HTTPException, Request

from engine.core import Text
from kiosk.guard import is_loopback
from kiosk.pairing import PAIRING_HEADER, Pairing, TooManyTriesError
from kiosk.settings import Settings
from kiosk.table import Table


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
    "网络上输错配对码的次数太多,配对码暂停使用;请用手机扫描看板屏幕上的二维码,"
    "或 {minutes} 分钟后再试",
    "too many wrong pairing codes from the network, so the code is paused; scan the QR code on"
    " the kiosk screen with the phone, or try the code again in {minutes} min",
)


def require_control(request: Request, pairing: Annotated[Pairing, Depends(get_pairing)]) -> None:
    """Allow a control action: always from this machine, else only with the pairing QR code's
    token or the pairing code (429 with Retry-After while the device must wait after too many
    wrong codes, or while the network's wrong codes paused the code: ``kiosk.pairing``). The
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
        words = text.format(seconds=seconds, minutes=math.ceil(seconds / 60))
        raise HTTPException(429, words.in_(lang), headers={"Retry-After": str(seconds)}) from None
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
