"""Scoring a win (spec §3.3): every split and every placement of the winning tile, the best one kept.

>>> from companion.rules.win import Win
>>> s = score(Win.of("123m456m234p678p45s88s", "3s", "discard", seat_wind="W", round_wind="S",
...                  discarder="S"))
>>> s.hand_tai, [i.id for i in s.items], s.wait_shape.value
(3, ['menqing', 'pinghu'], 'two_sided')

The best interpretation has the highest hand tai (before any cap), then the most item occurrences,
then comes first in the canonical order of spec §3.3 (sets as (lowest tile, kind), pung before chow,
then the pair; the placement's group in the same order, the pair last). Dealer tai D = 1 + 2N is kept
apart (:attr:`Score.dealer_tai`); settlement adds it to the payments that involve the dealer.

Readings of this module (default profile's reading; the other is a switch or noted in the report):

- With ``eight_flowers_compound = false`` a hand completed on the eighth flower's replacement is paid as
  a standalone 八仙過海 (8 flat), not as the better of the two.
- A win on a discard kong's replacement under ``discard_kong_replacement_win = forbidden`` and a hand
  below ``min_tai`` raise :class:`FalseWin` (a 詐胡 if declared, spec §2.16, §6.4).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from companion.english import listed
from companion.rules._scoring_splits import splits
from companion.rules.profiles import Profile, load_profile
from companion.rules.shape import Decomposition, Group, GroupKind
from companion.rules.tai import ITEMS, Ctx, Item, ItemKind, replaced
from companion.rules.waits import WaitShape, wait_shape, waits
from companion.rules.win import Replacement, Win, WinInputError, WinType, wind_letter
from companion.tiles import Tile, counts34, format_tiles

__all__ = ["FalseWin", "NotAWin", "Score", "ScoredItem", "dealer_tai", "score", "score_all"]


class NotAWin(ValueError):
    """The tiles do not make a win (spec §3.1): the message names the hand."""

    def __init__(self, win: Win, reason: str, reason_zh: str = "") -> None:
        self.win = win
        self.reason = reason
        self.reason_zh = reason_zh or reason
        super().__init__(f"not a win: {win.describe()}: {reason}")


class FalseWin(NotAWin):
    """A declared win the profile does not allow (spec §2.16): a 詐胡 if it was declared.

    ``claimed`` is the score the hand would have had (what the offender claimed), when it has a shape:
    the ``claimed_tai`` penalty of spec §6.6 uses its hand tai.
    """

    def __init__(self, win: Win, reason: str, reason_zh: str = "", claimed: Score | None = None) -> None:
        super().__init__(win, reason, reason_zh)
        self.claimed = claimed


@dataclass(frozen=True, slots=True)
class ScoredItem:
    """One line of the breakdown: ``tai`` is the item's total (``count`` occurrences × its value)."""

    id: str
    zh: str
    en: str
    tai: int
    count: int

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "zh": self.zh, "en": self.en, "tai": self.tai, "count": self.count}


@dataclass(frozen=True, slots=True)
class Score:
    """The chosen interpretation: items, hand tai, dealer tai apart, the split, the waits and the shape."""

    win: Win
    profile: Profile
    items: tuple[ScoredItem, ...]
    hand_tai: int
    dealer_tai: int
    decomposition: Decomposition | None = None
    placement: Group | None = None
    waits: tuple[Tile, ...] = ()
    wait_shape: WaitShape | None = None
    interpretations: int = 0

    @property
    def capped_tai(self) -> int:
        """The hand tai after ``tai_cap`` (spec §6.4); dealer tai is never capped."""
        cap = self.profile.switch("tai_cap")
        return self.hand_tai if cap == "none" else min(self.hand_tai, int(cap))

    @property
    def is_instant(self) -> bool:
        return self.decomposition is None

    def item(self, item_id: str) -> ScoredItem | None:
        return next((i for i in self.items if i.id == item_id), None)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "profile": self.profile.id,
            "hand_tai": self.hand_tai,
            "items": [i.to_dict() for i in self.items],
            "dealer_tai": self.dealer_tai,
            "waits": [t.code for t in self.waits],
            "wait_shape": self.wait_shape.value.replace("_", "-") if self.wait_shape else None,
            "decomposition": _decomposition_list(self.decomposition),
            "placement": str(self.placement) if self.placement else None,
        }
        if self.capped_tai != self.hand_tai:
            out["capped_tai"] = self.capped_tai
        return out


