"""The winning shape (spec §3.1): splitting a hand into sets and a pair.

A *complete* hand holds ``3*sets + 2`` structural tiles that form ``sets`` sets and one pair, the
melds each being one set. :func:`decompositions` lists every split of the concealed part;
:func:`is_complete` answers yes/no from the per-suit tables of :mod:`companion.rules._suit_tables`.

>>> [str(d) for d in decompositions(Hand.parse("111222333m55z", sets=3))]
['pung:111m pung:222m pung:333m pair:55z', 'chow:123m chow:123m chow:123m pair:55z']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from companion.hand import Hand, Meld
from companion.rules._suit_tables import group_keys, keys_complete
from companion.tiles import NUM_KINDS, Tile, format_tiles

__all__ = ["Decomposition", "Group", "GroupKind", "decompose_counts", "decompositions", "is_complete"]


class GroupKind(Enum):
    PUNG = "pung"  # sorts before chow in the canonical order of spec §3.3
    CHOW = "chow"
    PAIR = "pair"

    @property
    def order(self) -> int:
        return {"pung": 0, "chow": 1, "pair": 2}[self.value]


@dataclass(frozen=True, slots=True, order=False)
class Group:
    """A set or the pair inside the concealed part, named by its lowest tile."""

    kind: GroupKind
    tile: Tile

    @property
    def tiles(self) -> tuple[Tile, ...]:
        t = self.tile
        if self.kind is GroupKind.CHOW:
            return (t, Tile(t + 1), Tile(t + 2))
        return (t,) * (2 if self.kind is GroupKind.PAIR else 3)

    @property
    def sort_key(self) -> tuple[int, int]:
        """(lowest tile, kind) with pung before chow: the canonical order of spec §3.3."""
        return (int(self.tile), self.kind.order)

    def __str__(self) -> str:
        return f"{self.kind.value}:{format_tiles(self.tiles)}"


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One split of a complete hand: the concealed sets, the pair, and the melds kept as they are."""

    sets: tuple[Group, ...]
    pair: Tile
    melds: tuple[Meld, ...] = ()

    @property
    def sort_key(self) -> tuple[tuple[tuple[int, int], ...], int]:
        return (tuple(g.sort_key for g in self.sets), int(self.pair))

    def __str__(self) -> str:
        parts = [str(g) for g in self.sets] + [f"pair:{format_tiles((self.pair, self.pair))}"]
        parts += [str(m) for m in self.melds]
        return " ".join(parts)


def _split(counts: list[int], start: int, need: int, acc: list[Group], out: list[tuple[Group, ...]]) -> None:
    """Every way to split ``counts`` (no pair left) into exactly ``need`` sets; appends to ``out``."""
    i = start
    while i < NUM_KINDS and counts[i] == 0:
        i += 1
    if i == NUM_KINDS:
        if need == 0:
            out.append(tuple(acc))
        return
    if need == 0:
        return
    if counts[i] >= 3:
        counts[i] -= 3
        acc.append(Group(GroupKind.PUNG, Tile(i)))
        _split(counts, i, need - 1, acc, out)
        acc.pop()
        counts[i] += 3
    if i < 27 and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        counts[i] -= 1
        counts[i + 1] -= 1
        counts[i + 2] -= 1
        acc.append(Group(GroupKind.CHOW, Tile(i)))
        _split(counts, i, need - 1, acc, out)
        acc.pop()
        counts[i] += 1
        counts[i + 1] += 1
        counts[i + 2] += 1


def decompose_counts(counts: list[int], sets_needed: int) -> list[tuple[tuple[Group, ...], Tile]]:
    """Every (sets, pair) split of a 34-slot count array into ``sets_needed`` sets and one pair."""
    if sum(counts) != 3 * sets_needed + 2:
        return []
    if max(counts) <= 4 and not keys_complete(group_keys(k for k in range(NUM_KINDS) for _ in range(counts[k]))):
        return []  # the tables answer "no split" at once
    out: list[tuple[tuple[Group, ...], Tile]] = []
    work = list(counts)
    for p in range(NUM_KINDS):
        if work[p] >= 2:
            work[p] -= 2
            found: list[tuple[Group, ...]] = []
            _split(work, 0, sets_needed, [], found)
            out.extend((sets, Tile(p)) for sets in found)
            work[p] += 2
    return out


def decompositions(hand: Hand) -> list[Decomposition]:
    """Every way to split a complete hand into sets and a pair (melds fixed), in canonical order.

    An incomplete hand (or one of the wrong size) has none: the list is empty.
    """
    if not is_complete(hand):
        return []
    found = decompose_counts(hand.concealed_counts(), hand.sets_needed)
    decs = [Decomposition(sets, pair, hand.melds) for sets, pair in found]
    decs.sort(key=lambda d: d.sort_key)
    return decs


def is_complete(hand: Hand) -> bool:
    """The hand forms ``sets`` sets and one pair (spec §3.1)."""
    if len(hand.concealed) != 3 * hand.sets_needed + 2:
        return False
    return keys_complete(group_keys(hand.concealed))
