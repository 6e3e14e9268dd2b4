"""What every view draws with: tile pictures, labels, colours, the stable identifiers, and the host a tab lives in.

Controls that tests and screen readers look for carry a ``Semantics`` identifier (``ID_*``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any, Protocol, TypeVar

import flet as ft

from companion.app.table_model import MeldPic
from companion.app.words import Words
from companion.tiles import Tile
from companion.vision.image_file import image_size
from companion.vision.legend import Entry

__all__ = ["Host", "tile", "tiles", "key_row", "tile_key", "label", "ident", "drop_down", "tile_name", "meld", "meld_tiles", "badge", "photo", "TILE_W", "FELT", "CARD",
           "ACCENT", "GREY", "opened", "PALETTE", "FLOWER_CODES", "FINGER", "on_tap"]

TILE_W = {"hand": 34, "meld": 28, "river": 24, "wait": 30}
FELT = "#1f5f3f"
CARD = "#fbf8f0"
ACCENT = "#b3261e"
KEY_W, KEY_GAP = 35, 3
"""The tile keys a finger taps (discards, a winner's tiles, flowers, My hand's palette): nine a row fill a phone's
card (9 x 35 + 8 x 3 = 339 of its 344 px; a review measured 26 and 28 px keys 2 px apart on the Live tab); on a
narrower one nine still share a row (:func:`key_row`)."""
KEYS_WIDE = 9 * KEY_W + 8 * KEY_GAP
"""A row of tile keys at most this wide (nine keys of :data:`KEY_W`): on a narrower card (a 360 px phone's Live
card, 314 px) the keys are narrower, nine still to a row (:func:`key_row`)."""
FINGER = 44
"""A button's height for a finger at the table (touch targets of 44-48 px)."""
PALETTE = tuple(f"{r}{s}" for s in "mps" for r in range(1, 10)) + tuple(f"{r}z" for r in range(1, 8))
PALETTE_ROWS = (PALETTE[0:9], PALETTE[9:18], PALETTE[18:27], PALETTE[27:])
"""The palette a suit a row, the honours last (the tile keys of the Live, My hand and discard palettes)."""
"""The 34 kinds a hand holds, in the order a palette of tiles to tap shows them."""
FLOWER_CODES = tuple(f"{r}f" for r in range(1, 9))
GREY = "#555555"

ID_TITLE, ID_LANG = "title", "lang"
ID_TABLE_TAB, ID_HAND_TAB, ID_PHOTO_TAB, ID_LEARN_TAB = "tab-table", "tab-hand", "tab-photo", "tab-learn"
ID_CAPTION, ID_STEP, ID_NEXT, ID_BACK, ID_NEXT_HAND, ID_HAND_END = "caption", "step", "next", "back", "next-hand", \
    "hand-end"
ID_REPLAY_SLIDER = "replay-slider"  # the Table tab: the replay's step (or hand) to go to
ID_TYPED_FIELD, ID_TYPED_SCORE = "typed-field", "typed-score"  # Score a photo: a winning hand typed instead
ID_HAND_SCORE = "hand-score"  # My hand: score the complete hand typed
ID_TAP_LOST = "tap-lost"  # the notice of a tap on a screen that had just changed
ID_NOTICE = "notice"  # a refusal said for a moment at the foot of the screen, wherever the page is scrolled
ID_HAND_FIELD, ID_VISIBLE_FIELD, ID_HAND_HEADLINE, ID_HAND_TILES = "hand-field", "visible-field", "hand-headline", \
    "hand-tiles"
ID_HAND_SUMMARY = "hand-summary"  # the headline again right under the fields
ID_HAND_BACKSPACE = "hand-backspace"  # My hand: the last tile (or meld) taken back
ID_PHOTO_TOTAL, ID_PHOTO_PICK, ID_PHOTO_DEMO, ID_PHOTO_FAILED = "photo-total", "photo-pick", "photo-demo", \
    "photo-failed"
ID_PHOTO_SUM = "photo-sum"  # the total and who pays, under the form
ID_LEARN_TITLE, ID_LEARN_TOTAL = "learn-title", "learn-total"
ID_LEDGER_TAB, ID_LEDGER_SETTLE = "tab-ledger", "ledger-settle"
ID_LIVE_TAB, ID_SETTINGS_TAB = "tab-live", "tab-settings"