def _decomposition_list(d: Decomposition | None) -> list[str]:
    if d is None:
        return []
    return [str(g) for g in d.sets] + [f"pair:{format_tiles((d.pair, d.pair))}"] + [str(m) for m in d.melds]


def dealer_tai(win: Win, profile: Profile | None = None) -> int:
    """D = 莊家 + N × (連莊 + 拉莊) = 1 + 2N under the default, N capped by ``streak_cap`` (spec §4.1)."""
    prof = load_profile(profile)
    ctx = Ctx(win, prof.switches, ())
    return sum(prof.value(i.id) * i.count(ctx) for i in ITEMS.values() if i.kind is ItemKind.RELATION)


def score(win: Win, profile: Profile | str | None = None) -> Score:
    """Score ``win`` under ``profile`` (an id, a TOML path or a :class:`Profile`; default: the win's own
    profile, else ``atawmj_2009``). Raises :class:`NotAWin` or :class:`FalseWin`."""
    prof = load_profile(profile if profile is not None else win.profile)
    if prof.switch("seat_wind") == "dealer_east" and win.dealer is not Tile.EAST:
        raise WinInputError(
            "dealer", f"the rule set “{prof.name_en}” counts the seat winds from the dealer, so the dealer is East, "
                      f"not {wind_letter(win.dealer)}: give the winner's wind as seen from the dealer",
            f"「{prof.name_zh}」的門風從莊家算起（莊家坐東），莊家一定是東，不是{win.dealer.zh}：請以莊家為東來給胡牌者的門風")
    eight = win.win_type is WinType.EIGHT_FLOWERS
    if win.win_tile is None or (eight and len(win.flowers) != 8):
        return _check_min(_instant(win, prof))
    if len(win.flowers) == 8 and not prof.switch("eight_flowers_compound"):
        return _check_min(_instant(win, prof))
    if win.replacement is Replacement.KONG and prof.switch("discard_kong_replacement_win") == "forbidden":
        # the table's own rule said as the table's, with no switch's id (a change review read "the table's own rules
        # (switches: discard_kong_replacement_win) does not allow", and 「本桌自己的規矩規定」)
        whose = ("the house rules do", "照本桌規矩") \
            if "discard_kong_replacement_win" in prof.played_over else (f"the rule set “{prof.name_en}” does",
                                                                        f"「{prof.name_zh}」規定")
        raise FalseWin(win, f"{whose[0]} not allow a win on the replacement drawn after a kong of another "
                            "player's discard", f"明槓（槓別人打出的牌）後摸的補牌，{whose[1]}不能拿來胡", _best(win, prof))
    try:
        best = _best(win, prof)
    except NotAWin:
        if not eight:
            raise
        # 八仙過海 is a win without any shape (§3.1): a replacement that completes nothing leaves it 8 flat
        best = _instant(win, prof)
    return _check_min(best)


def replacement_named(win: Win, profile: Profile | str | None = None) -> Win:
    """``win`` with its winning tile named where it is a 八仙過海 given as 17 tiles, the eighth flower's replacement
    among them and not named (``companion tai``: a review's 17 tiles that made a hand were paid 8 flat): the tile of
    the 17 that scores best, as the live table scores a replacement it did not see (spec §3.1, §4.2: the hand is
    scored as usual and 8 added). ``win`` itself where 16 tiles are given, compounding is off, or no tile of the 17
    completes a hand (8 flat). :func:`score` leaves an instant win without its tile 8 flat: the tracker asks that
    where the completed hand does not count (declared later, or a self-draw barred by 過水)."""
    prof = load_profile(profile if profile is not None else win.profile)
    if win.win_type is not WinType.EIGHT_FLOWERS or win.win_tile is not None or len(win.flowers) != 8 \
            or len(win.concealed) + 3 * len(win.melds) != 17 or not prof.switch("eight_flowers_compound"):
        return win
    best: tuple[int, Win] | None = None
    for t in dict.fromkeys(win.concealed):
        rest = list(win.concealed)
        rest.remove(t)
        named = replace(win, concealed=tuple(rest), win_tile=t)
        try:
            tai = _best(named, prof).hand_tai
        except (NotAWin, WinInputError):
            continue
        if best is None or tai > best[0]:
            best = (tai, named)
    return best[1] if best is not None else win


