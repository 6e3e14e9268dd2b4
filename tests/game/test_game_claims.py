"""Claims and their priority, 過水, kongs and the end of the wall, by scripted hands (spec §2.7-2.13)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from game_support import Table, face_down_table, t, tiles

from companion.game import events as ev
from companion.game.check import replay, step
from companion.game.simulator import Simulator
from companion.game.state import OutcomeKind, Phase, TableState
from companion.game.switches import DiscardKongWin, FalseWinAfter, MultiWin, ReserveRule, Switches
from companion.game.text import IllegalEvent
from companion.hand import MeldKind, Source
from companion.tiles import Tile

# Dealer 0 discards 9s: seat 1 may chow 78s, seat 3 may pung 99s, seat 2 waits on 6s or 9s.
HANDS = {
    0: "123m456m789m11p234p56p9s",
    1: "2345s678s55z666z77z11s",
    2: "111z222z333z444z78s66p",
    3: "99s88p77p66m55m44m3z",
}


def opened() -> Table:
    tb = Table(HANDS)
    tb.discard(0, "9s")
    return tb


def test_chow_only_from_the_left() -> None:
    tb = opened()
    err = tb.refused(ev.Chowed(seat=3, tiles=tiles("78s"), tile=t("9s")), "chow_left")
    assert ("discarder", "0") in err.evidence
    tb.do(ev.Chowed(seat=1, tiles=tiles("78s"), tile=t("9s")))
    meld = tb.state.seats[1].melds[0]
    assert meld.kind is MeldKind.CHOW and meld.source is Source.LEFT
    assert tb.state.phase is Phase.ACT and tb.state.turn == 1


def test_pung_outranks_a_chow_already_made_and_not_the_other_way() -> None:
    tb = opened()
    tb.do(ev.Chowed(seat=1, tiles=tiles("78s"), tile=t("9s")))
    tb.do(ev.Punged(seat=3, tile=t("9s")))
    assert tb.state.seats[1].melds == ()  # the chow went back
    assert tb.state.seats[3].melds[0].kind is MeldKind.PUNG and tb.state.turn == 3
    tb.refused(ev.Chowed(seat=1, tiles=tiles("78s"), tile=t("9s")), "outranked")


def test_an_outranking_claim_keeps_what_was_recorded_since_the_claim_it_withdraws() -> None:
    tb = opened()
    tb.do(ev.Chowed(seat=1, tiles=tiles("78s"), tile=t("9s")))
    tb.do(ev.WrongCount(seat=2))
    tb.do(ev.HandKnown(seat=2))
    tb.do(ev.Punged(seat=3, tile=t("9s")))
    assert tb.state.seats[1].melds == ()
    assert tb.state.seats[2].no_win and tb.state.seats[2].known
    assert [w.key for w in tb.state.warnings] == ["big_count"]
    dead = Table(HANDS, Switches(false_win_after=FalseWinAfter.CONTINUE_DEAD))
    dead.discard(0, "9s")
    dead.do(ev.Chowed(seat=1, tiles=tiles("78s"), tile=t("9s")))
    dead.do(ev.FalseWin(seat=3))
    dead.refused(ev.Punged(seat=3, tile=t("9s")), "dead")
    assert dead.state.false_wins == (3,)


def test_a_seat_playing_dead_makes_no_added_kong() -> None:
    """A rules review: under continue_dead the dead seat's pung was refused, its 加槓 taken, though 加槓 is a call
    (spec §1.3) and a seat playing dead makes none (§2.16). Its replacement draw would have shortened the wall."""
    tb = Table({0: "7z", 1: "77z123s456s789s1z2z3z"}, Switches(false_win_after=FalseWinAfter.CONTINUE_DEAD))
    tb.discard(0, "7z")
    tb.do(ev.Punged(seat=1, tile=t("7z")))
    tb.discard(1, "1z")
    tb.do(ev.FalseWin(seat=1))
    for s in (2, 3, 0):
        tb.draw(s)
        tb.discard(s, tb.hand(s)[-1])
    tb.draw(1, "7z")
    tb.refused(ev.AddedKong(seat=1, tile=t("7z")), "dead")
    tb.discard(1, "7z")  # he discards it instead


def test_win_outranks_pung_and_then_nothing_else_claims() -> None:
    tb = opened()
    tb.do(ev.Punged(seat=3, tile=t("9s")))
    base = tb.state.claim_base
    assert base is not None
    tb.do(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=base.seats[2].concealed_tiles))
    assert tb.state.phase is Phase.HAND_OVER
    assert tb.state.outcome is not None and [w.seat for w in tb.state.outcome.winners] == [2]
    assert tb.state.seats[3].melds == ()
    tb.refused(ev.Punged(seat=3, tile=t("9s")), "outranked")


def test_a_win_needs_the_shape() -> None:
    tb = opened()
    err = tb.refused(ev.Won(seat=1, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=tb.hand(1)), "not_complete")
    assert "9s" in str(err)


def test_claim_after_the_window_closed() -> None:
    tb = opened()
    tb.draw(1)
    tb.refused(ev.Punged(seat=3, tile=t("9s")), "window_closed")


def test_passed_win_bars_discard_and_self_drawn_wins_until_own_discard() -> None:
    tb = opened()
    tb.refused(ev.PassedWin(seat=1, tile=t("9s")), "not_win_tile")  # seat 1's known hand does not win on 9s
    tb.do(ev.PassedWin(seat=2, tile=t("9s")))
    tb.draw(1, "9s")
    tb.discard(1, "9s")
    tb.refused(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=tb.hand(2)), "barred")
    tb.draw(2, "6s")  # a self-drawn win is barred too under the default
    hand = list(tb.hand(2))
    hand.remove(t("6s"))
    tb.refused(ev.Won(seat=2, kind=ev.WinKind.SELF_DRAW, tile=t("6s"), concealed=tuple(hand)), "barred")


def test_a_win_let_go_without_a_word_bars_a_known_hand() -> None:
    """§2.12: not claiming is passing; the bar does not wait for a PassedWin event when the hand is known."""
    tb = opened()
    tb.draw(1, "6s")  # seat 2 could have won on the 9s and said nothing
    assert tb.state.seats[2].barred
    tb.discard(1, "6s")
    tb.refused(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("6s"), concealed=tb.hand(2)), "barred")
    tb.draw(2, "5m")
    tb.discard(2, "5m")
    assert not tb.state.seats[2].barred


def _face_down_pass(after: list[ev.Event], switches: Switches | None = None) -> list[ev.Event]:
    """Hands dealt face down (a live table); the dealer's 6p goes unclaimed, then ``after``."""
    from companion.game.switches import FirstDealer

    u = Tile.UNKNOWN
    sw = replace(switches or Switches(), first_dealer=FirstDealer.EAST_DEALS)
    return [ev.Seated(players=("East", "South", "West", "North"), switches=sw), ev.DealerChosen(dealer=0),
            ev.DiceRolled(dice=(2, 2, 1)), ev.Dealt(hands=((u,) * 17, (u,) * 16, (u,) * 16, (u,) * 16)),
            ev.Discarded(seat=0, tile=t("6p")), ev.Drew(seat=1, tile=u), *after]


