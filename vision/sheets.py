"""Printable sticker sheets: every tag of a game at its true size, with labels and cut lines.

One layout (stickers placed on A4 pages, in millimetres) is written three ways: SVG (one file
per page, sized in mm), PDF (all pages, through reportlab) and a raster image (OpenCV, for
previews and for reading the sheet back through the detector). Each sticker is the tag's black
square, a white quiet zone of ``QUIET_CELLS`` cells around it, a label under it, and a dashed cut
line around the lot. Print at 100 % ("actual size"), never "fit to page".

A label ("148 domino 1" / "148 双格板块 1": the id and the component's name in the sheet's own
wording, ``NAMES`` and ``FACES``, in the kiosk's language) is fitted into its own strip of the
cut box: as large as ``LABEL_TEXT_MM``, wrapped onto two lines before it gets small, measured
with the font's widths (reportlab's ``stringWidth``: Helvetica for English, the built-in CID
font ``STSong-Light`` for Chinese, which needs no font file; SVG asks for the same families) and,
on the raster, with OpenCV's own text size. OpenCV draws no Chinese: the raster of a Chinese
sheet (a preview) labels each sticker with its number only.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

import cv2
import numpy as np
import numpy.typing as npt

from engine.core.text import Language, Text
from vision.errors import VisionError
from vision.registry import TagEntry
from vision.synthetic import TAG_CELLS

A4_MM = (210.0, 297.0)
MARGIN_MM = 10.0
QUIET_CELLS = 2
LABEL_MM = 8.0
"""Height of the label strip under the quiet zone: room for two lines of readable text."""
LABEL_TEXT_MM = 3.5
"""The largest label font size (em, mm): a cap height of about 2.5 mm."""
LABEL_MIN_MM = 3.3
"""Below this a label on one line is wrapped onto two lines instead of shrinking further."""
LABEL_PAD_MM = 0.5
"""Room kept free between a label and its cut line."""
LINE_GAP = 1.1
"""Line pitch of a two-line label, in ems."""
SUFFIXES = (".svg", ".pdf", ".png")
FONTS: dict[Language, str] = {"en": "Helvetica", "zh": "STSong-Light"}
"""The PDF font of each language (both built into reportlab: nothing to embed)."""
SVG_FONTS: dict[Language, str] = {
    "en": "Helvetica, Arial, sans-serif",
    "zh": "STSong, SimSun, 'Songti SC', 'Noto Serif CJK SC', serif",
}
METRICS = {"Helvetica": (0.718, 0.207), "STSong-Light": (0.880, 0.120)}
"""Each font's ascender and descender, in ems."""

NAMES: dict[str, Text] = {
    # Greenwood (苍林秘境): the piece names of engine/greenwood/texts.py
    "submarine board": Text("潜艇版图", "submarine board"),
    "player board": Text("玩家版图", "player board"),
    "domino": Text("双格板块", "domino"),
    "straight three": Text("三格直条", "straight three"),
    "corner three": Text("三格拐角", "corner three"),
    "T four": Text("T形四格", "T four"),
    "L four": Text("L形四格", "L four"),
    "S four": Text("S形四格", "S four"),
    "square four": Text("方形四格", "square four"),
    "P five": Text("P形五格", "P five"),
    "wisp": Text("鬼火", "wisp"),
    "start player marker": Text("起始玩家标记", "start player marker"),
    # Don't Starve (饥荒)
    "map tile": Text("地图板块", "map tile"),
    "Wilson": Text("威尔逊", "Wilson"),
    "Willow": Text("薇洛", "Willow"),
    "Wendy": Text("温蒂", "Wendy"),
    "Webber": Text("韦伯", "Webber"),
    "needs tile": Text("需求板块", "needs tile"),
    "round board": Text("回合面板", "round board"),
    "storm marker": Text("风暴标记", "storm marker"),
    "defeated monster": Text("已击败怪物", "defeated monster"),
    # Stonesaga (石器传说): the stones as the mining bag names them
    "cloud stone": Text("云石", "cloud stone"),
    "river stone": Text("河石", "river stone"),
    "sun stone": Text("太阳石", "sun stone"),
    "clay": Text("黏土", "clay"),
    "character": Text("角色", "character"),
    "behemoth": Text("巨兽", "behemoth"),
    "companion": Text("伙伴", "companion"),
    "terrain tile": Text("地块", "terrain tile"),
    "overlay": Text("覆盖层", "overlay"),
    "draw pad": Text("摸矿垫", "draw pad"),
    "terrain tray": Text("地形托盘", "terrain tray"),
    # the calibration anchors
    "table anchor": Text("桌面定位标记", "table anchor"),
}
"""What a sticker calls its component (the tag files' ``label``, else their ``name``)."""

