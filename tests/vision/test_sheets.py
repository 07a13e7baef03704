"""Sticker sheets read back through the real detector: a PDF rasterised by PDFium, an SVG drawn
from its own rectangles, both at a known resolution so that the printed size can be checked."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pypdfium2 as pdfium
import pytest

from kiosk.cli import main
from vision.detection import Detector
from vision.registry import GAMES, load_registry
from vision.sheets import (
    LABEL_TEXT_MM,
    SheetError,
    fit_label,
    layout,
    raster,
    raster_label,
    text_width_mm,
    write_sheets,
)

DPI = 200
PX_PER_MM = DPI / 25.4
SVG = "{http://www.w3.org/2000/svg}"
DETECTOR = Detector()


def measured_sides_mm(image: np.ndarray) -> dict[int, float]:
    """Each detected tag's mean side length in millimetres at DPI."""
    sides = {}
    for d in DETECTOR.detect(image):
        c = np.array(d.corners)
        sides[d.id] = float(np.mean(np.hypot(*(c - np.roll(c, 1, axis=0)).T))) / PX_PER_MM
    return sides


def svg_to_image(path: Path) -> np.ndarray:
    """Draw an SVG page of ours (filled rectangles in mm) at DPI."""
    root = ET.parse(path).getroot()
    width, height = (float(root.get(k).removesuffix("mm")) for k in ("width", "height"))
    image = np.full((round(height * PX_PER_MM), round(width * PX_PER_MM)), 255, np.uint8)
    for rect in root.iter(f"{SVG}rect"):
        if rect.get("fill") != "#000":
            continue
        x, y, w, h = (float(rect.get(k)) * PX_PER_MM for k in ("x", "y", "width", "height"))
        image[round(y) : round(y + h), round(x) : round(x + w)] = 0
    return image


@pytest.mark.parametrize("game", ["stonesaga", "anchors"])
def test_pdf_tags_read_back_at_their_ids_and_true_size(tmp_path: Path, game: str) -> None:
    entries = load_registry().for_game(game)
    [path] = write_sheets(entries, tmp_path / "sheet.pdf", title=game)
    pages = layout(entries)
    pdf = pdfium.PdfDocument(path)
    assert len(pdf) == len(pages)
    width_pt, height_pt = pdf[0].get_size()
    assert (round(width_pt / 72 * 25.4), round(height_pt / 72 * 25.4)) == (210, 297)  # A4
    image = np.ascontiguousarray(pdf[0].render(scale=DPI / 72, grayscale=True).to_numpy())
    sides = measured_sides_mm(image)
    expected = {p.tag_id: p.tag_mm for p in pages[0]}
    assert sorted(sides) == sorted(expected)
    for tag_id, side in sides.items():
        assert side == pytest.approx(expected[tag_id], rel=0.02), tag_id


def test_svg_tags_read_back_with_cut_lines_and_labels(tmp_path: Path) -> None:
    entries = load_registry().for_game("greenwood")
    paths = write_sheets(entries, tmp_path / "sheet.svg", title="greenwood")
    pages = layout(entries)
    assert len(paths) == len(pages) == 3
    last = paths[-1]
    sides = measured_sides_mm(svg_to_image(last))
    expected = {p.tag_id: p.tag_mm for p in pages[-1]}
    assert sorted(sides) == sorted(expected)
    assert all(sides[i] == pytest.approx(expected[i], rel=0.02) for i in sides)
    root = ET.parse(last).getroot()
    cuts = [r for r in root.iter(f"{SVG}rect") if r.get("class") == "cut"]
    assert len(cuts) == len(pages[-1])
    labels = [t.text for path in paths for t in ET.parse(path).getroot().iter(f"{SVG}text")]
    assert "198 wisp 1" in labels
    assert "greenwood — page 3 of 3" in labels


def test_the_raster_preview_reads_back_too() -> None:
    page = layout(load_registry().for_game("dont_starve"))[0]
    sides = measured_sides_mm(raster(page, dpi=DPI))
    assert sorted(sides) == sorted(p.tag_id for p in page)


def test_an_unknown_file_type_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SheetError, match=r"write \.svg, \.pdf or \.png"):
        write_sheets(load_registry().for_game("anchors"), tmp_path / "sheet.docx")


