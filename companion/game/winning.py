"""Shape questions the tracker asks of a known hand, answered by :mod:`companion.rules.shape`."""

from __future__ import annotations

from functools import lru_cache

from companion.hand import DEFAULT_SETS
from companion.rules.shape import decompose_counts
from companion.tiles import NUM_KINDS, Tile

__all__ = ["completes", "waits_of", "ready_after_discard"]


@lru_cache(maxsize=1 << 16)
def _complete(counts: tuple[int, ...], sets_needed: int) -> bool:
    return bool(decompose_counts(list(counts), sets_needed))


def completes(counts: tuple[int, ...], melds: int, tile: Tile | None = None) -> bool:
    """The 34-kind ``counts`` (plus ``tile``) form the remaining sets and a pair (spec §3.1)."""
    c = list(counts[:NUM_KINDS])
    if tile is not None:
        if tile >= NUM_KINDS:
            return False
        c[tile] += 1
    return _complete(tuple(c), DEFAULT_SETS - melds)


def waits_of(counts: tuple[int, ...], melds: int) -> tuple[Tile, ...]:
    """Structural waits of a 16-structural-tile hand (own copies are not subtracted here)."""
    c = list(counts[:NUM_KINDS])
    out = []
    for k in range(NUM_KINDS):
        if c[k] >= 4 or not _near(c, k):
            continue
        c[k] += 1
        if _complete(tuple(c), DEFAULT_SETS - melds):
            out.append(Tile(k))
        c[k] -= 1
    return tuple(out)


def _near(c: list[int], k: int) -> bool:
    """A winning tile always touches the hand: same kind, or a suited neighbour within two."""
    if c[k]:
        return True
    if k >= 27:
        return False
    r = k % 9
    return any(0 <= r + d <= 8 and c[k + d] for d in (-2, -1, 1, 2))


def ready_after_discard(counts: tuple[int, ...], melds: int) -> bool:
    """Some discard from a 17-structural-tile hand leaves it ready."""
    c = list(counts[:NUM_KINDS])
    for k in range(NUM_KINDS):
        if c[k]:
            c[k] -= 1
            if waits_of(tuple(c), melds):
                return True
            c[k] += 1
    return False