def _check_min(s: Score) -> Score:
    need = s.profile.switch("min_tai")
    if s.hand_tai < need and "min_tai" in s.profile.played_over:  # the table's own minimum, not the set's
        own = s.profile.played_over["min_tai"]
        # a set with none has none (a change review read "ATAWMJ 2009's own is 0", 「原本是 0 台」)
        own_en, own_zh = (f"{s.profile.name_en}'s own is {own}", f"「{s.profile.name_zh}」原本是 {own} 台") if own else \
            (f"{s.profile.name_en} has no minimum", f"「{s.profile.name_zh}」本身不限台數")
        raise FalseWin(s.win, f"{s.hand_tai} tai is below the minimum of {need} tai a win needs (the table's own "
                              f"minimum; {own_en})",  # (no switch's id: a change review)
                       f"{s.hand_tai} 台未達起胡 {need} 台（本桌規矩的起胡台數；{own_zh}）", s)
    if s.hand_tai < need:
        raise FalseWin(s.win, f"{s.hand_tai} tai is below the minimum of {need} tai a win needs under the rule set "
                              f"“{s.profile.name_en}”", f"{s.hand_tai} 台未達起胡 {need} 台（「{s.profile.name_zh}」）", s)
    return s


def _instant(win: Win, prof: Profile) -> Score:
    # a normal win holding eight flowers with compounding off is paid as 八仙過海; an instant win keeps its
    # own kind (a 七搶一 record may list the robbed eighth flower too)
    kind = win.win_type if win.win_type.is_instant else WinType.EIGHT_FLOWERS
    item_id = {WinType.EIGHT_FLOWERS: "eight_flowers", WinType.SEVEN_FLOWERS_ROB: "seven_rob_one",
               WinType.FOUR_KONGS: "four_kongs"}[kind]
    it = ITEMS[item_id]
    ctx = Ctx(win, prof.switches, ())
    if not it.count(ctx):
        raise NotAWin(win, f"{it.en} needs {_INSTANT_NEEDS[item_id][1]}",
                      f"{it.zh}需要{_INSTANT_NEEDS[item_id][0]}")
    value = prof.value(item_id)
    if not value:
        raise FalseWin(win, f"{it.en} does not count as a win under the rule set “{prof.name_en}”",
                       f"「{prof.name_zh}」不計{it.zh}，不算胡牌")
    return Score(win, prof, (ScoredItem(it.id, it.zh, it.en, value, 1),), value, dealer_tai(win, prof))


_INSTANT_NEEDS = {
    "eight_flowers": ("八張花", "all eight flowers"),
    "seven_rob_one": ("七張花並搶第八張", "seven flowers and the robbed eighth"),
    "four_kongs": ("四個槓", "four kongs"),
}


def _candidates(win: Win) -> list[tuple[tuple[Group, ...], Tile, Group]]:
    """Every (split, placement) in canonical order (spec §3.3 steps 2, 3 and 7)."""
    assert win.win_tile is not None
    tile = win.win_tile
    counts = counts34(win.concealed)
    counts[tile] += 1
    chow_only = win.win_type is WinType.ROB_KONG  # the robbed tile always completes a chow (§2.10)
    out = []
    for sets, pair in splits(counts):
        seen: set[Group] = set()
        for g in sets:
            if g.kind is GroupKind.CHOW:
                holds = g.tile <= tile <= g.tile + 2
            else:
                holds = g.tile == tile and not chow_only
            if holds and g not in seen:
                seen.add(g)
                out.append((sets, pair, g))
        if pair == tile and not chow_only:
            out.append((sets, pair, Group(GroupKind.PAIR, pair)))
    return out


@dataclass(frozen=True, slots=True)
class _Plan:
    """What a profile fixes for every score: values, the items worth scoring, the replacement table."""

    values: dict[str, int]
    shared: tuple[Item, ...]
    per_split: tuple[tuple[str, Any], ...]
    relations: tuple[tuple[Item, int], ...]
    table: dict[str, frozenset[str]]


_PLANS: dict[int, tuple[Profile, _Plan]] = {}


