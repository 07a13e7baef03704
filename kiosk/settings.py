"""Settings of the running service, from defaults, a TOML file, the environment and flags.

Precedence, highest first: command-line flags, ``TABLESIGHT_*`` environment variables, what was
last saved from the kiosk's settings page (``tablesight run`` only: language, brightness, sound,
stability timing), the TOML file (``--config FILE``, else ``TABLESIGHT_CONFIG``, else
``tablesight.toml`` in the user's config folder when it exists), then the defaults below.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import fcntl
import json
import logging
import os
import re
import threading
import types
import typing
from collections.abc import Iterator
from collections.abc import Set as AbstractSet
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import platformdirs
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from engine.core import Text
from engine.core.text import Language
from kiosk.atomic import fsync_folder, write_atomically
from vision.detection import DetectorConfig
from vision.sources import SourceConfig
from vision.stabiliser import StabiliserConfig

APP_NAME = "tablesight"

log = logging.getLogger("tablesight.settings")


class SettingsError(ValueError):
    """The settings file, the environment or a flag holds a value that cannot be used."""


def default_data_dir() -> Path:
    """The user's data folder for saves and calibration (``TABLESIGHT_DATA_DIR`` overrides)."""
    return Path(platformdirs.user_data_dir(APP_NAME, appauthor=False))


def default_config_file() -> Path:
    """Where the settings file is looked for when ``--config`` is not given."""
    return Path(platformdirs.user_config_dir(APP_NAME, appauthor=False)) / f"{APP_NAME}.toml"


class GpioSettings(BaseModel):
    """The Pi's buttons, buzzer and status LED (BCM pin numbers; None: not fitted)."""

    model_config = ConfigDict(extra="forbid")

    pin_factory: str | None = Field(
        None,
        description="gpiozero pin factory (lgpio, rpigpio, mock…); default: the Pi's own, "
        "or mock pins with a warning when not on a Pi",
    )
    advance_pin: int | None = Field(17, ge=0, le=27, description="confirm/advance button")
    undo_pin: int | None = Field(27, ge=0, le=27, description="undo button")
    menu_pin: int | None = Field(22, ge=0, le=27, description="menu button")
    buzzer_pin: int | None = Field(23, ge=0, le=27, description="buzzer")
    led_pin: int | None = Field(24, ge=0, le=27, description="status LED")
    long_press_s: float = Field(1.0, gt=0, le=10, description="a press this long opens the menu")


class CameraSettings(BaseModel):
    """The camera: which frame source (a spec string) and what to ask of it."""

    model_config = ConfigDict(extra="forbid")

    source: str = Field(
        "synthetic",
        description="camera:N, camera:/dev/videoN, picamera2, video:PATH, folder:PATH, synthetic",
    )
    width: int | None = Field(None, gt=0)
    height: int | None = Field(None, gt=0)
    fps: float | None = Field(
        None,
        gt=0,
        description="frames a second: asked of a camera; a folder's rate (unset: its files' times)",
    )
    exposure: float | None = None
    gain: float | None = None
    loop: bool = True
    view_fps: float = Field(5.0, gt=0, le=10, description="frames per second of the camera page")

    def source_config(self) -> SourceConfig:
        """The vision package's SourceConfig for these settings (SourceConfigError if bad)."""
        extra = self.model_dump(exclude={"source", "view_fps"})
        return SourceConfig.from_spec(self.source, **extra)


