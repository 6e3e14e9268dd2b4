"""改正胡牌 (``WinCorrected``, spec §6.7): a winner's shown tiles put right after the hand; refused where it
cannot be (the brute-force check of what is accepted, on a table entered face down, is in
tests/app/test_live_model.py)."""

from __future__ import annotations

import pytest

from companion.game import events as ev
from companion.game.check import replay, step
from companion.game.evolve import finish_hand, win_hand
from companion.game.simulator import simulate
from companion.game.state import TableState
from companion.game.text import IllegalEvent
from companion.tiles import Tile


def _session(seed: int, hands: int = 8) -> TableState:
    log, _ = simulate(seed, hands)
    seatings = [i for i, e in enumerate(log) if isinstance(e, ev.Seated)]
    return replay(log[:seatings[1]] if len(seatings) > 1 else log)


def test_a_correction_is_refused_where_it_cannot_be() -> None:
    state = finish_hand(_session(8))
    result = next(r for r in state.results if r.outcome.winners and r.outcome.winners[0].tile is not None)
    rec = result.outcome.winners[0]
    loser = next(s for s in range(4) if s not in {w.seat for w in result.outcome.winners})
    cases = [
        (ev.WinCorrected(seat=rec.seat, hand=99, concealed=rec.concealed), "fix_no_hand"),
        (ev.WinCorrected(seat=loser, hand=result.number, concealed=rec.concealed), "fix_not_winner"),
        (ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=tuple(reversed(rec.concealed))), "fix_same"),
        (ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=rec.concealed[1:]), "fix_size"),
        (ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=rec.concealed[:-1] + (Tile.UNKNOWN,)),
         "fix_unknown"),
    ]
    if rec.kind is ev.WinKind.DISCARD:
        other = Tile((int(rec.tile) + 1) % 27) if rec.tile is not None else Tile(0)
        cases.append((ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=rec.concealed, tile=other),
                      "fix_discard_tile"))
    for event, key in cases:
        with pytest.raises(IllegalEvent) as bad:
            step(state, event)
        assert bad.value.reason.key == key, (key, bad.value)
        assert bad.value.reason.zh and bad.value.reason.en
    # a hand that does not complete
    broken = (Tile(0),) * 3 + rec.concealed[3:]
    if sorted(broken) != sorted(rec.concealed):
        with pytest.raises(IllegalEvent) as bad:
            step(state, ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=broken))
        assert bad.value.reason.key in ("not_complete", "fifth_copy", "shown_leaves_out")
    assert ev.from_dict(ev.to_dict(cases[0][0])) == cases[0][0]


def test_a_correction_that_contradicts_what_the_log_saw_of_the_hand_is_refused() -> None:
    """A simulated table knows every hand: a correction may not drop a tile the log saw him hold, nor change a
    self-drawn tile the log saw him draw."""
    state = finish_hand(_session(7))
    tried = set()
    for result in state.results:
        for rec in result.outcome.winners:
            if rec.tile is None or rec.kind not in (ev.WinKind.DISCARD, ev.WinKind.SELF_DRAW) or not rec.logged:
                continue
            assert sorted(rec.logged) == sorted(win_hand(rec))  # all of it was seen
            other = next(Tile(f) for f in range(27) if Tile(f) not in rec.concealed)
            with pytest.raises(IllegalEvent) as bad:
                step(state, ev.WinCorrected(seat=rec.seat, hand=result.number,
                                            concealed=(other,) + rec.concealed[1:]))
            assert bad.value.reason.key in ("shown_leaves_out", "not_complete", "fifth_copy")
            tried.add(bad.value.reason.key)
            if rec.kind is ev.WinKind.SELF_DRAW and rec.drawn is not None:
                swapped = (rec.tile,) + rec.concealed[1:]
                with pytest.raises(IllegalEvent) as bad:
                    step(state, ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=swapped,
                                                tile=rec.concealed[0]))
                assert bad.value.reason.key in ("wrong_drawn", "fix_same")
                tried.add(bad.value.reason.key)
    assert {"shown_leaves_out", "wrong_drawn"} <= tried


