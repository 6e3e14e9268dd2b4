"""The switches a profile may set (spec §2.17, §4.4, §5.1, §6.6): type, allowed values, default.

``"none"`` stands for "no value" (TOML has no null): ``streak_cap = "none"``, ``tai_cap = 16``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SwitchSpec", "SWITCHES", "check_switch"]


@dataclass(frozen=True, slots=True)
class SwitchSpec:
    name: str
    kind: str  # "bool", "int", "int_or_none", "choice"
    default: Any
    choices: tuple[str, ...] = ()
    zh: str = ""  # its name, as the app's house rules, replay and the profile checks all say it
    en: str = ""


def _c(name: str, default: str, *choices: str, zh: str = "", en: str = "") -> SwitchSpec:
    return SwitchSpec(name, "choice", default, choices, zh, en)


_LIST = (
    # procedure (spec §2.17): the game tracker reads these
    _c("first_dealer", "two_throws", "two_throws", "one_throw", "east_deals", zh="起莊", en="First dealer"),
    _c("seat_wind", "dealer_east", "dealer_east", "kaimen", "fixed_seats", zh="門風", en="Seat winds"),
    _c("reserve_rule", "fixed16", "fixed16", "plus_one_per_kong", "play_to_end", zh="留牌（不摸的牌）", en="Tiles kept back"),
    _c("multi_win", "nearest", "nearest", "all", "nearest_unless_three", "three_is_draw",
       zh="一炮多響", en="Several winners on one discard"),
    _c("kong_from_left", "allowed", "allowed", "forbidden", zh="可以槓上家打的牌", en="Kong on the left player's discard"),
    _c("discard_kong_replacement_win", "forbidden", "forbidden", "self_draw", "kong_bloom",
       zh="明槓後補牌胡", en="A win on a discard kong's replacement"),
    SwitchSpec("passed_win_blocks_self_draw", "bool", True, zh="過水後不能自摸", en="A passed win blocks self-draws too"),
    SwitchSpec("passed_win_released_by_kong", "bool", False, zh="過水後自己開槓就解除", en="A player's own kong releases a passed win"),
    SwitchSpec("may_decline_last_tile", "bool", True, zh="可以不摸海底", en="The last tile may be declined"),
    SwitchSpec("draw_keeps_deal", "bool", True, zh="流局莊家連莊", en="The dealer keeps the deal after a draw"),
    SwitchSpec("streak_cap", "int_or_none", "none", zh="連莊台數最多算到", en="Streak tai counted up to"),
    SwitchSpec("declared_ready_tai", "int", 0, zh="報聽台數", en="Declared-ready tai"),
    _c("false_win_after", "void_hand", "void_hand", "continue_dead", zh="詐胡之後", en="After a false win"),
    _c("wrong_count", "dead_hand", "dead_hand", "warn_only", zh="相公（牌數不對）", en="A wrong tile count"),
    _c("human_win_window", "first_go_around", "first_go_around", "before_own_discard", zh="人胡時機",
       en="When a human win counts"),
    # scoring (spec §5.1)
    SwitchSpec("pinghu_concealed_allowed", "bool", True, zh="門清可平胡", en="Plain hand may be concealed"),
    SwitchSpec("pinghu_check_honours_flowers", "bool", True, zh="平胡無字無花", en="Plain hand: no honours, no flowers"),
    SwitchSpec("small_winds_adds_winds", "bool", True, zh="小四喜另計風", en="Wind items add to small four winds"),
    SwitchSpec("seek_adds_single_wait", "bool", True, zh="全求半求另計獨聽", en="Single wait adds to all-seek / half-seek"),
    SwitchSpec("heaven_earth_keep_zimo", "bool", False, zh="天地胡另計自摸", en="Self-draw adds to heavenly / earthly win"),
    SwitchSpec("all_pungs_with_five_concealed", "bool", True, zh="五暗刻另計碰碰胡", en="All pungs adds to five concealed pungs"),
    SwitchSpec("kong_bloom_with_last_tile", "bool", True, zh="槓上開花與海底並計", en="Win on a replacement and last-tile draw stack"),
    SwitchSpec("eight_flowers_compound", "bool", True, zh="八仙過海加計牌型", en="A completed hand adds to eight flowers"),
    SwitchSpec("any_wind_pung_tai", "int", 0, zh="見風見台", en="Tai per wind pung (any seat)"),
    # settlement (spec §4.4, §6.4, §6.6)
    SwitchSpec("tai_cap", "int_or_none", "none", zh="滿台", en="Tai cap"),
    SwitchSpec("min_tai", "int", 0, zh="起胡台數", en="Minimum tai"),
    _c("false_win_penalty", "fixed8_plus_dealer", "fixed8_plus_dealer", "claimed_tai", "limit", "none",
       zh="詐胡罰則", en="False-win penalty"),
)

SWITCHES: dict[str, SwitchSpec] = {s.name: s for s in _LIST}


def check_switch(name: str, value: Any, where: str) -> Any:
    """The value, checked against the switch's type; raises ``ValueError`` naming ``where``."""
    spec = SWITCHES.get(name)
    if spec is None:
        raise ValueError(f"{where}: unknown switch {name!r} (known: {', '.join(sorted(SWITCHES))})")
    ok: bool
    if spec.kind == "bool":
        ok = isinstance(value, bool)
        want = "true or false"
    elif spec.kind == "int":
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        want = "an integer >= 0"
    elif spec.kind == "int_or_none":
        ok = value == "none" or (isinstance(value, int) and not isinstance(value, bool) and value >= 0)
        # a cap of 0 tai still reads (a table played under one replays) but a profile may not set one: said as the
        # cap check says it (">= 0" here and "at least 1" there: a newcomer review)
        want = 'an integer >= 1 or "none"' if name == "tai_cap" else 'an integer >= 0 or "none"'
    else:
        ok = value in spec.choices
        want = "one of " + ", ".join(spec.choices)
    if not ok:
        raise ValueError(f"{where}: switch {name} must be {want}, got {value!r}")
    return value
