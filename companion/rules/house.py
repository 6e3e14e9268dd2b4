"""Which items of a score rest on a reading the rule sources leave open (spec §5.4): the UI marks them "house rule".

A profile lists its uncertain values in ``house_rules``: an item's tai (``tai.<id>``) or a switch
(``switches.<name>``) that decides whether items stack or count at all. An item is marked when its own value is
listed, or when the hand would score it otherwise under another value of a listed switch (the hand is scored again
under each): the winds beside 小四喜, 獨聽 beside 全求, 平胡 on a concealed hand … The item that stays either way (小四喜
itself) is not marked. The items another reading would add, and this profile leaves out (海底撈月 beside 槓上開花 where
they do not stack), are said too, so a player whose table counts them knows.

Who sits East (§5.4 item 1, ``switches.seat_wind``) is the table's seating, not the score's: a win is scored with
its seat wind given, so 門風 and 正花 follow from it with certainty and are not marked (the switch changes no score).

>>> from companion.rules.scoring import score
>>> from companion.rules.win import Win
>>> s = score(Win.of("333z444z22z345s67s", "8s", "discard", melds=["pung:111z@O"], seat_wind="W",
...                  round_wind="N", discarder="S"))
>>> sorted(house_reading(s).flagged)
['round_wind', 'seat_wind']
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from companion.rules.profiles import Profile, ProfileError, load_profile
from companion.rules.profiles._schema import SWITCHES, switch_said
from companion.rules.scoring import FalseWin, NotAWin, Score, ScoredItem, score
from companion.rules.tai import ORDER, SWITCH_REPLACES
from companion.rules.win import WinInputError

__all__ = ["HouseReading", "house_reading"]

@dataclass(frozen=True, slots=True)
class HouseReading:
    """``flagged``: ids of the score's items whose value, or whether they count here, is a house rule.
    ``otherwise``: items another reading of a listed switch would add to this hand, which this profile leaves out."""

    flagged: frozenset[str]
    otherwise: tuple[ScoredItem, ...] = ()
    because: tuple[tuple[str, str], ...] = ()
    """Each of ``otherwise``'s reason (Chinese, English): the rule of this profile that leaves it out, as the app's
    house rules name it ("平胡無字無花" / "Plain hand: no honours, no flowers"); a review read "this rule set does not"
    count 平胡 beside a flower as if it had no 平胡 at all."""


def _other_values(name: str, value: Any) -> tuple[Any, ...]:
    spec = SWITCHES[name]
    if spec.kind == "bool":
        return (not value,)
    if spec.kind == "choice":
        return tuple(c for c in spec.choices if c != value)
    return ()  # a number: no finite set of readings to try


_VARIANTS: dict[tuple[int, str, Any], tuple[Profile, Profile]] = {}
"""A profile with one switch set otherwise, made once: the scorer builds its plan once per profile object."""


def _variant(prof: Profile, name: str, value: Any) -> Profile:
    key = (id(prof), name, value)
    hit = _VARIANTS.get(key)
    if hit is not None and hit[0] is prof:
        return hit[1]
    if len(_VARIANTS) > 256:
        _VARIANTS.clear()
    other = dataclasses.replace(prof, switches={**prof.switches, name: value})
    _VARIANTS[key] = (prof, other)
    return other


def _items_under(sc: Score, other: Profile) -> dict[str, ScoredItem] | None:
    """The hand's items under ``other``; a 詐胡 there (under its minimum, say) gives what was claimed; None: no
    shape to compare (not a win that way)."""
    try:
        return {i.id: i for i in score(sc.win, other).items}
    except FalseWin as false:
        return {i.id: i for i in false.claimed.items} if false.claimed is not None else None
    except (NotAWin, WinInputError):  # (a win the other reading cannot seat: nothing to compare)
        return None


class _Reads(dict[str, Any]):
    """A profile's switches that note which ones a score reads: one it never reads cannot change it."""

    def __init__(self, switches: Mapping[str, Any]) -> None:
        super().__init__(switches)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.read.add(key)
        return super().get(key, default)


