"""The sticker labels name each component as the kiosk does (issue 13: tag 148 was "rescued
creature 1" on the sheet and "domino" / 双格板块 on the screen)."""

from __future__ import annotations

import pytest

from engine.dont_starve.catalogue import catalogue as dont_starve_catalogue
from engine.dont_starve.game import CHARACTERS
from engine.greenwood.catalogue import catalogue as greenwood_catalogue
from engine.greenwood.texts import piece_name
from engine.stonesaga.catalogue import STONES
from vision.readers.greenwood import piece_shapes
from vision.registry import GAMES, TagEntry, load_file, load_registry
from vision.sheets import SheetError, layout, sticker_name

REGISTRY = load_registry()


def entries(game: str, name: str) -> list[TagEntry]:
    found = [e for e in REGISTRY.for_game(game) if e.name == name]
    assert found, (game, name)
    return found


def test_each_greenwood_piece_is_labelled_with_the_name_the_kiosk_gives_its_shape() -> None:
    shapes = piece_shapes(REGISTRY)  # the shape the camera reader takes each tag for
    pieces = entries("greenwood", "rescued creature") + entries("greenwood", "wisp")
    assert {e.tag_id for e in pieces} == set(shapes)
    for e in pieces:
        assert e.shown == piece_name(shapes[e.tag_id].name).en, e.tag_id
    first = REGISTRY.lookup(148)
    assert first is not None and first.label == "domino 1"
    assert piece_name("domino").zh == "双格板块"  # what the Chinese screen calls the same piece


def test_the_runs_of_rescued_creatures_follow_the_shapes_copies() -> None:
    shapes = [s for s in greenwood_catalogue().shapes.values() if s.name != "wisp"]
    labels = [e.label for e in entries("greenwood", "rescued creature")]
    expected = [f"{piece_name(s.name).en} {k}" for s in shapes for k in range(1, s.copies + 1)]
    assert labels == expected


def test_dont_starve_figures_carry_their_characters_card_names() -> None:
    cards = dont_starve_catalogue().characters
    for e in entries("dont_starve", "character"):
        assert e.shown == cards[CHARACTERS[e.item - 1]].name_en  # the reader's item order


@pytest.mark.parametrize("stone", sorted(STONES))
def test_stone_saga_ores_are_named_as_the_mining_bag_names_them(stone: str) -> None:
    name = STONES[stone].en
    for e in entries("stonesaga", f"ore: {name}"):
        assert e.shown == name and e.label.startswith(f"{name} {e.item}")


def test_a_sheet_label_is_the_id_and_the_kiosks_name() -> None:
    page = layout([REGISTRY.lookup(i) for i in (148, 158, 326)])[0]  # type: ignore[misc]
    assert [p.label for p in page] == ["148 domino 1", "158 straight three 1", "326 Wilson 1"]


def test_labels_that_do_not_count_up_to_the_components_are_refused(tmp_path) -> None:
    path = tmp_path / "g.toml"
    path.write_text(
        'game = "g"\n[[group]]\nname = "piece"\nkind = "piece"\nfirst_id = 1\ncount = 3\n'
        'tag_mm = 10\nlabels = [["a", 2]]\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="labels name 2 components, not 3"):
        load_file(path)


@pytest.mark.parametrize("game", [*GAMES, "anchors"])
def test_every_sticker_has_its_own_words_in_both_languages(game: str) -> None:
    """Issue 24: the sheet's own wording names each component in Chinese and in English."""
    for e in REGISTRY.for_game(game):
        name = sticker_name(e)
        assert name.en == e.label, e.tag_id  # the English label the kiosk already prints
        assert name.zh and name.zh != name.en, e.tag_id
        latin = [w for w in name.en.split() if w.isalpha() and len(w) > 1]
        assert not any(w in name.zh for w in latin), (e.tag_id, name.zh)


def test_a_component_the_sheet_has_no_words_for_is_named_in_the_error() -> None:
    e = REGISTRY.lookup(148)
    assert e is not None
    with pytest.raises(SheetError, match="no words for 'gadget 1'"):
        sticker_name(TagEntry(**{**e.__dict__, "shown": "gadget", "copy": 1}))
