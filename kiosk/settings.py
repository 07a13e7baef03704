"""Settings of the running service, from defaults, a TOML file, the environment and flags.

Precedence, highest first: command-line flags, ``TABLESIGHT_*`` environment variables, what was
last saved from the kiosk's settings page (``tablesight run`` only: language, brightness, sound,
stability timing), the TOML file (``--config FILE``, else ``TABLESIGHT_CONFIG``, else
``tablesight.toml`` in the user's config folder when it exists), then the defaults below.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Set as AbstractSet
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

from engine.core.text import Language
from vision.detection import DetectorConfig
from vision.sources import SourceConfig
from vision.stabiliser import StabiliserConfig

APP_NAME = "tablesight"


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
        raise SettingsError(f"settings file {path} does not exist")
    if path is None and default_config_file().is_file():
        path = default_config_file()
    cls: type[Settings] = Settings
    if path is not None:
        config_with_file = SettingsConfigDict(**{**Settings.model_config, "toml_file": path})
        cls = type("Settings", (Settings,), {"model_config": config_with_file})
    where = f"settings file {path}" if path else "settings"
    try:
        return cls(**{k: v for k, v in flags.items() if v is not None})
    except ValidationError as exc:
        problems = [_problem(err, flags, where) for err in exc.errors()]
        if len(problems) == 1:
            raise SettingsError(problems[0]) from None
        lines = [f"{where}: {len(problems)} problem(s)"]
        lines += [f"  {p.removeprefix(where + ': ')}" for p in problems]
        raise SettingsError("\n".join(lines)) from None
    except (OSError, ValueError) as exc:  # a TOML syntax error is a ValueError
        raise SettingsError(f"{where}: {exc}") from None


KIOSK_FILE = "kiosk-settings.json"
"""Where the settings page keeps its changes, in the data folder."""


class KioskChanges(BaseModel):
    """What the settings page may change; kept in ``KIOSK_FILE`` for the next start."""

    model_config = ConfigDict(extra="forbid")

    lang: Language | None = None
    brightness: int | None = Field(None, ge=0, le=100)
    sound: bool | None = None
    add_ms: float | None = Field(None, ge=0, le=10_000)
    remove_ms: float | None = Field(None, ge=0, le=60_000)


def save_kiosk_changes(settings: Settings) -> Path:
    """Write the settings page's values to the data folder (atomically); returns the file."""
    changes = KioskChanges(
        lang=settings.lang,
        brightness=settings.brightness,
        sound=settings.sound,
        add_ms=settings.stabiliser.add_ms,
        remove_ms=settings.stabiliser.remove_ms,
    )
    path = settings.data_dir / KIOSK_FILE
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(changes.model_dump_json(indent=2) + "\n", encoding="utf-8")
    os.replace(temporary, path)
    return path


def apply_kiosk_changes(settings: Settings, given: AbstractSet[str] = frozenset()) -> str | None:
    """Apply the settings page's saved values, except the keys in ``given`` (set by a flag or
    an environment variable, which win). Returns a problem to tell the user, or None."""
    path = settings.data_dir / KIOSK_FILE
    if not path.is_file():
        return None
    try:
        changes = KioskChanges.model_validate_json(path.read_text(encoding="utf-8"))
        stability = {
            k: v for k in ("add_ms", "remove_ms") if (v := getattr(changes, k)) is not None
        }
        stabiliser = dataclasses.replace(settings.stabiliser, **stability)
    except (OSError, ValueError) as exc:
        first = str(exc).splitlines()[0]
        return f"the settings saved from the kiosk ({path}) were not used: {first}"
    for key in ("lang", "brightness", "sound"):
        value = getattr(changes, key)
        if value is not None and key not in given and f"TABLESIGHT_{key.upper()}" not in os.environ:
            setattr(settings, key, value)
    if "stabiliser" not in given:
        settings.stabiliser = stabiliser
    return None


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
    if loc and flags.get(loc[0]) is not None:
        return f"{'.'.join(loc)}: {message}"
    variable = "TABLESIGHT_" + "__".join(loc).upper()
    if loc and variable in os.environ:
        return f"{variable}: {message}"
    return f"{where}: {'.'.join(loc) or '(file)'}: {message}"


def _env_path(name: str) -> Path | None:
    value = os.environ.get(name)
    return Path(value) if value else None
