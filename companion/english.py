"""Filled-in messages. English number agreement: a template says ``{n} tiles``, and with ``n`` 1 that read
"1 tiles" (a review noted it); :func:`agreed` mends the English half of a message after it is filled (the Chinese
half has no plural). And :func:`listed`, tiles or names with commas and "and", :func:`shortened`, for what a player typed said back in either half, :func:`chinese`,
which half a language code asks for, and :func:`the_tile`, a tile's name with the article English gives it."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol


class Named(Protocol):
    """What :func:`the_tile` reads of a tile (a :class:`~companion.tiles.Tile`: the tiles sit above this module)."""

    @property
    def en(self) -> str: ...

    @property
    def is_honour(self) -> bool: ...

    @property
    def is_known(self) -> bool: ...

SINGULAR = {"tiles": "tile", "copies": "copy", "stacks": "stack", "steps": "step", "hands": "hand",
            "players": "player", "flowers": "flower", "kongs": "kong", "melds": "meld", "pairs": "pair",
            "discards": "discard", "draws": "draw", "points": "point", "rounds": "round", "games": "game",
            "photos": "photo", "boxes": "box", "rows": "row", "waits": "wait", "kinds": "kind", "crops": "crop",
            "events": "event"}
_ONE = re.compile(r"(?<![\d.,/])\b1 (" + "|".join(SINGULAR) + r")\b")


def agreed(text: str) -> str:
    """``text`` with "1 tiles" and the like made singular ("1 tile"); "21 tiles", "0.1 tiles" and "1/4 tiles" are left
    as they are."""
    return _ONE.sub(lambda m: f"1 {SINGULAR[m.group(1)]}", text)


def chinese(lang: str) -> bool:
    """Whether ``lang`` asks for the Traditional Chinese half of a text: a code that begins with ``zh`` (``zh``,
    ``zh-TW``, ``zh_Hant``, in any case); any other asks for the English one (``en``, ``en-US``). The one rule of
    the app's words and the game's messages: the words took only ``en`` for English and the messages only ``zh...``
    for Chinese, so ``en-US`` read Chinese in one and English in the other (a review)."""
    return lang.lower().startswith("zh")


def listed(items: Sequence[str], last: str = "and") -> str:
    """``items`` in an English list: ``2p, 3p, 4p and 8p`` (``last`` joins the last two: "and", "or"); a teaching
    review read "waiting on 2p 3p 4p 5p 8p" beside quiz lines that had commas."""
    return f"{', '.join(items[:-1])} {last} {items[-1]}" if len(items) > 1 else "".join(items)


def shortened(text: str, at_most: int = 80) -> str:
    """``text``, cut to ``at_most`` characters with ``…`` where longer: an input said back in a message."""
    return text if len(text) <= at_most else text[:at_most - 1] + "…"


def all_four(zh: Sequence[str], en: Sequence[str]) -> tuple[str, str]:
    """Tiles whose every copy is in the player's own hand, in both halves: 一萬四張 / ``all four 1m``, and after a
    list 一萬、四萬各四張 / ``all four of each of 1m and 4m`` (a review read 「要的 一萬四萬 四張」, which is unclear
    after a list, and "1m and 4m and 7m"). One wording for My hand, the Table tab, ``waits`` and ``discard``. An
    honour named with its code is plural: ``all four North winds (4z)`` (it read "all four North wind (4z)", a
    review)."""
    if len(zh) > 1:
        return f"{'、'.join(zh)}各四張", f"all four of each of {listed(en)}"
    return f"{''.join(zh)}四張", f"all four {_plural(''.join(en))}"


def _plural(name: str) -> str:
    """A tile's English name made plural: ``North wind (4z)`` → ``North winds (4z)``; a code (``1m``) stays."""
    said, sep, code = name.partition(" (")
    return f"{said}s{sep}{code}" if sep else name


def the_tile(tile: Named, name: str | None = None, begins: bool = False) -> str:
    """``tile`` named in an English sentence, ``name`` (its ``en`` if not given; its ``said_en`` where the code is
    wanted) with the article English gives it: "the" before an honour ("discards the East wind", "the White dragon
    (5z)"), none before a number tile ("discards 5 Dots", "draws 9 Characters", "6p": a review read "B discards the
    5 Dots") nor a flower, named as it is ("draws Spring"), and "a" before a face-down one. ``begins``: the name
    begins the sentence, with a capital ("The East wind can no longer be won on"). One rule for the Live tab's
    entries, the quizzes, ``tai`` and ``discard``."""
    said = tile.en if name is None else name
    if tile.is_honour:
        said = f"the {said}"
    elif not tile.is_known:
        said = f"a {said}"
    return said[:1].upper() + said[1:] if begins else said
