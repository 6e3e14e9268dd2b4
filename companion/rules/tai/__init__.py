"""The tai catalogue (spec §4.2, §4.4): every item, and which item replaces which, as data.

>>> ITEMS["menqing"].zh, ITEMS["menqing"].en
('門清', 'Concealed hand')

Each item is an :class:`Item` whose unit ``(ctx) -> int`` says how many times it scores; the profile
gives the tai per occurrence. Exclusions are the tables :data:`REPLACES` (always) and
:data:`SWITCH_REPLACES` (only while a switch has the given value). An item replaces others only when it
scores (a positive value in the profile): an item worth 0 is off, as if absent.
"""

from __future__ import annotations

from companion.rules.tai import flowers, honours, patterns, special, winning
from companion.rules.tai._base import REGISTRY, Ctx, Item, ItemKind

__all__ = ["Ctx", "Item", "ItemKind", "ITEMS", "ORDER", "REPLACES", "SWITCH_REPLACES", "SWITCH_VALUED",
           "UNSUPPORTED", "replaced"]

_ = (flowers, honours, patterns, special, winning)  # imported for their registrations

ORDER: tuple[str, ...] = (
    # spec §4.2, in the table's order
    "dealer", "streak", "streak_pull", "menqing", "buqiu", "zimo", "seat_wind", "round_wind", "seat_flower",
    "dragon_pung", "single_wait", "half_seek", "rob_kong", "kong_bloom", "last_tile", "last_discard", "pinghu",
    "all_seek", "flower_kong", "three_concealed", "earth_ready", "all_pungs", "small_dragons", "half_flush",
    "four_concealed", "heaven_ready", "five_concealed", "big_dragons", "small_winds", "full_flush",
    "all_honours", "eight_flowers", "heaven_win", "human_win", "earth_win", "big_winds",
    # spec §4.4 and §5.3
    "seven_rob_one", "four_kongs", "kong_bonus_exposed", "kong_bonus_concealed", "declared_ready",
    "no_flowers", "no_honours_no_flowers", "any_flower_any_wind", "any_wind_pung", "ready_on_self_draw",
)

ITEMS: dict[str, Item] = {i: REGISTRY[i] for i in ORDER}
"""Every item by id, in display order."""

UNSUPPORTED: dict[str, tuple[str, str]] = {
    "eight_pairs_half": ("八對半：這個程式的計台規則沒有定義它的牌型，不能開啟。",
                         "eight pairs and a half: the scoring rules of this program do not define its shape, so it "
                         "cannot be switched on."),
}
"""Ids the spec names but does not define: a profile may only give them 0."""

SWITCH_VALUED: dict[str, str] = {"declared_ready": "declared_ready_tai", "any_wind_pung": "any_wind_pung_tai"}
"""Items whose value is a switch of spec §2.17 / §5.1 rather than an entry of the tai table."""

REPLACES: dict[str, tuple[str, ...]] = {
    # spec §4.2-§4.3 of atawmj_2009
    # (天胡 has no hand before the win: never a wait item, nor a ready tai added to each self-draw, spec §3.5)
    "heaven_win": ("menqing", "buqiu", "heaven_ready", "earth_ready", "declared_ready", "single_wait",
                   "ready_on_self_draw"),
    "earth_win": ("menqing", "buqiu", "heaven_ready", "earth_ready", "declared_ready"),
    "human_win": ("menqing", "heaven_ready", "earth_ready", "declared_ready"),
    "heaven_ready": ("menqing", "buqiu", "declared_ready"),
    "earth_ready": ("menqing", "buqiu", "declared_ready"),
    # spec §4.2: 大四喜 "replaces 門風, 圈風 and 小四喜. Other items add": 見風見台 (宅神爺's, §5.3) adds, one per
    # wind pung, as it does beside 小四喜 there (an earlier reading took it for 門風 and 圈風 and dropped it: the
    # bigger hand scored 4 tai less than the spec says, where the smaller one kept its 3; a review)
    "big_winds": ("seat_wind", "round_wind", "small_winds"),
    "small_dragons": ("dragon_pung",),
    "big_dragons": ("dragon_pung",),
    "four_concealed": ("three_concealed",),
    "five_concealed": ("three_concealed", "four_concealed"),
    # spec §4.4 extras (readings of this project, see the report): the bigger flower/honour items
    # absorb the smaller ones they restate.
    "no_honours_no_flowers": ("no_flowers",),
    "any_flower_any_wind": ("seat_flower", "seat_wind"),  # 圈風 is the round's, not the seat's: kept (a review)
}

SWITCH_REPLACES: tuple[tuple[str, object, str, tuple[str, ...]], ...] = (
    # (switch, value, item, items it replaces while the switch has that value) - spec §5.1
    ("heaven_earth_keep_zimo", False, "heaven_win", ("zimo",)),
    ("heaven_earth_keep_zimo", False, "earth_win", ("zimo",)),
    ("small_winds_adds_winds", False, "small_winds", ("seat_wind", "round_wind", "any_wind_pung")),
    ("seek_adds_single_wait", False, "all_seek", ("single_wait",)),
    ("seek_adds_single_wait", False, "half_seek", ("single_wait",)),
    ("all_pungs_with_five_concealed", False, "five_concealed", ("all_pungs",)),
    # 槓上開花 and 海底撈月 exclusive (MJ888, 中華 per [Y]): the replacement win keeps 槓上開花.
    ("kong_bloom_with_last_tile", False, "kong_bloom", ("last_tile",)),
)


def replaced(switches: dict[str, object] | None = None) -> dict[str, frozenset[str]]:
    """The replacement table in force under ``switches``: item -> the items it removes."""
    table = {k: set(v) for k, v in REPLACES.items()}
    for switch, value, bigger, smaller in SWITCH_REPLACES:
        if switches is not None and switches.get(switch) == value:
            table.setdefault(bigger, set()).update(smaller)
    return {k: frozenset(v) for k, v in table.items()}