def test_a_win_let_go_face_down_is_seen_in_the_tiles_shown_at_a_later_win() -> None:
    """§2.12 at a live table, hands face down: West lets the dealer's 6p go, then wins on South's 7s showing tiles that
    won on the 6p too. His hand could not change between (no discard of his own), so the tiles shown prove the pass:
    refused as a win (a tracker review: it was taken, the pass unseen). Self-drawn alike under the default."""
    waits_6p_7s = tiles("111z222z333z444z66p77s")
    on_7s = ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("7s"), concealed=waits_6p_7s)
    state = replay(_face_down_pass([ev.Discarded(seat=1, tile=t("7s"))]))
    assert state.seats[2].passed == (t("6p"),) and not state.seats[2].barred
    with pytest.raises(IllegalEvent) as refused:
        step(state, on_7s)
    assert refused.value.reason.key == "barred_shown"
    # the tile by its name (an English host review read "the 5p he let go")
    en = refused.value.reason.en
    assert "the 6 Dots" in en and "West" in en and "false win" in en
    # the English with no Chinese in it (the app shows it to English players: a wording review read 過水, 詐胡)
    assert not any("\u4e00" <= c <= "\u9fff" for c in en), en
    assert "六筒" in refused.value.reason.zh and "詐胡" in refused.value.reason.zh
    drawn = replay(_face_down_pass([ev.Discarded(seat=1, tile=t("1s")), ev.Drew(seat=2, tile=Tile.UNKNOWN)]))
    self_drawn = ev.Won(seat=2, kind=ev.WinKind.SELF_DRAW, tile=t("7s"), concealed=waits_6p_7s)
    with pytest.raises(IllegalEvent, match="6p"):
        step(drawn, self_drawn)
    # where the switch lets a passed win be self-drawn, it is taken
    off = Switches(passed_win_blocks_self_draw=False)
    assert step(replay(_face_down_pass([ev.Discarded(seat=1, tile=t("1s")), ev.Drew(seat=2, tile=Tile.UNKNOWN)],
                                       off)), self_drawn).outcome is not None
    # tiles that did not win on the 6p (a single wait on 7s): taken
    single = ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("7s"), concealed=tiles("111z222z333z444z666p7s"))
    assert step(state, single).outcome is not None
    # his own discard ends it, as it ends a bar
    later = _face_down_pass([ev.Discarded(seat=1, tile=t("1s")), ev.Drew(seat=2, tile=Tile.UNKNOWN),
                             ev.Discarded(seat=2, tile=t("9m")), ev.Drew(seat=3, tile=Tile.UNKNOWN),
                             ev.Discarded(seat=3, tile=t("7s"))])
    assert replay(later).seats[2].passed == () and step(replay(later), on_7s).outcome is not None
    # a log kept before this check (before events were stamped) replays as kept; one written today is asked it
    assert replay([*_face_down_pass([ev.Discarded(seat=1, tile=t("7s"))]),
                   replace(on_7s, rules_version=0)]).outcome is not None
    with pytest.raises(IllegalEvent, match="passed win"):
        replay([*_face_down_pass([ev.Discarded(seat=1, tile=t("7s"))]), on_7s])


def test_a_win_let_go_face_down_is_seen_through_a_kong_made_since() -> None:
    """A tracker review: the tiles let go were forgotten at a kong, so a seat that let the 6p go, drew and made a kong,
    then self-drew its win on the replacement, was paid (槓上開花) where the same play with the hand known is barred
    (§2.12: a kong does not lift it, by default). The hand then is the one shown with the kong's tiles put back and
    the tile drawn before it taken out: barred where the draw is known; a draw face down could have been any tile
    the hand held, and is barred only where each would have won."""
    shown = tiles("222z333z444z66p77s")  # with 111z it won on the 6p (and 7s)
    won = ev.Won(seat=2, kind=ev.WinKind.SELF_DRAW, tile=t("7s"), concealed=shown)

    def after_kong(drawn: Tile, kong: ev.Event, *more: ev.Event) -> TableState:
        return replay(_face_down_pass([ev.Discarded(seat=1, tile=t("1s")), ev.Drew(seat=2, tile=drawn), kong,
                                       *more, ev.ReplacementDrew(seat=2, tile=t("7s"))]))

    with pytest.raises(IllegalEvent) as refused:  # the drawn 1z made the kong of 1z
        step(after_kong(t("1z"), ev.ConcealedKong(seat=2, tile=t("1z"))), won)
    assert refused.value.reason.key == "barred_shown" and "6 Dots" in refused.value.reason.en
    # drawn face down: the hand then may have held four 1z and not the drawn tile; taken
    assert step(after_kong(Tile.UNKNOWN, ev.ConcealedKong(seat=2, tile=t("1z"))), won).outcome is not None
    # a kong of a discard takes no draw: the hand then is the one shown and the kong's three (where its replacement
    # may win)
    claimed = replay(_face_down_pass([ev.Discarded(seat=1, tile=t("1z")), ev.ExposedKong(seat=2, tile=t("1z")),
                                      ev.ReplacementDrew(seat=2, tile=t("7s"))],
                                     Switches(discard_kong_replacement_win=DiscardKongWin.KONG_BLOOM)))
    with pytest.raises(IllegalEvent, match="6p"):
        step(claimed, won)
    # a kong laid face down (the Live tab logs its kind unseen, shown at the win): the hand then is unknown, the
    # tiles passed forgotten, the win taken (a review: it crashed, every 槓上開花 after a face-down kong)
    unseen = replay(_face_down_pass([ev.Discarded(seat=1, tile=t("1s")), ev.Drew(seat=2, tile=Tile.UNKNOWN),
                                     ev.ConcealedKong(seat=2, tile=Tile.UNKNOWN),
                                     ev.ReplacementDrew(seat=2, tile=t("7s"))]))
    assert unseen.seats[2].passed == () and unseen.seats[2].passed_out == ()
    assert step(unseen, replace(won, kongs=(t("1z"),))).outcome is not None
    # a flower laid late (held since before the pass): the hand passed with held it, the tiles passed are forgotten
    late = replay(_face_down_pass([ev.Discarded(seat=1, tile=t("1s")), ev.Drew(seat=2, tile=t("1z")),
                                   ev.FlowerReplaced(seat=2, flowers=(t("1f"),), replacements=(Tile.UNKNOWN,))]))
    assert late.seats[2].passed == () and late.warnings
    # where the switch lifts the bar at a kong, taken
    lifted = Switches(passed_win_released_by_kong=True)
    assert step(replay(_face_down_pass([ev.Discarded(seat=1, tile=t("1s")), ev.Drew(seat=2, tile=t("1z")),
                                        ev.ConcealedKong(seat=2, tile=t("1z")),
                                        ev.ReplacementDrew(seat=2, tile=t("7s"))], lifted)), won).outcome is not None