FACES: dict[str, Text] = {
    "front": Text("正面", "front"),
    "back": Text("背面", "back"),
    "clan": Text("氏族面", "clan"),
    "basic": Text("基础面", "basic"),
    "revealed": Text("翻开面", "revealed"),
    "hidden": Text("背面", "hidden"),
    "normal": Text("普通面", "normal"),
    "hard": Text("困难面", "hard"),
    "plain": Text("素面", "plain"),
    "omen": Text("预兆面", "omen"),
}
"""What a sticker calls the face of its component it is on."""
PAGE_OF = Text("第{n}页,共{of}页", "page {n} of {of}")


def sticker_name(e: TagEntry) -> Text:
    """The component's name as its sticker prints it, without the id (``domino 1`` /
    ``双格板块1``); SheetError for a name or face the sheet has no wording for."""
    name, face = NAMES.get(e.shown or e.name), FACES.get(e.face) if e.face else None
    if name is None or (e.face and face is None):
        raise SheetError(f"tag {e.tag_id}: the sticker sheet has no words for {e.label!r}")
    number = str(e.copy or e.item)
    return Text(
        " ".join(filter(None, (name.zh + number, face.zh if face else ""))),  # 云石1 素面
        " ".join(filter(None, (name.en, number, face.en if face else ""))),
    )


class SheetError(VisionError, ValueError):
    """A sheet cannot be written as asked (unknown file type, sticker larger than the page)."""


@dataclass(frozen=True)
class Placed:
    """One sticker on a page: its tag, label and the top-left of its cut box, in mm."""

    tag_id: int
    tag_mm: float
    label: str
    x_mm: float
    y_mm: float
    lang: Language = "en"

    @property
    def font(self) -> str:
        """The PDF font the label is measured and drawn in."""
        return FONTS[self.lang]

    @property
    def quiet_mm(self) -> float:
        """Width of the white quiet zone around the black square."""
        return self.tag_mm / TAG_CELLS * QUIET_CELLS

    @property
    def size_mm(self) -> tuple[float, float]:
        """The cut box: tag, quiet zone and label strip."""
        side = self.tag_mm + 2 * self.quiet_mm
        return side, side + LABEL_MM

    @property
    def label_fit(self) -> tuple[tuple[str, ...], float]:
        """The label's lines and font size (em, mm), fitted into its strip (``fit_label``)."""
        side = self.size_mm[0]
        return fit_label(self.label, side - 2 * LABEL_PAD_MM, LABEL_MM - LABEL_PAD_MM, self.font)

    @property
    def label_mm(self) -> float:
        """The label's font size (em, mm)."""
        return self.label_fit[1]

    @property
    def label_lines(self) -> list[tuple[float, float, str]]:
        """Each line of the label with its left end and baseline, in page mm."""
        lines, size = self.label_fit
        side = self.size_mm[0]
        block = _block_mm(len(lines), size, self.font)
        top = self.y_mm + side + (LABEL_MM - LABEL_PAD_MM - block) / 2
        return [
            (self.x_mm + LABEL_PAD_MM, top + size * (METRICS[self.font][0] + LINE_GAP * i), line)
            for i, line in enumerate(lines)
        ]

    @property
    def label_box_mm(self) -> tuple[float, float, float, float]:
        """The box the label's ink takes (x0, y0, x1, y1), in page mm, as measured."""
        lines, size = self.label_fit
        (x, base, _), *_ = self.label_lines
        top = base - size * METRICS[self.font][0]
        width = max(text_width_mm(line, size, self.font) for line in lines)
        return x, top, x + width, top + _block_mm(len(lines), size, self.font)

    @property
    def tag_origin_mm(self) -> tuple[float, float]:
        """The top-left corner of the black square."""
        return self.x_mm + self.quiet_mm, self.y_mm + self.quiet_mm


