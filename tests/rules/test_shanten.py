"""Exact shanten: table-driven, against a brute force over every target, and against PyPI ``mahjong``."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement

import pytest
from brute_force import SETS, complete_six_sets_of_one_suit
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from companion.hand import Hand, HandError, Meld, MeldKind, Source
from companion.rules._suit_tables import HONOUR, key_counts, overlap_vector
from companion.rules.shanten import _table, shanten
from companion.rules.shape import is_complete
from companion.rules.waits import is_ready, waits
from companion.tiles import Tile


@pytest.mark.parametrize(
    ("text", "sets", "expected"),
    [
        ("123m456m789m123p456p99s", 5, -1),
        ("45m345p678p123s999s55z", 5, 0),
        ("45m345p678p123s999s55z7z", 5, 0),  # drawn: discard 7z and wait on 3m/6m
        ("123m456p789s1234z", 4, 2),
        ("1111m", 1, 1),  # its only wait would be a fifth 1m
        ("1111z234m", 2, 1),
        ("4m pung:444m@O chow:123p@L chow:456p@L pung:777s@R pung:111z@O", 5, 1),  # only wait exhausted
        ("45m234s789s77p kong:6666m@R pung:999p@O", 5, 0),  # spec §7 Example 14: still ready on 3m
        ("1m2z pung:444m@O chow:123p@L chow:456p@L pung:777s@R pung:111z@O", 5, 0),
        ("11z pung:444m@O chow:123p@L chow:456p@L pung:777s@R pung:111p@O", 5, -1),
        ("147m258p369s1234567z", 5, 10),  # no two tiles can share a set: each set keeps one
    ],
)
def test_shanten_table(text: str, sets: int, expected: int) -> None:
    assert shanten(Hand.parse(text, sets=sets)) == expected


def test_shanten_needs_the_right_size() -> None:
    with pytest.raises(HandError, match="shanten needs"):
        shanten(Hand.parse("123m", sets=5, stage_free=True))


# --- brute force ------------------------------------------------------------------------------------


def brute_shanten(hand: Hand, *, exhaustive: bool = False) -> int:
    """Fewest exchanges to a complete hand, minus one, by trying every target.

    A target is ``N`` sets and a pair with at most four copies of a kind counting the player's melds;
    reaching it costs the tiles it holds that the hand lacks. A target group that shares no kind
    with the hand costs its full size wherever it lies, and there is always a kind free for it, so
    unless ``exhaustive`` such groups are tried once, as a "fresh" group of that cost.
    """
    n = hand.sets_needed
    have = hand.concealed_counts()
    limit = [4 - c for c in _meld_counts(hand)]
    if exhaustive:
        sets: list[tuple[int, ...] | None] = list(SETS)
        pairs: list[int | None] = list(range(34))
    else:
        sets = [s for s in SETS if any(have[k] for k in s)] + [None]
        pairs = [k for k in range(34) if have[k]] + [None]
    best = 99
    for combo in combinations_with_replacement(sets, n):
        for pair in pairs:
            need: dict[int, int] = {}
            for group in (*combo, (pair, pair) if pair is not None else None):
                for k in group or ():
                    need[k] = need.get(k, 0) + 1
            cost = 3 * combo.count(None) + (2 if pair is None else 0)
            if any(w > limit[k] for k, w in need.items()):
                continue
            cost += sum(max(w - have[k], 0) for k, w in need.items())
            best = min(best, cost)
    return best - 1


def _meld_counts(hand: Hand) -> list[int]:
    counts = [0] * 34
    for m in hand.melds:
        for t in m.tiles:
            counts[t] += 1
    return counts


@st.composite
def hands(draw: st.DrawFn, max_sets: int = 3, concealed_sets: int | None = None) -> Hand:
    """Hands of 3N+1 or 3N+2 tiles: near a complete hand (some sets melded) or scattered."""
    if concealed_sets is None:
        sets = draw(st.integers(1, max_sets))
        n_melds = draw(st.integers(0, sets - 1))
    else:
        n_melds = draw(st.integers(0, max_sets - concealed_sets))
        sets = concealed_sets + n_melds
    groups = [draw(st.sampled_from(SETS)) for _ in range(sets)]
    melds = []
    for g in groups[:n_melds]:
        if g[0] == g[1]:
            kind = draw(st.sampled_from([MeldKind.PUNG, MeldKind.KONG, MeldKind.CKONG]))
            src = None if kind is MeldKind.CKONG else Source.RIGHT
            melds.append(Meld(kind, (Tile(g[0]),) * (4 if kind.is_kong else 3), src))
        else:
            melds.append(Meld(MeldKind.CHOW, tuple(Tile(t) for t in g), Source.LEFT))
    size = 3 * (sets - n_melds) + draw(st.sampled_from([1, 2]))
    if draw(st.booleans()):
        pair = draw(st.integers(0, 33))
        concealed = ([t for g in groups[n_melds:] for t in g] + [pair, pair])[:size]
        for _ in range(draw(st.integers(0, 3))):
            concealed[draw(st.integers(0, size - 1))] = draw(st.integers(0, 33))
    else:
        concealed = draw(st.lists(st.integers(0, 33), min_size=size, max_size=size))
    own = [0] * 34
    for t in [*concealed, *(t for m in melds for t in m.tiles)]:
        own[t] += 1
    assume(max(own) <= 4)
    return Hand(tuple(Tile(t) for t in concealed), tuple(melds), (), sets=sets)


@given(hands(max_sets=2))
def test_shanten_matches_brute_force_small(hand: Hand) -> None:
    assert shanten(hand) == brute_shanten(hand)


@settings(max_examples=25)
@given(hands(max_sets=5, concealed_sets=3))
def test_shanten_matches_brute_force_three_sets(hand: Hand) -> None:
    assert shanten(hand) == brute_shanten(hand)


@settings(max_examples=40)
@given(hands(max_sets=1))
def test_fresh_groups_shortcut_is_exact(hand: Hand) -> None:
    assert brute_shanten(hand) == brute_shanten(hand, exhaustive=True)


@given(hands(max_sets=5))
def test_shanten_agrees_with_waits_and_completeness(hand: Hand) -> None:
    s = shanten(hand)
    if len(hand.concealed) % 3 == 1:
        assert (s == 0) == is_ready(hand)
        assert s >= 0
    else:
        assert (s == -1) == is_complete(hand)
        if s >= 0:  # a drawn hand is as good as its best discard
            best = min(shanten(hand.remove(t)) for t in set(hand.concealed))
            assert s == best


@given(hands(max_sets=5))
def test_one_exchange_moves_shanten_by_at_most_one(hand: Hand) -> None:
    assume(len(hand.concealed) % 3 == 1)
    s = shanten(hand)
    own = hand.own_counts()
    for t in range(34):
        if own[t] < 4:
            assert shanten(hand.add(Tile(t))) >= s - 1
    if s == 0:
        assert {t for t in range(34) if own[t] < 4 and shanten(hand.add(Tile(t))) == -1} == set(waits(hand))


def test_table_entries_match_the_exact_programme() -> None:
    table = _table()
    rng = random.Random(7)
    keys = rng.sample(sorted(table), 300)
    for key in keys:
        vec = table[key].vec
        honour = bool(key & HONOUR)
        assert vec == overlap_vector(key_counts(key), [4] * (7 if honour else 9), honour, 5), hex(key)


# --- cross-check with PyPI mahjong (13/14-tile regular hands, four sets) ----------------------------


def _mahjong_hands(seed: int, count: int) -> list[list[int]]:
    rng = random.Random(seed)
    out: list[list[int]] = []
    while len(out) < count:
        tiles = [t for _ in range(4) for t in rng.choice(SETS)]
        pair = rng.randrange(34)
        tiles += [pair, pair]
        for _ in range(rng.randint(0, 5)):
            tiles[rng.randrange(14)] = rng.randrange(34)
        if len(out) % 2:
            tiles.pop(rng.randrange(14))
        if max(tiles.count(k) for k in set(tiles)) <= 4:
            out.append(tiles)
    return out


def test_shanten_and_waits_match_mahjong() -> None:
    mahjong = pytest.importorskip("mahjong")
    from mahjong.agari import Agari
    from mahjong.shanten import Shanten

    assert mahjong
    for tiles in _mahjong_hands(2026, 1500):
        counts = [tiles.count(k) for k in range(34)]
        hand = Hand(tuple(Tile(t) for t in tiles), sets=4)
        assert shanten(hand) == Shanten.calculate_shanten(counts, use_chiitoitsu=False, use_kokushi=False)
        if len(tiles) == 13:
            ref = []
            for k in range(34):
                if counts[k] < 4:
                    counts[k] += 1
                    regular = Shanten.calculate_shanten(counts, use_chiitoitsu=False, use_kokushi=False)
                    if Agari.is_agari(counts) and (not _seven_pairs(counts) or regular == -1):
                        ref.append(k)
                    counts[k] -= 1
            assert [int(t) for t in waits(hand)] == ref, hand


def _seven_pairs(counts: list[int]) -> bool:
    return sorted(c for c in counts if c) == [2] * 7


@st.composite
def big_one_suit_hands(draw: st.DrawFn) -> Hand:
    """Six sets of one suit (beyond the five-set tables), between turns or drawn."""
    tiles = complete_six_sets_of_one_suit(draw)
    for _ in range(draw(st.integers(0, 3))):
        tiles[draw(st.integers(0, len(tiles) - 1))] = draw(st.integers(0, 33))
    if draw(st.booleans()):
        del tiles[draw(st.integers(0, len(tiles) - 1))]
    assume(max(tiles.count(k) for k in set(tiles)) <= 4)
    return Hand(tuple(map(Tile, tiles)), sets=6)


@settings(max_examples=60)
@given(big_one_suit_hands())
def test_shanten_beyond_the_tables_is_consistent(hand: Hand) -> None:
    s = shanten(hand)
    if len(hand.concealed) % 3 == 1:
        assert (s == 0) == is_ready(hand)
    else:
        assert (s == -1) == is_complete(hand)
        if s >= 0:
            assert s == min(shanten(hand.remove(t)) for t in set(hand.concealed))


def test_table_holds_every_group_of_up_to_twelve_tiles() -> None:
    def ways(ranks: int, tiles: int) -> int:
        """Count vectors of ``ranks`` counts 0-4 summing to at most ``tiles``."""
        row = [1] + [0] * tiles
        for _ in range(ranks):
            row = [sum(row[t - d] for d in range(5) if t - d >= 0) for t in range(tiles + 1)]
        return sum(row)

    table = _table()
    assert len(table) == ways(9, 12) + ways(7, 12)
    assert sum(1 for k in table if k & HONOUR) == ways(7, 12)


@given(
    st.lists(st.integers(0, 4), min_size=9, max_size=9),
    st.lists(st.integers(0, 4), min_size=9, max_size=9),
    st.booleans(),
    st.integers(0, 5),
)
def test_fresh_pruning_keeps_the_best_over_fewer_sets(
    counts: list[int], limits: list[int], honour: bool, mmax: int
) -> None:
    size = 7 if honour else 9
    counts = [min(c, lim) for c, lim in zip(counts[:size], limits[:size], strict=True)]
    exact = list(overlap_vector(counts, limits[:size], honour, mmax, fresh=False))
    best = [max(exact[2 * m + p] for m in range(k + 1) for p in range(q + 1))
            for k in range(mmax + 1) for q in (0, 1)]
    assert list(overlap_vector(counts, limits[:size], honour, mmax)) == best