class MqttSettings(BaseModel):
    """The café's MQTT broker this table reports to (docs/mqtt.md); off while ``url`` is unset."""

    model_config = ConfigDict(extra="forbid")

    url: str | None = Field(
        None, description="broker address: mqtt://HOST[:PORT] or mqtts://HOST[:PORT] (TLS)"
    )
    table: str | None = Field(
        None, description="this table's name in the topics (default: the machine's name)"
    )
    site: str | None = Field(
        None,
        description="the site this table belongs to (a café of a chain, a room of a club):"
        " its topics are then tablesight/<site>/<table>/… (default: none, tablesight/<table>/…)",
    )
    username: str | None = Field(None, description="user name, for a broker that asks")
    password: str | None = Field(None, description="password, for a broker that asks")
    ca_file: Path | None = Field(
        None, description="CA certificate file for mqtts:// (default: the system's)"
    )
    link: str | None = Field(
        None,
        description="address of this table's screen for the overview (default: this machine's"
        " when the kiosk serves the network)",
    )
    outbox_limit: int = Field(
        10_000, ge=10, le=1_000_000, description="events kept while the broker is away"
    )
    keepalive: int = Field(30, ge=5, le=3600, description="seconds between MQTT pings")
    discovery: bool = Field(
        False, description="announce this table to Home Assistant (MQTT discovery)"
    )
    discovery_prefix: str = Field(
        "homeassistant",
        pattern=r"^[A-Za-z0-9_-]+(/[A-Za-z0-9_-]+)*$",
        description="Home Assistant's discovery prefix (its MQTT integration's setting)",
    )

    @field_validator("url")
    @classmethod
    def _broker_url(cls, url: str | None) -> str | None:
        from kiosk.mqtt.topics import parse_broker_url

        if url is not None:
            parse_broker_url(url)
        return url

    @field_validator("table")
    @classmethod
    def _table_name(cls, name: str | None) -> str | None:
        from kiosk.mqtt.topics import check_table_name

        return None if name is None else check_table_name(name)

    @field_validator("site")
    @classmethod
    def _site_name(cls, name: str | None) -> str | None:
        from kiosk.mqtt.topics import check_site_name

        return None if name is None else check_site_name(name)

    @field_validator("ca_file")
    @classmethod
    def _ca_file(cls, path: Path | None) -> Path | None:
        if path is not None and not path.is_file():
            raise ValueError(f"there is no CA file {path}")
        return path


class HttpSettings(BaseModel):
    """How the kiosk's web server holds up on a crowded or hostile network (``kiosk.guard``).

    The limits apply to devices that are neither this machine nor a paired phone: those two
    stay answerable whatever the others do.
    """

    model_config = ConfigDict(extra="forbid")

    hosts: list[str] = Field(
        default_factory=list,
        description="more names the kiosk answers to (a DNS name, a forwarded address);"
        " besides localhost, 127.0.0.1, [::1] and, with lan, the machine's name and addresses",
    )
    max_connections: int = Field(
        128, ge=1, le=100_000, description="open connections from other devices; beyond, 503"
    )
    max_viewers: int = Field(
        64, ge=0, le=100_000, description="live streams open to other devices; beyond, 503"
    )
    header_timeout_s: float = Field(
        10.0, gt=0, le=300, description="time for a request to arrive whole; beyond, 408"
    )
    keep_alive_s: int = Field(
        5, ge=1, le=300, description="an idle connection is closed after this many seconds"
    )
    heavy_requests: int = Field(
        2, ge=1, le=32, description="camera readings and sticker sheets drawn at once; beyond, 503"
    )


class SpeechSettings(BaseModel):
    """Spoken announcements (``kiosk.speech``): what is spoken, and where to."""

    model_config = ConfigDict(extra="forbid")

    level: Literal["off", "phases", "turns", "all"] | None = Field(
        None,
        description="off; phases (each phase and the game's end); turns (phases and whose turn);"
        " all (also steps and refusals); default: off, but the embedded simulation speaks"
        " phases and turns",
    )
    output: Literal["auto", "audio", "files"] = Field(
        "auto",
        description="audio: the audio out; files: one WAV file a line in folder; auto: the audio"
        " out, except the simulation's own speech off a Raspberry Pi, which writes files",
    )
    folder: Path | None = Field(
        None, description="where the WAV files go (default: speech/ in the data folder)"
    )
    keep: int = Field(200, ge=1, le=100_000, description="WAV files kept; older ones are deleted")