FIELD_W, FIELD_MIN, FIELD_MARGIN = 420, 200, 56
"""A hand's text field in a card: its width, its least, and what the page's and the card's padding take of a phone's
width (at 420 px the last tiles typed hid past a 390 px screen's edge)."""


def field_width(page: Any) -> int:
    """A hand's text field as wide as the page leaves inside a card, at most :data:`FIELD_W` (the page's width
    unknown, 0 before the browser says it: that)."""
    room = int(getattr(page, "width", 0) or 0) - FIELD_MARGIN
    return FIELD_W if room <= 0 else max(FIELD_MIN, min(FIELD_W, room))


class Host(Protocol):
    """What a tab needs of the app it lives in."""

    page: ft.Page

    @property
    def lang(self) -> str: ...

    def t(self, words: Words) -> str: ...

    def render(self) -> None: ...

    def notice(self, words: Words) -> None:
        """Say ``words`` for a moment at the foot of the screen, wherever the page is scrolled."""

    def clear_notice(self) -> None:
        """Take back a refusal said at the foot: the next tap was entered (a review read the last refusal under a
        table that had moved on)."""


def tile(t: Callable[[Words], str], code: str, width: int, tip: str | None = None) -> ft.Control:
    """A tile's picture, named for a screen reader as the page's language names it (四萬 / 4 Characters; it read the
    code "4m" in both languages, a review)."""
    return ft.Image(src=f"tiles/{code}.png", width=width, height=round(width * 4 / 3), tooltip=tip,
                    semantics_label=t(tile_name(code)))


def tile_name(code: str) -> Words:
    """The name of the tile ``code`` (``0x`` a face-down tile) in both languages."""
    face = Tile.from_code(code)
    return Words(face.zh, face.en)


def tile_tip(t: Callable[[Words], str], code: str) -> ft.Tooltip:
    """A tile key's tooltip: the tile's name in the page's language (also what a screen reader says of the key)."""
    return key_tip(t(tile_name(code)))


def key_tip(text: str) -> ft.Tooltip:
    """A tile key's name on hover: after a moment's rest, and gone as the pointer leaves (a review's tooltip stayed over
    the next row of keys for a second and a half after each tap with a mouse)."""
    return ft.Tooltip(message=text, wait_duration=600, exit_duration=0)


def tiles(t: Callable[[Words], str], codes: Sequence[str], width: int) -> ft.Control:
    return ft.Row([tile(t, c, width) for c in codes], spacing=1, wrap=True, run_spacing=2)


def key_row(keys: Sequence[ft.Control], gap: int = KEY_GAP, wide: int = KEYS_WIDE) -> ft.Control:
    """Tile keys (:func:`tile_key`) on one row, each a ninth of it, the row at most ``wide`` (nine keys of
    :data:`KEY_W` ``gap`` apart): as before where the card is as wide as a 390 px phone's or wider, narrower keys on a
    360 px phone's. At a fixed width a suit's ninth key wrapped onto a line of its own there (the Live tab's four rows
    took seven, and put every seat's claims under the bottom bar: the last seat's win button's foot at 793 px, the
    bar's top at 676, measured at 360x740; the wait quiz's suits each left 九 alone). A row of fewer keys (the
    honours, the flowers) keeps their size, the rest of the row left empty."""
    for key in keys:
        key.expand = 1
    return ft.Container(ft.Row([*keys, *(ft.Container(expand=1) for _ in range(9 - len(keys)))], spacing=gap),
                        width=wide)


def tile_key(t: Callable[[Words], str], code: str, **box: Any) -> ft.Container:
    """A tile key whose width its row gives (:func:`key_row`), its picture a tile's height, 4 to its 3 (set before
    the picture comes: no row moves as it loads); ``box``: the Container's own (on_click, opacity, tooltip, a
    frame's border and padding, which the picture keeps inside)."""
    return ft.Container(ft.Image(src=f"tiles/{code}.png", fit=ft.BoxFit.CONTAIN, aspect_ratio=3 / 4,
                                 semantics_label=t(tile_name(code))), **box)


def label(text: str, size: int = 13, bold: bool = False, colour: str | None = None) -> ft.Text:
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD if bold else None, color=colour)


def ident(identifier: str, control: ft.Control) -> ft.Control:
    return ft.Semantics(identifier=identifier, content=control)


