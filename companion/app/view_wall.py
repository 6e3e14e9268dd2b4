"""The wall drawn from above (:class:`~companion.app.wall_model.WallPicture`): four walls of 18 stacks around the
owners' names, each stack as many face-down tiles as are left in it, the break as a red edge, the next draw, the next
replacement and the stacks kept back in colour, with a legend and the picture's lines below."""

from __future__ import annotations

from collections.abc import Callable

import flet as ft

from companion.app.ui_kit import ACCENT, GREY, ident, label, opened
from companion.app.wall_model import StackCell, WallPicture, WallSide
from companion.app.words import Words, ui

__all__ = ["wall_map", "wall_fold", "STACK_W"]

STACK_W = 13  # a stack's side along its wall, in px; across the wall it is a tile's length (4/3 of it)
FULL, HALF, EDGE, EMPTY_EDGE = "#2f7d95", "#8cc2d1", "#1d4f5e", "#cfc7ae"
MARKS = {"next": "#f2c94c", "tail": "#e8833a", "kept": "#9aa3a8"}
Say = Callable[[Words], str]


def _cell(c: StackCell, horizontal: bool, w: int, brk: str | None) -> ft.Control:
    """One stack; ``brk`` ("before" or "after") gives it the break's red edge on that side."""
    across = round(w * 4 / 3)
    colour = MARKS.get(c.mark) if c.left else None
    if colour is None:
        colour = FULL if c.left == 2 else HALF if c.left == 1 else None
    # a stack whose top is drawn and whose bottom is kept: both colours, split along the stack
    split = ft.LinearGradient(begin=ft.Alignment.TOP_LEFT, end=ft.Alignment.BOTTOM_RIGHT, colors=[
        FULL, FULL, MARKS["kept"], MARKS["kept"]], stops=[0.0, 0.5, 0.5, 1.0]) if c.mark == "split" and c.left else None
    side = ft.BorderSide(1, EDGE if c.left else EMPTY_EDGE)
    red = ft.BorderSide(4, ACCENT)
    lead, trail = (red if brk == "before" else side), (red if brk == "after" else side)
    border = ft.Border(left=lead, right=trail, top=side, bottom=side) if horizontal else \
        ft.Border(top=lead, bottom=trail, left=side, right=side)
    text = ft.Text(c.text, size=8, color="#ffffff", weight=ft.FontWeight.BOLD) if c.text else None
    return ft.Container(text, width=w if horizontal else across, height=across if horizontal else w,
                        bgcolor=None if split else colour, gradient=split, border=border, border_radius=2,
                        alignment=ft.Alignment.CENTER)


def _side(s: WallSide, w: int) -> ft.Control:
    horizontal = s.side in ("top", "bottom")
    n = len(s.cells)
    cells = []
    for i, c in enumerate(s.cells):
        brk = "before" if s.break_at == i else "after" if s.break_at == n and i == n - 1 else None
        cells.append(_cell(c, horizontal, w, brk))
    return ft.Row(cells, spacing=1, tight=True) if horizontal else ft.Column(cells, spacing=1, tight=True)


def _swatch(colour: str | None, words: Words, t: Say, edge: str = EDGE, red: bool = False) -> ft.Control:
    box = ft.Container(width=10, height=12, bgcolor=colour, border=ft.Border.all(3 if red else 1, ACCENT if red
                                                                                 else edge), border_radius=2)
    return ft.Row([box, label(t(words), 11, colour=GREY)], spacing=4, tight=True)


def wall_map(t: Say, picture: WallPicture, w: int = STACK_W, lines: bool = True) -> ft.Control:
    """The square of walls, the legend, and (``lines``) where the next tiles lie."""
    by_side = {s.side: s for s in picture.sides}
    across = round(w * 4 / 3)
    span = len(by_side["bottom"].cells) * (w + 1) - 1

    def name(s: WallSide) -> ft.Control:
        if not s.dealer:
            return label(t(s.owner), 11, bold=True)
        badge = ft.Container(label(t(ui("wall_dealer")), 10, bold=True, colour="#ffffff"), bgcolor=ACCENT,
                             border_radius=3, padding=ft.Padding.symmetric(horizontal=4))
        return ft.Row([label(t(s.owner), 11, bold=True), badge], spacing=4, tight=True)

    centre = ft.Container(ft.Column([
        ft.Row([name(by_side["top"])], alignment=ft.MainAxisAlignment.CENTER),
        ft.Row([name(by_side["left"]), name(by_side["right"])], alignment=ft.MainAxisAlignment.SPACE_BETWEEN),
        ft.Row([name(by_side["bottom"])], alignment=ft.MainAxisAlignment.CENTER),
    ], alignment=ft.MainAxisAlignment.SPACE_BETWEEN, spacing=0), width=span, height=span, padding=6)
    pad = ft.Container(width=across)
    square = ft.Column([
        ft.Row([pad, _side(by_side["top"], w), pad], spacing=2, tight=True),
        ft.Row([_side(by_side["left"], w), centre, _side(by_side["right"], w)], spacing=2, tight=True),
        ft.Row([pad, _side(by_side["bottom"], w), pad], spacing=2, tight=True),
    ], spacing=2, tight=True)
    cells = [c for s in picture.sides for c in s.cells]
    marks = {c.mark for c in cells if c.left}
    plain = {c.left for c in cells if c.left and c.mark not in MARKS and c.mark != "split"}  # still to draw: teal
    keys = [_swatch(colour, ui(key), t)
            for n, colour, key in ((2, FULL, "wall_legend_two"), (1, HALF, "wall_legend_one")) if n in plain]
    keys += [_swatch(MARKS[m], ui(f"wall_legend_{m}"), t) for m in ("next", "tail", "kept") if m in marks]
    if "split" in marks:
        keys.append(ft.Row([_cell(StackCell(0, 2, "split"), True, 10, None),
                            label(t(ui("wall_legend_split")), 11, colour=GREY)], spacing=4, tight=True))
    if any(c.left == 0 for c in cells):
        keys.append(_swatch(None, ui("wall_legend_gone"), t, EMPTY_EDGE))
    keys.append(_swatch(FULL, ui("wall_legend_break"), t, red=True))
    legend = ft.Row(keys, spacing=10, wrap=True)  # what this picture shows, no more
    parts: list[ft.Control] = [square, legend]
    if lines:
        parts += [label(t(x), 12) for x in picture.lines]
    return ft.Column(parts, spacing=6, tight=True)


def wall_fold(t: Say, picture: WallPicture, is_open: bool, toggled: Callable[[bool], None],
              identifier: str) -> ft.Control:
    """The wall map folded under a "The wall" line (open or not as the player last left it: ``toggled``)."""
    return ident(identifier, ft.ExpansionTile(
        title=label(t(ui("wall_show")), 13, bold=True), expanded=is_open, on_change=lambda e: toggled(opened(e)),
        controls=[ft.Container(wall_map(t, picture), padding=ft.Padding.only(left=8, bottom=8))]))
