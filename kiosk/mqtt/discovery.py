"""Home Assistant's MQTT discovery for one table (docs/mqtt.md "Home Assistant").

With ``[mqtt] discovery = true`` the table is a device of Home Assistant: on each connection
(and again when Home Assistant says ``online`` on ``<prefix>/status``) the publisher sends one
retained config per entity to ``<prefix>/<component>/<node_id>/<object_id>/config``. The
entities read the table's own retained ``state`` summary through a ``value_template``, and a
small retained ``staff`` message that the table works out itself (needs staff, why, the last
refused move). Their availability is the table's ``status`` (its last will).

The payloads are written here, as JSON, and sent by the publisher's own paho client: a
library for Home Assistant's discovery would bring a second MQTT client, a second connection
and a second last will for the same table.

What was announced is kept in ``ha-discovery.json`` in the data folder: at the next
connection every config no longer announced (the table renamed, the prefix changed,
discovery turned off) is removed with an empty retained message, which removes its entity
(and the device with its last entity) from Home Assistant.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.core import Text
from engine.core.text import Language

log = logging.getLogger("tablesight.mqtt")

STAFF = "staff"
"""The table's topic ``tablesight/<table>/staff`` (retained): what Home Assistant's "needs
staff" and "last refused move" entities read."""
RECORD_FILE = "ha-discovery.json"
"""What the table announced last, in its data folder."""
ONLINE = "online"
"""What Home Assistant says on ``<prefix>/status`` when it (re)starts."""
MAX_STATE = 255
"""The longest state Home Assistant keeps (a longer one is refused)."""

# The words of Home Assistant's entities and of the "needs staff" reasons (as the café's
# overview says them).
NAMES = {
    "game": Text("游戏", "Game"),
    "round": Text("轮次", "Round"),
    "phase": Text("阶段", "Phase"),
    "turn": Text("轮到", "Whose turn"),
    "needs_staff": Text("需要店员", "Needs staff"),
    "refusal": Text("最近被拒的一步", "Last refused move"),
    "camera": Text("摄像头", "Camera"),
    "leds": Text("灯光控制器", "LED controller"),
}
REASONS = {
    "refused": Text(
        "被拒的一步待处理:{who}:{what} — {why}", "Refused move waiting: {who}: {what} — {why}"
    ),
    "camera_lost": Text("摄像头断开", "Camera lost"),
    "controller_lost": Text("灯光控制器断开", "LED controller lost"),
    "missing": Text("《{title}》缺 {n} 件配件", "{n} pieces of {title} missing"),
    "missing_one": Text("《{title}》缺 1 件配件", "1 piece of {title} missing"),
    "other": Text("本桌需要处理", "The table needs the staff"),
}
REFUSAL = Text("{who}:{what} — {why}", "{who}: {what} — {why}")


@dataclass(frozen=True)
class Entity:
    """One entity of the table's device: its Home Assistant component, its object id (also the
    key of its name in ``NAMES``), the topic it reads (``state`` or ``staff``), the template of
    its value and its other config keys (in templates, ``LANG`` stands for the table's
    language: ``zh`` or ``en``)."""

    component: str
    key: str
    reads: str
    value: str
    extra: dict[str, str] = field(default_factory=dict)


LINK = {"device_class": "connectivity", "entity_category": "diagnostic"}

