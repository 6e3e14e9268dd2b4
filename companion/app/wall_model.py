"""The wall as the players see it from above (牌牆圖): which stacks are left, where the wall was broken, where the next
tile is drawn and where the next replacement comes from, and the stacks kept back. Drawn on the Table and Live tabs
from the tracker's :class:`~companion.game.wall.Wall`, and on the Learn tab as a lesson on the dice (擲骰開門):
how the dealer's throw picks the wall and the stack where dealing starts (rules §2.4-2.5).

The picture puts one seat at the bottom (the viewer: the dealer); the others follow counter-clockwise (turn order):
the next player (下家) on the right, the one across (對家) at the top, the previous one (上家) on the left. Each wall
is drawn in screen order: the bottom wall left to right, the right wall top to bottom, the top wall left to right,
the left wall top to bottom. A wall's stacks are counted from its owner's right-hand end (§2.4). No flet here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.app.words import Words, ui
from companion.game.wall import DEAL_TILES, STACKS, STACKS_PER_WALL, StackPos, Wall, count_seat

__all__ = ["StackCell", "WallSide", "WallPicture", "DiceLesson", "wall_picture", "dice_lesson", "where_words",
           "SIDES", "RELATIVE"]

SIDES = ("bottom", "right", "top", "left")
"""Where each seat's wall is drawn, by its place after the viewer in turn order (0 = the viewer)."""
RELATIVE = (Words("莊家", "the dealer"), Words("下家", "the player to the dealer's right"), Words("對家", "the player across"),
            Words("上家", "the player to the dealer's left"))
"""The seats as the dealer sees them, by their place after him in turn order."""
_COUNTED = (Words("莊家", "dealer"), Words("下家", "right"), Words("對家", "across"), Words("上家", "left"))


@dataclass(frozen=True, slots=True)
class StackCell:
    stack: int  # the stack's number in drawing order (1 is taken first; 72 lies just before the break)
    left: int  # tiles still in it: 2, 1 or 0
    mark: str = ""  # "next" (the next tile drawn), "tail" (the next replacement), "kept" (kept back), "split" (top drawn, bottom kept), "counted"
    text: str = ""  # a number drawn on it (the lesson's count)


@dataclass(frozen=True, slots=True)
class WallSide:
    seat: int
    side: str  # "bottom", "right", "top" or "left"
    owner: Words
    cells: tuple[StackCell, ...]  # in screen order
    break_at: int | None  # the break is drawn before this cell (in screen order; 18: after the last); None: not here
    dealer: bool = False  # the dealer sits behind this wall, and the picture marks him (莊)


@dataclass(frozen=True, slots=True)
class WallPicture:
    sides: tuple[WallSide, ...]  # bottom, right, top, left
    lines: tuple[Words, ...]  # where the next tile and the next replacement lie, what is kept back


@dataclass(frozen=True, slots=True)
class DiceLesson:
    dice: tuple[int, int, int]
    steps: tuple[Words, ...]
    before: WallPicture  # the wall broken, the stacks counted
    after: WallPicture  # the wall after the deal (65 tiles)
    caption: Words  # ``before``'s heading: whose wall is broken


def _screen(side: str, index: int) -> int:
    """The place in screen order of the stack ``index`` (1-18 from the owner's right-hand end) of a wall drawn on
    ``side``: the bottom owner's right is the screen's right, the right-hand owner's is the top, and so on."""
    return STACKS_PER_WALL - index if side in ("bottom", "left") else index - 1


def _taken(wall: Wall, stack: int) -> int:
    """Tiles gone from ``stack``: the head takes stacks 1, 2 … and the tail 72, 71 …, two tiles each."""
    head = min(2, max(0, wall.head - 2 * (stack - 1)))
    tail = min(2, max(0, wall.tail - 2 * (STACKS - stack)))
    return min(2, head + tail)


def where_words(pos: StackPos, owner: Words) -> Words:
    """Where a tile lies, as a player finds it: whose wall, which stack from his right-hand end, top or bottom."""
    return ui("wall_where", owner=owner.zh, owner_en=owner.en, i=pos.index, layer=ui("wall_top" if pos.top else
              "wall_bottom").zh, layer_en=ui("wall_top" if pos.top else "wall_bottom").en)


