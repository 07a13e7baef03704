"""Printable sticker sheets: every tag of a game at its true size, with labels and cut lines.

One layout (stickers placed on A4 pages, in millimetres) is written three ways: SVG (one file
per page, sized in mm), PDF (all pages, through reportlab) and a raster image (OpenCV, for
previews and for reading the sheet back through the detector). Each sticker is the tag's black
square, a white quiet zone of ``QUIET_CELLS`` cells around it, a label under it, and a dashed cut
line around the lot. Print at 100 % ("actual size"), never "fit to page".
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from xml.sax.saxutils import escape

import cv2
import numpy as np
import numpy.typing as npt

from vision.errors import VisionError
from vision.registry import TagEntry
from vision.synthetic import TAG_CELLS

A4_MM = (210.0, 297.0)
MARGIN_MM = 10.0
QUIET_CELLS = 2
LABEL_MM = 4.0
LABEL_TEXT_MM = 2.2
SUFFIXES = (".svg", ".pdf", ".png")


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
    def label_mm(self) -> float:
        """The label's text height: smaller for a long label on a small sticker."""
        fits = (self.size_mm[0] - 2) / (0.6 * max(len(self.label), 1))
        return min(LABEL_TEXT_MM, fits)

    @property
    def tag_origin_mm(self) -> tuple[float, float]:
        """The top-left corner of the black square."""
        return self.x_mm + self.quiet_mm, self.y_mm + self.quiet_mm


Page = list[Placed]


@lru_cache(maxsize=1024)
def tag_cells(tag_id: int) -> npt.NDArray[np.bool_]:
    """The 8×8 cells of a tag36h11 tag (True = black), row 0 at the top as printed."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_APRILTAG_36h11)
    return cv2.aruco.generateImageMarker(dictionary, tag_id, TAG_CELLS) < 128


def layout(
    entries: Sequence[TagEntry],
    page_mm: tuple[float, float] = A4_MM,
    margin_mm: float = MARGIN_MM,
) -> list[Page]:
    """Place the stickers in rows on as many pages as needed, in the order given."""
    width, height = page_mm[0] - 2 * margin_mm, page_mm[1] - 2 * margin_mm
    pages: list[Page] = [[]]
    x = y = row_height = 0.0
    for e in entries:
        probe = Placed(e.tag_id, e.tag_mm, _label(e), 0, 0)
        w, h = probe.size_mm
        if w > width or h > height:
            raise SheetError(f"tag {e.tag_id} ({e.tag_mm:g} mm) does not fit on the page")
        if x + w > width + 1e-9:
            x, y, row_height = 0.0, y + row_height, 0.0
        if y + h > height + 1e-9:
            pages.append([])
            x = y = row_height = 0.0
        pages[-1].append(Placed(e.tag_id, e.tag_mm, probe.label, margin_mm + x, margin_mm + y))
        x += w
        row_height = max(row_height, h)
    return pages


def write_sheets(
    entries: Sequence[TagEntry], out: Path, title: str = "", page_mm: tuple[float, float] = A4_MM
) -> list[Path]:
    """Write the sheets of ``entries`` to ``out`` by its suffix (.svg, .pdf or .png); an SVG
    or PNG of several pages becomes ``NAME-2.svg``, ``NAME-3.svg``…; returns the files."""
    suffix = out.suffix.lower()
    if suffix not in SUFFIXES:
        raise SheetError(f"{out}: write .svg, .pdf or .png, not {out.suffix or 'no suffix'!r}")
    pages = layout(entries, page_mm)
    out.parent.mkdir(parents=True, exist_ok=True)
    if suffix == ".pdf":
        write_pdf(pages, out, title, page_mm)
        return [out]
    paths = [out] + [out.with_name(f"{out.stem}-{n}{out.suffix}") for n in range(2, len(pages) + 1)]
    for n, (page, path) in enumerate(zip(pages, paths, strict=True), 1):
        heading = f"{title} — page {n} of {len(pages)}" if title else ""
        if suffix == ".svg":
            path.write_text(page_svg(page, heading, page_mm), encoding="utf-8")
        elif not cv2.imwrite(str(path), raster(page, page_mm=page_mm)):
            raise SheetError(f"{path}: cannot write the image")
    return paths


def page_svg(page: Page, heading: str = "", page_mm: tuple[float, float] = A4_MM) -> str:
    """One page as an SVG document whose user unit is the millimetre."""
    w, h = page_mm
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
        f'viewBox="0 0 {w:g} {h:g}">',
        f'<rect x="0" y="0" width="{w:g}" height="{h:g}" fill="#fff"/>',
    ]
    if heading:
        parts.append(_svg_text(MARGIN_MM, MARGIN_MM - 3, escape(heading), 3.0))
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
        parts.append(
            _svg_text(p.x_mm + 1, p.y_mm + bw + LABEL_MM - 1.2, escape(p.label), p.label_mm)
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def write_pdf(
    pages: Sequence[Page], out: Path, title: str = "", page_mm: tuple[float, float] = A4_MM
) -> None:
    """All pages as one PDF at true size (reportlab)."""
    from reportlab.lib.units import mm
    from reportlab.pdfgen.canvas import Canvas

    w, h = page_mm
    canvas = Canvas(str(out), pagesize=(w * mm, h * mm))
    canvas.setTitle(title or "tablesight tags")
    for n, page in enumerate(pages, 1):
        canvas.setFont("Helvetica", 3.0 * mm / 0.7)
        if title:
            canvas.drawString(MARGIN_MM * mm, (h - MARGIN_MM + 3) * mm, f"{title} - page {n}")
        for p in page:
            bw, bh = p.size_mm
            canvas.setStrokeGray(0.6)
            canvas.setLineWidth(0.2 * mm)
            canvas.setDash(1 * mm, 1 * mm)
            canvas.rect(p.x_mm * mm, (h - p.y_mm - bh) * mm, bw * mm, bh * mm, stroke=1, fill=0)
            canvas.setFillGray(0)
            for x, y, cw, ch in _black_runs(p):
                canvas.rect(x * mm, (h - y - ch) * mm, cw * mm, ch * mm, stroke=0, fill=1)
            canvas.setFont("Helvetica", p.label_mm * mm / 0.7)
            canvas.drawString((p.x_mm + 1) * mm, (h - p.y_mm - bw - LABEL_MM + 1.2) * mm, p.label)
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
        scale = cv2.getFontScaleFromHeight(cv2.FONT_HERSHEY_SIMPLEX, round(p.label_mm * k * 0.7))
        origin = (round((p.x_mm + 1) * k), round((p.y_mm + bw + LABEL_MM - 1.2) * k))
        cv2.putText(image, p.label, origin, cv2.FONT_HERSHEY_SIMPLEX, scale, 0, 1, cv2.LINE_AA)
    return image


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


def _svg_text(x: float, y: float, text: str, size: float) -> str:
    return (
        f'<text x="{x:.3f}" y="{y:.3f}" font-family="Helvetica, Arial, sans-serif" '
        f'font-size="{size:g}" fill="#000">{text}</text>'
    )


def _label(e: TagEntry) -> str:
    return f"{e.tag_id} {e.label}"
