"""Slow, obviously correct references the fast engine is tested against."""

from __future__ import annotations

from hypothesis import strategies as st


def brute_complete(counts: list[int], sets: int) -> bool:
    """Obviously correct: pick a pair, then repeatedly take the lowest tile as a pung or a chow."""

    def sets_only(c: list[int], need: int) -> bool:
        i = next((k for k in range(34) if c[k]), None)
        if i is None:
            return need == 0
        if need == 0 or c[i] < 0:
            return False
        if c[i] >= 3:
            c[i] -= 3
            ok = sets_only(c, need - 1)
            c[i] += 3
            if ok:
                return True
        if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
            for k in (i, i + 1, i + 2):
                c[k] -= 1
            ok = sets_only(c, need - 1)
            for k in (i, i + 1, i + 2):
                c[k] += 1
            return ok
        return False

    if sum(counts) != 3 * sets + 2:
        return False
    for p in range(34):
        if counts[p] >= 2:
            c = list(counts)
            c[p] -= 2
            if sets_only(c, sets):
                return True
    return False


SETS = [(k, k, k) for k in range(34)] + [(k, k + 1, k + 2) for k in range(27) if k % 9 <= 6]
"""Every pung and chow as a tuple of kind indices."""


def complete_six_sets_of_one_suit(draw: st.DrawFn) -> list[int]:
    """A complete 20-tile hand: six sets and a pair, mostly in one suit (beyond the five-set tables)."""
    suit = draw(st.sampled_from([0, 9, 18]))
    tiles: list[int] = []
    for _ in range(6):  # only sets that still fit within four copies
        fit = [g for g in SETS if suit <= g[0] < suit + 9 and all(tiles.count(k) + g.count(k) <= 4 for k in g)]
        tiles += draw(st.sampled_from(fit or [(33, 33, 33)]))
    pairs = [k for k in range(suit, suit + 9) if tiles.count(k) <= 2]
    pair = draw(st.sampled_from(pairs or [32]))
    return tiles + [pair, pair]
