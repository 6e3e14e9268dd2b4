"""Per-suit tables: the engine under shape, waits and shanten.

A hand's concealed tiles fall into four *groups*: characters, dots, bamboo and honours. Each group is
encoded as one int, its *key*: three bits per rank (count 0-7, so a hypothetical fifth copy still fits)
plus the group's tile count from bit 32 up; honour keys also carry :data:`HONOUR`, so one table serves
suits and honours without a clash. Adding a tile is one integer addition (:data:`INCREMENT`).

Nothing here looks at a whole hand: every table is keyed by one group.

- :func:`complete_tables` — the keys that split into sets (and one pair when the count is 3k+2), and for
  each key one tile short of that, the mask of ranks that complete it. Built at first use (~0.3 s), for
  groups of up to :data:`TABLE_SETS` sets; :func:`group_complete_slow` covers anything larger.
- :func:`overlap_vector` — for the shanten distance: the most tiles of a group that a target pattern of
  exactly ``m`` sets and ``p`` pairs (within per-rank copy limits) can keep. An exact dynamic programme
  over the ranks; the common keys come precomputed from ``data/suit_shanten.bin``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from companion.tiles import NUM_KINDS

__all__ = [
    "COUNT",
    "EMPTY_KEYS",
    "HONOUR",
    "INCREMENT",
    "KEY_MASK",
    "NEG",
    "TABLE_SETS",
    "complete_tables",
    "digits",
    "fresh_is_safe",
    "group_keys",
    "key_complete",
    "key_counts",
    "keys_complete",
    "group_complete_slow",
    "group_of",
    "overlap_vector",
]

DIGIT = 3
"""Bits per rank in a key."""
HONOUR = 1 << 27
"""Marks an honour key."""
COUNT = 1 << 32
"""One tile in a key's count field."""
KEY_MASK = COUNT - 1
"""The rank digits (and the honour mark) of a key, without the count."""
TABLE_SETS = 5
"""Groups of at most this many sets (and a pair) are in the completeness tables."""
NEG = -(1 << 20)
"""An impossible target in an overlap vector."""