def test_a_pass_may_be_logged_after_a_chow_a_win_could_still_outrank() -> None:
    """§2.12: a seat that could win on the discard and does not claim it is barred; after a chow or a pung the
    win could still outrank it, so the pass is still the table's to log (a camera that cannot see the hand
    has no other way to bar it), and it holds when a pung then outranks the chow."""
    tb = opened()
    tb.do(ev.Chowed(seat=1, tiles=tiles("78s"), tile=t("9s")))
    tb.do(ev.PassedWin(seat=2, tile=t("9s")))
    assert tb.state.seats[2].barred
    tb.refused(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=tb.hand(2)), "barred")
    tb.do(ev.Punged(seat=3, tile=t("9s")))
    assert tb.state.seats[3].melds and tb.state.seats[2].barred
    won = opened()
    won.do(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=won.hand(2)))
    won.refused(ev.PassedWin(seat=1, tile=t("9s")), "no_window")  # after a win claimed, nothing to pass
    chowed = opened()
    chowed.do(ev.Chowed(seat=1, tiles=tiles("78s"), tile=t("9s")))
    chowed.refused(ev.PassedWin(seat=1, tile=t("9s")), "no_window")  # the claimer took it: nothing to pass


def test_a_silent_pass_after_a_claim_bars_the_others_not_the_claimer() -> None:
    tb = opened()
    tb.do(ev.Chowed(seat=1, tiles=tiles("78s"), tile=t("9s")))
    tb.discard(1, "5s")  # the chow's discard closes the 9s window: seat 2 let its win go
    assert tb.state.seats[2].barred and not tb.state.seats[1].barred


def test_passed_win_self_draw_switch_off() -> None:
    tb = Table(HANDS, Switches(passed_win_blocks_self_draw=False))
    tb.discard(0, "9s")
    tb.do(ev.PassedWin(seat=2, tile=t("9s")))
    tb.draw(1)
    tb.discard(1, tb.hand(1)[0])
    tb.draw(2, "6s")
    hand = list(tb.hand(2))
    hand.remove(t("6s"))
    # a flower among the tiles shown is named as a flower (it had been refused as "not 0x")
    with_flower = ev.Won(seat=2, kind=ev.WinKind.SELF_DRAW, tile=t("6s"), concealed=(t("1f"), *hand[1:]))
    assert "1f" in tb.refused(with_flower, "flower_shown").reason.en
    tb.do(ev.Won(seat=2, kind=ev.WinKind.SELF_DRAW, tile=t("6s"), concealed=tuple(hand)))
    assert tb.state.outcome is not None and tb.state.outcome.winners[0].kind is ev.WinKind.SELF_DRAW


def test_bar_lifts_at_own_discard() -> None:
    tb = opened()
    tb.do(ev.PassedWin(seat=2, tile=t("9s")))
    tb.draw(1)
    tb.discard(1, tb.hand(1)[0])
    tb.draw(2, "5m")
    tb.discard(2, "5m")
    assert not tb.state.seats[2].barred


def _two_waiting(rule: MultiWin) -> Table:
    # seats 1 and 3 both wait on 5z; the dealer discards it.
    hands = {0: "123m456m789m11p234p56p5z", 1: "111s222s333s444s666p5z", 3: "777s888s999s777p555p5z"}
    tb = Table(hands, Switches(multi_win=rule))
    tb.discard(0, "5z")
    return tb


def test_multi_win_nearest_and_all() -> None:
    for rule, winners in ((MultiWin.NEAREST, [1]), (MultiWin.ALL, [1, 3]), (MultiWin.NEAREST_UNLESS_THREE, [1])):
        tb = _two_waiting(rule)
        tb.do(ev.Won(seat=3, kind=ev.WinKind.DISCARD, tile=t("5z"), concealed=tb.hand(3)))
        tb.do(ev.Won(seat=1, kind=ev.WinKind.DISCARD, tile=t("5z"), concealed=tb.hand(1)))
        out = tb.state.outcome
        assert out is not None and [w.seat for w in out.winners] == winners, rule
        assert len(out.claimants) == 2
        tb.refused(ev.Won(seat=1, kind=ev.WinKind.DISCARD, tile=t("5z"), concealed=tb.hand(1)), "win_kind")


def test_kong_from_left_switch() -> None:
    hands = {0: "123m456m789m11p234p56p7s", 1: "777s123p456p789p1z"}
    tb = Table(hands, Switches(kong_from_left=False))
    tb.discard(0, "7s")
    tb.refused(ev.ExposedKong(seat=1, tile=t("7s")), "kong_left")
    tb.do(ev.Punged(seat=1, tile=t("7s")))


def _discard_kong(rule: DiscardKongWin) -> Table:
    hands = {0: "123m456m789m11p234p56p7s", 1: "777s123m456m123p45p99p"}
    tb = Table(hands, Switches(discard_kong_replacement_win=rule))
    tb.discard(0, "7s")
    tb.do(ev.ExposedKong(seat=1, tile=t("7s")))
    assert tb.state.phase is Phase.REPLACE
    tb.do(ev.ReplacementDrew(seat=1, tile=tb.take("6p")))
    return tb