def test_a_win_of_an_earlier_session_is_corrected_in_that_session() -> None:
    """``session``: the session at the table (一將) the hand was played in, from 1; 0 (left out of the log) the
    one under way. An earlier session's hand is checked and put right as its own; the table plays on as it was."""
    played = finish_hand(_session(8))
    result = next(r for r in played.results if r.outcome.winners and r.outcome.winners[0].tile is not None)
    rec = result.outcome.winners[0]
    again = step(played, ev.Seated(("甲", "乙", "丙", "丁")))
    mistaken = ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=tuple(reversed(rec.concealed)), session=1)
    with pytest.raises(IllegalEvent) as bad:
        step(again, mistaken)
    assert bad.value.reason.key == "fix_same"  # checked against that session's record
    for session in (-1, 3):
        with pytest.raises(IllegalEvent) as bad:
            step(again, ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=rec.concealed, session=session))
        assert bad.value.reason.key == "fix_no_session" and bad.value.reason.zh and bad.value.reason.en
    with pytest.raises(IllegalEvent) as bad:  # the session under way (0, or 2 here) has no finished hand yet
        step(again, ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=rec.concealed, session=2))
    assert bad.value.reason.key == "fix_no_hand"
    assert "session" not in ev.to_dict(ev.WinCorrected(seat=0, hand=1, concealed=()))
    assert ev.from_dict(ev.to_dict(mistaken)) == mistaken


def test_a_claim_a_win_outranks_leaves_the_tiles_it_showed_known_in_the_claimers_hand() -> None:
    """A review: a win on a 5m outranked an exposed kong of it, and the tracker forgot the kong's three; a correction
    of the win to a hand holding 55m was then taken, six 5m on the table (the same tiles entered as the win were
    refused). The kong's three are back in the claimer's hand, and known there."""
    from tests.game.game_support import face_down_table, tiles

    state = face_down_table({})
    for e in (ev.Discarded(seat=0, tile=Tile.M5), ev.ExposedKong(seat=2, tile=Tile.M5),
              ev.Won(seat=3, kind=ev.WinKind.DISCARD, tile=Tile.M5, concealed=tiles("46m 123p 456p 789p 123s 99s"))):
        state = step(state, e)
    assert state.known[Tile.M5] == 4 and state.seats[2].concealed[Tile.M5] == 3 and not state.seats[2].melds
    with pytest.raises(IllegalEvent) as refused:
        step(state, ev.WinCorrected(seat=3, hand=1, concealed=tiles("55m 123p 456p 789p 123s 99s")))
    assert refused.value.reason.key == "fifth_copy"


def test_a_correction_that_is_no_win_says_what_the_hand_waits_on() -> None:
    """A README review was told only "not a winning shape: 112233456789m5z + 4z"; `companion tai` says why."""
    from tests.game.game_support import face_down_table, tiles

    state = face_down_table({})
    for e in (ev.Discarded(seat=0, tile=Tile.M5),
              ev.Won(seat=1, kind=ev.WinKind.DISCARD, tile=Tile.M5, concealed=tiles("46m 123p 456p 789p 123s 99s"))):
        state = step(state, e)
    # the hand by name in both languages: an English host review read "123456789m47p55z + 5p" here
    for concealed, zh, en in (
            ("45m 123p 456p 789p 123s 99s",
             "四萬 五萬 一筒 二筒 三筒 四筒 五筒 六筒 七筒 八筒 九筒 一條 二條 三條 九條 九條，胡五萬（這手聽三萬、六萬）",
             "4 5 Characters, 1 2 3 4 5 6 7 8 9 Dots, 1 2 3 9 9 Bamboo + 5 Characters (it waits on 3 Characters or "
             "6 Characters)"),
            ("17m 123p 456p 789p 123s 19s",
             "一萬 七萬 一筒 二筒 三筒 四筒 五筒 六筒 七筒 八筒 九筒 一條 一條 二條 三條 九條，胡五萬（這手還沒聽牌）",
             "1 7 Characters, 1 2 3 4 5 6 7 8 9 Dots, 1 1 2 3 9 Bamboo + 5 Characters (it is not ready: no tile "
             "completes it)")):
        with pytest.raises(IllegalEvent) as refused:
            step(state, ev.WinCorrected(seat=1, hand=1, concealed=tiles(concealed)))
        assert refused.value.reason.key == "not_complete"
        assert refused.value.reason.zh == f"乙的牌不成胡：{zh}"
        assert refused.value.reason.en == f"乙's hand is not a winning shape: {en}"
