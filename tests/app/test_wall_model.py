"""The wall drawn from above, against the rules' geometry (§2.4): every stack once, drawing running clockwise round
the square from the break, the next draw and replacement where the wall model puts them; and the dice lesson."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.app.wall_model import RELATIVE, SIDES, WallPicture, dice_lesson, wall_picture
from companion.app.words import Words
from companion.game.wall import DEAL_TILES, STACKS, Wall

OWNERS = [Words(f"{i}家", f"seat {i}") for i in range(4)]


def clockwise(picture: WallPicture) -> list[int]:
    """The stacks met going clockwise round the square on screen from the bottom wall's right-hand end: the
    bottom wall right to left, the left wall bottom to top, the top wall left to right, the right wall top down."""
    by = {s.side: [c.stack for c in s.cells] for s in picture.sides}
    return by["bottom"][::-1] + by["left"][::-1] + by["top"] + by["right"]


@given(st.integers(0, 3), st.integers(3, 18), st.integers(0, 3), st.integers(0, 128), st.integers(0, 16))
def test_every_stack_once_and_drawing_runs_clockwise_from_the_break(dealer: int, total: int, viewer: int,
                                                                     head: int, tail: int) -> None:
    wall = Wall(dealer, total, head=min(head, 144 - tail), tail=tail)
    pic = wall_picture(wall, viewer, OWNERS)
    assert [s.side for s in pic.sides] == list(SIDES)
    assert [s.seat for s in pic.sides] == [(viewer + k) % 4 for k in range(4)]
    assert all(len(s.cells) == 18 for s in pic.sides)
    ring = clockwise(pic)
    assert sorted(ring) == list(range(1, STACKS + 1))
    i = ring.index(1)
    assert ring[i:] + ring[:i] == list(range(1, STACKS + 1))  # clockwise, against the turn order (§2.4)
    assert sum(c.left for s in pic.sides for c in s.cells) == wall.count
    breaks = [s for s in pic.sides if s.break_at is not None]
    assert len(breaks) == 1  # the break is drawn once, on the edge of stack 1 away from stack 2
    side = breaks[0]
    n = side.break_at
    assert n is not None
    near = [side.cells[j].stack for j in (n - 1, n) if 0 <= j < 18]
    assert 1 in near and 2 not in near
    if len(near) == 2:
        assert set(near) == {1, STACKS}  # the break lies between the first stack and the last
    cells = {c.stack: c for s in pic.sides for c in s.cells}
    by_mark: dict[str, set[int]] = {}
    for c in cells.values():
        by_mark.setdefault(c.mark, set()).add(c.stack)
    nxt = wall.head_pos()
    want_next = {nxt.stack} if wall.live > 0 and nxt is not None else set()
    assert by_mark.get("next", set()) == want_next
    tail_pos = wall.tail_pos()
    want_tail = {tail_pos.stack} - want_next if tail_pos is not None and cells[tail_pos.stack].left else set()
    assert by_mark.get("tail", set()) == want_tail
    kept = {s for s in wall.kept_back() if cells[s].left} - want_next - want_tail
    assert by_mark.get("kept", set()) == kept
    assert all(cells[s].left for s in by_mark.get("next", set()) | kept)
    under = wall.kept_under()  # a stack whose top is drawn and whose bottom is kept shows both
    assert by_mark.get("split", set()) == ({under} - want_next - want_tail if under is not None else set())
    # the tiles the picture leaves to draw are the live ones (a review counted one more than the line said)
    drawable = sum(c.left for c in cells.values() if c.stack not in set(wall.kept_back()))
    assert drawable - (1 if under is not None else 0) == max(wall.live, 0)
    holding = {st for st in (*wall.kept_back(), *([under] if under is not None else [])) if cells[st].left}
    kept_line = [x.en for x in pic.lines if x.en.startswith("The last ")]
    if kept_line:  # the line counts the stacks the picture holds the kept tiles in (a review: one too many)
        assert f"in {len(holding)} stacks" in kept_line[0] or f"({len(holding)} stacks)" in kept_line[0]
    for s in pic.sides:  # the seat's own wall is drawn on its side, counted from its owner's right-hand end
        for c in s.cells:
            assert wall.position(c.stack, True).seat == s.seat


def test_after_the_deal_on_a_five_the_next_tile_is_across_second_stack_bottom() -> None:
    """Worked by hand from §2.4-2.5: a 5 opens the dealer's own wall, 5 stacks are left at its right-hand end, stacks
    6-18 of it are dealt (13), then his left neighbour's 18 (31 in all), then the one across gives stacks 32 and 33;
    the dealer's 門牌 is the top of stack 33, so the next draw is its bottom tile, the second stack of the wall
    across. Replacements start at the fifth stack of the dealer's wall, next to the break."""
    pic = dice_lesson((1, 2, 2)).after
    # (counted with the stacks already taken: a review counted only those standing and went too far)
    assert pic.lines[0].zh == "下一張摸：對家的牌牆，從他右手邊數第 2 墩（拿走的也算）的下層"
    assert pic.lines[0].en == "Next draw: the wall of the player across: stack 2 counted from that player's " \
                              "right-hand end (the stacks taken counted too), the bottom tile"
    assert pic.lines[1].zh == "補牌（補花、槓）：莊家的牌牆，從他右手邊數第 5 墩（拿走的也算）的上層"
    bottom = next(s for s in pic.sides if s.side == "bottom")
    assert [c.left for c in bottom.cells] == [0] * 13 + [2] * 5  # his right-hand end is the screen's right