Page = list[Placed]

ASCENT, DESCENT = METRICS["Helvetica"]
"""Helvetica's ascender (cap height) and descender, in ems."""


def text_width_mm(text: str, size_mm: float, font: str = "Helvetica") -> float:
    """The width of ``text`` in ``font`` at ``size_mm`` (em), as the PDF draws it."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    return float(stringWidth(text, _registered(font), size_mm))


@cache
def _registered(font: str) -> str:
    """The font, registered with reportlab first when it is the Chinese CID font."""
    if font == FONTS["zh"]:
        from reportlab.pdfbase import pdfmetrics
        from reportlab.pdfbase.cidfonts import UnicodeCIDFont

        pdfmetrics.registerFont(UnicodeCIDFont(font))
    return font


def fit_label(
    text: str, width_mm: float, height_mm: float, font: str = "Helvetica"
) -> tuple[tuple[str, ...], float]:
    """The lines (one or two) and font size (em, mm) that fit ``text`` into a box: as large as
    ``LABEL_TEXT_MM`` allows on one line; below ``LABEL_MIN_MM`` it is wrapped at the space that
    balances the two lines best, and shrunk further only if even two lines do not fit."""
    one = min(LABEL_TEXT_MM, _fits((text,), width_mm, height_mm, font))
    words = text.split(" ")
    if one >= LABEL_MIN_MM or len(words) < 2:
        return (text,), one
    splits = [(" ".join(words[:k]), " ".join(words[k:])) for k in range(1, len(words))]
    best = max(  # the largest size, then the most even lines
        splits,
        key=lambda ls: (
            round(_fits(ls, width_mm, height_mm, font), 3),
            _fits(ls, width_mm, 1e9, font),
        ),
    )
    two = min(LABEL_TEXT_MM, _fits(best, width_mm, height_mm, font))
    return ((text,), one) if one >= two else (best, two)


def _fits(lines: Sequence[str], width_mm: float, height_mm: float, font: str) -> float:
    """The largest font size at which ``lines`` fit the box."""
    widest = max(text_width_mm(line, 1.0, font) for line in lines) or 1.0
    return min(width_mm / widest, height_mm / _block_mm(len(lines), 1.0, font))


def _block_mm(lines: int, size_mm: float, font: str = "Helvetica") -> float:
    """The height of ``lines`` lines of text, cap top to the last descender."""
    ascent, descent = METRICS[font]
    return size_mm * (ascent + LINE_GAP * (lines - 1) + descent)


@lru_cache(maxsize=1024)
def tag_cells(tag_id: int) -> npt.NDArray[np.bool_]:
    """The 8×8 cells of a tag36h11 tag (True = black), row 0 at the top as printed."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    return cv2.aruco.generateImageMarker(dictionary, tag_id, TAG_CELLS) < 128


def layout(
    entries: Sequence[TagEntry],
    page_mm: tuple[float, float] = A4_MM,
    margin_mm: float = MARGIN_MM,
    lang: Language = "en",
) -> list[Page]:
    """Place the stickers in rows on as many pages as needed, in the order given, labelled in
    ``lang``."""
    width, height = page_mm[0] - 2 * margin_mm, page_mm[1] - 2 * margin_mm
    pages: list[Page] = [[]]
    x = y = row_height = 0.0
    for e in entries:
        probe = Placed(e.tag_id, e.tag_mm, _label(e, lang), 0, 0, lang)
        w, h = probe.size_mm
        if w > width or h > height:
            raise SheetError(f"tag {e.tag_id} ({e.tag_mm:g} mm) does not fit on the page")
        if x + w > width + 1e-9:
            x, y, row_height = 0.0, y + row_height, 0.0
        if y + h > height + 1e-9:
            pages.append([])
            x = y = row_height = 0.0
        pages[-1].append(
            Placed(e.tag_id, e.tag_mm, probe.label, margin_mm + x, margin_mm + y, lang)
        )
        x += w
        row_height = max(row_height, h)
    return pages


SHEET_TITLE = Text("tablesight 贴纸:《{title}》", "tablesight stickers: {title}")
ANCHOR_TITLE = Text("tablesight 贴纸:桌面定位标记", "tablesight stickers: table anchors")