ENTITIES = (
    Entity("sensor", "game", "state", "{{ value_json.title.LANG }}", {"icon": "mdi:dice-5"}),
    Entity("sensor", "round", "state", "{{ value_json.round }}", {"icon": "mdi:counter"}),
    Entity("sensor", "phase", "state", "{{ value_json.phase.title.LANG }}", {"icon": "mdi:flag"}),
    Entity(
        "sensor",
        "turn",
        "state",
        "{{ value_json.turn.name.LANG if value_json.turn else 'None' }}",
        {"icon": "mdi:account-arrow-right"},
    ),
    Entity(
        "binary_sensor",
        "needs_staff",
        "staff",
        "{{ 'ON' if value_json.needs_staff else 'OFF' }}",
        {
            "device_class": "problem",
            "json_attributes_template": "{{ {'reason': value_json.reason.LANG"
            " if value_json.reason else none} | tojson }}",
        },
    ),
    Entity(
        "sensor",
        "refusal",
        "staff",
        "{{ value_json.refusal.LANG if value_json.refusal else 'None' }}",
        {"icon": "mdi:close-octagon"},
    ),
    Entity(
        "binary_sensor",
        "camera",
        "state",
        "{{ 'ON' if value_json.links.camera in ['ok', 'simulated'] else 'OFF' }}",
        LINK,
    ),
    Entity(
        "binary_sensor",
        "leds",
        "state",
        "{{ 'ON' if value_json.links.controller in ['ok', 'simulated'] else 'OFF' }}",
        LINK,
    ),
    # The turn timer's entity goes here when the table keeps one (a sensor reading its own
    # small retained topic, as "needs staff" reads ``staff``).
)


def software_version() -> str:
    """tablesight's version, from the installed package's metadata."""
    try:
        return version("tablesight")
    except PackageNotFoundError:
        return "unknown"


def node_id(table: str) -> str:
    """The table's node id in discovery topics (only ``A-Za-z0-9_-`` are allowed there): its
    name (``<site>_<table>`` for a table of a site), with a short hash of the name when it had
    to change (``3号桌``)."""
    safe = re.sub(r"[^A-Za-z0-9_-]", "_", table)
    if safe != table:
        safe += "_" + hashlib.sha1(table.encode()).hexdigest()[:8]
    return f"tablesight_{safe}"


def both(text: Text) -> dict[str, str]:
    """A text in both languages, as payloads carry it."""
    return {"zh": text.zh, "en": text.en}


def fill(template: Text, fields: dict[str, Any]) -> Text:
    """``template`` with its ``{name}`` fields taken from texts in both languages."""
    return Text(
        template.zh.format(**{k: v["zh"] for k, v in fields.items()}),
        template.en.format(**{k: v["en"] for k, v in fields.items()}),
    )


def clip(text: Text) -> dict[str, str]:
    """A text short enough to be a Home Assistant state, in both languages."""
    return {
        lang: s if len(s) <= MAX_STATE else s[: MAX_STATE - 1] + "…"
        for lang, s in both(text).items()
    }


class _Record(BaseModel):
    """``ha-discovery.json``: the retained topics the table wrote for Home Assistant."""

    model_config = ConfigDict(extra="forbid", strict=True)

    topics: list[str]


