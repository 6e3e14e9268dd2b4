"""The wall model of spec §2.3-2.7: 72 stacks of two, the break, the live end and the replacement end.

Stacks are numbered 1-72 along the drawing direction from the break: the head takes 1, 2, 3 …
(deal and normal draws), the tail takes 72, 71 … (every replacement). At both ends the top tile of a
stack goes before its bottom tile. Physically, stack ``n`` lies in the wall of ``StackPos.seat`` at
``StackPos.index`` (1-18, counted from that wall's right-hand end as its owner sees it).
The model counts positions only: the tiles in the wall are face down (``0x``).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.game.switches import ReserveRule

__all__ = ["TOTAL_TILES", "STACKS", "DEAL_TILES", "StackPos", "Wall", "opened_wall", "count_seat", "WallError"]

TOTAL_TILES = 144
STACKS = 72
STACKS_PER_WALL = 18
DEAL_TILES = 65  # 4 x 16 + the dealer's 門牌
BASE_RESERVE = 16


class WallError(ValueError):
    """A draw the wall cannot give (the wall is empty) or bad dice."""


def count_seat(thrower: int, total: int) -> int:
    """The counting rule of §2.2: the thrower is 1, then counter-clockwise (turn order)."""
    if total < 1:
        raise WallError(f"a dice total is positive, got {total}")
    return (thrower + total - 1) % 4


def opened_wall(dealer: int, total: int) -> int:
    """The seat whose wall is opened (開門) by the dealer's dice total (§2.4)."""
    if not 3 <= total <= 18:
        raise WallError(f"three dice total 3-18, got {total}")
    return count_seat(dealer, total)


@dataclass(frozen=True, slots=True)
class StackPos:
    """Where a tile lies: stack number (drawing order), the wall's owner, the index in it, top or bottom."""

    stack: int
    seat: int
    index: int
    top: bool


@dataclass(frozen=True, slots=True)
class Wall:
    """Positions taken from both ends of the wall of one hand."""

    dealer: int
    dice_total: int
    reserve_rule: ReserveRule = ReserveRule.FIXED16
    head: int = 0  # tiles taken from the head
    tail: int = 0  # tiles taken from the tail
    kongs: int = 0

    def __post_init__(self) -> None:
        opened_wall(self.dealer, self.dice_total)

    @property
    def owner(self) -> int:
        """The seat whose wall was opened."""
        return opened_wall(self.dealer, self.dice_total)

    @property
    def count(self) -> int:
        """Tiles still in the wall (the reserve included)."""
        return TOTAL_TILES - self.head - self.tail

    @property
    def reserve(self) -> int:
        """R: tiles kept back, never drawn (§2.7)."""
        if self.reserve_rule is ReserveRule.PLAY_TO_END:
            return 0
        if self.reserve_rule is ReserveRule.PLUS_ONE_PER_KONG:
            return BASE_RESERVE + self.kongs
        return BASE_RESERVE

    @property
    def live(self) -> int:
        """Tiles that can still be drawn: ``count - R`` (negative only after an owed flower replacement)."""
        return self.count - self.reserve

    @property
    def said(self) -> tuple[int, int, int]:
        """``(count, live, kept back)`` as the players are told them, the app's and ``companion replay``'s wall line
        alike: a flower shown after the last drawable tile takes its replacement from the tiles kept back (§2.7), so
        none is said drawable then and no more are said kept back than the wall holds (the CLI said "wall 15, live
        0, kept back 16" where the app said 15 kept back: a code review)."""
        live = max(self.live, 0)
        return self.count, live, min(self.reserve, self.count - live)

    def position(self, stack: int, top: bool) -> StackPos:
        if not 1 <= stack <= STACKS:
            raise WallError(f"stacks are numbered 1-{STACKS}, got {stack}")
        q = self.dice_total + stack - 1  # stacks past the owner's right-hand end
        seat = (self.owner - q // STACKS_PER_WALL) % 4
        return StackPos(stack, seat, q % STACKS_PER_WALL + 1, top)

    def head_index(self) -> int:
        """The next head tile as an index 0-143 into the wall laid out in drawing order, two per stack, top
        first (``2 (stack - 1)`` the top, ``+ 1`` the bottom). Where the ends meet in one stack (only when
        no tiles are kept back) and the tail took its top, the head's tile is its bottom."""
        i = self.head
        if i % 2 == 0 and self.tail % 2 == 1 and STACKS - self.tail // 2 == i // 2 + 1:
            return i + 1
        return i

    def tail_index(self, k: int = 0) -> int:
        """The ``k``-th next replacement tile as an index like :meth:`head_index`'s: stack 72's top, then its
        bottom, then stack 71's …; where the head took the top of the stack the tail reaches, its bottom."""
        j = self.tail + k
        stack = STACKS - j // 2
        if j % 2 == 0 and self.head % 2 == 1 and self.head // 2 + 1 == stack:
            return 2 * (stack - 1) + 1
        return 2 * (stack - 1) + j % 2

    def head_pos(self) -> StackPos | None:
        """Where the next head tile lies, or None when the wall is empty."""
        if self.count <= 0:
            return None
        i = self.head_index()
        return self.position(i // 2 + 1, i % 2 == 0)

    def tail_pos(self) -> StackPos | None:
        """Where the next replacement tile lies, or None when the wall is empty."""
        if self.count <= 0:
            return None
        i = self.tail_index()
        return self.position(i // 2 + 1, i % 2 == 0)

    def kept_back(self) -> tuple[int, ...]:
        """Stack numbers (drawing order) whose tiles left are all kept back (the reserve, next to the tail). A stack
        whose top is still to be drawn and whose bottom is the first tile kept is not one of them (after an odd number
        of replacements; a review found the stack holding the last tile drawn grey, as never drawn)."""
        n = min(self.reserve, self.count)
        if n <= 0:
            return ()
        last = STACKS - self.tail // 2  # stack at the tail end
        first_tile = self.head + self.count - n  # index from the head of the first kept-back tile
        shared = first_tile % 2 == 1 and first_tile - 1 >= self.head  # its stack's top is still to be drawn
        return tuple(range(first_tile // 2 + (2 if shared else 1), last + 1))

    def kept_under(self) -> int | None:
        """The stack whose top is still to be drawn and whose bottom is the first tile kept back (after an odd
        number of tiles taken from one end), or None: one tile of it is drawn, one kept."""
        n = min(self.reserve, self.count)
        first_tile = self.head + self.count - n
        if n <= 0 or first_tile % 2 == 0 or first_tile - 1 < self.head:
            return None
        return first_tile // 2 + 1

    def take_head(self, n: int = 1) -> Wall:
        if n > self.count:
            raise WallError(f"{n} tiles wanted from the head, the wall holds {self.count}")
        return replace(self, head=self.head + n)

    def take_tail(self, n: int = 1) -> Wall:
        if n > self.count:
            raise WallError(f"{n} tiles wanted from the tail, the wall holds {self.count}")
        return replace(self, tail=self.tail + n)

    def with_kong(self) -> Wall:
        return replace(self, kongs=self.kongs + 1)