def drop_down(identifier: str, dropdown: ft.Dropdown, caption: str) -> ft.Control:
    """A drop-down whose caption and option shown a screen reader says (it said "button, collapsed" and no more,
    a review), in the page's language as its options are."""
    shown = next((o.text or o.key for o in dropdown.options or [] if o.key == dropdown.value), dropdown.value)
    return ft.Semantics(identifier=identifier, label=caption, value=shown or "", content=dropdown)


def meld_tiles(t: Callable[[Words], str], codes: Sequence[str]) -> ft.Control:
    return ft.Row([tile(t, c, TILE_W["meld"]) for c in codes], spacing=1, tight=True)


def meld(t: Callable[[Words], str], m: MeldPic, text: str) -> ft.Control:
    return ft.Column([meld_tiles(t, m.tiles), label(text, 11, colour=GREY)], spacing=1, tight=True)


def photo(src: bytes, width: float | None = None, said: str | None = None) -> ft.Control:
    """A photo (JPEG bytes) whose box has the photo's proportions before it has loaded: a photo drawn anew (each
    correction draws the hand's labels again) otherwise took no room for a moment, and the page under it jumped
    (a review: the palette of a tile tapped for correcting ended up below the screen). ``said``: what a screen
    reader says of it."""
    size = image_size(src)
    pic = ft.Image(src=src, fit=ft.BoxFit.CONTAIN, aspect_ratio=size[0] / size[1] if size else None,
                   semantics_label=said)
    return pic if width is None else ft.Container(pic, width=width)


def photo_legend(entries: Sequence[Entry], t: Callable[[Words], str]) -> ft.Control:
    """What a read photo's box colours and label marks mean, under it (:func:`companion.vision.read.annotated`):
    each colour's swatch drawn as on the photo (the top edge a bar), each mark in bold, then its words."""
    items: list[ft.Control] = []
    for e in entries:
        parts: list[ft.Control] = []
        if e.bgr is not None:
            colour = "#{2:02x}{1:02x}{0:02x}".format(*e.bgr)
            parts.append(ft.Container(width=12, height=3, bgcolor=colour) if e.line else
                         ft.Container(width=12, height=12, border=ft.Border.all(2, colour)))
        if e.mark:
            parts.append(label(e.mark, 12, bold=True))
        parts.append(label(t(Words(e.zh, e.en)), 12, colour=GREY))
        items.append(ft.Row(parts, spacing=4, tight=True))
    return ft.Row(items, spacing=14, run_spacing=4, wrap=True)


def badge(text: str, colour: str) -> ft.Control:
    return ft.Container(label(text, 12, bold=True, colour="#ffffff"), bgcolor=colour,
                        padding=ft.Padding.symmetric(horizontal=6, vertical=2), border_radius=6)


def opened(e: Any) -> bool:
    """An expansion tile's change event: opened (Flet sends ``True``, or ``"true"`` as text)."""
    return e.data is True or str(e.data).lower() == "true"


def scroll_key(key: str) -> ft.ScrollKey:
    """A control's key that :func:`bring_into_view` (and :func:`unfolded`) scrolls to."""
    return ft.ScrollKey(key)  # type: ignore[call-arg]  # a dataclass made by a decorator mypy does not follow


def unfolded(e: Any, key: str) -> bool:
    """:func:`opened`, and where it opened, the page scrolled so the fold keyed ``scroll_key(key)`` starts at the
    top of the screen: a fold near the bottom of a phone's screen otherwise opens below it, and the player sees
    nothing happen (a player review: the stakes' fold under the end of a hand)."""
    if not opened(e):
        return False
    bring_into_view(e.page, key)
    return True


SCROLL_AFTER = 0.15
"""Seconds before scrolling to a control just drawn: the browser builds it a frame or two after the update arrives,
and a scroll asked for sooner finds no such control (the win form stayed below the screen one time in two)."""


def bring_into_view(page: ft.Page, key: str) -> None:
    """Scroll the page, after the redraw under way, so the control keyed ``scroll_key(key)`` starts at the top."""

    async def scroll() -> None:
        await asyncio.sleep(SCROLL_AFTER)
        await page.scroll_to(scroll_key=key)  # at once: a page still gliding moves what the finger goes for next

    page.run_task(scroll)


V = TypeVar("V")


def on_tap(act: Callable[[V], object], value: V) -> Callable[[], None]:
    """A click handler that calls ``act(value)``, for one of many buttons. (Flet hands a handler that takes an argument
    the click event, so a ``lambda v=value:`` would get the event as its value.)"""
    def tapped() -> None:
        act(value)
    return tapped