class Settings(BaseSettings):
    """Every setting of tablesight, validated; one instance is made at start."""

    model_config = SettingsConfigDict(
        env_prefix="TABLESIGHT_",
        env_nested_delimiter="__",
        extra="forbid",
        validate_default=True,
    )

    host: str = Field("127.0.0.1", description="address the kiosk binds; 127.0.0.1 by default")
    port: int = Field(8000, ge=1, le=65535, description="port of the kiosk")
    lang: Language = Field("zh", description="language of the messages on the kiosk: zh or en")
    data_dir: Path = Field(default_factory=default_data_dir, description="saves and calibration")
    game: str = Field("greenwood", description="game started when no saved game exists")
    save: str | None = Field(None, description="name of the saved game to use (default: latest)")
    lan: bool = Field(False, description="serve read-only pages to the network (binds 0.0.0.0)")
    pairing_code: str | None = Field(
        None, pattern=r"^[0-9]{6}$", description="fixed pairing code (default: a new one per start)"
    )
    brightness: int = Field(60, ge=0, le=100, description="LED brightness in percent")
    sound: bool = Field(True, description="buzzer on")
    controller: str | None = Field(
        None,
        description="serial port URL of the LED controller (/dev/tablesight-leds, socket://…);"
        " default: a Pico found under /dev/serial/by-id, else the emulated controller",
    )
    simulation: bool | None = Field(
        None,
        description="play the scripted session of the game on the synthetic table; default:"
        " when the camera is the synthetic one",
    )
    speed: float = Field(1.0, ge=0, le=100, description="simulation speed (0: as fast as it can)")
    repeat: bool = Field(False, description="start the scripted session again when it ends")
    gpio: GpioSettings = Field(default_factory=GpioSettings)
    camera: CameraSettings = Field(default_factory=CameraSettings)
    stabiliser: StabiliserConfig = Field(default_factory=StabiliserConfig)
    detector: DetectorConfig = Field(default_factory=DetectorConfig)
    http: HttpSettings = Field(default_factory=HttpSettings)
    mqtt: MqttSettings = Field(default_factory=MqttSettings)
    speech: SpeechSettings = Field(default_factory=SpeechSettings)

    @field_validator("game")
    @classmethod
    def _known_game(cls, name: str) -> str:
        """One of the registered games, by its own name (``Dont-Starve`` is ``dont_starve``)."""
        from engine.core import UnknownGameError, find_game

        try:
            return find_game(name).name
        except UnknownGameError as exc:
            raise ValueError(str(exc)) from None

    @property
    def bind_host(self) -> str:
        """The address to listen on: ``host``, or every address with ``--lan`` (an empty
        ``host`` is every address too; ``kiosk.rig.serve`` refuses it without ``--lan``)."""
        if self.lan and self.host.strip() in ("127.0.0.1", ""):
            return "0.0.0.0"
        return self.host.strip() or "0.0.0.0"

    @property
    def database(self) -> Path:
        """The SQLite file that holds the saved games."""
        return self.data_dir / "games.sqlite"

    @property
    def calibration_file(self) -> Path:
        """The camera-to-table calibration (``tablesight calibrate``, the calibrate page)."""
        return self.data_dir / "calibration.json"

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Flags (init), then the environment, then the TOML file (``toml_file`` in the config)."""
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        if settings_cls.model_config.get("toml_file"):
            sources.append(TomlConfigSettingsSource(settings_cls))
        return tuple(sources)


def load_settings(config: Path | None = None, **flags: Any) -> Settings:
    """Build the settings; ``flags`` whose value is None are left to the other sources.

    Raises SettingsError with a readable message: one line for one problem, naming the flag, the
    environment variable or the settings file it came from; one line per problem for several.
    """
    path = config or _env_path("TABLESIGHT_CONFIG")
    if path is not None and not path.is_file():
        named = "" if config else "TABLESIGHT_CONFIG: "
        raise SettingsError(f"{named}settings file {path} does not exist")
    if path is None and default_config_file().is_file():
        path = default_config_file()
    cls: type[Settings] = Settings
    if path is not None:
        config_with_file = SettingsConfigDict(**{**Settings.model_config, "toml_file": path})
        cls = type("Settings", (Settings,), {"model_config": config_with_file})
    where = f"settings file {path}" if path else "settings"
    settings: Settings | None = None
    problems: list[str] = []
    try:
        settings = cls(**{k: v for k, v in flags.items() if v is not None})
    except ValidationError as exc:
        problems = [_problem(err, flags, where) for err in exc.errors()]
    except (OSError, ValueError) as exc:  # a TOML syntax error is a ValueError
        raise SettingsError(_unreadable(exc) or f"{where}: {exc}") from None
    problems += [p for p in _environment_problems() if p not in problems]
    if len(problems) == 1:
        raise SettingsError(problems[0])
    if problems:
        lines = [f"{where}: {len(problems)} problem(s)"]
        lines += [f"  {p.removeprefix(where + ': ')}" for p in problems]
        raise SettingsError("\n".join(lines))
    assert settings is not None
    return settings


class _FromEnvironment(Settings):
    """The settings from the ``TABLESIGHT_*`` variables alone: each is checked even where a
    flag overrides it (a variable out of range is refused, not silently unused)."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The environment only."""
        return (env_settings,)