def _plan(prof: Profile) -> _Plan:
    """The profile's plan, built once per profile object (built-in profiles are cached objects)."""
    hit = _PLANS.get(id(prof))
    if hit is not None and hit[0] is prof:
        return hit[1]
    values = {i.id: prof.value(i.id) for i in ITEMS.values() if i.kind is not ItemKind.RELATION}
    active = [i for i in ITEMS.values() if values.get(i.id)]
    plan = _Plan(values, tuple(i for i in active if not i.split),
                 tuple((i.id, i.unit) for i in active if i.split),
                 tuple((i, prof.value(i.id)) for i in ITEMS.values() if i.kind is ItemKind.RELATION),
                 replaced(dict(prof.switches)))
    if len(_PLANS) > 256:  # (house.py scores under a profile per other reading of each house-rule switch)
        _PLANS.clear()
    _PLANS[id(prof)] = (prof, plan)
    return plan


class _Run:
    """Everything one score shares across interpretations: the waits, the shared items, the tables."""

    def __init__(self, win: Win, prof: Profile) -> None:
        assert win.win_tile is not None
        real = waits(win.hand())
        if win.win_tile not in real:
            # each wait on its own, listed (it read "(real waits: 25m)" and 「聽：二萬 五萬」: a final review)
            shown = listed([t.code for t in sorted(real)]) or "none"
            shown_zh = "、".join(t.zh for t in sorted(real)) or "無"
            raise NotAWin(win, f"{win.win_tile.code} does not complete five sets and a pair (real waits: "
                               f"{shown})", f"{win.win_tile.zh}不能湊成五組加一對（聽：{shown_zh}）")
        self.candidates = _candidates(win)
        if not self.candidates:
            raise NotAWin(win, f"a robbed {win.win_tile.code} must complete a chow: the player whose kong is robbed "
                               "holds the other three copies",
                          "搶槓的牌只能用來組順子：被搶槓的人拿著另外三張")
        self.win, self.prof, self.waits = win, prof, real
        plan = _plan(prof)
        self.values, self.per_split, self.table = plan.values, plan.per_split, plan.table
        self.ctx = ctx = Ctx(win, prof.switches, real)
        self.fixed = {i.id: n for i in plan.shared if (n := i.unit(ctx))}
        self.dealer_tai = sum(v * i.unit(ctx) for i, v in plan.relations)

    def evaluate(self, sets: tuple[Group, ...], pair: Tile, placement: Group) -> tuple[tuple[int, int], dict[str, int]]:
        """((hand tai, item occurrences), kept item counts) of one interpretation."""
        ctx = self.ctx
        ctx.set_split(sets, pair, placement)
        counts = dict(self.fixed)
        for item_id, unit in self.per_split:
            n = unit(ctx)
            if n:
                counts[item_id] = n
        table = self.table
        removed = set().union(*(table[k] for k in counts if k in table))
        kept = {k: n for k, n in counts.items() if k not in removed}
        values = self.values
        return (sum(values[k] * n for k, n in kept.items()), sum(kept.values())), kept

    def make(self, kept: dict[str, int], total: int, sets: tuple[Group, ...], pair: Tile,
             placement: Group) -> Score:
        items = tuple(_scored(ITEMS[k], self.values[k], kept[k]) for k in ITEMS if k in kept)
        return Score(self.win, self.prof, items, total, self.dealer_tai,
                     Decomposition(sets, pair, self.win.melds), placement, self.waits,
                     wait_shape(placement, self.win.win_tile) if self.win.win_tile is not None else None,
                     len(self.candidates))


def _best(win: Win, prof: Profile) -> Score:
    run = _Run(win, prof)
    best: tuple[int, int] | None = None
    chosen: tuple[dict[str, int], tuple[Group, ...], Tile, Group] | None = None
    for sets, pair, placement in run.candidates:
        key, kept = run.evaluate(sets, pair, placement)
        if best is None or key > best:
            best, chosen = key, (kept, sets, pair, placement)
    assert best is not None and chosen is not None
    return run.make(chosen[0], best[0], *chosen[1:])


def score_all(win: Win, profile: Profile | str | None = None) -> tuple[Score, ...]:
    """Every interpretation (split and placement) of a normal win, scored, in canonical order (spec
    §3.3): the teaching screens show why :func:`score` chose its one. Instant wins have none."""
    prof = load_profile(profile if profile is not None else win.profile)
    if win.win_tile is None:
        return ()
    run = _Run(win, prof)
    out = []
    for sets, pair, placement in run.candidates:
        (total, _), kept = run.evaluate(sets, pair, placement)
        out.append(run.make(kept, total, sets, pair, placement))
    return tuple(out)


def _scored(it: Item, value: int, count: int) -> ScoredItem:
    return ScoredItem(it.id, it.zh, it.en, value * count, count)
