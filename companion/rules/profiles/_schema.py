"""The switches a profile may set (spec §2.17, §4.4, §5.1, §6.6): type, allowed values, default.

``"none"`` stands for "no value" (TOML has no null): ``streak_cap = "none"``, ``tai_cap = 16``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["SwitchSpec", "SWITCHES", "check_switch", "switch_refused"]


@dataclass(frozen=True, slots=True)
class SwitchSpec:
    name: str
    kind: str  # "bool", "int", "int_or_none", "choice"
    default: Any
    choices: tuple[str, ...] = ()
    zh: str = ""  # its name, as the app's house rules, replay and the profile checks all say it
    en: str = ""
    names: tuple[tuple[str, str], ...] = ()  # each of ``choices``' name (Chinese, English), as the app shows it

    def choice_name(self, value: str) -> tuple[str, str]:
        """The name (Chinese, English) of the choice ``value``; the value itself where it is none of them."""
        return next((n for c, n in zip(self.choices, self.names, strict=True) if c == value), (value, value))


def _c(name: str, default: str, *choices: tuple[str, str, str], zh: str = "", en: str = "") -> SwitchSpec:
    """A switch of ``choices``, each (its value as a file writes it, its name in Chinese, in English)."""
    return SwitchSpec(name, "choice", default, tuple(c for c, _, _ in choices), zh, en,
                      tuple((z, e) for _, z, e in choices))


_LIST = (
    # procedure (spec §2.17): the game tracker reads these
    # (each choice's name is what players call it: the app's house rules and editor, and the checks, say it so)
    _c("first_dealer", "two_throws", ("two_throws", "擲兩次骰子", "two throws of the dice"),
       ("one_throw", "擲一次骰子", "one throw of the dice"), ("east_deals", "坐東的直接做莊", "East deals first"),
       zh="起莊", en="First dealer"),
    _c("seat_wind", "dealer_east", ("dealer_east", "莊家坐東", "the dealer is East"),
       ("kaimen", "以開門為東風（依骰子）", "the opened wall's owner is East (by the dice)"),
       ("fixed_seats", "座位風固定", "fixed by the seats"), zh="門風", en="Seat winds"),
    _c("reserve_rule", "fixed16", ("fixed16", "留 16 張", "16"),
       ("plus_one_per_kong", "16 張，每槓多留一張", "16, one more per kong"),
       ("play_to_end", "摸到完", "none: play to the end"), zh="留牌（不摸的牌）", en="Tiles kept back"),
    _c("multi_win", "nearest", ("nearest", "截胡（最近的一家胡）", "the nearest wins"), ("all", "都胡", "all of them win"),
       ("nearest_unless_three", "截胡，三家都胡時都算", "the nearest, but all three when three"),
       ("three_is_draw", "截胡，三家都胡時流局", "the nearest, a draw when three"),
       zh="一炮多響", en="Several winners on one discard"),
    _c("kong_from_left", "allowed", ("allowed", "可以", "allowed"), ("forbidden", "不可以", "forbidden"),
       zh="可以槓上家打的牌", en="Kong on the left player's discard"),
    _c("discard_kong_replacement_win", "forbidden", ("forbidden", "不能胡", "not a win"),
       ("self_draw", "算自摸", "a self-draw"), ("kong_bloom", "算槓上開花", "scored as a win on a replacement"),
       zh="明槓後補牌胡", en="A win on a discard kong's replacement"),
    SwitchSpec("passed_win_blocks_self_draw", "bool", True, zh="過水後不能自摸", en="A passed win blocks self-draws too"),
    SwitchSpec("passed_win_released_by_kong", "bool", False, zh="過水後自己開槓就解除", en="A player's own kong releases a passed win"),
    SwitchSpec("may_decline_last_tile", "bool", True, zh="可以不摸海底", en="The last tile may be declined"),
    SwitchSpec("draw_keeps_deal", "bool", True, zh="流局莊家連莊", en="The dealer keeps the deal after a draw"),
    SwitchSpec("streak_cap", "int_or_none", "none", zh="連莊台數最多算到", en="Streak tai counted up to"),
    SwitchSpec("declared_ready_tai", "int", 0, zh="報聽台數", en="Declared-ready tai"),
    _c("false_win_after", "void_hand", ("void_hand", "這把作廢重來", "the hand is void"),
       ("continue_dead", "繼續打，詐胡的人陪打", "play on, the offender plays dead"), zh="詐胡之後", en="After a false win"),
    _c("wrong_count", "dead_hand", ("dead_hand", "不能胡，繼續打", "may not win, plays on"),
       ("warn_only", "只提醒", "a warning only"), zh="相公（牌數不對）", en="A wrong tile count"),
    _c("human_win_window", "first_go_around",
       ("first_go_around", "第一巡內胡別人的牌", "in the first go-around"),  # (a phone cut a longer one)
       ("before_own_discard", "閒家自己打第一張之前", "before their own first discard"), zh="人胡時機",
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
    _c("false_win_penalty", "fixed8_plus_dealer",
       ("fixed8_plus_dealer", "每家賠 底＋8 台（加莊家台）", "base + 8 tai to each (+ dealer tai)"),
       ("claimed_tai", "每家賠 宣稱的台數", "the tai claimed, to each"),
       ("limit", "賠一份滿台（不限則 8 台），三家分", "one limit (the cap, else 8), split by the three"),
       ("none", "不罰", "no penalty"), zh="詐胡罰則", en="False-win penalty"),
)

SWITCHES: dict[str, SwitchSpec] = {s.name: s for s in _LIST}


def _listed(words: list[str], last: str, sep: str = ", ") -> str:
    return sep.join(words[:-1]) + last + words[-1] if len(words) > 1 else "".join(words)


def switch_refused(name: str, value: Any) -> tuple[str, str]:
    """Why switch ``name`` (a known one) does not take ``value``, (English, Chinese), for a host mending a file by
    hand: the switch by its name as the app shows it, its key in brackets, and each choice by its name with its
    value as the file writes it (a review: "multi_win must be one of nearest, all, …", in English alone)."""
    spec = SWITCHES[name]
    if spec.kind == "bool":
        want, want_zh = "true or false", "true 或 false"
    elif spec.kind == "int":
        want, want_zh = "an integer >= 0", "0 以上的整數"
    elif spec.kind == "int_or_none":
        # a cap of 0 tai still reads (a table played under one replays) but a profile may not set one: said as the
        # cap check says it (">= 0" here and "at least 1" there: a newcomer review)
        low = 1 if name == "tai_cap" else 0
        want, want_zh = f'an integer >= {low} or "none"', f'{low} 以上的整數或 "none"'
    else:
        named = [(c, *spec.choice_name(c)) for c in spec.choices]
        want = "one of " + _listed([f"“{en}” ({c})" for c, _, en in named], " or ")
        want_zh = _listed([f"「{zh}」（{c}）" for c, zh, _ in named], "或", "、") + "其中之一"
    return (f"{spec.en} ({name}) must be {want}, got {value!r}",
            f"{spec.zh}（{name}）要是{'' if want_zh.startswith('「') else ' '}{want_zh}，收到 {value!r}")


def check_switch(name: str, value: Any, where: str) -> Any:
    """The value, checked against the switch's type; raises ``ValueError`` naming ``where`` (its Chinese:
    :func:`switch_refused`)."""
    spec = SWITCHES.get(name)
    if spec is None:
        raise ValueError(f"{where}: unknown switch {name!r} (known: {', '.join(sorted(SWITCHES))})")
    ok: bool
    if spec.kind == "bool":
        ok = isinstance(value, bool)
    elif spec.kind in ("int", "int_or_none"):
        ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
        ok = ok or spec.kind == "int_or_none" and value == "none"
    else:
        ok = value in spec.choices
    if not ok:
        raise ValueError(f"{where}: {switch_refused(name, value)[0]}")
    return value