def _environment_problems() -> list[str]:
    """One line per ``TABLESIGHT_*`` variable that holds a value the settings refuse."""
    if not any(name.startswith("TABLESIGHT_") for name in os.environ):
        return []
    try:
        _FromEnvironment()
    except ValidationError as exc:
        return [_problem(err, {}, "environment") for err in exc.errors()]
    except ValueError as exc:  # a variable whose JSON cannot be read
        return [_unreadable(exc) or f"environment: {exc}"]
    return []


def _unreadable(exc: Exception) -> str | None:
    """The line for a ``TABLESIGHT_*`` variable of a list or a section that is not JSON
    (pydantic-settings: ``error parsing value for field "http" from source "EnvSettingsSource"``),
    naming the variables; None for another error."""
    found = re.search(r'field "(\w+)" from source "EnvSettingsSource"', str(exc))
    if found is None:
        return None
    prefix = f"TABLESIGHT_{found.group(1).upper()}"
    names = sorted(n for n in os.environ if n == prefix or n.startswith(prefix + "__"))
    return (
        f"{', '.join(names) or prefix}: cannot be read; valid: a list or a section written in"
        " JSON (e.g. TABLESIGHT_HTTP__HOSTS='[\"table.lan\"]')"
    )


def _valid(loc: list[str]) -> str | None:
    """What a number or true/false setting takes, in words ("a whole number from 1 to
    65535"); None for other settings (their message says it) or an unknown one."""
    model: Any = Settings
    field = None
    for part in loc:
        fields = getattr(model, "model_fields", None)
        if not isinstance(fields, dict) or part not in fields:
            return None
        field = fields[part]
        model = _unwrapped(field.annotation)
    if field is None:
        return None
    kind = _unwrapped(field.annotation)
    if kind is bool:
        return "true or false"
    if kind not in (int, float):
        return None
    words = "a whole number" if kind is int else "a number"
    limits = {type(m).__name__: m for m in field.metadata}
    low = (f"from {limits['Ge'].ge}" if "Ge" in limits else "") or (
        f"above {limits['Gt'].gt}" if "Gt" in limits else ""
    )
    high = (f"to {limits['Le'].le}" if "Le" in limits else "") or (
        f"below {limits['Lt'].lt}" if "Lt" in limits else ""
    )
    if low and high:
        return f"{words} {low} {high}"
    if low:
        return f"{words} {low} up" if low.startswith("from") else f"{words} {low}"
    return f"{words} up {high}" if high else words


def _unwrapped(annotation: Any) -> Any:
    """``int`` for ``int | None``; the annotation itself otherwise."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        return args[0]
    return annotation


KIOSK_FILE = "kiosk-settings.json"
"""Where the settings page keeps its changes, in the data folder."""
LAST_GOOD_SUFFIX = ".last-good"
"""``kiosk-settings.json.last-good``: the file as it was before its last change (used when the
file itself is found damaged at start)."""
LOCK_SUFFIX = ".lock"
"""``kiosk-settings.json.lock``: the file lock every writer takes (``fcntl.flock``): two kiosk
processes, or a café's, may share one data folder. It is never deleted."""
DAMAGED_INFIX = ".damaged-"
"""A damaged settings file is renamed ``kiosk-settings.json.damaged-<UTC time>``, untouched (as
the saves are: ``kiosk.store.set_aside``)."""
LOCK_WAIT_S = 5.0
"""How long a change waits for another writer before it is refused (a write takes milliseconds)."""

_TEMP_PREFIX = f".{KIOSK_FILE}."
_TEMP_SUFFIX = ".tmp"
_WRITER = threading.Lock()
"""One writer at a time in this process (the file lock serialises processes, not threads)."""

SETTING_NAMES: dict[str, Text] = {
    "lang": Text("语言", "the language"),
    "brightness": Text("亮度", "the brightness"),
    "sound": Text("声音", "the sound"),
    "add_ms": Text("出现多久才算放下", "how long a piece is seen before it counts as placed"),
    "remove_ms": Text("消失多久才算拿走", "how long a piece is gone before it counts as removed"),
}
"""The kiosk's saved settings as the settings page names them, for the players."""

