"""Shanten (向聽數): how many tile exchanges a hand is from ready, exactly.

For a hand of ``3N+1`` or ``3N+2`` concealed tiles that still needs ``N`` sets and a pair, let a
*target* be any complete concealed part (``N`` sets + one pair, ``3N+2`` tiles) that respects the copy
limits: at most four copies of a kind between the target and the player's own melds. The fewest
exchanges (draw one tile, discard one) that turn the hand into a target is ``3N+2`` minus the most
tiles of the hand a target keeps, and

    shanten = (3N + 2 - most kept) - 1

so a complete hand is -1 and a ready hand 0. A hand whose only way forward needs a fifth copy of a
kind is therefore never called ready.

"Most kept" splits over the four groups (characters, dots, bamboo, honours): each group contributes its
overlap vector ``v[2m + p]`` (:func:`companion.rules._suit_tables.overlap_vector`), read from a
precomputed table for common groups, and the vectors are merged over the ways to share out the ``N``
sets and the one pair. Groups whose copy limits are lowered by melds are computed exactly on the spot.

>>> shanten(Hand.parse("123m456p789s1234z", sets=4))
2
>>> shanten(Hand.parse("1111m", sets=1))  # ready only on a fifth 1m: not ready
1
"""

from __future__ import annotations

import struct
import sys
import zlib
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files
from typing import cast

from companion.hand import Hand, HandError
from companion.rules._suit_tables import (
    HONOUR,
    NEG,
    TABLE_SETS,
    fresh_is_safe,
    group_keys,
    key_counts,
    overlap_vector,
)

__all__ = ["GroupVector", "group_limits", "group_vectors", "hand_limits", "most_kept", "shanten", "shanten_of_keys"]



@dataclass(frozen=True, slots=True)
class GroupVector:
    """One group's overlap vector ``vec[2m + p]`` and what the fast combination needs of it.

    ``sat``: for ``m >= sat`` the entries equal those at ``sat`` (meaningful only when ``mono``, i.e. the
    vector never decreases in ``m`` or ``p``). When ``concave`` (monotone, and the gains from each
    further set never grow), ``base0``/``base1`` are the entries at ``m = 0`` and ``gains0``/``gains1``
    count the per-set gains of 1, 2 and 3 tiles packed in one int (8 bits each, from the low end).
    """

    vec: tuple[int, ...]
    sat: int
    mono: bool
    concave: bool
    base0: int
    base1: int
    gains0: int
    gains1: int


_MAGIC = b"SST1"


@cache
def _table() -> dict[int, GroupVector]:
    """The precomputed vectors (default limits, up to :data:`TABLE_SETS` sets), by group key."""
    raw = files("companion.rules").joinpath("data", "suit_shanten.bin").read_bytes()
    if raw[:4] != _MAGIC:
        raise RuntimeError("suit_shanten.bin is not a suit table (regenerate with training/gen_suit_tables.py)")
    _, length, n_vectors, n_keys = struct.unpack("<4I", raw[4:20])
    body = zlib.decompress(raw[20:])
    vectors = [_describe(tuple(body[i * length : (i + 1) * length])) for i in range(n_vectors)]
    start = n_vectors * length
    keys = array("Q")
    keys.frombytes(body[start : start + 8 * n_keys])
    index = array("H")
    index.frombytes(body[start + 8 * n_keys : start + 10 * n_keys])
    if sys.byteorder != "little":
        keys.byteswap()
        index.byteswap()
    return dict(zip(keys, map(vectors.__getitem__, index), strict=True))


def _describe(vec: tuple[int, ...]) -> GroupVector:
    """Summarise an overlap vector for :func:`most_kept`."""
    top = len(vec) // 2 - 1
    mono = all(vec[2 * m] <= vec[2 * m + 1] for m in range(top + 1)) and all(
        vec[i] <= vec[i + 2] for i in range(2 * top)
    )
    sat = top
    while sat > 0 and vec[2 * sat - 2] == vec[2 * sat] and vec[2 * sat - 1] == vec[2 * sat + 1]:
        sat -= 1
    packed = [0, 0]
    concave = mono
    for p in (0, 1):
        gains = [vec[2 * m + 2 + p] - vec[2 * m + p] for m in range(top)]
        concave = concave and all(gains[i] >= gains[i + 1] for i in range(len(gains) - 1))
        concave = concave and all(0 <= g <= 3 for g in gains)
        packed[p] = sum(1 << (8 * (g - 1)) for g in gains if g > 0)
    return GroupVector(vec, sat if mono else top, mono, concave, vec[0], vec[1], packed[0], packed[1])


@lru_cache(maxsize=1 << 16)
def _exact_vector(key: int, limits: tuple[int, ...], mmax: int, fresh: bool) -> GroupVector:
    """The vector of one group computed by the exact programme (large groups, lowered limits)."""
    return _describe(overlap_vector(key_counts(key), limits, bool(key & HONOUR), mmax, fresh=fresh))


_FULL = ((4,) * 9, (4,) * 9, (4,) * 9, (4,) * 7)


def group_limits(meld_counts: Sequence[int] | None) -> tuple[tuple[int, ...], ...]:
    """Per group, the copies of each rank a target may still hold (four minus the melds' copies)."""
    if meld_counts is None or not any(meld_counts):
        return _FULL
    return tuple(tuple(4 - meld_counts[base + r] for r in range(size)) for base, size in _GROUPS)


_GROUPS = ((0, 9), (9, 9), (18, 9), (27, 7))


