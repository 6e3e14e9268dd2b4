"""Waits (聽牌, spec §3.5) and wait shapes (spec §3.6).

Computed on the hand before the win (``3*sets + 1`` structural tiles):

- a **structural wait** is a kind that completes the shape (sets + one pair), copy limits aside;
- a **real wait** is a structural wait of which the player's own concealed tiles and melds do not
  already hold all four copies (spec §7 Example 14: 45m waiting 3m and 6m with ``kong:6666m`` waits
  on 3m only);
- the hand is **ready** when it has a real wait.

The work is a few lookups in per-suit tables: only a group whose count is ``3k+1`` (or two groups of
``3k+2``) can take the winning tile, every other group must already be complete.

>>> [t.code for t in waits(Hand.parse("45m234s789s77p kong:6666m@R pung:999p@O"))]
['3m']
>>> [t.code for t in structural_waits(Hand.parse("45m234s789s77p kong:6666m@R pung:999p@O"))]
['3m', '6m']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import Enum

from companion.hand import Hand, HandError, parse_seen
from companion.rules._suit_tables import (
    HONOUR,
    INCREMENT,
    TABLE_SETS,
    complete_tables,
    group_complete_slow,
    group_keys,
    key_complete,
    key_counts,
)
from companion.rules.shape import Group, GroupKind, decompose_counts
from companion.tiles import CopyLimitError, Tile, counts34

__all__ = [
    "WaitShape",
    "holds_eight_flowers",
    "is_ready",
    "seven_pairs",
    "pairs_note_due",
    "structural_waits",
    "waits_of_keys",
    "visible_counts",
    "checked_visible_counts",
    "wait_counts",
    "wait_shape",
    "wait_shapes",
    "waits",
]

_BASE = (0, 9, 18, 27)
# For each group and rank mask, the tiles it names (built once: 3 x 512 + 128 tuples).
_MASK_TILES: tuple[tuple[tuple[Tile, ...], ...], ...] = tuple(
    tuple(tuple(Tile(_BASE[g] + r) for r in range(9) if mask >> r & 1) for mask in range(512))
    for g in range(4)
)


def _check_waiting(hand: Hand) -> None:
    if len(hand.concealed) != 3 * hand.sets_needed + 1:
        drawn = hand.structural_count == 3 * hand.sets + 2  # said in both languages (a review found it in one)
        raise HandError(
            f"waits need a hand between turns ({3 * hand.sets + 1} structural tiles), "
            f"got {hand.structural_count} in “{hand}”"
            + (" (just drawn: companion discard says which tile to discard)" if drawn else ""),
            f"聽牌要看打牌後的 {3 * hand.sets + 1} 張，這手有 {hand.structural_count} 張"
            + ("（剛摸牌：請用 companion discard 看打哪張）" if drawn else ""),
        )


def _group_wait_mask(key: int, wait_table: dict[int, int]) -> int:
    """Ranks whose addition completes one group (no fifth copy)."""
    if key >> 32 <= 3 * TABLE_SETS + 1:
        return wait_table.get(key, 0)
    counts = key_counts(key)
    honour = bool(key & HONOUR)
    mask = 0
    for r in range(len(counts)):
        if counts[r] < 4:
            counts[r] += 1
            if group_complete_slow(counts, honour):
                mask |= 1 << r
            counts[r] -= 1
    return mask


def _wait_masks(keys: list[int]) -> list[int]:
    """Per group, the mask of ranks that complete the whole hand (within four copies)."""
    complete, wait_table = complete_tables()
    masks = [0, 0, 0, 0]
    open_groups = []
    for g in range(4):
        rest = (keys[g] >> 32) % 3
        if rest:
            open_groups.append((g, rest))
        elif not key_complete(keys[g], complete):
            return masks
    if len(open_groups) == 1 and open_groups[0][1] == 1:
        g = open_groups[0][0]
        masks[g] = _group_wait_mask(keys[g], wait_table)
    elif len(open_groups) == 2 and open_groups[0][1] == 2 and open_groups[1][1] == 2:
        (a, _), (b, _) = open_groups
        if key_complete(keys[b], complete):
            masks[a] = _group_wait_mask(keys[a], wait_table)
        if key_complete(keys[a], complete):
            masks[b] = _group_wait_mask(keys[b], wait_table)
    return masks


def _tiles(masks: list[int]) -> tuple[Tile, ...]:
    out: tuple[Tile, ...] = ()
    for g in range(4):
        if masks[g]:
            out += _MASK_TILES[g][masks[g]]
    return out


def waits_of_keys(keys: Sequence[int]) -> tuple[Tile, ...]:
    """The kinds that complete concealed tiles given as their four group keys (:func:`group_keys`), in tile order;
    none where they are not one tile short of complete. The tables hold no fifth copy of a kind."""
    return _tiles(_wait_masks(list(keys)))


def waits(hand: Hand) -> tuple[Tile, ...]:
    """The real waits of a hand between turns, in tile order (spec §3.5)."""
    _check_waiting(hand)
    keys = group_keys(hand.concealed)
    found = _tiles(_wait_masks(keys))
    if hand.melds and found:
        own = hand.own_counts()
        found = tuple(t for t in found if own[t] < 4)
    return found


def structural_waits(hand: Hand) -> tuple[Tile, ...]:
    """Every kind that completes the shape, even one whose four copies the player holds himself."""
    _check_waiting(hand)
    keys = group_keys(hand.concealed)
    found = set(_tiles(_wait_masks(keys)))
    counts = hand.concealed_counts()
    for kind, k in enumerate(counts):  # a fifth copy is never in the tables: check it directly
        if k == 4:
            g, step = INCREMENT[kind]
            trial = list(keys)
            trial[g] += step
            if _complete_with_fifth(trial, g):
                found.add(Tile(kind))
    return tuple(sorted(found))


def _complete_with_fifth(keys: list[int], g: int) -> bool:
    complete = complete_tables()[0]
    pairs = 0
    for i, key in enumerate(keys):
        rest = (key >> 32) % 3
        if rest == 1:
            return False
        pairs += rest
        ok = group_complete_slow(key_counts(key), bool(key & HONOUR)) if i == g else key_complete(key, complete)
        if not ok:
            return False
    return pairs == 2


def is_ready(hand: Hand) -> bool:
    """聽牌: at least one real wait."""
    return bool(waits(hand))


def holds_eight_flowers(hand: Hand) -> bool:
    """All eight flowers shown: the hand has won already, whatever its tiles wait on or lack (八仙過海, an instant
    win settled as a self-draw, spec §3.1, §4.2; a teaching review found only ``companion waits`` saying so).

    >>> holds_eight_flowers(Hand.parse("45m234s789s77p kong:6666m@R pung:999p@O 12345678f"))
    True
    """
    return len(set(hand.flowers)) == 8


def seven_pairs(hand: Hand) -> bool:
    """Seven pairs or more: a beginner from another game may think it a win (七對子); in this game it is not. A
    rule on a hand, here beside :func:`holds_eight_flowers`: ``companion waits`` imported the app's hand model (its
    table and ledger models with it) for it (a change review).

    >>> seven_pairs(Hand.parse("11m22p33s44m55p66s77s88m"))
    True
    """
    return sum(1 for k in hand.concealed_counts() if k >= 2) >= 7


def pairs_note_due(hand: Hand) -> bool:
    """Whether a hand is told there is no pairs win: seven pairs or more, not beside all eight flowers, a win
    already (My hand and the commands said it there apart: a change review)."""
    return seven_pairs(hand) and not holds_eight_flowers(hand)


def visible_counts(visible: Iterable[Tile] | str) -> list[int]:
    """Copies of each kind seen on the table, from tiles or notation (flowers and ``0x`` ignored)."""
    tiles = parse_seen(visible, check=False) if isinstance(visible, str) else tuple(visible)
    return counts34(tiles)


def checked_visible_counts(hand: Hand, visible: Iterable[Tile] | str) -> list[int]:
    """:func:`visible_counts`, after checking that no kind has more than four copies in the hand and the visible
    tiles together (:class:`CopyLimitError` naming the first such kind), whether or not it matters to the answer."""
    own = hand.own_counts()
    seen = visible_counts(visible)
    for k in range(34):
        if own[k] + seen[k] > 4:
            raise CopyLimitError(Tile(k), own[k] + seen[k], "the hand and the visible tiles")
    return seen


def wait_counts(hand: Hand, visible: Iterable[Tile] | str = (),
                found: Sequence[Tile] | None = None) -> tuple[tuple[Tile, int], ...]:
    """For each real wait, the copies still unseen: 4 - the player's own - the visible ones.

    ``visible`` is what the player can see on the table (discards, other players' melds), as tiles
    or notation. Own plus visible copies above four, of any kind, is an error naming the kind.
    ``found``: the hand's :func:`waits`, where the caller has them already.
    """
    seen = checked_visible_counts(hand, visible)
    own = hand.own_counts()
    return tuple((t, 4 - own[t] - seen[t]) for t in (waits(hand) if found is None else found))


# --- wait shapes ---------------------------------------------------------------------------------


class WaitShape(Enum):
    """The shape of the partial set a winning tile completed (spec §3.6)."""

    TWO_SIDED = "two_sided"
    EDGE = "edge"
    CLOSED = "closed"
    SINGLE = "single"
    DOUBLE_PUNG = "double_pung"

    @property
    def zh(self) -> str:
        return _SHAPE_ZH[self]

    @property
    def en(self) -> str:
        return _SHAPE_EN[self]

    def name_in(self, lang: str) -> str:
        return self.zh if lang.startswith("zh") else self.en


_SHAPE_ZH = {
    WaitShape.TWO_SIDED: "兩面",
    WaitShape.EDGE: "邊張",
    WaitShape.CLOSED: "中洞",
    WaitShape.SINGLE: "單吊",
    WaitShape.DOUBLE_PUNG: "雙碰",
}
_SHAPE_EN = {
    WaitShape.TWO_SIDED: "two-sided",
    WaitShape.EDGE: "edge",
    WaitShape.CLOSED: "closed",
    WaitShape.SINGLE: "pair",  # 單吊: "single" read as 獨聽's "single wait" (a newcomer review)
    WaitShape.DOUBLE_PUNG: "double pung",
}


def wait_shape(group: Group, tile: Tile) -> WaitShape:
    """The wait shape when ``tile`` completed ``group`` (a placement of spec §3.3)."""
    if tile not in group.tiles:
        raise ValueError(f"{tile.code} is not in {group}")
    if group.kind is GroupKind.PAIR:
        return WaitShape.SINGLE
    if group.kind is GroupKind.PUNG:
        return WaitShape.DOUBLE_PUNG
    position = tile - group.tile
    if position == 1:
        return WaitShape.CLOSED
    if (position == 0 and tile.rank == 7) or (position == 2 and tile.rank == 3):
        return WaitShape.EDGE
    return WaitShape.TWO_SIDED


def wait_shapes(hand: Hand, tile: Tile) -> tuple[WaitShape, ...]:
    """Every shape that some split of ``hand + tile`` shows for ``tile``, in the order of
    :class:`WaitShape`; empty when ``tile`` does not complete the hand."""
    _check_waiting(hand)
    counts = hand.concealed_counts()
    counts[tile] += 1
    found = set()
    for sets, pair in decompose_counts(counts, hand.sets_needed):
        for group in (*sets, Group(GroupKind.PAIR, pair)):
            if tile in group.tiles:
                found.add(wait_shape(group, tile))
    return tuple(s for s in WaitShape if s in found)
