"""Topic names, table and site names and broker addresses (no MQTT library imported here).

Every table publishes under ``tablesight/<table>/``, or ``tablesight/<site>/<table>/`` when it
belongs to a site (a café of a chain, a room of a club: ``--site``): ``state`` (retained
summary), ``events`` (QoS 1, each with its sequence number), ``status`` (retained
``online``/``offline``, the last will) and ``result`` (retained, each ended game). The café
offers its box of each game on ``tablesight/_box/<game>`` (retained), which every table reads.
docs/mqtt.md describes the payloads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

ROOT = "tablesight"
"""The first level of every topic."""

STATE, EVENTS, STATUS, RESULT = "state", "events", "status", "result"
ONLINE, OFFLINE = "online", "offline"
BOX = "_box"
"""The level of the café's boxes: ``tablesight/_box/<game>``. No table's name starts with
``_``, so it is never a table's topic."""
GAME_NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
"""A game's name as a topic level (``greenwood``, ``dont_starve``)."""

TABLE_NAME = re.compile(r"^[^\W_][\w-]{0,39}$")
"""A table's name: 1–40 letters (any script), digits, ``-`` or ``_``, starting with a letter or
a digit; it is one level of a topic, so never ``/``, ``+``, ``#``, ``$`` or a space."""

DEFAULT_PORTS = {"mqtt": 1883, "mqtts": 8883}


def check_table_name(name: str) -> str:
    """The name if it may be one level of a topic, else ValueError saying what a name may be."""
    if not TABLE_NAME.match(name):
        raise ValueError(
            f"{name!r} is not a table name: use 1–40 letters, digits, '-' or '_',"
            " starting with a letter or digit (e.g. table-3)"
        )
    return name


def check_site_name(name: str) -> str:
    """The name if it may be a site's level of a topic (as a table's name), else ValueError."""
    if not TABLE_NAME.match(name):
        raise ValueError(
            f"{name!r} is not a site name: use 1–40 letters, digits, '-' or '_',"
            " starting with a letter or digit (e.g. north-street)"
        )
    return name


def topic(table: str, what: str, site: str | None = None) -> str:
    """The topic ``tablesight/<table>/<what>``, or ``tablesight/<site>/<table>/<what>``."""
    return f"{ROOT}/{table}/{what}" if site is None else f"{ROOT}/{site}/{table}/{what}"


def box_topic(game: str) -> str:
    """The topic of the café's box of ``game``: ``tablesight/_box/<game>``."""
    return f"{ROOT}/{BOX}/{game}"


BOX_SUBSCRIPTION = f"{ROOT}/{BOX}/+"
"""The filter that takes the café's box of every game."""


def box_game(topic_name: str) -> str | None:
    """The game whose café's box ``topic_name`` carries (``tablesight/_box/<game>``), else None
    (the name is checked to be a game's name as a topic level, not that such a game exists)."""
    parts = topic_name.split("/")
    if len(parts) != 3 or parts[0] != ROOT or parts[1] != BOX or not GAME_NAME.match(parts[2]):
        return None
    return parts[2]


def subscriptions(what: str) -> list[str]:
    """The filters that take ``what`` of every table, with a site and without."""
    return [f"{ROOT}/+/{what}", f"{ROOT}/+/+/{what}"]


@dataclass(frozen=True)
class Where:
    """Whose topic it is: the site (None in the tree without sites), the table, and what."""

    site: str | None
    table: str
    what: str

    @property
    def key(self) -> str:
        """The table's name across sites: ``<site>/<table>``, or ``<table>`` without a site."""
        return self.table if self.site is None else f"{self.site}/{self.table}"


def where_of(topic_name: str) -> Where | None:
    """Whose a ``tablesight/[<site>/]<table>/<what>`` topic is; None for any other topic.
    The names are not checked here (``check_table_name``, ``check_site_name``)."""
    parts = topic_name.split("/")
    if parts[0] != ROOT or len(parts) not in (3, 4):
        return None
    if len(parts) == 3:
        return Where(None, parts[1], parts[2])
    return Where(parts[1], parts[2], parts[3])


@dataclass(frozen=True)
class BrokerAddress:
    """Where the broker is: host, port, whether TLS is used, and credentials from the URL."""

    host: str
    port: int
    tls: bool
    username: str | None = None
    password: str | None = None

    def __str__(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"


def parse_broker_url(url: str) -> BrokerAddress:
    """``mqtt://[user[:password]@]HOST[:PORT]`` or ``mqtts://…`` (TLS, port 8883 by default);
    ValueError with one line saying what is wrong."""
    usage = "use mqtt://HOST[:PORT] or mqtts://HOST[:PORT]"
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"{url!r} is not a broker address ({exc}): {usage}") from None
    if parts.scheme not in DEFAULT_PORTS:
        raise ValueError(f"{url!r} is not a broker address: {usage}")
    if not parts.hostname:
        raise ValueError(f"{url!r} names no host: {usage}")
    if parts.path not in ("", "/") or parts.query or parts.fragment:
        raise ValueError(f"{url!r} has a path or query; a broker address has none: {usage}")
    return BrokerAddress(
        host=parts.hostname,
        port=port or DEFAULT_PORTS[parts.scheme],
        tls=parts.scheme == "mqtts",
        username=unquote(parts.username) if parts.username else None,
        password=unquote(parts.password) if parts.password else None,
    )