def group_vectors(keys: Sequence[int], sets_needed: int, limits: tuple[tuple[int, ...], ...]) -> list[GroupVector]:
    """The four groups' vectors for a target of ``sets_needed`` sets."""
    table = _table() if sets_needed <= TABLE_SETS else {}
    if limits is _FULL:
        found4 = [table.get(k) for k in keys]
        if None not in found4:  # the common case: four table hits
            return cast(list[GroupVector], found4)
    fresh = fresh_is_safe(sets_needed, sum(1 for lim in limits for x in lim if x < 4))
    out = []
    for g in range(4):
        lim = limits[g]
        if fresh and lim is not _FULL[g]:
            lim = _binding_limits(keys[g], lim)
        if lim is _FULL[g] or lim == _FULL[g]:
            found = table.get(keys[g])
            if found is not None:
                out.append(found)
                continue
        out.append(_exact_vector(keys[g], lim, max(sets_needed, 1), fresh))
    return out


def _binding_limits(key: int, limits: tuple[int, ...]) -> tuple[int, ...]:
    """The limits that can matter when sets keeping nothing are left fresh: a rank with no tile of
    the hand within two ranks (the same kind for honours) is touched by no set that keeps a tile."""
    counts = key_counts(key)
    reach = 0 if key & HONOUR else 2
    size = len(counts)
    return tuple(
        lim if lim == 4 or any(counts[max(r - reach, 0) : min(r + reach, size - 1) + 1]) else 4
        for r, lim in enumerate(limits)
    )


def _merge(a: GroupVector, b: GroupVector, n: int) -> GroupVector:
    """Max-plus merge of two groups' vectors over the ways to share ``m <= n`` sets and one pair."""
    va, vb = a.vec, b.vec
    both = a.mono and b.mono
    sa, sb = (a.sat, b.sat) if both else (n, n)
    sa, sb = min(sa, n, len(va) // 2 - 1), min(sb, n, len(vb) // 2 - 1)
    top = min(sa + sb, n) if both else n
    c = [NEG] * (2 * top + 2)
    for i in range(min(sa, top) + 1):
        a0 = va[2 * i]
        a1 = va[2 * i + 1]
        for j in range(min(sb, top - i) + 1):
            b0 = vb[2 * j]
            b1 = vb[2 * j + 1]
            k = 2 * (i + j)
            x = a0 + b0
            if x > c[k]:
                c[k] = x
            x = a0 + b1
            y = a1 + b0
            if y > x:
                x = y
            if x > c[k + 1]:
                c[k + 1] = x
    merged = tuple(c)
    return GroupVector(merged, top, both, False, merged[0], merged[1], 0, 0)


def _top_gains(packed: int, n: int) -> int:
    """The sum of the ``n`` largest per-set gains counted in ``packed``."""
    threes = packed >> 16
    if threes >= n:
        return 3 * n
    n -= threes
    twos = (packed >> 8) & 255
    if twos >= n:
        return 3 * threes + 2 * n
    return 3 * threes + 2 * twos + min(n - twos, packed & 255)


def most_kept(vectors: Sequence[GroupVector], sets_needed: int) -> int:
    """The most tiles a target of ``sets_needed`` sets and one pair keeps, over all four groups.

    When every group's gains per set shrink (concave vectors, nearly always), the best share of the
    sets takes the ``N`` largest gains across groups, for each choice of the group holding the pair;
    otherwise the vectors are merged pairwise.
    """
    a, b, c, d = vectors
    n = sets_needed
    if a.concave and b.concave and c.concave and d.concave:
        base = a.base0 + b.base0 + c.base0 + d.base0
        gains = a.gains0 + b.gains0 + c.gains0 + d.gains0
        best = NEG
        for g in vectors:
            x = base - g.base0 + g.base1 + _top_gains(gains - g.gains0 + g.gains1, n)
            if x > best:
                best = x
        return best
    merged = _merge(_merge(a, b, n), c, n)
    vc = merged.vec
    sc = merged.sat
    vd = d.vec
    sd = d.sat
    if not (merged.mono and d.mono):
        sc = sd = n
    best = NEG
    for m in range(min(sd, n, len(vd) // 2 - 1) + 1):
        i = 2 * min(n - m, sc)
        x = vc[i + 1] + vd[2 * m]
        y = vc[i] + vd[2 * m + 1]
        if y > x:
            x = y
        if x > best:
            best = x
    return best


def shanten_of_keys(keys: Sequence[int], sets_needed: int, limits: tuple[tuple[int, ...], ...] = _FULL) -> int:
    """Shanten of a concealed part given as group keys (``3N+1`` or ``3N+2`` tiles)."""
    return 3 * sets_needed + 1 - most_kept(group_vectors(keys, sets_needed, limits), sets_needed)


def hand_limits(hand: Hand) -> tuple[tuple[int, ...], ...]:
    """Per group, the copies of each rank a target of this hand may hold (four minus its melds')."""
    return group_limits(_meld_counts(hand))


def _meld_counts(hand: Hand) -> list[int] | None:
    if not hand.melds:
        return None
    counts = [0] * 34
    for meld in hand.melds:
        for t in meld.tiles:
            if t < 34:
                counts[t] += 1
    return counts


def shanten(hand: Hand) -> int:
    """Exact shanten of a hand with ``3*sets + 1`` or ``3*sets + 2`` structural tiles.

    -1: complete; 0: ready (聽牌); k: k exchanges from ready. Copies in the player's own melds count
    against the four of each kind.
    """
    n = hand.sets_needed
    size = len(hand.concealed)
    if size != 3 * n + 1 and size != 3 * n + 2:
        raise HandError(
            f"shanten needs {3 * hand.sets + 1} or {3 * hand.sets + 2} structural tiles, "
            f"got {hand.structural_count} in “{hand}”",
            f"向聽數要 {3 * hand.sets + 1} 或 {3 * hand.sets + 2} 張，這手有 {hand.structural_count} 張",
        )
    return shanten_of_keys(group_keys(hand.concealed), n, hand_limits(hand))

