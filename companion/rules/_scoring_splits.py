"""Every split of a complete hand, per suit and memoised: the scorer's fast path (spec §3.3 step 2).

It returns exactly what :func:`companion.rules.shape.decompose_counts` returns, in the canonical order of
spec §3.3 (a property test checks the two agree). A suit's splits depend only on that suit's nine (or
seven) counts, so they are computed once per pattern and cached; a hand then costs four look-ups and a
small product.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import product

from companion.rules.shape import Group, GroupKind
from companion.tiles import Tile

__all__ = ["splits"]

_BASES = ((0, 9), (9, 9), (18, 9), (27, 7))
_Option = tuple[tuple[Group, ...], Tile | None]


def _sets_only(counts: list[int], base: int, chows: bool, start: int, acc: list[Group],
               out: list[tuple[Group, ...]]) -> None:
    i = start
    n = len(counts)
    while i < n and counts[i] == 0:
        i += 1
    if i == n:
        out.append(tuple(acc))
        return
    if counts[i] >= 3:
        counts[i] -= 3
        acc.append(Group(GroupKind.PUNG, Tile(base + i)))
        _sets_only(counts, base, chows, i, acc, out)
        acc.pop()
        counts[i] += 3
    if chows and i <= 6 and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        acc.append(Group(GroupKind.CHOW, Tile(base + i)))
        _sets_only(counts, base, chows, i, acc, out)
        acc.pop()
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1


@lru_cache(maxsize=1 << 16)
def _suit(base: int, counts: tuple[int, ...]) -> tuple[_Option, ...]:
    """The splits of one suit: sets only when its size is 3k, sets and the pair when it is 3k+2."""
    work = list(counts)
    chows = base < 27
    size = sum(counts) % 3
    out: list[_Option] = []
    if size == 0:
        found: list[tuple[Group, ...]] = []
        _sets_only(work, base, chows, 0, [], found)
        out.extend((sets, None) for sets in found)
    elif size == 2:
        for p in range(len(work)):
            if work[p] >= 2:
                work[p] -= 2
                found = []
                _sets_only(work, base, chows, 0, [], found)
                out.extend((sets, Tile(base + p)) for sets in found)
                work[p] += 2
    return tuple(out)


def splits(counts: list[int]) -> list[tuple[tuple[Group, ...], Tile]]:
    """Every (sets, pair) split of a 34-slot count array of 3k+2 tiles, in canonical order."""
    options = []
    pairs = 0
    for base, n in _BASES:
        part = tuple(counts[base : base + n])
        size = sum(part) % 3
        if size == 1:
            return []
        pairs += size == 2
        found = _suit(base, part)
        if not found:
            return []
        options.append(found)
    if pairs != 1:
        return []
    out: list[tuple[tuple[Group, ...], Tile]] = []
    for combo in product(*options):
        pair = next(p for _, p in combo if p is not None)
        out.append((tuple(g for sets, _ in combo for g in sets), pair))
    if len(out) > 1:
        out.sort(key=lambda sp: (tuple(g.sort_key for g in sp[0]), int(sp[1])))
    return out