def sheet_title(game_title: Text | None) -> Text:
    """The heading of a game's sheets (by the game's title), or of the anchors' (None)."""
    return ANCHOR_TITLE if game_title is None else SHEET_TITLE.format(title=game_title)


def write_sheets(
    entries: Sequence[TagEntry],
    out: Path,
    title: str = "",
    page_mm: tuple[float, float] = A4_MM,
    lang: Language = "en",
) -> list[Path]:
    """Write the sheets of ``entries`` to ``out`` by its suffix (.svg, .pdf or .png), labelled
    and headed in ``lang``; an SVG or PNG of several pages becomes ``NAME-2.svg``,
    ``NAME-3.svg``…; returns the files."""
    suffix = out.suffix.lower()
    if suffix not in SUFFIXES:
        raise SheetError(f"{out}: write .svg, .pdf or .png, not {out.suffix or 'no suffix'!r}")
    pages = layout(entries, page_mm, lang=lang)
    out.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".pdf":
        write_pdf(pages, out, title, page_mm, lang)
        return [out]
    paths = [out] + [out.with_name(f"{out.stem}-{n}{out.suffix}") for n in range(2, len(pages) + 1)]
    for n, (page, path) in enumerate(zip(pages, paths, strict=True), 1):
        page_of = PAGE_OF.format(n=n, of=len(pages)).in_(lang)
        heading = f"{title} — {page_of}" if title else ""
        if suffix == ".svg":
            path.write_text(page_svg(page, heading, page_mm, lang), encoding="utf-8")
        elif not cv2.imwrite(str(path), raster(page, page_mm=page_mm)):
            raise SheetError(f"{path}: cannot write the image")
    return paths


def page_svg(
    page: Page, heading: str = "", page_mm: tuple[float, float] = A4_MM, lang: Language = "en"
) -> str:
    """One page as an SVG document whose user unit is the millimetre."""
    w, h = page_mm
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
        f'viewBox="0 0 {w:g} {h:g}">',
        f'<rect x="0" y="0" width="{w:g}" height="{h:g}" fill="#fff"/>',
    ]
    if heading:
        parts.append(_svg_text(MARGIN_MM, MARGIN_MM - 3, escape(heading), 4.0, lang))
    for p in page:
        bw, bh = p.size_mm
        parts.append(
            f'<rect class="cut" x="{p.x_mm:.3f}" y="{p.y_mm:.3f}" width="{bw:.3f}" '
            f'height="{bh:.3f}" fill="none" stroke="#999" stroke-width="0.2" '
            'stroke-dasharray="1 1"/>'
        )
        for x, y, cw, ch in _black_runs(p):
            parts.append(
                f'<rect x="{x:.4f}" y="{y:.4f}" width="{cw:.4f}" height="{ch:.4f}" fill="#000"/>'
            )
        for x, y, line in p.label_lines:
            parts.append(_svg_text(x, y, escape(line), p.label_mm, p.lang))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_pdf(
    pages: Sequence[Page],
    out: Path,
    title: str = "",
    page_mm: tuple[float, float] = A4_MM,
    lang: Language = "en",
) -> None:
    """All pages as one PDF at true size (reportlab), headed in ``lang``."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    w, h = page_mm
    canvas = Canvas(str(out), pagesize=(w * mm, h * mm))
    canvas.setTitle(title or "tablesight tags")
    font = _registered(FONTS[lang])
    for n, page in enumerate(pages, 1):
        canvas.setFont(font, 4.0 * mm)
        if title:
            page_of = PAGE_OF.format(n=n, of=len(pages)).in_(lang)
            canvas.drawString(MARGIN_MM * mm, (h - MARGIN_MM + 3) * mm, f"{title} — {page_of}")
        for p in page:
            bw, bh = p.size_mm
            canvas.setStrokeGray(0.6)
            canvas.setLineWidth(0.2 * mm)
            canvas.setDash(1 * mm, 1 * mm)
            canvas.rect(p.x_mm * mm, (h - p.y_mm - bh) * mm, bw * mm, bh * mm, stroke=1, fill=0)
            canvas.setFillGray(0)
            for x, y, cw, ch in _black_runs(p):
                canvas.rect(x * mm, (h - y - ch) * mm, cw * mm, ch * mm, stroke=0, fill=1)
            canvas.setFont(_registered(p.font), p.label_mm * mm)
            for x, y, line in p.label_lines:
                canvas.drawString(x * mm, (h - y) * mm, line)
        canvas.showPage()
    canvas.save()


def raster(
    page: Page, dpi: float = 300.0, page_mm: tuple[float, float] = A4_MM
) -> npt.NDArray[np.uint8]:
    """One page drawn with OpenCV at ``dpi`` (grey), with the same geometry as the SVG."""
    k = dpi / 25.4
    w, h = round(page_mm[0] * k), round(page_mm[1] * k)
    image = np.full((h, w), 255, np.uint8)
    for p in page:
        bw, bh = p.size_mm
        _dashed_box(image, p.x_mm * k, p.y_mm * k, bw * k, bh * k, 1 * k)
        for x, y, cw, ch in _black_runs(p):
            x0, y0 = round(x * k), round(y * k)
            x1, y1 = round((x + cw) * k), round((y + ch) * k)
            image[y0:y1, x0:x1] = 0
        for x, y, line, scale in raster_label(p, k) if p.lang == "en" else _number(p, k):
            origin = (round(x * k), round(y * k))
            cv2.putText(image, line, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, 0, 1, cv2.LINE_AA)
    return image


def raster_label(p: Placed, px_per_mm: float) -> list[tuple[float, float, str, float]]:
    """The label's lines for the raster: where the PDF puts them, at the OpenCV font scale whose
    cap height matches, made smaller where OpenCV's wider letters would pass the strip."""
    room = (p.size_mm[0] - 2 * LABEL_PAD_MM) * px_per_mm
    out = []
    for x, y, line in p.label_lines:
        cap = max(1, round(p.label_mm * ASCENT * px_per_mm))
        scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, cap)
        (width, _), _ = cv2.getTextSize(line, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
        if width > room:
            scale *= room / width
        out.append((x, y, line, scale))
    return out


def _number(p: Placed, px_per_mm: float) -> list[tuple[float, float, str, float]]:
    """The label of the raster where OpenCV cannot draw its words: the sticker's number."""
    (x, y, _), *_ = p.label_lines
    scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, round(2.5 * px_per_mm))
    return [(x, y, str(p.tag_id), scale)]