class Discovery:
    """The Home Assistant side of one table's publisher: the configs to send, the ``staff``
    message to keep, and what to remove of an earlier announcement."""

    def __init__(
        self,
        *,
        enabled: bool,
        prefix: str,
        table: str,
        site: str | None = None,
        topics: dict[str, str],
        status_topic: str,
        data_dir: Path,
        lang: Language = "zh",
        link: str | None = None,
    ) -> None:
        self.enabled = enabled
        self.prefix = prefix
        self.table = table
        self.birth_topic = f"{prefix}/status"
        """Where Home Assistant says ``online`` when it starts (its birth message)."""
        self.topics = topics
        """The table's topics the entities read, by name (``state``, ``staff``)."""
        self.status_topic = status_topic
        self.lang: Language = lang
        self.link = link
        self.record = data_dir / RECORD_FILE
        self.name = table if site is None else f"{site} {table}"
        """The device's name in Home Assistant."""
        self.node = node_id(table if site is None else f"{site}_{table}")
        self._save: str | None = None
        self._refusal: dict[str, str] | None = None

    def config_topic(self, entity: Entity) -> str:
        """``<prefix>/<component>/<node_id>/<object_id>/config``."""
        return f"{self.prefix}/{entity.component}/{self.node}/{entity.key}/config"

    def configs(self) -> dict[str, str]:
        """Each entity's config topic and its payload (JSON), none when discovery is off."""
        if not self.enabled:
            return {}
        sw = software_version()
        device: dict[str, Any] = {
            "identifiers": [self.node],
            "name": self.name,
            "manufacturer": "tablesight",
            "model": "tablesight",
            "sw_version": sw,
        }
        if self.link and self.link.startswith(("http://", "https://")):
            device["configuration_url"] = self.link
        made = {}
        for entity in ENTITIES:
            config: dict[str, Any] = {
                "name": NAMES[entity.key].in_(self.lang),
                "unique_id": f"{self.node}_{entity.key}",
                "state_topic": self.topics[entity.reads],
                "value_template": entity.value.replace("LANG", self.lang),
                "availability_topic": self.status_topic,
                "payload_available": "online",
                "payload_not_available": "offline",
                "qos": 1,
                "device": device,
                "origin": {"name": "tablesight", "sw_version": sw},
            }
            for key, value in entity.extra.items():
                config[key] = value.replace("LANG", self.lang) if "template" in key else value
            if "json_attributes_template" in config:
                config["json_attributes_topic"] = config["state_topic"]
            made[self.config_topic(entity)] = json.dumps(
                config, ensure_ascii=False, separators=(",", ":")
            )
        return made

    def announcement(self) -> Iterator[tuple[str, str]]:
        """What to publish (retained, QoS 1) on connecting: an empty message for each topic of
        an earlier announcement that is not announced now, then every config. Notes what is
        announced in ``ha-discovery.json``."""
        configs = self.configs()
        now = [*configs, self.topics["staff"]] if self.enabled else []
        for old in self._announced():
            if old not in now:
                yield old, ""
        yield from configs.items()
        self._note(now)

    def staff(self, state: dict[str, Any]) -> str:
        """The ``staff`` message for a state summary (docs/mqtt.md): whether the table needs
        the staff (an alert other than a game over) and why, and the last refused move of this
        game since the kiosk started, in both languages."""
        if state["save"] != self._save:
            self._save, self._refusal = state["save"], None
        reasons = []
        for alert in state["alerts"]:
            kind = alert["kind"]
            if kind == "refused":
                said = {k: alert[k] for k in ("who", "what", "why")}
                self._refusal = clip(fill(REFUSAL, said))
                reasons.append(fill(REASONS[kind], said))
            elif kind == "missing":
                n = {"zh": str(alert["count"]), "en": str(alert["count"])}
                one = REASONS["missing_one" if alert["count"] == 1 else "missing"]
                reasons.append(fill(one, {"title": alert["title"], "n": n}))
            elif kind in REASONS:
                reasons.append(REASONS[kind])
            elif kind != "ended":  # a kind this version does not know: the staff look
                reasons.append(REASONS["other"])
        reason = Text("；".join(r.zh for r in reasons), "; ".join(r.en for r in reasons))
        return json.dumps(
            {
                "v": 1,
                "needs_staff": bool(reasons),
                "reason": both(reason) if reasons else None,
                "refusal": self._refusal,
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    def _announced(self) -> list[str]:
        """The topics of the last announcement; none when the file is missing or unreadable
        (said in the log: its configs then stay until Home Assistant's device is deleted)."""
        try:
            return _Record.model_validate_json(self.record.read_bytes()).topics
        except FileNotFoundError:
            return []
        except (OSError, ValidationError) as exc:
            log.warning("%s not read, nothing of it removed: %s", self.record, exc)
            return []

    def _note(self, topics: list[str]) -> None:
        if not topics and not self.record.exists():
            return
        try:
            temporary = self.record.with_suffix(".tmp")
            temporary.write_text(_Record(topics=topics).model_dump_json() + "\n", "utf-8")
            os.replace(temporary, self.record)
        except OSError as exc:
            log.warning("%s not written: %s", self.record, exc)