SETTINGS_BUSY = Text(
    "另一块屏幕正在修改设置:这次修改没有生效,请再试一次",
    "another screen is changing the settings right now: this change was not made, try again",
)


class SettingsBusyError(OSError):
    """Another writer held the settings for longer than ``LOCK_WAIT_S``: nothing was changed."""


class KioskChanges(BaseModel):
    """What the settings page may change; kept in ``KIOSK_FILE`` for the next start."""

    model_config = ConfigDict(extra="forbid")

    lang: Language | None = None
    brightness: int | None = Field(None, ge=0, le=100)
    sound: bool | None = None
    add_ms: float | None = Field(None, ge=0, le=10_000)
    remove_ms: float | None = Field(None, ge=0, le=60_000)


@contextlib.contextmanager
def _one_writer(folder: Path, *, create: bool = True) -> Iterator[None]:
    """Hold the settings of ``folder``: this process's lock, then the lock file's ``flock``.
    SettingsBusyError after ``LOCK_WAIT_S``; OSError if the lock file cannot be opened (with
    ``create`` False, a folder that cannot be written is read without the file lock)."""
    if not _WRITER.acquire(timeout=LOCK_WAIT_S):
        raise SettingsBusyError(errno.EBUSY, SETTINGS_BUSY.en)
    try:
        lock_file = folder / (KIOSK_FILE + LOCK_SUFFIX)
        try:
            if create:
                folder.mkdir(parents=True, exist_ok=True)
            fd = _flock(lock_file, LOCK_WAIT_S)
        except OSError:
            if create or not folder.is_dir() or os.access(folder, os.W_OK):
                raise
            yield  # a read-only data folder: nobody writes there, reading needs no lock
            return
        try:
            _remove_leftovers(folder)
            yield
        finally:
            os.close(fd)  # releases the flock
    finally:
        _WRITER.release()


def _flock(path: Path, wait: float) -> int:
    """Open ``path`` and take its exclusive ``flock``, waiting at most ``wait`` seconds; returns
    the descriptor holding it. SettingsBusyError when it stays taken; OSError if ``path`` cannot
    be opened.

    The waiting is a blocking ``flock`` in a helper thread, so that the kernel wakes this writer
    as soon as the lock is free (polling loses to a writer that takes it again at once); if the
    wait ends first, the helper lets go of the lock as soon as it gets it."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return fd
    except BlockingIOError:
        pass
    except BaseException:
        os.close(fd)
        raise
    taken, gave_up, ended = threading.Event(), threading.Event(), threading.Event()
    guard = threading.Lock()

    def take() -> None:
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_EX)
            taken.set()
        with guard:
            ended.set()
            if gave_up.is_set():
                os.close(fd)

    threading.Thread(target=take, name="settings-lock", daemon=True).start()
    if taken.wait(wait):
        return fd
    with guard:
        if taken.is_set():  # it came just now
            return fd
        if ended.is_set():  # the helper failed: nobody holds the descriptor
            os.close(fd)
        gave_up.set()  # the helper closes the descriptor (and so the lock) when it gets it
    raise SettingsBusyError(errno.EBUSY, SETTINGS_BUSY.en)


def _remove_leftovers(folder: Path) -> None:
    """Delete the temporary files of writers that died mid-write (a kill, a power cut): with
    the lock held, no temporary file is anyone's."""
    for stale in folder.glob(f"{_TEMP_PREFIX}*{_TEMP_SUFFIX}"):
        with contextlib.suppress(OSError):
            stale.unlink()


