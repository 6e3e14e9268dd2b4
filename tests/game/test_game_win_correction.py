"""改正胡牌 (``WinCorrected``, spec §6.7): a winner's shown tiles put right after the hand; refused where it
cannot be (the brute-force check of what is accepted, on a table entered face down, is in
tests/app/test_live_model.py)."""

from __future__ import annotations

from dataclasses import replace

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


def _kong_won_on(kind: str) -> TableState:
    """乙 (seat 1, South) makes a concealed kong face down, then self-draws 1z on 123m 456m 789s 11z 22z: the win
    names the kong's kind, ``kind``, which the table never saw."""
    from tests.game.game_support import face_down_table, t, tiles

    state = face_down_table({})
    for e in (ev.Discarded(seat=0, tile=t("9m")), ev.Drew(seat=1), ev.ConcealedKong(seat=1), ev.ReplacementDrew(seat=1),
              ev.Discarded(seat=1, tile=t("9m")), ev.Drew(seat=2), ev.Discarded(seat=2, tile=t("9p")),
              ev.Drew(seat=3), ev.Discarded(seat=3, tile=t("1p")), ev.Drew(seat=0), ev.Discarded(seat=0, tile=t("9s")),
              ev.Drew(seat=1, tile=t("1z")),
              ev.Won(seat=1, kind=ev.WinKind.SELF_DRAW, tile=t("1z"), concealed=tiles("123m456m789s11z22z"),
                     kongs=tiles(kind))):
        state = step(state, e)
    return state


def test_a_concealed_kong_named_wrong_at_the_win_is_put_right_with_the_tiles() -> None:
    """A review: a win entered with its face-down kong as 8p (``ckong:8888p``) where it was 南 could never be put
    right: the correction took the concealed tiles only, so the hand missed 門風 and every later balance stayed
    wrong. ``WinCorrected.kongs`` names the kinds again, checked as the win's are: a fifth copy on the table, a
    kong too many or one not named is refused, saying why; the kongs the table saw stay as recorded."""
    from companion.game.session import ledger_of
    from tests.game.game_support import tiles

    for over in (False, True):  # the hand just over, and one the table has closed (the next dealt since)
        state = _kong_won_on("8p")
        if over:
            state = finish_hand(state)
        (line,) = ledger_of(state).entries[0].lines

        def seen(s: TableState, over: bool = over) -> tuple[int, ...]:  # the hand's tiles the table has seen
            return s.results[0].known or () if over else s.known

        assert "門風" not in [zh for zh, _, _ in line.items] and seen(state)[Tile.P8] == 4
        corrected = ev.WinCorrected(seat=1, hand=1, concealed=tiles("123m456m789s11z88p"), kongs=tiles("2z"))
        fixed = step(state, corrected)
        (now,) = ledger_of(fixed).entries[0].lines
        assert [zh for zh, _, _ in now.items] == [zh for zh, _, _ in line.items[:3]] + ["門風", "圈風"] \
            and now.hand_tai == line.hand_tai + 1
        assert ledger_of(fixed).balances != ledger_of(state).balances
        rec = (fixed.outcome if not over else fixed.results[0].outcome).winners[0]  # type: ignore[union-attr]
        assert [m.tiles for m in rec.melds] == [tiles("2222z")] and rec.face_down == (0,) and rec.corrected
        assert (seen(fixed)[Tile.P8], seen(fixed)[Tile.Z2]) == (2, 4)  # the table's count follows
        if not over:
            assert [m.tiles for m in fixed.seats[1].melds] == [tiles("2222z")]
        # put back: as it was recorded; an undo takes the correction back whole
        back = step(fixed, ev.WinCorrected(seat=1, hand=1, concealed=tiles("123m456m789s11z22z"), kongs=tiles("8p")))
        assert ledger_of(back).balances == ledger_of(state).balances and seen(back) == seen(state)
        undone = step(fixed, ev.Retracted(target=fixed.last_index))
        assert ledger_of(undone).balances == ledger_of(state).balances and seen(undone) == seen(state)
    state = _kong_won_on("8p")
    for kongs, concealed, key, said in (
            ("2z", "123m456m789s11z22z", "fifth_copy", ("6 張南", "South wind (2z): 6 copies")),  # his own 22z
            ("1p", "123m456m789s11z22z", "fifth_copy", ("5 張一筒", "1 Dot (1p): 5 copies")),  # 丁 discarded one
            ("2z3z", "123m456m789s11z88p", "fix_kongs_size", ("是 1 個，改正寫了 2 個", "with 1 kong face down")),
            ("0x", "123m456m789s11z88p", "fix_unknown", ("每張都寫出來", "names every tile")),
            ("8p", "123m456m789s11z22z", "fix_same", ("沒有要改的", "nothing to correct"))):
        with pytest.raises(IllegalEvent) as refused:
            step(state, ev.WinCorrected(seat=1, hand=1, concealed=tiles(concealed), kongs=tiles(kongs)))
        assert refused.value.reason.key == key
        assert said[0] in refused.value.reason.zh and said[1] in refused.value.reason.en, refused.value.reason
    # a win with no kong face down until it has none to name
    played = finish_hand(_session(8))
    result = next(r for r in played.results if r.outcome.winners and r.outcome.winners[0].tile is not None)
    rec = result.outcome.winners[0]
    assert not rec.face_down
    with pytest.raises(IllegalEvent) as refused:
        step(played, ev.WinCorrected(seat=rec.seat, hand=result.number, concealed=rec.concealed, kongs=(Tile.Z7,)))
    assert refused.value.reason.key == "fix_kongs_size" and "0 kongs" in refused.value.reason.en


def test_a_correction_of_the_kongs_round_trips_and_an_older_one_reads_as_recorded() -> None:
    """``kongs`` is written only when set: a correction logged before the field reads with none (as recorded)."""
    from tests.game.game_support import tiles

    fixed = ev.WinCorrected(seat=1, hand=1, concealed=tiles("123m456m789s11z88p"), kongs=tiles("2z"))
    assert ev.to_dict(fixed)["kongs"] == "2z" and ev.from_dict(ev.to_dict(fixed)) == fixed
    older = {"v": 4, "type": "WinCorrected", "seat": 1, "hand": 1, "concealed": "123m456m789s11z88p",
             "tile": None, "source": "manual", "rules_version": 1}
    assert ev.from_dict(older) == replace(fixed, kongs=())
    assert "kongs" not in ev.to_dict(replace(fixed, kongs=()))
