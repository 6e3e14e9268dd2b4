"""Slow, obviously correct references the fast engine is tested against."""

from __future__ import annotations


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