def test_win_on_discard_kong_replacement_follows_the_switch() -> None:
    tb = _discard_kong(DiscardKongWin.FORBIDDEN)
    rest = tiles("123m456m123p45p99p")
    tb.refused(ev.Won(seat=1, kind=ev.WinKind.SELF_DRAW, tile=t("6p"), concealed=rest), "dkong_win")
    tb = _discard_kong(DiscardKongWin.SELF_DRAW)
    tb.do(ev.Won(seat=1, kind=ev.WinKind.SELF_DRAW, tile=t("6p"), concealed=rest))
    assert tb.state.outcome is not None and tb.state.outcome.winners[0].replacement is not None


def test_a_table_that_allows_the_win_on_a_discard_kongs_replacement_is_scored_by_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The table's house rule reaches the scorer: the rule set forbids the win (a 詐胡 there), but a table that
    plays it as a self-draw or a 槓上開花 had its winner charged the 詐胡 penalty in the ledger."""
    from companion import cli
    from companion.game.session import ledger_of

    for rule, bloom in ((DiscardKongWin.SELF_DRAW, False), (DiscardKongWin.KONG_BLOOM, True)):
        tb = _discard_kong(rule)
        tb.do(ev.Won(seat=1, kind=ev.WinKind.SELF_DRAW, tile=t("6p"), concealed=tiles("123m456m123p45p99p")))
        (line,) = ledger_of(tb.state).entries[-1].lines
        assert line.kind == "self_draw" and line.hand_tai > 0
        assert any(en == "Self-draw" for _, en, _ in line.items)
        assert any(en == "Win on a replacement" for _, en, _ in line.items) is bloom
        # the ledger's record carries the table's switch, so `companion tai` scores it as the ledger did (a change
        # review: without it, a 詐胡 there)
        (x,) = ledger_of(tb.state).to_json()["hands"][-1]["lines"]
        assert x["win"]["switches"]["discard_kong_replacement_win"] == rule.value
        record = tmp_path / f"{rule.value}.jsonl"
        record.write_text(json.dumps(x["win"]) + "\n", encoding="utf-8")
        assert cli.main(["tai", str(record)]) == 0
        again = json.loads(capsys.readouterr().out)
        assert (again["hand_tai"], [[i["zh"], i["en"], i["tai"]] for i in again["items"]]) == (x["hand_tai"], x["items"])


def _added_kong_of_5p() -> Table:
    """Seat 1 pungs the dealer's 5p, draws the fourth a go-around later and adds it: seat 2 (46p) may rob it."""
    hands = {0: "123m456m789m11p234p66p5p", 1: "55p123s456s789s1z2z3z4z", 2: "46p111m222z333z444z77z"}
    tb = Table(hands)
    tb.discard(0, "5p")
    tb.do(ev.Punged(seat=1, tile=t("5p")))
    tb.discard(1, "1z")
    for seat, tile in ((2, "9p"), (3, None), (0, "7z")):
        tb.draw(seat, tile)
        tb.discard(seat, tile or tb.hand(seat)[0])
    tb.draw(1, "5p")
    tb.do(ev.AddedKong(seat=1, tile=t("5p")))
    assert tb.state.phase is Phase.ROB
    return tb


def test_robbing_an_added_kong() -> None:
    tb = _added_kong_of_5p()
    tb.do(ev.Won(seat=2, kind=ev.WinKind.ROBBED_KONG, tile=t("5p"), concealed=tb.hand(2)))
    out = tb.state.outcome
    assert out is not None and out.winners[0].discarder == 1
    assert tb.state.seats[1].melds[0].kind is MeldKind.PUNG  # the robbed pung stays a pung


def test_the_kong_player_robbing_or_passing_his_own_kong_is_told_it_is_his_kong_not_a_discard() -> None:
    tb = _added_kong_of_5p()
    for own in (ev.Won(seat=1, kind=ev.WinKind.ROBBED_KONG, tile=t("5p"), concealed=tb.hand(1)),
                ev.PassedWin(seat=1, tile=t("5p"))):
        bad = tb.refused(own, "own_kong")
        assert "加槓" in bad.reason.zh and "their own added kong" in bad.reason.en
    # a pass naming another tile is said with the tiles' names, as a pass, not as a claim
    bad = tb.refused(ev.PassedWin(seat=2, tile=t("6s")), "pass_wrong_tile")
    assert bad.reason.zh == "放過的是桌上的五筒，不是六條" and "5p, not 6s" in bad.reason.en


def test_a_switch_off_is_named_in_each_language() -> None:
    tb = Table({}, Switches(may_decline_last_tile=False))
    tb.discard(0, tb.hand(0)[0])
    tb.cycle(until_live=1)
    bad = tb.refused(ev.DeclinedLastTile(seat=(tb.state.turn + 1) % 4), "switch_off")
    assert "不摸海底" in bad.reason.zh and "declining the last tile" in bad.reason.en
    assert not any("\u4e00" <= c <= "\u9fff" for c in bad.reason.en)


def test_concealed_kong_cannot_be_robbed() -> None:
    hands = {0: "1111m456m789m11p234p56p", 2: "23m111z222z333z444z5z"}
    tb = Table(hands)
    tb.do(ev.ConcealedKong(seat=0, tile=t("1m")))
    assert tb.state.phase is Phase.REPLACE
    tb.refused(ev.Won(seat=2, kind=ev.WinKind.ROBBED_KONG, tile=t("1m"), concealed=tb.hand(2)), "win_kind")