def group_of(kind: int) -> tuple[int, int]:
    """(group 0-3, rank 0-8) of a tile kind 0-33."""
    return (kind // 9, kind % 9) if kind < 27 else (3, kind - 27)


INCREMENT: tuple[tuple[int, int], ...] = tuple(
    (g, COUNT | (1 << (DIGIT * r))) for g, r in (group_of(k) for k in range(NUM_KINDS))
)
"""For each tile kind: (group, what adding one copy adds to the group's key)."""
EMPTY_KEYS = (0, 0, 0, HONOUR)
"""The keys of four empty groups."""


def digits(key: int, honour: bool) -> list[int]:
    """The per-rank counts of a key (9 ranks, or 7 for honours)."""
    return [(key >> (DIGIT * r)) & 7 for r in range(7 if honour else 9)]


# --- completeness ---------------------------------------------------------------------------------


def _group_sets(honour: bool) -> list[int]:
    """The key increments of the sets of one group: pungs, and chows for suits."""
    ranks = 7 if honour else 9
    sets = [3 << (DIGIT * r) for r in range(ranks)]
    if not honour:
        sets += [(1 << (DIGIT * r)) | (1 << (DIGIT * (r + 1))) | (1 << (DIGIT * (r + 2))) for r in range(7)]
    return sets


_LOW_BITS = int("001" * 9, 2)


def _fits(key: int) -> bool:
    """No rank above four copies in a bare key (no mark, no count): no digit 5-7, i.e. no digit with
    bit 2 set together with bit 0 or bit 1."""
    return not ((key >> 2) & (key | (key >> 1)) & _LOW_BITS)


def _complete_keys(honour: bool) -> set[int]:
    """Keys (with their count field) that split into up to TABLE_SETS sets, with or without one pair."""
    mark = HONOUR if honour else 0
    ranks = 7 if honour else 9
    sets = _group_sets(honour)
    level = {0}
    found: set[int] = set()
    for m in range(TABLE_SETS + 1):
        if m:
            level = {k + s for k in level for s in sets if _fits(k + s)}
        for k in level:
            found.add(k | mark | (3 * m) * COUNT)
            for r in range(ranks):
                kp = k + (2 << (DIGIT * r))
                if _fits(kp):
                    found.add(kp | mark | (3 * m + 2) * COUNT)
    return found


@cache
def complete_tables() -> tuple[frozenset[int], dict[int, int]]:
    """(complete keys, wait masks): every complete group key, and for each key one tile short of
    complete the bit mask of the ranks whose addition completes it (without a fifth copy)."""
    complete: set[int] = set()
    for honour in (False, True):
        complete |= _complete_keys(honour)
    waits: dict[int, int] = {}
    for r in range(9):
        shift, step = DIGIT * r, COUNT + (1 << (DIGIT * r))
        for short in [key - step for key in complete if (key >> shift) & 7]:
            waits[short] = waits.get(short, 0) | (1 << r)
    return frozenset(complete), waits


def group_complete_slow(counts: Sequence[int], honour: bool) -> bool:
    """Whether a group's counts split into sets (3k tiles) or sets and one pair (3k+2); any size.

    In a split with no pair, ``c mod 3`` chows must start at the lowest rank holding ``c`` tiles
    (three equal chows are three pungs), so one left-to-right pass decides it.
    """
    n = sum(counts)
    if n % 3 == 1:
        return False
    if n % 3 == 0:
        return _sets_only(list(counts), honour)
    for r, c in enumerate(counts):
        if c >= 2:
            rest = list(counts)
            rest[r] -= 2
            if _sets_only(rest, honour):
                return True
    return False


def _sets_only(c: list[int], honour: bool) -> bool:
    for r in range(len(c)):
        k = c[r]
        if k < 0:
            return False
        extra = k % 3
        if extra:
            if honour or r + 2 >= len(c):
                return False
            c[r + 1] -= extra
            c[r + 2] -= extra
    return True


# --- overlap vectors (shanten) -------------------------------------------------------------------


def overlap_vector(
    counts: Sequence[int], limits: Sequence[int], honour: bool, mmax: int, *, fresh: bool = True
) -> tuple[int, ...]:
    """``v[2*m + p]``: the most of these tiles a target of ``m`` sets and ``p`` pairs keeps.

    A target ``w`` is a multiset of tiles of this group forming ``m`` sets and ``p`` (0 or 1) pairs with
    ``w[r] <= limits[r]`` for every rank; it keeps ``sum(min(w[r], counts[r]))`` tiles. Exact: a
    dynamic programme over the ranks carrying the chows still open.

    With ``fresh`` (the default), a set or pair that would keep nothing is not placed here but left
    *fresh*: it can go on any kind the hand, the melds and the rest of the target leave free, so the
    entry is the best over at most ``m`` sets and ``p`` pairs. That prunes the programme and makes
    the vector monotone; it is exact for the whole hand whenever such a free kind exists, which
    :func:`fresh_is_safe` checks. Without ``fresh``, :data:`NEG` marks an impossible target.
    """
    if honour:
        out = _honour_overlap(counts, limits, mmax, fresh)
    else:
        out = _suit_overlap(counts, limits, mmax, fresh)
    if fresh:  # extra sets and the pair may be fresh: take the best with fewer
        out[1] = max(out[1], out[0])
        for i in range(2, len(out)):
            out[i] = max(out[i], out[i - 2], out[i - 1] if i % 2 else NEG)
    return tuple(out)


def fresh_is_safe(sets_needed: int, meld_kinds: int) -> bool:
    """Whether fresh groups always find a free kind: the target's other groups touch at most
    ``3 (N + 1)`` kinds, the melds ``meld_kinds`` more, and up to ``N + 1`` groups may be fresh.
    Always true for the 16-tile game (N <= 5)."""
    return 4 * (sets_needed + 1) + meld_kinds <= 34


def _suit_overlap(counts: Sequence[int], limits: Sequence[int], mmax: int, fresh: bool) -> list[int]:
    # state: (chows started one rank back, chows started two ranks back, sets, pairs) -> best kept
    states: dict[tuple[int, int, int, int], int] = {(0, 0, 0, 0): 0}
    padded = [*counts, 0, 0]
    for r in range(9):
        # with fresh groups: no pung or pair on an empty rank, and no more chows than tiles near
        chows = 0 if r > 6 else max(padded[r : r + 3]) if fresh else 4
        states = _suit_step(states, counts[r], limits[r], chows, mmax, limits[r + 1 : r + 3], fresh)
    out = [NEG] * (2 * (mmax + 1))
    for (c1, c2, m, p), v in states.items():
        if c1 == 0 and c2 == 0 and v > out[2 * m + p]:
            out[2 * m + p] = v
    return out


def _suit_step(
    states: dict[tuple[int, int, int, int], int],
    have: int,
    limit: int,
    chows: int,
    mmax: int,
    next_limits: Sequence[int],
    fresh: bool = False,
) -> dict[tuple[int, int, int, int], int]:
    """Advance the suit programme by one rank: choose a pung, a pair and up to ``chows`` new chows."""
    new: dict[tuple[int, int, int, int], int] = {}
    lim1 = next_limits[0] if len(next_limits) > 0 else 0
    lim2 = next_limits[1] if len(next_limits) > 1 else 0
    here = (0, 1) if have or not fresh else (0,)
    for (c1, c2, m, p), v in states.items():
        base = c1 + c2
        for a in here:
            for q in here if p == 0 else (0,):
                w0 = base + 3 * a + 2 * q
                if w0 > limit or m + a > mmax:
                    continue
                top = min(limit - w0, mmax - m - a, lim1 - c1, lim2, chows) if chows else 0
                for b in range(top + 1):
                    key = (b, c1, m + a + b, p + q)
                    val = v + min(w0 + b, have)
                    if new.get(key, NEG) < val:
                        new[key] = val
    return new


def _honour_overlap(counts: Sequence[int], limits: Sequence[int], mmax: int, fresh: bool) -> list[int]:
    states: dict[tuple[int, int], int] = {(0, 0): 0}
    for have, limit in zip(counts, limits, strict=True):
        if fresh and not have:
            continue
        new: dict[tuple[int, int], int] = {}
        for (m, p), v in states.items():
            for a, q in ((0, 0), (1, 0), (0, 1), (1, 1)):
                w = 3 * a + 2 * q
                if w > limit or m + a > mmax or p + q > 1:
                    continue
                key = (m + a, p + q)
                val = v + min(w, have)
                if new.get(key, NEG) < val:
                    new[key] = val
        states = new
    out = [NEG] * (2 * (mmax + 1))
    for (m, p), v in states.items():
        out[2 * m + p] = v
    return out


def group_keys(kinds: Iterable[int]) -> list[int]:
    """The four group keys (characters, dots, bamboo, honours) of some tiles (kinds 0-33)."""
    keys = list(EMPTY_KEYS)
    inc = INCREMENT
    for t in kinds:
        g, step = inc[t]
        keys[g] += step
    return keys


def key_counts(key: int) -> list[int]:
    """The per-rank counts of a key."""
    return digits(key, bool(key & HONOUR))


def key_complete(key: int, complete: frozenset[int]) -> bool:
    """One group splits into sets (3k tiles) or sets and a pair (3k+2 tiles)."""
    if key >> 32 <= 3 * TABLE_SETS + 2:
        return key in complete
    return group_complete_slow(key_counts(key), bool(key & HONOUR))


def keys_complete(keys: Sequence[int]) -> bool:
    """The groups together form sets and exactly one pair."""
    complete = complete_tables()[0]
    pairs = 0
    for key in keys:
        rest = (key >> 32) % 3
        if rest == 1:
            return False
        pairs += rest
        if not key_complete(key, complete):
            return False
    return pairs == 2
