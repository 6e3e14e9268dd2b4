"""A legend strip under an annotated photo: what each box colour and each mark on a label means, in both languages.

:func:`companion.vision.read.annotate` draws boxes in three colours and labels with marks (``?``, ``!``, ``*``) and
scores; a review of ``companion read --annotate`` could not tell what they meant without the source. The strip
lists only what the picture shows, one entry after another, wrapped to the picture's width.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from PIL import Image, ImageDraw

from companion.vision.sheet_render import draw_text, text_length

__all__ = ["Entry", "legend_strip"]


@dataclass(frozen=True, slots=True)
class Entry:
    """One item of the legend: a swatch (a box outline in ``bgr``, or a line in it for ``line=True``; none when
    ``bgr`` is None), then ``mark`` (a label's mark, drawn in bold), then the words."""

    zh: str
    en: str
    bgr: tuple[int, int, int] | None = None
    mark: str = ""
    line: bool = False


def legend_strip(width: int, entries: Sequence[Entry]) -> np.ndarray:
    """A white ``N x width x 3`` BGR strip with ``entries`` laid out left to right and wrapped, text about a 55th of
    the width high (13 to 96 px: a 12 MP phone photo is looked at shrunk to a screen, where 28 px letters had come
    out at 9, as a review found)."""
    px = int(np.clip(width / 55, 13, 96))
    gap, pad = px, max(6, px // 2)
    probe = ImageDraw.Draw(Image.new("RGB", (1, 1)))
    room = width - 2 * pad
    items = []
    for e in entries:
        words = f"{e.zh} {e.en}"
        swatch = px + px // 2 if e.bgr is not None else 0
        mark = text_length(probe, e.mark + " ", px) if e.mark else 0.0
        # an entry wider than the picture goes on over lines of its own (a review's narrow photo lost its end)
        for k, piece in enumerate(_pieces(probe, words, px, room - swatch - mark, room)):
            head = k == 0
            lead, dot = (swatch, mark) if head else (0, 0.0)
            items.append((e if head else Entry("", ""), piece, lead, dot, lead + dot + text_length(probe, piece, px)))
    rows: list[list[tuple[Entry, str, int, float, float]]] = [[]]
    at = float(pad)
    for item in items:
        if rows[-1] and at + item[4] > width - pad:
            rows.append([])
            at = float(pad)
        rows[-1].append(item)
        at += item[4] + gap
    line_h = round(px * 1.6)
    image = Image.new("RGB", (width, pad * 2 + line_h * len(rows)), "white")
    draw = ImageDraw.Draw(image)
    draw.line([(0, 0), (width, 0)], fill=(160, 160, 160), width=1)
    for r, row in enumerate(rows):
        x, y = float(pad), pad + r * line_h + (line_h - px) / 2
        for e, words, swatch, mark, wide in row:
            if e.bgr is not None:
                rgb = (e.bgr[2], e.bgr[1], e.bgr[0])
                thick = max(2, px // 7)
                if e.line:
                    draw.line([(x, y + px / 2), (x + px, y + px / 2)], fill=rgb, width=thick + 1)
                else:
                    draw.rectangle([x, y, x + px, y + px], outline=rgb, width=thick)
            if e.mark:
                spot = (x + swatch, y)
                draw_text(draw, spot, e.mark, px, (0, 0, 0))
                draw_text(draw, (spot[0] + 1, spot[1]), e.mark, px, (0, 0, 0))  # bold, as on the labels
            draw_text(draw, (x + swatch + mark, y), words, px, (30, 30, 30))
            x += wide + gap
    return np.asarray(image)[:, :, ::-1].copy()


def _pieces(probe: ImageDraw.ImageDraw, words: str, px: int, first: float, room: float) -> list[str]:
    """``words`` cut into lines: the first at most ``first`` wide, the others ``room``; at spaces, or between
    Chinese characters (a word longer than a line stays whole)."""
    out: list[str] = []
    line = ""
    for token in _tokens(words):
        limit = first if not out else room
        if line and text_length(probe, line + token, px) > limit:
            out.append(line.rstrip())
            line = token.lstrip()
        else:
            line += token
    if line.strip() or not out:
        out.append(line.rstrip())
    return out


def _tokens(text: str) -> list[str]:
    """Words with the space before them, and each Chinese character on its own (a line may break between them)."""
    out: list[str] = []
    for ch in text:
        if ch == " " or "\u3000" <= ch <= "\u9fff" or "\uff00" <= ch <= "\uffef" or not out or out[-1][-1:] >= "\u3000":
            out.append(ch)
        else:
            out[-1] += ch
    return out