def test_a_concealed_kong_logged_face_down_by_a_known_hand_takes_the_one_kind_it_can_be() -> None:
    """Spec §2.10: the camera may not see a concealed kong's kind (``0x``). A rules review: logged so for a seat
    whose hand the log knows, holding one quad, it was refused as "does not hold face-down tile ×4". The kind is
    inferred; the Live tab offers the face-down kong there; at the win that kong needs no showing, and showing it
    again is no extra one."""
    from companion.app.live_offer import offer_for

    tb = Table({0: "1111z234567789s1234s"})
    assert offer_for(tb.state, len(tb.log)).concealed_kong
    tb.do(ev.ConcealedKong(seat=0))
    (kong,) = tb.state.seats[0].melds
    assert (kong.kind, kong.tiles) == (MeldKind.CKONG, tiles("1111z")) and t("1z") not in tb.hand(0)
    tb.do(ev.ReplacementDrew(seat=0, tile=tb.take("4s")))
    won = ev.Won(seat=0, kind=ev.WinKind.SELF_DRAW, tile=t("4s"), concealed=tiles("234567789s1234s"))
    for shown in ((), tiles("1z")):
        out = step(tb.state, replace(won, kongs=shown)).outcome
        assert out is not None and out.winners[0].melds == (kong,)
    tb.refused(replace(won, kongs=tiles("9m")), "kongs_extra")  # not the kong he made


@pytest.mark.parametrize(("hand", "key", "zh", "en"), [
    # the kinds are alternatives in both languages: 一萬或九萬 (「一萬、九萬」 read as both: a wording review)
    ("1111m9999m234567p", "ckong_which", "一萬或九萬", "1 Character or 9 Characters"),
    ("1112345678999m123p4s", "ckong_none", "沒有四張一樣的牌", "holds no four of a kind"),
])
def test_a_concealed_kong_logged_face_down_that_a_known_hand_cannot_tell_asks_for_its_kind(
        hand: str, key: str, zh: str, en: str) -> None:
    """Two quads: the kong names the kinds it could be and asks which; none: it says so, not "does not hold
    face-down tile, face-down tile, face-down tile and face-down tile" (a rules review). Named, it is taken."""
    tb = Table({0: hand})
    bad = tb.refused(ev.ConcealedKong(seat=0), key)
    assert zh in bad.reason.zh and en in bad.reason.en and "0x" not in str(bad.reason)
    if key == "ckong_which":
        tb.do(ev.ConcealedKong(seat=0, tile=t("9m")))
        assert tb.state.seats[0].melds[0].tiles == tiles("9999m")


def test_end_of_wall_last_tile_last_discard_and_draw() -> None:
    # 63 live tiles after the deal; draws go 1, 2, 3, 0, …: seat 3 draws the last tile (海底).
    tb = Table({3: "5555z123p456p789p1s", 2: "99s123m456m789m1p"})
    tb.discard(0, tb.hand(0)[0])
    tb.cycle(until_live=1)
    assert tb.state.turn == 2
    tb.refused(ev.DeclinedLastTile(seat=1), "decline")
    tb.draw(3)
    assert tb.state.last_tile_drawn and tb.state.live == 0
    tb.refused(ev.ConcealedKong(seat=3, tile=t("5z")), "last_tile_kong")
    tb.discard(3, "1s")
    tb.refused(ev.Punged(seat=2, tile=t("1s")), "last_discard_claim")
    tb.refused(ev.Drew(seat=0, tile=t("1z")), "wall_empty")
    tb.do(ev.ExhaustiveDraw())
    assert tb.state.outcome is not None and tb.state.outcome.kind is OutcomeKind.DRAW


def test_no_kong_when_its_replacement_would_pass_the_reserve() -> None:
    # seat 2 draws the tile that leaves one live tile; under plus_one_per_kong a kong would raise R.
    for rule, allowed in ((ReserveRule.FIXED16, True), (ReserveRule.PLUS_ONE_PER_KONG, False)):
        tb = Table({2: "5555z123p456p789p1s"}, Switches(reserve_rule=rule))
        tb.discard(0, tb.hand(0)[0])
        tb.cycle(until_live=2)
        tb.draw(2)
        assert tb.state.live == 1
        kong = ev.ConcealedKong(seat=2, tile=t("5z"))
        if allowed:
            tb.do(kong)
        else:
            tb.refused(kong, "kong_no_room")  # the last tile is not drawn: the kong would leave none to replace it


def test_declining_the_last_tile() -> None:
    tb = Table({})
    tb.discard(0, tb.hand(0)[0])
    tb.cycle(until_live=1)
    due = (tb.state.turn + 1) % 4
    tb.do(ev.DeclinedLastTile(seat=due))
    assert tb.state.outcome is not None and tb.state.outcome.kind is OutcomeKind.DECLINED
    tb2 = Table({}, Switches(may_decline_last_tile=False))
    tb2.discard(0, tb2.hand(0)[0])
    tb2.cycle(until_live=1)
    tb2.refused(ev.DeclinedLastTile(seat=(tb2.state.turn + 1) % 4), "switch_off")
    tb3 = Table({})  # the seat due, before the last tile: told it is not the last tile, not that he is not due
    tb3.discard(0, tb3.hand(0)[0])
    tb3.refused(ev.DeclinedLastTile(seat=(tb3.state.turn + 1) % 4), "decline_early")
    tb4 = Table({})  # after the last tile's discard: told it is drawn already, not that it is not the last (a review)
    tb4.discard(0, tb4.hand(0)[0])
    tb4.cycle(until_live=0)
    tb4.refused(ev.DeclinedLastTile(seat=(tb4.state.turn + 1) % 4), "decline_late")


def test_reserve_rules_change_the_live_count() -> None:
    for rule, live in ((ReserveRule.FIXED16, 79 - 16), (ReserveRule.PLAY_TO_END, 79),
                       (ReserveRule.PLUS_ONE_PER_KONG, 79 - 16)):
        tb = Table({}, replace(Switches(), reserve_rule=rule))
        assert tb.state.live == live
    tb = Table({0: "1111m456m789m11p234p56p"}, Switches(reserve_rule=ReserveRule.PLUS_ONE_PER_KONG))
    tb.do(ev.ConcealedKong(seat=0, tile=t("1m")))
    assert tb.state.live == 79 - 17


def test_four_kongs_win_only_where_the_item_is_on() -> None:
    hands = {0: "1111m2222m3333m4444m5m"}
    for on in (False, True):
        tb = Table(hands, Switches(four_kongs=on))
        for k, rep in zip("1234", ("6z", "7z", "5z", "4z"), strict=True):
            tb.do(ev.ConcealedKong(seat=0, tile=t(f"{k}m")))
            if k != "4":
                tb.do(ev.ReplacementDrew(seat=0, tile=tb.take(rep)))
        won = ev.Won(seat=0, kind=ev.WinKind.FOUR_KONGS, tile=None, concealed=tb.hand(0))
        if not on:
            tb.refused(won, "switch_off")
            continue
        # the fourth kong ends the hand (§2.13, §4.4): no replacement draw, no other play is logged before
        tb.refused(ev.ReplacementDrew(seat=0, tile=tb.take("3z")), "four_kongs_win_due")
        tb.refused(ev.Won(seat=1, kind=ev.WinKind.FOUR_KONGS, tile=None, concealed=tb.hand(1)), "four_kongs_win_due")
        tb.do(won)
        out = tb.state.outcome
        assert out is not None and out.kind is OutcomeKind.INSTANT_WIN


