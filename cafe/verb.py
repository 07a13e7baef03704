"""`tablesight cafe`: the overview of a café's tables, from their MQTT broker, on one page.

Every table that runs `tablesight run --mqtt URL --table NAME` appears as a tile: its game,
round, phase and whose turn, and its alerts (a refused move waiting, the camera or the LED
controller lost, the table offline, a game ended with its winner). Tables of several sites
(`--site SITE`, their brokers bridged to this one) are grouped by site. The results of ended
games download as CSV or JSON. The tables it has heard from are remembered in the data folder,
so after a restart they keep their tiles whatever else the broker kept; on a broker that
anyone can write to, it says so at start and suggests the broker accounts of docs/mqtt.md.

The café offers its box to every table (--box PATH, one per game: a folder or a zip that
`tablesight box GAME export PATH` wrote at one table): checked as `tablesight box GAME import`
checks it (one line per problem naming the file and the entry; exit status 2 and nothing
changed), kept in the café's box folder (<data-dir>/cafe) and, from then on, offered at every
start; each table takes it for its new games.

The work is in ``cafe``, imported when the verb runs (``--help`` stays fast).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from cafe.overview import Overview
    from kiosk.settings import Settings

DEFAULT_PORT = 8080


SUMMARY = "serve the overview of a café's tables from an MQTT broker"
"""This verb's line in ``tablesight --help`` (a plugin of ``kiosk.commands``)."""


