"""`tablesight box GAME show | export PATH | import PATH | reset`: the owner's box of a game.

The box is the game's printed content the rules judge with (boards, piece shapes, layouts,
cards, tables). Out of the package comes a demo box of invented values; the owner's items,
kept in the data folder (--data-dir), replace them item by item. Every new game, replay and
scan is judged with the data folder's box; a saved game keeps the box it was started with.

  show           each kind of printed item: how many are yours, how many the demo's
  export PATH    the box as played, as the game's data files: a folder, or PATH.zip
  import PATH    a folder (or a zip of one) of any of the game's data files
                 (engine/<game>/data/*.toml, the same tables and keys): checked whole first,
                 one line per problem naming the file and the entry (exit 2, nothing changed);
                 then its items replace yours and the demo's
  reset          forget your items: the demo box again
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from kiosk.commands import VERBS
from kiosk.errors import CommandError

if TYPE_CHECKING:
    from engine.core.text import Language
    from kiosk.settings import Settings

ACTIONS = ("show", "export", "import", "reset")


def register(sub: Any) -> None:
    """Add the `box` verb."""
    parser = sub.add_parser(
        "box",
        help=VERBS["box"],
        description=__doc__.split("\n\n", 1)[1],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("game", metavar="GAME", help="greenwood, dont_starve or stonesaga")
    parser.add_argument("action", choices=ACTIONS, metavar="ACTION", help=" | ".join(ACTIONS))
    parser.add_argument("path", nargs="?", type=Path, metavar="PATH", help="for export, import")
    parser.add_argument(  # a dest of its own: `tablesight --lang zh box …` still counts
        "--lang", dest="text_lang", choices=("zh", "en"), help="the language (default: the kiosk's)"
    )
    parser.set_defaults(handler=box)


def box(args: argparse.Namespace, settings: Settings) -> int:
    """Run one action on the game's box; returns the exit status."""
    from engine.core import EngineError, find_game
    from engine.core.box import BoxError
    from kiosk import boxes

    try:
        game = find_game(args.game)
    except EngineError as exc:
        raise CommandError(str(exc)) from None
    lang = args.text_lang or settings.lang
    if args.action in ("export", "import") and args.path is None:
        raise CommandError(f"box {args.action} needs a PATH")
    if args.action not in ("export", "import") and args.path is not None:
        raise CommandError(f"box {args.action} takes no PATH")
    data_dir = settings.data_dir
    try:
        if args.action == "show":
            print(_show(game, boxes.current_box(data_dir, game), lang))
        elif args.action == "export":
            written = boxes.export_box(data_dir, game, args.path)
            print(f"{args.path}: {', '.join(written)}")
        elif args.action == "import":
            taken = boxes.import_box(data_dir, game, args.path)
            print(_took(len(taken), lang))
            print(_show(game, boxes.current_box(data_dir, game), lang))
        else:
            count = boxes.reset_box(data_dir, game)
            print(
                f"忘掉了你的{count}项,现在用演示盒"
                if lang == "zh"
                else f"forgot your {count} item(s): the demo box again"
            )
    except BoxError as exc:
        what = "盒子有问题,未做任何改动" if lang == "zh" else "nothing changed"
        print(f"tablesight box: {len(exc.problems)} problem(s), {what}:", file=sys.stderr)
        for problem in exc.problems:
            print(f"  {problem}", file=sys.stderr)
        return 2
    except OSError as exc:
        raise CommandError(f"{exc.filename or args.path}: {exc.strerror or exc}") from None
    return 0


def _took(count: int, lang: str) -> str:
    return f"录入了{count}项" if lang == "zh" else f"took {count} item(s) as yours"


def _show(game: Any, played: Any, lang: Language) -> str:
    """Each kind of printed item, how many are the owner's and how many the demo's."""
    from kiosk.boxes import kind_label

    counts = played.counts()
    mine = sum(m for m, _ in counts.values())
    total = sum(m + d for m, d in counts.values())
    title = game.title.in_(lang)
    head = (
        f"{title}:{total}项中{mine}项是你的,其余是演示盒(编造的值)"
        if lang == "zh"
        else f"{title}: {mine} of {total} items are yours, the rest the demo box's (invented)"
    )
    width = max((len(kind_label(game, k, played).in_(lang)) for k in counts), default=0)
    lines = [head]
    for kind, (own, demo) in counts.items():
        label = kind_label(game, kind, played).in_(lang)
        if lang == "zh":
            lines.append(f"  {label.ljust(width)}  你的 {own:>3}  演示 {demo:>3}")
        else:
            lines.append(f"  {label.ljust(width)}  yours {own:>3}  demo {demo:>3}")
    return "\n".join(lines)