def _read_changes(path: Path) -> KioskChanges | None:
    """The changes kept in ``path``; None if it is missing; ValueError if it is damaged."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    return KioskChanges.model_validate_json(raw)


def save_kiosk_changes(settings: Settings, changes: KioskChanges | None = None) -> KioskChanges:
    """Make ``changes`` (default: all five values of ``settings``) in ``settings`` and keep
    them in the data folder, one writer at a time; returns the five values now in effect.

    The file's other values (another kiosk process's changes) are kept. Before the file is
    replaced its last good content is copied to ``LAST_GOOD_SUFFIX``. SettingsBusyError
    (nothing changed) when another writer holds it too long; any other OSError (a full disk, a
    read-only folder) after the change was made in ``settings`` but not kept."""
    if changes is None:
        changes = current_changes(settings)
    path = settings.data_dir / KIOSK_FILE
    try:
        with _one_writer(settings.data_dir):
            _apply(settings, changes)
            now = current_changes(settings)
            try:
                kept = _read_changes(path)
            except (OSError, ValueError):
                kept = None  # damaged: replaced by this change (a start sets damage aside)
            update = changes.model_dump(exclude_none=True)
            merged = (kept or KioskChanges()).model_copy(update=update)
            if kept is not None and kept != merged:
                last_good = path.with_name(KIOSK_FILE + LAST_GOOD_SUFFIX)
                write_atomically(last_good, _dumped(kept), _TEMP_SUFFIX)
            if kept != merged:
                write_atomically(path, _dumped(merged), _TEMP_SUFFIX)
    except SettingsBusyError:
        raise
    except OSError:  # the folder cannot be written (read-only, full): it applies until a restart
        with _WRITER:
            _apply(settings, changes)
        raise
    return now


def current_changes(settings: Settings) -> KioskChanges:
    """The five values the settings page may change, as they are in ``settings``."""
    return KioskChanges(
        lang=settings.lang,
        brightness=settings.brightness,
        sound=settings.sound,
        add_ms=settings.stabiliser.add_ms,
        remove_ms=settings.stabiliser.remove_ms,
    )


def _dumped(changes: KioskChanges) -> bytes:
    return (changes.model_dump_json(indent=2, exclude_none=True) + "\n").encode()


def _apply(
    settings: Settings, changes: KioskChanges, given: AbstractSet[str] = frozenset()
) -> None:
    """Set ``changes`` in ``settings`` except the keys in ``given``; ValueError (nothing
    changed) if the stability timing is refused by the stabiliser."""
    stability = {k: v for k in ("add_ms", "remove_ms") if (v := getattr(changes, k)) is not None}
    stabiliser = dataclasses.replace(settings.stabiliser, **stability)
    for key in ("lang", "brightness", "sound"):
        value = getattr(changes, key)
        if value is not None and key not in given:
            setattr(settings, key, value)
    if "stabiliser" not in given:
        settings.stabiliser = stabiliser


def apply_kiosk_changes(settings: Settings, given: AbstractSet[str] = frozenset()) -> Text | None:
    """Apply the settings page's saved values, except the keys in ``given`` (set by a flag or
    an environment variable, which win). Returns a notice for the players, or None.

    A damaged file is renamed aside (``DAMAGED_INFIX``), untouched; the last good copy is used
    (and written back as the file), and the notice names the settings lost, in player words.
    Temporary files left by a writer that died are removed."""
    given = set(given) | {k for k in ("lang", "brightness", "sound") if _from_env(k)}
    path = settings.data_dir / KIOSK_FILE
    if not path.exists() and not any(settings.data_dir.glob(f"{_TEMP_PREFIX}*")):
        return None
    try:
        with _one_writer(settings.data_dir, create=False):
            return _load(settings, given, path)
    except SettingsBusyError:  # another writer, for long: the file is whole (renamed in place)
        return _load(settings, given, path)


def _load(settings: Settings, given: AbstractSet[str], path: Path) -> Text | None:
    """``apply_kiosk_changes`` once the writers are held."""
    if not path.exists():
        return None
    try:
        changes = _read_changes(path)
        notice = None
    except (OSError, ValueError) as exc:
        changes, notice = _recover(path, exc)
    if changes is not None:
        try:
            _apply(settings, changes, given)
        except ValueError:
            notice = _lost_notice(set(SETTING_NAMES), restored=False)
    return notice


def _from_env(key: str) -> bool:
    return f"TABLESIGHT_{key.upper()}" in os.environ


def _recover(path: Path, problem: Exception) -> tuple[KioskChanges | None, Text]:
    """A damaged settings file: set it aside, take the last good copy (written back as the
    file); returns the changes to use and the notice naming what was lost."""
    raw = b""
    with contextlib.suppress(OSError):
        raw = path.read_bytes()
    last_good = path.with_name(KIOSK_FILE + LAST_GOOD_SUFFIX)
    try:
        last = _read_changes(last_good)
    except (OSError, ValueError):
        last = None
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    with contextlib.suppress(OSError):
        os.replace(path, path.with_name(f"{KIOSK_FILE}{DAMAGED_INFIX}{stamp}"))
        if last is not None:
            write_atomically(path, _dumped(last), _TEMP_SUFFIX)
        else:
            fsync_folder(path.parent)
    log.warning("%s is damaged (%s); set aside", path, str(problem).splitlines()[0])
    try:
        damaged = json.loads(raw)
    except ValueError:
        damaged = None
    before = (last or KioskChanges()).model_dump()
    if isinstance(damaged, dict):
        lost = {k for k in SETTING_NAMES if k in damaged and damaged[k] != before[k]}
        if lost:
            return last, _lost_notice(lost, restored=last is not None)
    kept = {k for k, v in before.items() if v is not None}
    return last, _lost_notice(set(), restored=last is not None, unreadable=kept)


def _lost_notice(
    lost: AbstractSet[str], *, restored: bool, unreadable: AbstractSet[str] = frozenset()
) -> Text:
    """What the players read when the saved settings were damaged: which were lost, and what
    is used instead (the last good settings, or the defaults)."""
    if lost:
        names = _names(lost)
        if restored:
            return Text(
                f"看板保存的设置已损坏:{names.zh}的最新选择丢失了,已恢复为上一次完好的设置",
                f"the kiosk's saved settings were damaged: the latest choice of {names.en} was"
                " lost, and the last good settings are used instead",
            )
        return Text(
            f"看板保存的设置已损坏:{names.zh}的选择丢失了,已恢复为默认值",
            f"the kiosk's saved settings were damaged: the choice of {names.en} was lost, and"
            " the defaults are used instead",
        )
    if restored and unreadable:
        names = _names(unreadable)
        return Text(
            f"看板保存的设置已损坏:最后一次修改丢失了,{names.zh}恢复为修改之前的样子",
            "the kiosk's saved settings were damaged: the last change was lost, and the last"
            f" good settings are used for {names.en}",
        )
    return Text(
        "看板保存的设置已损坏:在看板上选过的设置(语言、亮度、声音、识别时间)都丢失了,已恢复为默认值",
        "the kiosk's saved settings were damaged: every setting chosen on the kiosk (language,"
        " brightness, sound, recognition timing) was lost, and the defaults are used instead",
    )


def _names(keys: AbstractSet[str]) -> Text:
    """Settings named for the players, in the settings page's order: "“A”、“B”和“C”",
    "A, B and C"."""
    ordered = [SETTING_NAMES[k] for k in SETTING_NAMES if k in keys]
    zh = [f"“{t.zh}”" for t in ordered]
    en = [t.en for t in ordered]
    if len(ordered) == 1:
        return Text(zh[0], en[0])
    return Text("、".join(zh[:-1]) + "和" + zh[-1], ", ".join(en[:-1]) + " and " + en[-1])


#: Settings an older tablesight knew, with what replaced them.
_RENAMED: dict[tuple[str, ...], str] = {
    ("detector", "sharpening"): (
        "use detector.quad_sigma (AprilTag's own: 1.0 blurs, the default; -1.0 sharpens as "
        "sharpening = 1.0 did)"
    ),
}


def _problem(err: Any, flags: dict[str, Any], where: str) -> str:
    """One problem of a ValidationError, named as the user gave it: ``--port: …``,
    ``TABLESIGHT_CAMERA__FPS: …`` or ``settings file F: camera.fps: …``."""
    loc = [str(p) for p in err["loc"]]
    message = str(err["msg"]).removeprefix("Value error, ")
    if tuple(loc) in _RENAMED:
        message = f"no longer a setting: {_RENAMED[tuple(loc)]}"
    elif "input" in err and err["type"] != "value_error" and not isinstance(err["input"], dict):
        message += f" (not {err['input']!r})"
        if (valid := _valid(loc)) is not None:
            message += f"; valid: {valid}"
    if loc and flags.get(loc[0]) is not None:
        return f"{'.'.join(loc)}: {message}"
    variable = "TABLESIGHT_" + "__".join(loc).upper()
    if loc and variable in os.environ:
        return f"{variable}: {message}"
    return f"{where}: {'.'.join(loc) or '(file)'}: {message}"


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None