def test_the_lesson_counts_the_seats_and_numbers_the_stacks_left() -> None:
    lesson = dice_lesson((2, 3, 5))
    assert lesson.steps[0].en == "Dice 2+3+5: 10 in all"
    assert "數到 10 是下家" in lesson.steps[1].zh and "1 莊家、2 下家、3 對家、4 上家、5 莊家" in lesson.steps[1].zh
    assert lesson.steps[2].zh.startswith("在下家的牌牆，從他右手邊數 10 墩留著不動，第 11 墩開始拿牌")
    right = next(s for s in lesson.before.sides if s.side == "right")  # the opened wall: the dealer's right
    assert right.owner == RELATIVE[1]
    assert [c.text for c in right.cells[:11]] == [str(i) for i in range(1, 11)] + [""]
    assert right.cells[10].mark == "next" and right.break_at == 10
    assert "33" in lesson.steps[3].zh and lesson.before.lines[0].zh.startswith("下一張摸：下家的牌牆")
    # the wall's owner is named from the dealer's seat: "his right" named nobody (a reread of the English)
    assert "Counting to 10 reaches the player to the dealer's right" in lesson.steps[1].en
    assert not any(" his " in f" {s.en} " for s in lesson.steps)


def test_eighteen_runs_over_the_corner_to_the_next_wall() -> None:
    lesson = dice_lesson((6, 6, 6))
    assert lesson.steps[2].zh == "下家的牌牆 18 墩剛好數完，數到牆角：從下一道牆（莊家的）第一墩開始拿牌。"
    bottom = next(s for s in lesson.before.sides if s.side == "bottom")
    assert bottom.cells[17].mark == "next" and bottom.break_at == 18  # the dealer's right-hand corner


@pytest.mark.parametrize("dice", [(0, 1, 2), (1, 2, 7), (1, 2)])
def test_dice_outside_one_to_six_are_refused(dice: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="three dice of 1-6"):
        dice_lesson(dice)  # type: ignore[arg-type]


def _texts(control: object) -> list[str]:
    """Every text shown in a Flet control tree."""
    out: list[str] = []
    stack = [control]
    while stack:
        c = stack.pop()
        if isinstance(getattr(c, "value", None), str):
            out.append(c.value)  # type: ignore[attr-defined]
        for name in ("content", "controls"):
            child = getattr(c, name, None)
            stack += child if isinstance(child, list) else [child] if child is not None else []
    return out


def _fill(c: object) -> str:
    """A control's background: its colour, or its gradient's colours (a stack half drawn, half kept)."""
    gradient = getattr(c, "gradient", None)
    return "/".join(gradient.colors) if gradient is not None else getattr(c, "bgcolor", None) or ""


def _colours(control: object) -> set[str]:
    """Every background colour in a Flet control tree but a chip's that says its own word (the dealer's 莊)."""
    out: set[str] = set()
    stack = [control]
    while stack:
        c = stack.pop()
        said = getattr(getattr(c, "content", None), "value", None)
        if _fill(c) and not (isinstance(said, str) and said and not said.isdigit()):
            out.add(_fill(c))
        for name in ("content", "controls"):
            child = getattr(c, name, None)
            stack += child if isinstance(child, list) else [child] if child is not None else []
    return out