def wall_picture(wall: Wall, viewer: int, owners: Sequence[Words], counted: bool = False,
                 over: bool = False, mark_dealer: bool = True) -> WallPicture:
    """The picture of ``wall`` with seat ``viewer`` at the bottom; ``owners[seat]`` names each wall's owner.
    ``counted``: number the stacks the dice counted off the opened wall (the lesson, before the deal). ``over``: the
    hand has ended, nothing more is drawn: no next draw nor next replacement (a review saw the last tile pointed at as
    the next draw after it was declined). ``mark_dealer``: the dealer's wall is marked (the lesson's names say 莊家
    already). When the next draw is the last one (海底), its line says so."""
    cells: dict[int, dict[int, StackCell]] = {s: {} for s in range(4)}
    kept = set(wall.kept_back())
    under = wall.kept_under()
    nxt = wall.head_pos() if wall.live > 0 and not over else None
    tail = wall.tail_pos() if not over else None
    for stack in range(1, STACKS + 1):
        pos = wall.position(stack, True)
        left = 2 - _taken(wall, stack)
        mark, text = "", ""
        if nxt is not None and stack == nxt.stack:
            mark = "next"
        elif counted:  # the lesson's break: the stacks counted off, numbered as they are counted
            if pos.seat == wall.owner and pos.index <= wall.dice_total:
                mark, text = "counted", str(pos.index)
        elif tail is not None and stack == tail.stack and left:
            mark = "tail"
        elif stack in kept and left:
            mark = "kept"
        elif stack == under and left == 2:  # its top is drawn, its bottom kept (a review counted one tile too many)
            mark = "split"
        cells[pos.seat][pos.index] = StackCell(stack, left, mark, text)
    sides = []
    first = wall.position(1, True)
    for k, side in enumerate(SIDES):
        seat = (viewer + k) % 4
        row = [cells[seat][i] for i in sorted(cells[seat], key=lambda index: _screen(side, index))]
        brk = None
        if first.seat == seat:  # stack 1 lies here: the break is on its right-hand side (as its owner sees it)
            at = _screen(side, first.index)
            brk = at + 1 if side in ("bottom", "left") else at
        sides.append(WallSide(seat, side, owners[seat], tuple(row), brk, mark_dealer and seat == wall.dealer))
    lines = [ui("wall_over")] if over else []
    if nxt is not None:
        lines.append(ui("wall_next_last" if wall.live == 1 else "wall_next", where=where_words(nxt, owners[nxt.seat]).zh,
                        where_en=where_words(nxt, owners[nxt.seat]).en))
    if tail is not None and wall.count > 0:
        lines.append(ui("wall_replacement", where=where_words(tail, owners[tail.seat]).zh,
                        where_en=where_words(tail, owners[tail.seat]).en))
    kept_stacks = wall.kept_back()
    if kept_stacks:
        lines.append(ui("wall_kept", n=min(wall.reserve, wall.count), stacks=len(kept_stacks))
                     if wall.kept_under() is None else
                     ui("wall_kept_split", n=min(wall.reserve, wall.count), stacks=len(kept_stacks) + 1))
    return WallPicture(tuple(sides), tuple(lines))


def dice_lesson(dice: tuple[int, int, int]) -> DiceLesson:
    """What the dealer's three dice decide, step by step (§2.4-2.5), with the dealer at the bottom."""
    if len(dice) != 3 or any(not 1 <= d <= 6 for d in dice):
        raise ValueError(f"three dice of 1-6, got {dice}")
    total = sum(dice)
    wall = Wall(0, total)
    owner = RELATIVE[wall.owner]
    counts = "、".join(f"{n} {_COUNTED[count_seat(0, n)].zh}" for n in range(1, min(total, 8) + 1))
    counts_en = ", ".join(f"{n} {_COUNTED[count_seat(0, n)].en}" for n in range(1, min(total, 8) + 1))
    first = wall.position(1, True)
    steps = [ui("dice_total", dice="+".join(map(str, dice)), total=total),
             ui("dice_count", counts=counts + "…", counts_en=counts_en + "…", total=total, owner=owner.zh,
                owner_en=owner.en),
             ui("dice_break_corner", total=total, owner=owner.zh, owner_en=owner.en, next=RELATIVE[first.seat].zh,
                next_en=RELATIVE[first.seat].en) if total == STACKS_PER_WALL else
             ui("dice_break", total=total, owner=owner.zh, owner_en=owner.en, first=total + 1),
             ui("dice_deal", menpai=DEAL_TILES // 2 + 1),
             ui("dice_tail", owner=owner.zh, owner_en=owner.en, total=total),
             ui("dice_kept")]
    dealt = Wall(0, total, head=DEAL_TILES)
    return DiceLesson(dice, tuple(steps), wall_picture(wall, 0, RELATIVE, counted=True, mark_dealer=False),
                      wall_picture(dealt, 0, RELATIVE, mark_dealer=False),
                      ui("dice_before", owner=owner.zh, owner_en=owner.en))