def _kongs_of_1m_2m_3m(tb: Table) -> None:
    """East declares concealed kongs of 1m, 2m and 3m, each followed by its replacement (2z, 3z, 4z)."""
    for k, rep in zip("123", ("2z", "3z", "4z"), strict=True):
        tb.do(ev.ConcealedKong(seat=0, tile=t(f"{k}m")))
        tb.do(ev.ReplacementDrew(seat=0, tile=tb.take(rep)))


def test_four_kongs_split_between_players_draw() -> None:
    hands = {0: "1111m2222m3333m456p7z", 1: "555z123s456s789s11z"}
    tb = Table(hands, Switches(four_kongs=True))
    _kongs_of_1m_2m_3m(tb)
    tb.refused(ev.ExhaustiveDraw(), "phase")
    tb.discard(0, "7z")
    tb.draw(1, "5z")
    tb.do(ev.ConcealedKong(seat=1, tile=t("5z")))
    tb.refused(ev.ReplacementDrew(seat=1, tile=tb.take("6z")), "four_kongs_draw_due")
    tb.do(ev.ExhaustiveDraw())
    assert tb.state.outcome is not None and tb.state.outcome.kind is OutcomeKind.DRAW
    # said as what ended it, not as an exhaustive draw of a spent wall (a review), in the ledger's words and code
    assert tb.state.outcome.said == ("流局（四槓分屬不同家）", "drawn: four kongs by different players")
    from companion.game.session import _result_code
    assert _result_code(tb.state.outcome) == "draw:four_kongs"


def _fourth_kong_added() -> Table:
    """Seat 0 holds three concealed kongs and adds a fourth to his pung of 8s; seat 1 waits on 5s and 8s."""
    hands = {0: "1111m2222m3333m88s7z", 1: "456m123p456p789p11z67s"}
    tb = Table(hands, Switches(four_kongs=True))
    _kongs_of_1m_2m_3m(tb)
    tb.discard(0, "7z")
    for seat in (1, 2):
        tb.draw(seat)
        tb.discard(seat, tb.state.seats[seat].drawn)
    tb.draw(3, "8s")
    tb.discard(3, "8s")
    tb.do(ev.Punged(seat=0, tile=t("8s")))
    tb.discard(0, "2z")
    for seat in (1, 2, 3):
        tb.draw(seat)
        tb.discard(seat, tb.state.seats[seat].drawn)
    tb.draw(0, "8s")
    tb.do(ev.AddedKong(seat=0, tile=t("8s")))
    assert tb.state.phase is Phase.ROB
    return tb


def test_a_fourth_kong_that_is_added_can_be_robbed_first() -> None:
    """An added fourth kong is offered to the robbers before it ends the hand; the 四槓 win closes that window."""
    tb = _fourth_kong_added()
    tb.refused(ev.ReplacementDrew(seat=0, tile=tb.take("6z")), "four_kongs_win_due")
    tb.do(ev.Won(seat=1, kind=ev.WinKind.ROBBED_KONG, tile=t("8s"), concealed=tb.hand(1)))
    out = tb.state.outcome
    assert out is not None and [w.seat for w in out.winners] == [1]
    tb = _fourth_kong_added()
    tb.do(ev.Won(seat=0, kind=ev.WinKind.FOUR_KONGS, tile=None, concealed=tb.hand(0)))
    out = tb.state.outcome
    assert out is not None and out.kind is OutcomeKind.INSTANT_WIN and [w.seat for w in out.winners] == [0]


def test_the_eighth_flower_as_the_last_tile_goes_to_the_holder_of_seven() -> None:
    """``play_to_end``: the last tile is the eighth flower and cannot be replaced; the holder of the other seven
    robs it (七搶一, §4.4), paid by the drawer alone; without the item the hand is drawn."""
    for rob in (True, False):
        tb, drawer = _seven_flowers_then_last_tile(1, Switches(reserve_rule=ReserveRule.PLAY_TO_END,
                                                                seven_rob_one=rob))
        assert drawer != 1, "the scripted table should leave the last tile to another seat"
        tb.do(ev.Drew(seat=drawer, tile=t("1f")))
        rob_one = ev.Won(seat=1, kind=ev.WinKind.SEVEN_ROB_ONE, tile=None, concealed=tb.hand(1))
        if not rob:
            tb.refused(rob_one, "switch_off")
            tb.do(ev.ExhaustiveDraw())
            continue
        tb.do(rob_one)
        out = tb.state.outcome
        assert out is not None and out.kind is OutcomeKind.INSTANT_WIN
        assert [(w.seat, w.discarder) for w in out.winners] == [(1, drawer)]


def test_passed_win_released_by_kong_switch() -> None:
    for released in (False, True):
        tb = Table(HANDS, Switches(passed_win_released_by_kong=released))
        tb.discard(0, "9s")
        tb.do(ev.PassedWin(seat=2, tile=t("9s")))
        tb.draw(1, "5m")
        tb.discard(1, "5m")
        tb.draw(2, "1z")
        tb.do(ev.ConcealedKong(seat=2, tile=t("1z")))
        assert tb.state.seats[2].barred is not released


def _to_the_last_tile(last: str) -> tuple[Table, int]:
    """``play_to_end``; play on with unseen draws until the wall's last tile, drawn as ``last``."""
    tb = Table({}, Switches(reserve_rule=ReserveRule.PLAY_TO_END))
    tb.discard(0, tb.hand(0)[0])
    for f in ("2f", "3f", "4f", "5f", "6f", "7f", "8f"):  # unseen draws, so the table's known tiles last
        seat = (tb.state.turn + 1) % 4
        tb.do(ev.Drew(seat=seat, tile=t(f)))
        tb.do(ev.FlowerReplaced(seat=seat, flowers=(t(f),), replacements=(t("0x"),)))
        tb.do(ev.Discarded(seat=seat, tile=tb.take_filler()))
    while tb.state.live > 1:
        seat = (tb.state.turn + 1) % 4
        tb.do(ev.Drew(seat=seat, tile=t("0x")))
        tb.do(ev.Discarded(seat=seat, tile=tb.take_filler()))
    seat = (tb.state.turn + 1) % 4
    tb.do(ev.Drew(seat=seat, tile=t(last)))
    assert tb.state.wall is not None and tb.state.wall.count == 0
    return tb, seat


