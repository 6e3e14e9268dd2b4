"""The wall model (spec §2.3-2.7), the dice and the seat-wind conventions (§2.2, §2.4, §2.15)."""

from __future__ import annotations

import pytest

from companion.game import events as ev
from companion.game.check import replay
from companion.game.state import TableState, seat_wind_of
from companion.game.switches import ReserveRule, SeatWind, Switches
from companion.game.wall import DEAL_TILES, STACKS, Wall, WallError, count_seat, opened_wall


@pytest.mark.parametrize(("total", "owner_offset"), [
    (5, 0), (9, 0), (13, 0), (17, 0),  # the dealer
    (6, 1), (10, 1), (14, 1), (18, 1),  # the dealer's 下家
    (3, 2), (7, 2), (11, 2), (15, 2),  # 對家
    (4, 3), (8, 3), (12, 3), (16, 3),  # 上家
])
def test_opened_wall_by_dice_total(total: int, owner_offset: int) -> None:
    for dealer in range(4):
        assert opened_wall(dealer, total) == (dealer + owner_offset) % 4


def test_kaimen_seat_winds_follow_the_table_including_4_and_6() -> None:
    sw = Switches(seat_wind=SeatWind.KAIMEN)
    dealer = 1
    # T=6: 下家 東, 對家 南, 上家 西, dealer 北;  T=4: 上家 東, dealer 南, 下家 西, 對家 北
    for total, winds in ((6, {2: 0, 3: 1, 0: 2, 1: 3}), (4, {0: 0, 1: 1, 2: 2, 3: 3}),
                         (7, {3: 0, 0: 1, 1: 2, 2: 3}), (5, {1: 0, 2: 1, 3: 2, 0: 3})):
        state = TableState(switches=sw, dealer=dealer, wall=Wall(dealer, total))
        assert {s: seat_wind_of(state, s) for s in range(4)} == winds, total


def test_other_seat_wind_conventions() -> None:
    state = TableState(switches=Switches(), dealer=2, wall=Wall(2, 9))
    assert [seat_wind_of(state, s) for s in range(4)] == [2, 3, 0, 1]
    fixed = TableState(switches=Switches(seat_wind=SeatWind.FIXED_SEATS), dealer=2, wall=Wall(2, 9))
    assert [seat_wind_of(fixed, s) for s in range(4)] == [0, 1, 2, 3]


def test_counting_rule_and_the_example_seven_from_east() -> None:
    assert count_seat(0, 7) == 2  # West
    assert [count_seat(1, n) for n in (1, 2, 3, 4, 5)] == [1, 2, 3, 0, 1]


def test_break_position_and_the_corner_at_18() -> None:
    w = Wall(0, 9)  # the dealer's own wall, leave 9 stacks, start at stack 10 of it
    first = w.head_pos()
    assert first is not None and (first.stack, first.seat, first.index, first.top) == (1, 0, 10, True)
    w18 = Wall(0, 18)  # owner = 下家 (seat 1); the count runs over the corner into the next wall
    p = w18.head_pos()
    assert p is not None and p.index == 1 and p.seat == 0
    last = w.position(STACKS, True)
    assert (last.seat, last.index) == (0, 9)  # stack 72 lies just before the break


def test_head_and_tail_take_top_before_bottom() -> None:
    w = Wall(0, 5)
    a, b = w.head_pos(), w.take_head().head_pos()
    assert a is not None and b is not None and a.stack == b.stack == 1 and a.top and not b.top
    t1, t2 = w.tail_pos(), w.take_tail().tail_pos()
    assert t1 is not None and t2 is not None and t1.stack == t2.stack == 72 and t1.top and not t2.top


def test_a_stack_whose_top_is_still_drawn_is_not_kept_back() -> None:
    """After one replacement the 16 kept tiles start at a bottom tile: its stack's top is the last tile drawn (海底),
    so that stack is not one of those kept back (a review found it drawn grey, as never drawn)."""
    w = Wall(0, 10).take_head(DEAL_TILES).take_tail()
    last = w.head + w.live - 1  # the index from the head of the last tile drawn
    assert last % 2 == 0  # a top tile, whose bottom is the first kept back
    assert last // 2 + 1 not in w.kept_back() and last // 2 + 2 in w.kept_back()
    assert len(w.kept_back()) == 8 and w.live == 62


def test_deal_counts_and_live_tiles() -> None:
    w = Wall(0, 10).take_head(DEAL_TILES)
    head = w.head_pos()
    assert w.count == 79 and w.live == 63 and head is not None
    assert head.stack == 33 and not head.top  # the 門牌 was the top of stack 33
    assert len(w.kept_back()) == 8
    assert Wall(0, 10, ReserveRule.PLAY_TO_END).take_head(DEAL_TILES).live == 79
    k = Wall(0, 10, ReserveRule.PLUS_ONE_PER_KONG).take_head(DEAL_TILES).with_kong()
    assert k.reserve == 17 and k.live == 62


def test_wall_errors() -> None:
    with pytest.raises(WallError):
        Wall(0, 2)
    with pytest.raises(WallError):
        Wall(0, 10).take_head(145)


def test_where_the_ends_meet_in_one_stack_each_takes_the_tile_left() -> None:
    """§2.4: at both ends the top tile of a stack goes first. With nothing kept back the ends can meet in one
    stack; the end that reaches it second takes its bottom, whichever end took the top."""
    w = Wall(0, 5, ReserveRule.PLAY_TO_END)
    # the tail took stack 72's top and the head has drawn everything up to stack 72
    w = w.take_tail(1).take_head(142)
    assert w.count == 1 and w.head_index() == 143 and w.tail_index() == 143
    pos = w.head_pos()
    assert pos is not None and pos.stack == STACKS and not pos.top
    # the head took stack 40's top and the tail has come back to stack 40
    w = Wall(0, 5, ReserveRule.PLAY_TO_END).take_head(79).take_tail(64)
    assert w.count == 1 and w.tail_index() == 79 and w.head_index() == 79
    pos = w.tail_pos()
    assert pos is not None and pos.stack == 40 and not pos.top
    # apart, the ends take tops first as before
    w = Wall(0, 5, ReserveRule.PLAY_TO_END).take_head(3).take_tail(3)
    assert (w.head_index(), w.tail_index()) == (3, 2 * 70 + 1)  # stack 2's bottom, stack 71's bottom


def test_bots_play_to_the_last_tile_without_dealing_a_tile_twice() -> None:
    """Seed 24 once drew stack 72's top twice under ``play_to_end`` (a fifth copy, the simulator stopped)."""
    from companion.game.simulator import Simulator

    ends = 0
    for seed in (24, 25, 26, 38):
        events = list(Simulator(seed, Switches(reserve_rule=ReserveRule.PLAY_TO_END), strict=True).run(4))
        state = replay(events)  # every tile dealt once: the log replays under the checker
        assert sum(isinstance(e, ev.Dealt) for e in events) == 4 and state.log_len == len(events)
        ends += sum(isinstance(e, ev.ExhaustiveDraw | ev.DeclinedLastTile) for e in events)
    assert ends  # a hand played to the wall's end (seed 38's first, to its last tile)