@pytest.mark.parametrize("head, tail", [(0, 0), (57, 3), (120, 7), (105, 13)])
def test_every_colour_of_the_wall_has_its_line_in_the_legend(head: int, tail: int) -> None:
    """A review asked what the teal stacks were: the stacks still to draw (two tiles, or one) are in the legend
    too, and every swatch is a colour the picture shows."""
    from companion.app.view_wall import wall_map

    pic = wall_picture(Wall(0, 9, head=head, tail=tail), 0, OWNERS)
    view = wall_map(lambda w: w.en, pic, lines=False)
    square, legend = view.controls[0], view.controls[1]
    swatches = [(_fill(row.controls[0]), row.controls[1].value) for row in legend.controls]
    assert _colours(square) <= {colour for colour, _ in swatches}  # nothing drawn without its word
    plain = {c.left for s in pic.sides for c in s.cells if c.left and c.mark not in ("next", "tail", "kept", "split")}
    split = any(c.mark == "split" for s in pic.sides for c in s.cells)
    assert any(word == "top drawn, bottom kept" for _, word in swatches) == split
    assert split or (head, tail) in ((0, 0), (120, 7))  # both (57, 3) and (105, 13) keep a bottom under a top
    assert (("#2f7d95", "two tiles (a stack)") in swatches) == (2 in plain)  # (the break's swatch is that teal too)
    assert (("#8cc2d1", "one tile left") in swatches) == (1 in plain)
    assert plain or (head, tail) == (120, 7)  # all 17 tiles left are kept back there


def test_a_hand_over_shows_no_next_draw_and_no_next_replacement() -> None:
    """A declined last tile, a draw or a win ends the hand: the picture points at no next tile (a review saw the tile
    just declined pointed at as the next draw) and says the hand is over; the stacks left stay as they were."""
    wall = Wall(0, 10).take_head(DEAL_TILES)
    playing, over = wall_picture(wall, 0, OWNERS), wall_picture(wall, 0, OWNERS, over=True)
    marks = {c.mark for s in over.sides for c in s.cells}
    assert {"next", "tail"} <= {c.mark for s in playing.sides for c in s.cells} and not {"next", "tail"} & marks
    assert over.lines[0].en == "The hand is over: nothing more is drawn" and "這一把已經結束" in over.lines[0].zh
    assert [c.left for s in over.sides for c in s.cells] == [c.left for s in playing.sides for c in s.cells]


@given(st.integers(0, 3), st.integers(3, 18), st.integers(0, 3))
def test_the_dealer_is_marked_behind_his_wall_and_not_in_the_lesson(dealer: int, total: int, viewer: int) -> None:
    """A wall review: the picture did not say where the dealer sits (the lesson's names say 莊家 already)."""
    pic = wall_picture(Wall(dealer, total, head=DEAL_TILES), viewer, OWNERS)
    assert [s.seat for s in pic.sides if s.dealer] == [dealer]
    from companion.app.view_wall import wall_map

    said = _texts(wall_map(lambda w: w.en, pic, lines=False))
    assert said.count("dealer") == 1 and f"seat {dealer}" in said
    third, rest = divmod(total, 3)
    lesson = dice_lesson((third + (rest > 0), third + (rest > 1), third))  # three dice as even as they come
    assert not any(s.dealer for p in (lesson.before, lesson.after) for s in p.sides)


def test_the_last_tile_to_draw_is_called_the_sea_floor() -> None:
    """One live tile left: the next draw is 海底, the last (a review: nothing on the picture said so)."""
    last = Wall(0, 5, head=120, tail=7)  # 144 - 127 = 17 tiles left, 16 kept back
    assert last.live == 1
    line = wall_picture(last, 0, OWNERS).lines[0]
    assert line.zh.startswith("下一張摸的是最後一張（海底）：") and "last tile to draw" in line.en
    before = Wall(0, 5, head=119, tail=7)
    assert before.live == 2 and wall_picture(before, 0, OWNERS).lines[0].zh.startswith("下一張摸：")


@pytest.mark.parametrize(("dice", "owner"), [((1, 1, 3), "莊家"), ((2, 2, 2), "下家"), ((1, 1, 5), "對家"),
                                             ((6, 6, 6), "下家"), ((1, 2, 1), "上家")])
def test_the_lesson_names_the_wall_broken_over_its_picture(dice: tuple[int, int, int], owner: str) -> None:
    caption = dice_lesson(dice).caption
    assert caption.zh == f"開門：{owner}的牌牆，數過的墩標了數字" and RELATIVE[["莊家", "下家", "對家", "上家"].index(
        owner)].en in caption.en