def test_tags_command_writes_the_files_it_names(tmp_path: Path, capsys) -> None:
    out = tmp_path / "dst.pdf"
    assert main(["tags", "dont_starve", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "dont_starve: 61 tags on 1 file(s)" in printed
    assert str(out) in printed
    assert out.read_bytes().startswith(b"%PDF")


def test_tags_command_bad_suffix_is_one_clear_line(tmp_path: Path, capsys) -> None:
    assert main(["tags", "anchors", "--out", str(tmp_path / "a.doc")]) == 2
    err = capsys.readouterr().err
    assert "write .svg, .pdf or .png, not '.doc'" in err
    assert "Traceback" not in err


def label_boxes(page) -> list[tuple[int, tuple[float, float, float, float]]]:
    return [(p.tag_id, p.label_box_mm) for p in page]


def overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("lang", ["zh", "en"])
@pytest.mark.parametrize("game", [*GAMES, "anchors"])
def test_every_label_fits_its_own_cut_box_and_no_two_overlap(game: str, lang: str) -> None:
    """Issue 13: labels ran into each other ("148 rescued creature 1149 rescued creature 2…");
    issue 24: they were too small to read (2.5 mm em: a cap height of about 1.8 mm at least)."""
    for page in layout(load_registry().for_game(game), lang=lang):  # type: ignore[arg-type]
        for p in page:
            side, height = p.size_mm
            x0, y0, x1, y1 = p.label_box_mm
            assert p.x_mm < x0 and x1 < p.x_mm + side, p.label  # inside, clear of the cut line
            assert p.y_mm + side <= y0 and y1 < p.y_mm + height, p.label  # under the quiet zone
            assert p.label_mm >= 2.5, p.label  # read at arm's length
            assert " ".join(p.label_fit[0]) == p.label  # wrapped, never cut short
        boxes = label_boxes(page)
        for (a, box_a), (b, box_b) in itertools.combinations(boxes, 2):
            assert not overlap(box_a, box_b), (a, b)


def test_the_raster_labels_stay_in_their_strip_too() -> None:
    k = DPI / 25.4
    for game in GAMES:
        for page in layout(load_registry().for_game(game)):
            for p in page:
                for x, _, line, scale in raster_label(p, k):
                    (width, _), _ = cv2.getTextSize(line, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
                    assert x * k + width <= (p.x_mm + p.size_mm[0]) * k, p.label


def test_a_long_label_on_a_small_sticker_wraps_onto_two_lines() -> None:
    lines, size = fit_label("359 defeated monster 11", 17.0, 3.5)
    assert lines == ("359 defeated", "monster 11")
    assert max(text_width_mm(line, size) for line in lines) <= 17.0
    assert fit_label("148 domino 1", 29.0, 7.5) == (("148 domino 1",), LABEL_TEXT_MM)


def test_the_svg_and_pdf_draw_each_line_where_the_layout_puts_it(tmp_path: Path) -> None:
    entries = load_registry().for_game("dont_starve")
    paths = write_sheets(entries, tmp_path / "sheet.svg")
    texts = [t.text for path in paths for t in ET.parse(path).getroot().iter(f"{SVG}text")]
    assert "359 defeated" in texts and "monster 11" in texts and "326 Wilson 1" in texts
    [pdf] = write_sheets(entries, tmp_path / "sheet.pdf")
    text = "".join(page.get_textpage().get_text_range() for page in pdfium.PdfDocument(pdf))
    assert "326 Wilson 1" in text and "character 1" not in text


def test_a_chinese_sheet_names_every_component_in_chinese_in_the_built_in_cid_font(
    tmp_path: Path,
) -> None:
    """Issue 24: the sheets were English only. STSong-Light is reportlab's built-in CID font: the
    PDF names it and embeds no font file."""
    entries = load_registry().for_game("greenwood")
    [path] = write_sheets(entries, tmp_path / "sheet.pdf", title="苍林秘境", lang="zh")
    pdf = pdfium.PdfDocument(path)
    text = "".join(page.get_textpage().get_text_range() for page in pdf)
    assert "148 双格板块1" in text and "100 潜艇版图1 正面" in text and "第1页,共3页" in text
    assert "domino" not in text and "submarine" not in text and "page" not in text
    data = path.read_bytes()
    assert b"STSong-Light" in data and b"FontFile" not in data
    page = layout(entries, lang="zh")[0][0]
    assert page.font == "STSong-Light" and page.label == "100 潜艇版图1 正面"


def test_the_tags_command_labels_in_the_language_asked(tmp_path: Path, capsys) -> None:
    out = tmp_path / "gw.svg"
    assert main(["tags", "greenwood", "--lang", "zh", "--out", str(out)]) == 0
    texts = [t.text for t in ET.parse(out).getroot().iter(f"{SVG}text")]
    assert "tablesight 贴纸:《苍林秘境》 — 第1页,共3页" in texts
    assert "100 潜艇版图1 正面" in texts and not any("board" in (t or "") for t in texts)
