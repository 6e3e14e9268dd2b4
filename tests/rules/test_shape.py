"""The winning shape: is_complete and decompositions, table-driven and against a brute force."""

from __future__ import annotations

from collections import Counter

import pytest
from brute_force import brute_complete
from hypothesis import given
from hypothesis import strategies as st

from companion.hand import Hand
from companion.rules._suit_tables import complete_tables, group_complete_slow, group_keys, key_complete
from companion.rules.shape import GroupKind, decompositions, is_complete
from companion.tiles import Tile, counts34

COMPLETE = [
    ("123m456m789m123p456p99s", 5),
    ("111m222m333m444p555p66z", 5),
    ("11122233344455m", 4),
    ("11112345678999m", 4),
    ("11122334455667789m", 5),  # a full flush, 17 tiles
    ("111z22z", 1),
    ("123m55z", 1),
]
INCOMPLETE = [
    ("123m456m789m123p456p98s", 5),
    ("1111z1234m", 2),  # four honours held: a pung and one left over (spec §3.1)
    ("11z22z33z44z55z66z77z", 4),  # seven pairs are not a win here
    ("19m19p19s1234567z1m", 4),  # thirteen orphans neither
    ("891m55z", 1),  # ranks do not wrap
    ("123m4m", 1),
]


@pytest.mark.parametrize(("text", "sets"), COMPLETE)
def test_complete_hands(text: str, sets: int) -> None:
    hand = Hand.parse(text, sets=sets)
    assert brute_complete(hand.concealed_counts(), sets)
    assert is_complete(hand)
    assert decompositions(hand)


@pytest.mark.parametrize(("text", "sets"), INCOMPLETE)
def test_incomplete_hands(text: str, sets: int) -> None:
    hand = Hand.parse(text, sets=sets)
    assert not is_complete(hand)
    assert decompositions(hand) == []


def test_melds_stay_sets() -> None:
    hand = Hand.parse("345m234s789s77p kong:6666m@R pung:999p@O 1f")
    (dec,) = decompositions(hand)
    assert [str(g) for g in dec.sets] == ["chow:345m", "chow:234s", "chow:789s"]
    assert dec.pair == Tile.P7
    assert dec.melds == hand.melds


def test_all_splits_of_a_full_flush() -> None:
    # 111 222 333 as pungs or as three chows, the rest fixed
    hand = Hand.parse("111222333456678m99p", sets=5)
    assert [str(d) for d in decompositions(hand)] == [
        "pung:111m pung:222m pung:333m chow:456m chow:678m pair:99p",
        "chow:123m chow:123m chow:123m chow:456m chow:678m pair:99p",
    ]


def test_wrong_size_is_never_complete() -> None:
    assert not is_complete(Hand.parse("123m456m789m123p456p9s"))  # 16 tiles


# --- properties against the brute force ---------------------------------------------------------------

_SETS = [[k, k, k] for k in range(34)] + [[k, k + 1, k + 2] for k in range(27) if k % 9 <= 6]


@st.composite
def near_complete(draw: st.DrawFn, sets: int | None = None) -> tuple[list[int], int]:
    """Count arrays of ``3*sets + 2`` tiles: built from sets and a pair, then maybe disturbed."""
    n = draw(st.integers(1, 5)) if sets is None else sets
    tiles: list[int] = []
    for _ in range(n):
        tiles += draw(st.sampled_from(_SETS))
    pair = draw(st.integers(0, 33))
    tiles += [pair, pair]
    for _ in range(draw(st.integers(0, 2))):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, 33))
    counts = counts34(Tile(t) for t in tiles)
    if max(counts) > 4:
        counts = [min(c, 4) for c in counts]
        while sum(counts) < 3 * n + 2:
            counts[counts.index(min(counts))] += 1
    return counts, n


def _hand(counts: list[int], sets: int) -> Hand:
    return Hand(tuple(Tile(k) for k in range(34) for _ in range(counts[k])), sets=sets)


@given(near_complete())
def test_is_complete_matches_brute_force(case: tuple[list[int], int]) -> None:
    counts, sets = case
    assert is_complete(_hand(counts, sets)) == brute_complete(counts, sets)


@given(near_complete())
def test_every_decomposition_recomposes_to_the_hand(case: tuple[list[int], int]) -> None:
    counts, sets = case
    hand = _hand(counts, sets)
    decs = decompositions(hand)
    assert bool(decs) == is_complete(hand)
    assert len({str(d) for d in decs}) == len(decs)  # no split twice
    assert [d.sort_key for d in decs] == sorted(d.sort_key for d in decs)
    for d in decs:
        assert len(d.sets) == sets
        tiles = [t for g in d.sets for t in g.tiles] + [d.pair, d.pair]
        assert Counter(tiles) == Counter(hand.concealed)
        assert all(g.kind in (GroupKind.PUNG, GroupKind.CHOW) for g in d.sets)


@given(st.lists(st.integers(0, 4), min_size=9, max_size=9), st.booleans())
def test_group_tables_match_the_direct_check(counts: list[int], honour: bool) -> None:
    counts = counts[:7] if honour else counts
    base = 27 if honour else 0
    key = group_keys(Tile(base + r) for r, c in enumerate(counts) for _ in range(c))[3 if honour else 0]
    if sum(counts) <= 17:
        assert (key in complete_tables()[0]) == group_complete_slow(counts, honour)
    assert key_complete(key, complete_tables()[0]) == group_complete_slow(counts, honour)