def test_a_flower_drawn_as_the_wall_s_last_tile_ends_the_hand_as_a_draw() -> None:
    """With nothing kept back (``play_to_end``) the last tile may be a flower: §2.6 wants it replaced first and
    §2.7 takes a replacement owed at live 0, but no tile is left. The hand ends as 流局 (before, no event could
    end it but a false win), whether the log saw the flower drawn or, as for another seat's draw, not."""
    for last in ("1f", "0x"):
        tb, seat = _to_the_last_tile(last)
        tb.refused(ev.FlowerReplaced(seat=seat, flowers=(t("1f"),), replacements=(t("0x"),)), "wall_dead")
        tb.do(ev.ExhaustiveDraw())
        assert tb.state.outcome is not None and tb.state.outcome.kind is OutcomeKind.DRAW
    # bots do the same: seed 927 drew a flower as the last tile and stopped
    assert list(Simulator(927, Switches(reserve_rule=ReserveRule.PLAY_TO_END)).run(4))


def test_a_fifth_copy_shown_at_a_win_is_refused_as_one() -> None:
    """Hands logged unseen show their tiles only at a win: a shown hand with a fifth copy (here beside the
    seat's own concealed kong) is refused as a fifth copy, where it raised a HandError from the shape check."""
    from companion.game.state import TableState
    from companion.game.switches import FirstDealer

    u = t("0x")
    s = TableState()
    for e in [ev.Seated(players=("A", "B", "C", "D"), switches=Switches(first_dealer=FirstDealer.EAST_DEALS)),
              ev.DealerChosen(dealer=0), ev.DiceRolled(dice=(1, 2, 2)),
              ev.Dealt(hands=((u,) * 17, (u,) * 16, (u,) * 16, (u,) * 16)),
              ev.ConcealedKong(seat=0, tile=t("5s")), ev.ReplacementDrew(seat=0), ev.Discarded(seat=0, tile=t("1z")),
              ev.Drew(seat=1), ev.Discarded(seat=1, tile=t("2z")), ev.Drew(seat=2), ev.Discarded(seat=2, tile=t("3z")),
              ev.Drew(seat=3), ev.Discarded(seat=3, tile=t("9m"))]:
        s = step(s, e)
    win = ev.Won(seat=0, kind=ev.WinKind.DISCARD, tile=t("9m"), concealed=tiles("12345678m123p55s"))
    with pytest.raises(IllegalEvent) as info:
        step(s, win)
    assert info.value.reason.key == "fifth_copy" and "5s" in info.value.reason.en


def test_a_tile_out_of_range_is_refused_naming_the_field() -> None:
    tb = Table(HANDS)
    tb.discard(0, "9s")
    for bad in (50, 43, -1, 5, "5m", b"x"):  # a plain number too: it failed later on a tile's name
        err = tb.refused(ev.Drew(seat=1, tile=bad), "bad_tile")  # type: ignore[arg-type]
        assert "Drew.tile" in err.reason.en and "Drew.tile" in err.reason.zh
    err = tb.refused(ev.Chowed(seat=1, tile=t("9s"), tiles=(t("7s"), 99)), "bad_tile")  # type: ignore[arg-type]
    assert "99" in err.reason.en


def test_a_bad_tile_or_claimed_tai_is_said_as_json_not_as_python() -> None:
    """The refusals said Python's spelling: 「Drew.tile 不是一張牌：'5m'」, "got True" for a claimed tai."""
    tb = Table(HANDS)
    tb.discard(0, "9s")
    err = tb.refused(ev.Drew(seat=1, tile="5m"), "bad_tile")  # type: ignore[arg-type]
    assert err.reason.zh.endswith('："5m"') and err.reason.en.endswith('is not a tile: "5m"'), err.reason
    for claimed, en, zh in ((True, "got true (a yes/no)", "收到 true（是非值）"), ("3", 'got "3"', '收到 "3"'),
                            (2.5, "got 2.5 (a number with a point", "收到 2.5（有小數點")):
        err = tb.refused(ev.FalseWin(seat=2, claimed_tai=claimed), "claimed_tai")  # type: ignore[arg-type]
        assert en in err.reason.en and zh in err.reason.zh, err.reason
        assert "True" not in err.reason.en + err.reason.zh and "'3'" not in err.reason.en + err.reason.zh


def test_a_void_false_win_leaves_the_tile_to_the_others_only() -> None:
    """Under void_hand a 詐胡 on a discard leaves that discard winnable by another claimant (a win beside the
    false one), but not by the offender himself, and not after the discarder's own 詐胡 (no claim on the tile);
    a robbing win after a 詐胡 on the kong puts the robbed pung back, as a robbing win alone does."""
    for offender, allowed in ((2, False), (0, False), (3, True)):
        tb = Table(HANDS, Switches(multi_win=MultiWin.ALL))
        tb.discard(0, "9s")
        tb.do(ev.FalseWin(seat=offender))
        win = ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=tb.hand(2))
        if allowed:
            tb.do(win)
            out = tb.state.outcome
            assert out is not None and [w.seat for w in out.winners] == [2] and out.false_wins == (3,)
        else:
            with pytest.raises(IllegalEvent):
                step(tb.state, win)


def test_a_win_on_the_discard_outranks_an_exposed_fourth_kong() -> None:
    """§2.9 win > kong: with four_kongs on, a win on the discard East made his fourth kong with is still taken
    (it was refused as the four-kongs win owed), whichever is logged first; a pass on it can be logged too."""
    hands = {0: "1111m2222m3333m777p5z6z", 2: "123s456s789s456p11z56p"}
    tb = Table(hands, Switches(four_kongs=True))
    _kongs_of_1m_2m_3m(tb)
    tb.discard(0, "5z")
    tb.draw(1, "7p")
    tb.discard(1, "7p")
    tb.do(ev.ExposedKong(seat=0, tile=t("7p")))
    step(tb.state, ev.PassedWin(seat=2, tile=t("7p")))
    tb.do(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("7p"), concealed=tb.hand(2)))
    out = tb.state.outcome
    assert out is not None and [w.seat for w in out.winners] == [2]