def _black_runs(p: Placed) -> list[tuple[float, float, float, float]]:
    """The black cells of a sticker as horizontal runs (x, y, width, height) in page mm."""
    cells = tag_cells(p.tag_id)
    cell = p.tag_mm / TAG_CELLS
    ox, oy = p.tag_origin_mm
    runs = []
    for r, row in enumerate(cells):
        c = 0
        while c < TAG_CELLS:
            if not row[c]:
                c += 1
                continue
            start = c
            while c < TAG_CELLS and row[c]:
                c += 1
            runs.append((ox + start * cell, oy + r * cell, (c - start) * cell, cell))
    return runs


def _dashed_box(image: npt.NDArray[np.uint8], x: float, y: float, w: float, h: float, dash: float):
    corners = [(x, y), (x + w, y), (x + w, y + h), (x, y + h), (x, y)]
    for (ax, ay), (bx, by) in itertools.pairwise(corners):
        length = max(abs(bx - ax), abs(by - ay))
        steps = max(1, int(length // dash))
        for i in range(0, steps, 2):
            t0, t1 = i / steps, min((i + 1) / steps, 1.0)
            p0 = (round(ax + (bx - ax) * t0), round(ay + (by - ay) * t0))
            p1 = (round(ax + (bx - ax) * t1), round(ay + (by - ay) * t1))
            cv2.line(image, p0, p1, 150, 1)


def _svg_text(x: float, y: float, text: str, size: float, lang: Language = "en") -> str:
    return (
        f'<text x="{x:.3f}" y="{y:.3f}" font-family="{SVG_FONTS[lang]}" '
        f'font-size="{size:g}" fill="#000">{text}</text>'
    )


def _label(e: TagEntry, lang: Language = "en") -> str:
    return f"{e.tag_id} {sticker_name(e).in_(lang)}"
