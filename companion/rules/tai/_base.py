"""The shape every tai item shares: metadata plus one unit ``(ctx) -> int`` (how many times it scores).

A unit never knows its value: the profile gives the tai per occurrence, and the scorer multiplies.
:class:`Ctx` is the win seen through one interpretation (a split and a placement of the winning
tile); items marked ``split=False`` read only the fields that every interpretation shares.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Protocol

from companion.hand import MeldKind
from companion.rules.shape import Group, GroupKind
from companion.rules.waits import WaitShape, wait_shape
from companion.rules.win import Win
from companion.tiles import Tile

__all__ = ["Ctx", "Fill", "Item", "ItemKind", "REGISTRY", "Rules", "item"]


class ItemKind(Enum):
    HAND = "hand"  # part of the hand tai
    INSTANT = "instant"  # an instant win (八仙過海, 七搶一, 四槓): scored alone
    RELATION = "relation"  # dealer tai: 莊家, 連莊, 拉莊 (spec §4.1), never hand tai


class Ctx:
    """What the item units read. Shared facts are set once per score; the split fields per candidate."""

    __slots__ = ("win", "switches", "self_draw", "called", "concealed_hand", "waits", "suits", "honours",
                 "flowers", "sets", "pair", "placement", "pungs", "chows", "concealed_pungs", "shape")

    def __init__(self, win: Win, switches: Mapping[str, Any], waits: tuple[Tile, ...]) -> None:
        self.win = win
        self.switches = switches
        self.self_draw = win.win_type.value in ("self_draw", "eight_flowers")
        self.called = sum(1 for m in win.melds if m.is_called)
        self.concealed_hand = self.called == 0
        self.waits = waits
        tiles = win.own_tiles() + ((win.win_tile,) if win.win_tile is not None else ())
        self.suits = frozenset(int(t) // 9 for t in tiles if t < 27)  # 0 m, 1 p, 2 s
        self.honours = sum(1 for t in tiles if t >= 27)
        self.flowers = win.flowers
        self.sets: tuple[Group, ...] = ()
        self.pair: Tile | None = None
        self.placement: Group | None = None
        self.pungs: tuple[Tile, ...] = ()  # kinds of every pung and kong, melds included
        self.chows = 0
        self.concealed_pungs = 0
        self.shape: WaitShape | None = None

    def set_split(self, sets: tuple[Group, ...], pair: Tile, placement: Group) -> None:
        """Fix one interpretation (spec §3.3, §3.4)."""
        self.sets, self.pair, self.placement = sets, pair, placement
        win = self.win
        pungs = [g.tile for g in sets if g.kind is GroupKind.PUNG]
        concealed = len(pungs) + sum(1 for m in win.melds if m.kind is MeldKind.CKONG)
        if placement.kind is GroupKind.PUNG and not self.self_draw:
            concealed -= 1  # completed by a discard: exposed (§3.4)
        pungs.extend(m.tile for m in win.melds if m.is_pung_like)
        self.pungs = tuple(pungs)
        self.chows = 5 - len(pungs)
        self.concealed_pungs = concealed
        assert win.win_tile is not None
        self.shape = wait_shape(placement, win.win_tile)


Unit = Callable[[Ctx], int]


class Rules(Protocol):
    """What an explanation reads of a profile: its tai per item and its switches."""

    def value(self, item_id: str) -> int: ...

    def switch(self, name: str) -> Any: ...


Fill = Callable[[Rules, bool], Mapping[str, object]]
"""The fields of an explanation that follows the profile (its values, its switches), for Chinese when true."""


@dataclass(frozen=True, slots=True)
class Item:
    """One tai item: stable id, names and a one-line explanation in both languages, and its unit."""

    id: str
    zh: str
    en: str
    explain_zh: str
    explain_en: str
    unit: Unit
    split: bool = False  # depends on the split or the placement (spec §3.3)
    kind: ItemKind = ItemKind.HAND
    zh_alt: str = ""  # the other names the spec's table gives in brackets
    fill: Fill | None = None  # the explanation is a template of the profile's values and switches
    # what one count of it is, where it scores per thing: 每個明槓或加槓 / "per exposed or added kong" (a house rule's "明槓 1 台"
    # stood beside a row of 2 for two kongs, a teacher's review); empty where it scores once
    each_zh: str = ""
    each_en: str = ""

    def count(self, ctx: Ctx) -> int:
        return self.unit(ctx)

    def name(self, lang: str) -> str:
        return self.zh if lang.startswith("zh") else self.en

    def explain(self, lang: str, rules: Rules) -> str:
        """The one-line explanation as ``rules`` (a profile) score the item: an explanation that names a value
        or a switch says the profile's, not the default's (a review read "8 tai flat" beside 16)."""
        zh = lang.startswith("zh")
        text = self.explain_zh if zh else self.explain_en
        return text if self.fill is None else text.format_map(self.fill(rules, zh))


REGISTRY: dict[str, Item] = {}
"""Every item by id, in the order of the spec's tables (the display order)."""


def item(id: str, zh: str, en: str, explain_zh: str, explain_en: str, *, split: bool = False,
         kind: ItemKind = ItemKind.HAND, zh_alt: str = "", fill: Fill | None = None,
         each: tuple[str, str] = ("", "")) -> Callable[[Unit], Unit]:
    """Register the decorated unit as an item (its docstring opens with the Chinese name). With ``fill`` the
    explanations are templates whose ``{fields}`` it gives from the profile; ``each`` says, in Chinese and English,
    what one count is where the item scores per thing (``("每組暗槓", "per concealed kong")``)."""

    def register(unit: Unit) -> Unit:
        if id in REGISTRY:
            raise ValueError(f"tai item {id!r} registered twice")
        REGISTRY[id] = Item(id, zh, en, explain_zh, explain_en, unit, split, kind, zh_alt, fill, *each)
        return unit

    return register