def test_a_fourth_kong_by_a_seat_that_may_not_win_lets_play_go_on() -> None:
    """A 相公 (or dead) seat's fourth kong owes no four-kongs win (§2.16: he may not win): his replacement is
    drawn and play goes on, where every event but an undo was refused."""
    tb = Table({0: "1111m2222m3333m4444m5z"}, Switches(four_kongs=True))
    tb.do(ev.WrongCount(seat=0, big=True))
    for k, rep in zip("1234", ("2z", "3z", "4z", "6z"), strict=True):
        tb.do(ev.ConcealedKong(seat=0, tile=t(f"{k}m")))
        tb.do(ev.ReplacementDrew(seat=0, tile=tb.take(rep)))
    tb.discard(0, "5z")
    assert tb.state.phase is Phase.CLAIM


def test_a_win_after_a_void_false_win_is_no_passed_chance() -> None:
    from companion.game.history import passed_wins

    tb = Table(HANDS)
    tb.discard(0, "9s")
    tb.do(ev.FalseWin(seat=3))
    tb.do(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=tb.hand(2)))
    assert passed_wins(tb.log) == []


def _seven_flowers_then_last_tile(holder: int, switches: Switches | None = None) -> tuple[Table, int]:
    """``play_to_end``: ``holder`` draws and lays seven flowers (2f-8f), then play runs to the wall's last tile;
    the holder's draws are seen (his hand stays known), the others' unseen. Returns the seat due to draw it."""
    tb = Table({}, switches or Switches(reserve_rule=ReserveRule.PLAY_TO_END))
    tb.discard(0, tb.hand(0)[0])

    def turn(seat: int, flower: str | None = None) -> None:
        if seat != holder:
            tb.do(ev.Drew(seat=seat, tile=t("0x")))
            tb.do(ev.Discarded(seat=seat, tile=tb.take_filler()))
            return
        drawn = t(flower) if flower else tb.take_filler()
        tb.do(ev.Drew(seat=seat, tile=drawn))
        if flower:
            drawn = tb.take_filler()
            tb.do(ev.FlowerReplaced(seat=seat, flowers=(t(flower),), replacements=(drawn,)))
        tb.do(ev.Discarded(seat=seat, tile=drawn))

    for f in ("2f", "3f", "4f", "5f", "6f", "7f", "8f"):
        for seat in (1, 2, 3, 0):
            turn(seat, f)
    while tb.state.live > 1:
        turn((tb.state.turn + 1) % 4)
    return tb, (tb.state.turn + 1) % 4


def test_the_holder_of_seven_drawing_the_eighth_flower_last_wins_eight_flowers() -> None:
    """The eighth flower drawn as the wall's last tile by the holder of the other seven: 八仙過海 (§4.2), with the
    flower laid as his eighth; it was refused (he held seven) and only a draw could end the hand."""
    _, last = _seven_flowers_then_last_tile(1)  # the seat that draws the last tile (the same for any holder)
    tb, drawer = _seven_flowers_then_last_tile(last)
    assert drawer == last and len(tb.state.seats[drawer].flowers) == 7
    tb.do(ev.Drew(seat=drawer, tile=t("1f")))
    hand = tuple(x for x in tb.hand(drawer) if not x.is_flower)
    assert all(x.is_known for x in hand)
    from companion.app.live_offer import offer_for

    # the Live tab offers it (it offered nothing: the self-draw's gate refuses a seat holding a flower)
    assert [(w.seat, w.kind) for w in offer_for(tb.state, len(tb.log)).wins] == [(drawer, ev.WinKind.EIGHT_FLOWERS)]
    tb.do(ev.Won(seat=drawer, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=hand))
    out = tb.state.outcome
    assert out is not None and out.kind is OutcomeKind.INSTANT_WIN
    (w,) = out.winners
    assert w.seat == drawer and len(w.flowers) == 8 and t("1f") in w.flowers
    from companion.game.session import ledger_of

    (line,) = ledger_of(tb.state).entries[0].lines
    assert line.kind == "eight_flowers" and not line.unscored and line.hand_tai >= 8


def test_a_flower_twice_in_one_replacement_is_said_to_be_one_of_a_kind() -> None:
    """A review's log laid "3f3f": refused as "does not hold 33f", where a set holds one of each flower."""
    state = face_down_table({0: "3f"})
    with pytest.raises(IllegalEvent) as refused:
        step(state, ev.FlowerReplaced(seat=0, flowers=(Tile.F3, Tile.F3), replacements=(Tile.UNKNOWN, Tile.UNKNOWN)))
    assert refused.value.reason.key == "fifth_copy" and "a set holds 1" in refused.value.reason.en



def test_a_win_refused_for_its_shape_names_the_tiles_in_english() -> None:
    """An English host review read "Bob's hand is not a winning shape: 123456789m46p123s55z + 4z", where the Chinese
    named each tile: a player who does not read the notation could not tell 4z was North."""
    tb = opened()
    err = tb.refused(ev.Won(seat=1, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=tb.hand(1)), "not_complete")
    assert err.reason.en.endswith("'s hand is not a winning shape: 1 1 2 3 4 5 6 7 8 Bamboo, 2 White dragons, "
                                  "3 Green dragons, 2 Red dragons + 9 Bamboo")
    assert err.reason.zh.endswith("的牌不成胡：一條 一條 二條 三條 四條 五條 六條 七條 八條 白板 白板 青發 青發 青發 紅中 紅中，"
                                  "胡九條")  # one by one (run together, they read as one word: a wording review)


def test_a_chow_of_tiles_not_held_or_not_in_a_run_names_them_in_english() -> None:
    """The notation ("46p") in an English refusal told a player who does not read it nothing (an English host
    review): the tiles by name."""
    tb = opened()
    err = tb.refused(ev.Chowed(seat=1, tiles=tiles("67s"), tile=t("9s")), "chow_shape")
    assert err.reason.en == "6 Bamboo, 7 Bamboo and 9 Bamboo are not a chow"