_REPLACING = frozenset(s for s, *_ in SWITCH_REPLACES)
"""Switches the scorer's plan reads once per profile (not on each score): always tried."""


def _read_by(sc: Score) -> set[str]:
    """The switches scoring ``sc``'s win reads under its profile (scored once more, noting them)."""
    switches = _Reads(sc.profile.switches)
    try:
        score(sc.win, dataclasses.replace(sc.profile, switches=switches))
    except NotAWin:  # (it was scored once already: cannot happen, but nothing is lost by trying them all)
        return set(SWITCHES)
    # the score reads seat_wind only to refuse a dealer the seating cannot have: it changes no item (above)
    return (switches.read - {"seat_wind"}) | _REPLACING


_EIGHT_FLOWERS_DOUBT = frozenset(("tai.eight_flowers", "switches.eight_flowers_compound"))
"""The readings of 八仙過海 a profile may list (spec §5.4 item 5): whether a standalone one adds 自摸 or flowers."""


def house_reading(sc: Score) -> HouseReading:
    """The items of ``sc`` to mark "house rule" under its profile, and the items other readings would add."""
    prof = sc.profile
    mine = {i.id: i for i in sc.items}
    # §5.4 item 5 doubts only what a standalone 八仙過海 adds: a hand completed on the eighth flower's replacement is
    # scored as usual and 8 added (§4), its items no house rule for that (every one of them was marked, a review)
    compound = "eight_flowers" in mine and sc.decomposition is not None
    skipped = _EIGHT_FLOWERS_DOUBT if compound else frozenset()
    flagged = {i for i in mine if prof.item_is_house_rule(i) and not (compound and i == "eight_flowers")}
    otherwise: dict[str, ScoredItem] = {}
    because: dict[str, tuple[str, str]] = {}
    read = _read_by(sc)
    for key in prof.house_rules:
        if key in skipped:
            continue
        kind, _, name = key.partition(".")
        if kind != "switches" or name not in SWITCHES or name not in read:  # unread: no other value changes it
            continue
        for value in _other_values(name, prof.switches[name]):
            theirs = _items_under(sc, _variant(prof, name, value))
            if theirs is None:  # not a win that way: the items are not compared
                continue
            flagged |= {i for i, it in mine.items() if i not in theirs or theirs[i].tai != it.tai}
            for i, it in theirs.items():
                if i not in mine:
                    otherwise.setdefault(i, it)
                    because.setdefault(i, switch_said(name, prof.switches[name], yes_named=True))
    # a doubt the rule set it inherits lists, which this set settles itself (SML 2026's 門清無平胡): the items the
    # parent's reading adds are said too, not marked (a house-rules review: an SML table saw 門清 alone, no word
    # on the 平胡 the default notes it counts)
    for name, parents in _settled_doubts(prof, read):
        theirs = _items_under(sc, _variant(prof, name, parents))
        for i, it in (theirs or {}).items():
            if i not in mine:
                otherwise.setdefault(i, it)
                because.setdefault(i, switch_said(name, prof.switches[name], yes_named=True))
    order = {i: n for n, i in enumerate(ORDER)}
    items = tuple(sorted(otherwise.values(), key=lambda it: order[it.id]))
    return HouseReading(frozenset(flagged), items, tuple(because[it.id] for it in items))


def _settled_doubts(prof: Profile, read: set[str]) -> list[tuple[str, Any]]:
    """The switches the score reads that the rule set ``prof`` inherits lists as house rules and ``prof`` sets
    otherwise of its own, not listing them, each with the parent's value (none where it inherits nothing, or its
    parent cannot be read)."""
    if not prof.inherits:
        return []
    try:
        parent = load_profile(prof.inherits)
    except ProfileError:
        return []
    return [(name, parent.switches[name]) for key in parent.house_rules if key not in prof.house_rules
            for kind, _, name in [key.partition(".")]
            if kind == "switches" and name in SWITCHES and name in read and name in prof.own_switches
            and prof.switches[name] != parent.switches[name]]
