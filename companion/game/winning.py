"""Shape questions the tracker asks of a known hand, answered by :mod:`companion.rules.shape` and
:mod:`companion.rules.waits` (cached: a table asks the same questions many times)."""

from __future__ import annotations

from functools import lru_cache

from companion.hand import DEFAULT_SETS, Hand, Meld
from companion.rules.shape import is_complete
from companion.rules.waits import waits
from companion.tiles import NUM_KINDS, Tile

__all__ = ["completes", "waits_of", "ready_after_discard"]


_KINDS = tuple(Tile(k) for k in range(NUM_KINDS))


def _hand(counts: tuple[int, ...], melds: tuple[Meld, ...]) -> Hand:
    tiles = tuple(t for t, k in zip(_KINDS, counts, strict=False) for _ in range(k))
    return Hand(tiles, melds, (), DEFAULT_SETS, stage_free=True)


@lru_cache(maxsize=1 << 16)
def _complete(counts: tuple[int, ...], melds: tuple[Meld, ...]) -> bool:
    return is_complete(_hand(counts, melds))


@lru_cache(maxsize=1 << 15)
def _waits(counts: tuple[int, ...], melds: tuple[Meld, ...]) -> tuple[Tile, ...]:
    hand = _hand(counts, melds)
    if len(hand.concealed) != 3 * hand.sets_needed + 1:
        return ()
    return waits(hand)


def completes(counts: tuple[int, ...], melds: tuple[Meld, ...], tile: Tile | None = None) -> bool:
    """The concealed ``counts`` (indexed by tile; plus ``tile``) and the melds form a winning shape."""
    c = list(counts[:NUM_KINDS])
    if tile is not None:
        if tile >= NUM_KINDS:
            return False
        c[tile] += 1
    if max(c) > 4:
        return False
    return _complete(tuple(c), melds)


def waits_of(counts: tuple[int, ...], melds: tuple[Meld, ...]) -> tuple[Tile, ...]:
    """Real waits (spec §3.5) of a hand between turns; empty for any other size."""
    return _waits(tuple(counts[:NUM_KINDS]), melds)


def ready_after_discard(counts: tuple[int, ...], melds: tuple[Meld, ...]) -> bool:
    """Some discard from a hand about to discard leaves it ready."""
    c = list(counts[:NUM_KINDS])
    for k in range(NUM_KINDS):
        if c[k]:
            c[k] -= 1
            if _waits(tuple(c), melds):
                return True
            c[k] += 1
    return False