def register(sub: argparse._SubParsersAction) -> None:
    """Add the `cafe` verb."""
    parser = sub.add_parser(
        "cafe",
        help=SUMMARY,
        description=__doc__.split("\n\nThe work is in", 1)[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(  # also after the verb; given before it, not undone (SUPPRESS)
        "--lang",
        choices=["zh", "en"],
        default=argparse.SUPPRESS,
        help="language of the page and the start-up lines (default: the settings', else zh)",
    )
    parser.add_argument(
        "--mqtt",
        metavar="URL",
        help="the café's broker: mqtt://HOST[:PORT] or mqtts://… (default: mqtt.url of the"
        " settings)",
    )
    parser.add_argument("--host", help="address to bind (default 127.0.0.1)")
    parser.add_argument(
        "--port", type=int, help=f"port of the overview page (default {DEFAULT_PORT})"
    )
    parser.add_argument(
        "--lan",
        action="store_true",
        help="serve the page to the network (staff screens, phones); it is read-only",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="after the broker comes back, how long a table has to report before its tile says"
        " offline (default 30: a table retries the broker at most 16 s apart)",
    )
    parser.add_argument(
        "--max-payload",
        type=int,
        default=16 * 1024,
        metavar="BYTES",
        help="the longest message read from the broker; a longer one is dropped unread"
        " (default 16384: a table's state summary is under 2 KiB)",
    )
    parser.add_argument(
        "--max-tables",
        type=int,
        default=200,
        metavar="N",
        help="how many tables the overview shows; messages of more are dropped, and the tables"
        " heard before keep their places (default 200)",
    )
    parser.add_argument(
        "--max-results",
        type=int,
        default=2000,
        metavar="N",
        help="how many results of ended games are kept for the CSV; beyond them the oldest go"
        " (default 2000)",
    )
    parser.add_argument(
        "--box",
        action="append",
        type=Path,
        default=[],
        metavar="PATH",
        help="a box exported by one table (a folder or a zip; once per game): the café's box"
        " of that game, offered to every table for its new games",
    )
    parser.set_defaults(
        handler=cafe,
        setting_flags=lambda a: {"mqtt": {"url": a.mqtt} if a.mqtt else None},
    )


def cafe(args: argparse.Namespace, settings: Settings) -> int:
    """Serve the overview until Ctrl-C."""
    import signal
    import socket
    import sys
    import threading

    from kiosk.errors import CommandError

    if not settings.mqtt.url:
        raise CommandError("no broker: give --mqtt mqtt://HOST[:PORT] (or mqtt.url in settings)")
    if args.box and _import_boxes(args.box, settings) != 0:
        return 2
    port = args.port if args.port is not None else DEFAULT_PORT
    if not 1 <= port <= 65535:
        raise CommandError(f"--port: {port} is not a port (1–65535)")
    host = args.host or ("0.0.0.0" if args.lan else "127.0.0.1")
    with socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise CommandError(
                f"cannot listen on {host}:{port} ({exc.strerror}); choose another port with --port"
            ) from None

    from cafe.overview import Limits, Overview, create_app
    from kiosk.stop_signals import serve

    if not 0 < args.grace <= 3600:
        raise CommandError(f"--grace: {args.grace} is not between 0 and 3600 seconds")
    for flag, value, low, high in (
        ("--max-payload", args.max_payload, 1024, 16 * 1024 * 1024),
        ("--max-tables", args.max_tables, 1, 100_000),
        ("--max-results", args.max_results, 1, 1_000_000),
    ):
        if not low <= value <= high:
            raise CommandError(f"{flag}: {value} is not between {low:,} and {high:,}")
    limits = Limits(payload=args.max_payload, tables=args.max_tables, results=args.max_results)
    from cafe.site_box import offered

    boxes = offered(settings.data_dir)
    overview = Overview(
        settings.mqtt, settings.data_dir, grace=args.grace, limits=limits, boxes=boxes
    )
    app = create_app(overview, settings.lang)
    overview.start()
    where = f"http://{'<this machine>' if host == '0.0.0.0' else host}:{port}/"
    lines = {
        "zh": f"咖啡馆总览在 {where}(按 Ctrl-C 停止);MQTT 服务器 {overview.address}",
        "en": f"café overview on {where} (Ctrl-C to stop); MQTT broker {overview.address}",
    }
    print(f"tablesight: {lines[settings.lang]}", file=sys.stderr, flush=True)
    if (damaged := _known_line(overview, settings.lang)) is not None:
        print(f"tablesight: {damaged}", file=sys.stderr, flush=True)
    threading.Thread(
        target=_probe, args=(overview, settings), name="cafe-probe", daemon=True
    ).start()
    if boxes:
        games = ", ".join(boxes)
        offer = {
            "zh": f"向各桌提供咖啡馆的盒子:{games}",
            "en": f"offering the café's box to every table: {games}",
        }
        print(f"tablesight: {offer[settings.lang]}", file=sys.stderr, flush=True)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        # A stop ends the pages' open streams first (kiosk.stop_signals.serve).
        serve(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=2)
    finally:
        overview.stop()
    stopped = {"zh": "咖啡馆总览已停止", "en": "café overview stopped"}
    print(f"tablesight: {stopped[settings.lang]}", file=sys.stderr, flush=True)
    return 0


def _known_line(overview: Overview, lang: str) -> str | None:
    """The line saying the file of known tables was damaged, or None when it was not."""
    loaded = overview.known_loaded
    if not loaded.lost or loaded.aside is None:
        return None
    kept, aside = len(loaded.tables), loaded.aside
    if loaded.lost < 0:
        zh = f"已知桌台的记录无法读取({loaded.reason}),已另存为 {aside};现在没有已知桌台"
        en = (
            f"the record of known tables could not be read ({loaded.reason}); kept aside as"
            f" {aside}; starting with no known table"
        )
    else:
        zh = (
            f"已知桌台的记录中有 {loaded.lost} 条无法读取({loaded.reason}),已另存为 {aside};"
            f"保留其余 {kept} 张已知桌台"
        )
        en = (
            f"{loaded.lost} entr{'y' if loaded.lost == 1 else 'ies'} of the record of known"
            f" tables could not be read ({loaded.reason}); kept aside as {aside}; starting"
            f" with the {kept} other known table(s)"
        )
    return zh if lang == "zh" else en


def _probe(overview: Overview, settings: Settings) -> None:
    """Probe the broker for anonymous writes; suggest the broker accounts when it allows
    them (one line, in the café's language)."""
    import sys

    from cafe.probe import SUGGESTION, anonymous_writes

    overview.anonymous_writes = anonymous_writes(overview.address, settings.mqtt)
    if overview.anonymous_writes:
        print(f"tablesight: {SUGGESTION[settings.lang]}", file=sys.stderr, flush=True)


def _import_boxes(paths: list[Path], settings: Settings) -> int:
    """Take each box into the café's box folder; 2 (one line per problem, nothing changed)
    when any is wrong."""
    import sys

    from cafe.site_box import cafe_folder, import_boxes
    from engine.core.box import BoxError
    from kiosk.errors import CommandError

    try:
        taken = import_boxes(settings.data_dir, paths)
    except BoxError as exc:
        what = "盒子有问题,未做任何改动" if settings.lang == "zh" else "nothing changed"
        print(f"tablesight cafe: {len(exc.problems)} problem(s), {what}:", file=sys.stderr)
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return 2
    except OSError as exc:
        raise CommandError(f"{exc.filename or 'the box'}: {exc.strerror or exc}") from None
    for each in taken:
        title = each.game.title.in_(settings.lang)
        line = (
            f"{each.path}:咖啡馆的盒子《{title}》录入了{each.items}项"
            if settings.lang == "zh"
            else f"{each.path}: the café's box of {title}: took {each.items} item(s)"
        )
        print(f"tablesight: {line} ({cafe_folder(settings.data_dir)})", file=sys.stderr)
    return 0
