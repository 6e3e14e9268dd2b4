"""Seating, flowers (補花, 再補, 八仙過海, 七搶一), ready declarations, false wins, fifth copies, wrong
turns and hands the camera cannot see (0x)."""

from __future__ import annotations

from pathlib import Path

import pytest
from game_support import Table, t, tiles

from companion.game import events as ev
from companion.game.check import replaying, step
from companion.game.state import OutcomeKind, Phase, TableState
from companion.game.switches import FalseWinAfter, FirstDealer, Switches
from companion.game.text import IllegalEvent
from companion.tiles import Tile


def test_first_dealer_by_two_throws_and_one_throw() -> None:
    s = step(TableState(), ev.Seated(players=("a", "b", "c", "d")))
    # East (0) throws 7 -> West (2); West throws 6 -> his 下家 (3)
    with pytest.raises(IllegalEvent) as info:
        step(s, ev.DealerChosen(dealer=2, dice=(3, 2, 2), second_dice=(1, 2, 3)))
    assert info.value.reason.key == "dealer_mismatch"
    assert step(s, ev.DealerChosen(dealer=3, dice=(3, 2, 2), second_dice=(1, 2, 3))).dealer == 3
    one = step(TableState(), ev.Seated(players=("a", "b", "c", "d"), switches=Switches(first_dealer=FirstDealer.ONE_THROW)))
    assert step(one, ev.DealerChosen(dealer=2, dice=(3, 2, 2))).dealer == 2


def test_seating_needs_four_distinct_players() -> None:
    with pytest.raises(IllegalEvent):
        step(TableState(), ev.Seated(players=("a", "b", "a", "d")))


def test_seating_needs_a_rule_profile_the_ledger_can_load() -> None:
    with pytest.raises(IllegalEvent) as info:
        step(TableState(), ev.Seated(players=("a", "b", "c", "d"), profile="no_such_profile"))
    assert info.value.reason.key == "profile" and "no_such_profile" in info.value.reason.zh
    for bad in ({"base": -30}, {"base": 30.5}, {"per_tai": True}, {"base": "30"}):  # the ledger's stakes are whole
        with pytest.raises(IllegalEvent) as info:
            step(TableState(), ev.Seated(players=("a", "b", "c", "d"), **bad))  # type: ignore[arg-type]
        assert info.value.reason.key == "stakes"


def test_initial_flower_passes_and_the_again_pass() -> None:
    tb = Table({0: "1f2f" + "123m456m789m11p234p", 2: "3f" + "123s456s789s11z22z"})
    tb.refused(ev.Discarded(seat=0, tile=t("1m")), "flower_first")
    tb.do(ev.FlowerReplaced(seat=0, flowers=tiles("1f2f"), replacements=tb.takes("4f7z")))
    # seat 0 got 4f in this pass: seat 2 goes first, then the next pass (再補)
    tb.refused(ev.FlowerReplaced(seat=0, flowers=tiles("4f"), replacements=tiles("5p")), "held_back")
    tb.do(ev.FlowerReplaced(seat=2, flowers=tiles("3f"), replacements=tb.takes("6z")))
    tb.do(ev.FlowerReplaced(seat=0, flowers=tiles("4f"), replacements=tb.takes("5p")))
    assert tb.state.passes[0] == 1 and tb.state.seats[0].flowers == tiles("124f")
    assert tb.state.wall is not None and tb.state.wall.tail == 4
    tb.discard(0, "5p")
    assert tb.state.phase is Phase.CLAIM


def test_initial_flowers_go_in_turn_from_the_dealer() -> None:
    """§2.6: the dealer first, then 下家, 對家, 上家; the camera may log one flower at a time."""
    tb = Table({0: "1f2f" + "123m456m789m11p234p", 1: "3f" + "123s456s789s11z22z", 3: "5f" + "147m258p369s1z2z3z"})
    tb.refused(ev.FlowerReplaced(seat=1, flowers=tiles("3f"), replacements=tiles("5s")), "flower_order")
    tb.do(ev.FlowerReplaced(seat=0, flowers=tiles("1f"), replacements=tb.takes("6f")))
    tb.do(ev.FlowerReplaced(seat=0, flowers=tiles("2f"), replacements=tb.takes("7z")))  # same turn, same pass
    assert tb.state.passes[0] == 0
    tb.refused(ev.FlowerReplaced(seat=3, flowers=tiles("5f"), replacements=tiles("5s")), "flower_order")
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("3f"), replacements=tb.takes("5s")))
    tb.do(ev.FlowerReplaced(seat=3, flowers=tiles("5f"), replacements=tb.takes("6s")))
    tb.do(ev.FlowerReplaced(seat=0, flowers=tiles("6f"), replacements=(tb.take_filler(),)))  # 再補
    assert tb.state.passes[0] == 1 and tb.state.seats[0].flowers == tiles("126f")


def test_flower_during_play_and_eight_flowers() -> None:
    tb = Table({1: "1f2f3f4f5f6f7f" + "123m456m789m"})
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f"), replacements=tb.takes("1s2s3s4s5s6s7s")))
    tb.refused(ev.Won(seat=1, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=tb.hand(1)), "eight_flowers")
    tb.discard(0, "1m")
    tb.draw(1, "8f")
    tb.refused(ev.Discarded(seat=1, tile=t("1s")), "flower_first")
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("8f"), replacements=tb.takes("8s")))
    tb.do(ev.Won(seat=1, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=tb.hand(1)))
    out = tb.state.outcome
    assert out is not None and out.kind is OutcomeKind.INSTANT_WIN


def test_eight_flowers_win_on_the_spot_as_the_eighth_is_drawn() -> None:
    """Spec §4.2 (八仙過海: "the player holds all eight flowers") read with §4.4 ("wins on the spot"): seven laid and
    the eighth just drawn win at once, with no replacement drawn for it (8 flat). A rules review: it was refused as
    "does not hold all eight flowers", and the user had to invent a replacement that lowered the wall."""
    from companion.app.live_offer import offer_for
    from companion.game.session import ledger_of

    tb = Table({1: "1f2f3f4f5f6f7f" + "123m456m789m"})
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f"), replacements=tb.takes("1s2s3s4s5s6s7s")))
    tb.discard(0, "1m")
    tb.draw(1, "8f")
    live = tb.state.live
    assert (1, ev.WinKind.EIGHT_FLOWERS) in {(w.seat, w.kind) for w in offer_for(tb.state, len(tb.log)).wins}
    hand = tuple(x for x in tb.hand(1) if not x.is_flower)
    tb.do(ev.Won(seat=1, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=hand))
    out = tb.state.outcome
    assert out is not None and out.kind is OutcomeKind.INSTANT_WIN
    (w,) = out.winners
    assert sorted(w.flowers) == sorted(tiles("1f2f3f4f5f6f7f8f")) and w.replacement is None
    assert tb.state.live == live and not any(x.is_flower for x in tb.hand(1))  # laid; no replacement drawn
    (line,) = ledger_of(tb.state).entries[0].lines
    assert (line.kind, line.hand_tai, [zh for zh, _, _ in line.items]) == ("eight_flowers", 8, ["八仙過海"])


def test_eight_flowers_dealt_are_laid_before_they_are_declared() -> None:
    """All eight dealt and not laid yet: refused for the true reason (lay them first, §2.6), not "does not hold all
    eight flowers"; laid, they win."""
    tb = Table({1: "1f2f3f4f5f6f7f8f" + "123m456m9m"})
    bad = tb.refused(ev.Won(seat=1, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=tb.hand(1)[8:]),
                     "eight_flowers_lay")
    assert "先補花" in bad.reason.zh and "8 張花沒亮出" in bad.reason.zh
    assert bad.reason.en.startswith("lay the flowers first") and "8 not laid yet" in bad.reason.en
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f8f"), replacements=tb.takes("1s2s3s4s5s6s7s8s")))
    tb.do(ev.Won(seat=1, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=tb.hand(1)))
    assert tb.state.outcome is not None and tb.state.outcome.kind is OutcomeKind.INSTANT_WIN


def test_eight_flowers_is_no_win_where_the_rules_score_it_nothing(tmp_path: Path) -> None:
    """A house profile with 八仙過海 at 0 (a rules review): the tracker took the instant win, and the ledger then
    charged a 詐胡 but passed the deal as after a win. Now it is refused, named, and not offered; play goes on."""
    from companion.app.live_offer import offer_for
    from companion.game.session import switches_for

    house = tmp_path / "no8.toml"
    house.write_text('id = "no8"\ninherits = "atawmj_2009"\n[tai]\neight_flowers = 0\n', encoding="utf-8")
    assert switches_for(str(house)).eight_flowers is False and switches_for(None).eight_flowers is True
    tb = Table({1: "1f2f3f4f5f6f7f" + "123m456m789m"}, Switches(eight_flowers=False))
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f"), replacements=tb.takes("1s2s3s4s5s6s7s")))
    tb.discard(0, "1m")
    tb.draw(1, "8f")
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("8f"), replacements=tb.takes("8s")))
    assert ev.WinKind.EIGHT_FLOWERS not in {w.kind for w in offer_for(tb.state, len(tb.log)).wins}
    bad = tb.refused(ev.Won(seat=1, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=tb.hand(1)), "switch_off")
    assert "八仙過海" in bad.reason.zh and "eight flowers" in bad.reason.en
    tb.discard(1, "8s")  # the hand goes on
    assert tb.state.outcome is None and tb.state.phase is Phase.CLAIM


def test_seven_rob_one() -> None:
    tb = Table({1: "1f2f3f4f5f6f7f" + "123m456m789m"})
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f"), replacements=tb.takes("1s2s3s4s5s6s7s")))
    tb.discard(0, "1m")
    tb.draw(1)
    tb.discard(1, "1s")
    tb.draw(2, "8f")
    tb.do(ev.FlowerReplaced(seat=2, flowers=tiles("8f"), replacements=tb.takes("9s")))
    tb.do(ev.Won(seat=1, kind=ev.WinKind.SEVEN_ROB_ONE, tile=None, concealed=tb.hand(1)))
    out = tb.state.outcome
    assert out is not None and out.winners[0].discarder == 2


@pytest.mark.parametrize("drawn", ["head", "kong_replacement"])
def test_seven_rob_one_on_the_spot_before_the_drawers_replacement(drawn: str) -> None:
    """Spec §4.4: the eighth flower turns up with another player and the holder of the other seven "claims it and
    wins on the spot": no replacement is drawn for it at the table. A rules review: the claim was refused until the
    drawer had logged a replacement. The drawer pays; the flower is laid as robbed; the Live tab offers it."""
    from companion.app.live_offer import offer_for

    tb = Table({1: "1f2f3f4f5f6f7f" + "123m456m789m", 2: "1p1p1p1p"})
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f"), replacements=tb.takes("1s2s3s4s5s6s7s")))
    tb.discard(0, tb.hand(0)[-1])
    tb.draw(1)
    tb.discard(1, "1s")
    if drawn == "head":
        tb.draw(2, "8f")
    else:
        tb.draw(2)
        tb.do(ev.ConcealedKong(seat=2, tile=t("1p")))
        tb.do(ev.ReplacementDrew(seat=2, tile=t("8f")))
    live = tb.state.live
    assert (1, ev.WinKind.SEVEN_ROB_ONE) in {(w.seat, w.kind) for w in offer_for(tb.state, len(tb.log)).wins}
    for seat in (0, 3):  # only the holder of the seven
        tb.refused(ev.Won(seat=seat, kind=ev.WinKind.SEVEN_ROB_ONE, tile=None, concealed=tb.hand(seat)), "seven_rob")
    tb.do(ev.Won(seat=1, kind=ev.WinKind.SEVEN_ROB_ONE, tile=None, concealed=tb.hand(1)))
    out = tb.state.outcome
    assert out is not None and out.kind is OutcomeKind.INSTANT_WIN and out.winners[0].discarder == 2
    assert tb.state.live == live and tb.state.seats[2].flowers == tiles("8f") and not tb.hand(2).count(t("8f"))


@pytest.mark.parametrize("between", ["hand_known", "wrong_count", "false_win", "heavenly", "discard"])
def test_seven_rob_one_past_the_tables_records_about_other_seats(between: str) -> None:
    """A review: a hand made known (the app logs one when a phone enters its hand), a 相公 or a 詐胡 played dead by a
    third seat, logged between the eighth flower and the 七搶一, refused a legal 七搶一 (§4.4); the eighth flower's
    seat discarding does close it."""
    tb = Table({2: "8f", 1: "1f2f3f4f5f6f7f", 3: "123m456m789m123p45s11z"},
               Switches(false_win_after=FalseWinAfter.CONTINUE_DEAD))
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f"),
                            replacements=tuple(tb.take_filler() for _ in range(7))))
    tb.do(ev.FlowerReplaced(seat=2, flowers=tiles("8f"), replacements=(tb.take_filler(),)))
    record = {"hand_known": ev.HandKnown(seat=3), "wrong_count": ev.WrongCount(seat=3, big=True),
              "false_win": ev.FalseWin(seat=3), "heavenly": ev.DeclaredReady(seat=3, kind=ev.ReadyKind.HEAVENLY)
              }.get(between)
    rob = ev.Won(seat=1, kind=ev.WinKind.SEVEN_ROB_ONE, tile=None, concealed=tb.hand(1))
    if record is None:
        tb.discard(0, tb.hand(0)[0])
        tb.refused(rob, "seven_rob")
        return
    tb.do(record)
    tb.do(rob)
    assert tb.state.outcome is not None and tb.state.outcome.winners[0].discarder == 2


def test_seven_rob_one_when_the_eighth_was_laid_before_the_seventh() -> None:
    """Spec §4.4: the eighth flower turned up with another player, so the holder of the other seven robs it,
    whichever was laid first: a 7 + 1 split dealt (the dealer replaces first), or a seventh laid after another
    seat's one. The seat that revealed the eighth pays alone."""
    tb = Table({0: "8f", 2: "1f2f3f4f5f6f7f" + "123m456m789m"})
    tb.do(ev.FlowerReplaced(seat=0, flowers=tiles("8f"), replacements=tb.takes("9p")))
    rob = ev.Won(seat=2, kind=ev.WinKind.SEVEN_ROB_ONE, tile=None, concealed=tb.hand(2))
    tb.refused(rob, "seven_rob")  # six short of his seven yet
    tb.do(ev.FlowerReplaced(seat=2, flowers=tiles("1f2f3f4f5f6f7f"), replacements=tb.takes("1s2s3s4s5s6s7s")))
    for seat in (1, 3):  # only the holder of the seven
        tb.refused(ev.Won(seat=seat, kind=ev.WinKind.SEVEN_ROB_ONE, tile=None, concealed=tb.hand(seat)), "seven_rob")
    tb.do(ev.Won(seat=2, kind=ev.WinKind.SEVEN_ROB_ONE, tile=None, concealed=tb.hand(2)))
    out = tb.state.outcome
    assert out is not None and out.kind is OutcomeKind.INSTANT_WIN
    assert [(w.seat, w.discarder) for w in out.winners] == [(2, 0)]
    # the chance passes with the next event, as a robbed flower's does
    tb2 = Table({0: "8f", 2: "1f2f3f4f5f6f7f" + "123m456m789m"})
    tb2.do(ev.FlowerReplaced(seat=0, flowers=tiles("8f"), replacements=tb2.takes("9p")))
    tb2.do(ev.FlowerReplaced(seat=2, flowers=tiles("1f2f3f4f5f6f7f"), replacements=tb2.takes("1s2s3s4s5s6s7s")))
    tb2.discard(0, "9p")
    tb2.refused(ev.Won(seat=2, kind=ev.WinKind.SEVEN_ROB_ONE, tile=None, concealed=tb2.hand(2)), "seven_rob")


def test_ready_declaration_freezes_the_hand() -> None:
    tb = Table({1: "123m456m789m123p45p99s"})
    tb.discard(0, tb.hand(0)[0])
    tb.draw(1, "1z")
    tb.refused(ev.DeclaredReady(seat=2, kind=ev.ReadyKind.READY), "ready_window")
    tb.do(ev.DeclaredReady(seat=1, kind=ev.ReadyKind.EARTHLY))
    tb.discard(1, "1z")  # the declaration's own discard is free
    for seat in (2, 3):
        tb.draw(seat, "2z")
        tb.discard(seat, "2z")
    tb.draw(0, "9s")
    tb.discard(0, "9s")
    tb.refused(ev.Punged(seat=1, tile=t("9s")), "frozen")
    tb.draw(1, "9p")
    tb.refused(ev.Discarded(seat=1, tile=t("1m")), "frozen_discard")
    tb.discard(1, "9p")
    tb.refused(ev.DeclaredReady(seat=1, kind=ev.ReadyKind.READY), "ready_twice")


def _declared_ready(hand: str) -> Table:
    """Seat 1 is dealt ``hand``, declares 地聽 with his first discard (the 1z drawn), and draws again."""
    tb = Table({1: hand})
    tb.discard(0, tb.hand(0)[0])
    tb.draw(1, "1z")
    tb.do(ev.DeclaredReady(seat=1, kind=ev.ReadyKind.EARTHLY))
    tb.discard(1, "1z")
    for seat in (2, 3, 0):
        tb.draw(seat, "2z")
        tb.discard(seat, "2z")
    return tb


def test_a_declared_player_konges_only_the_tile_he_draws() -> None:
    """Spec §2.11: a drawn tile that does not win is discarded at once; a concealed kong only if it leaves the waits
    unchanged. So the fourth 9s drawn may be konged (3p 6p stay the waits); four 9s held with a 5z drawn may not (the
    5z would stay in the frozen hand), said as such; and a kong that changes the waits is refused."""
    tb = _declared_ready("999s456s789p678s45p55s")
    tb.draw(1, "9s")
    tb.do(ev.ConcealedKong(seat=1, tile=t("9s")))
    held = _declared_ready("9999s78s456p789p555s6s")
    held.draw(1, "5z")
    err = held.refused(ev.ConcealedKong(seat=1, tile=t("9s")), "frozen_kong_held")
    assert "drawn White dragon (5z)" in err.reason.en and "四張九條" in err.reason.zh
    changes = _declared_ready("99978s234p456p789p55s")  # waits 5s 9s; the fourth 9s konged leaves 78s for 6s 9s
    changes.draw(1, "9s")
    changes.refused(ev.ConcealedKong(seat=1, tile=t("9s")), "frozen")


def test_the_declarations_own_discard_must_leave_the_hand_ready() -> None:
    """An audit: 天聽 declared, then the discard that breaks it was taken, freezing a hand that could never win."""
    tb = Table({0: "123m456m789m123p45s77z1z"})
    tb.do(ev.HandKnown(seat=0))
    tb.do(ev.DeclaredReady(seat=0, kind=ev.ReadyKind.HEAVENLY))
    before = tb.state
    err = tb.refused(ev.Discarded(seat=0, tile=t("4s")), "ready_discard")
    assert ("discard", "4s") in err.evidence and "4s" in err.reason.en
    assert tb.state == before  # refused, nothing changed
    assert "false win" in err.reason.en and "詐胡" in err.reason.zh  # and says what a table that did it records
    with replaying():  # a log kept before this rule replays as it was kept (a review: old games must open)
        assert step(before, ev.Discarded(seat=0, tile=t("4s"))).seats[0].ready is ev.ReadyKind.HEAVENLY
    tb.discard(0, "1z")  # the discard that keeps it ready (3s 6s) is taken
    assert tb.state.seats[0].ready is ev.ReadyKind.HEAVENLY


def test_a_hand_that_is_not_ready_cannot_declare() -> None:
    tb = Table({1: "159m159p159s1234z5z"})
    tb.discard(0, tb.hand(0)[0])
    tb.draw(1, "6z")
    tb.refused(ev.DeclaredReady(seat=1, kind=ev.ReadyKind.READY), "not_ready")


def test_fifth_copy_and_wrong_turn() -> None:
    tb = Table({0: "1111m456m789m11p234p5p"})
    tb.discard(0, "5p")
    err = tb.refused(ev.Drew(seat=1, tile=t("1m")), "fifth_copy")
    assert ("tile", "1m") in err.evidence
    # four are out and the fifth is the one entered: said as what the table would hold, in both languages (the
    # Chinese said 已經出現 5 張, "five have appeared", where the English said "would be": a live game night review)
    assert err.reason.zh == "這樣桌上會有 5 張一萬，一副牌只有 4 張"
    assert err.reason.en == "1 Character (1m): 5 copies would be on the table, a set holds 4"
    tb.refused(ev.Drew(seat=2), "not_turn")
    tb.refused(ev.Discarded(seat=1, tile=t("1m")), "phase")
    first = Table({1: "1m"})  # before the dealer's first discard: whose turn it is, by name (a README review read
    said = first.refused(ev.Discarded(seat=1, tile=t("1m")), "not_turn")  # "phase=flowers, seat=2")
    assert ("turn", str(first.state.dealer)) in said.evidence
    held = Table({1: "1m", 2: "3f"})  # a flower still to replace first: said (a review was told "East is to act")
    assert "3f" in held.refused(ev.Discarded(seat=1, tile=t("1m")), "flower_first").reason.en


def test_false_win_void_hand_and_continue_dead() -> None:
    tb = Table({})
    tb.do(ev.FalseWin(seat=2))
    assert tb.state.outcome is not None and tb.state.outcome.kind is OutcomeKind.FALSE_WIN
    tb.do(ev.DiceRolled(dice=(1, 2, 3)))
    assert tb.state.dealer == 0 and tb.state.streak == 0  # replayed by the same dealer, same N
    dead = Table({}, Switches(false_win_after=FalseWinAfter.CONTINUE_DEAD))
    dead.do(ev.FalseWin(seat=2))
    assert dead.state.phase is Phase.FLOWERS and dead.state.seats[2].dead
    dead.refused(ev.FalseWin(seat=2), "dead_already")


def test_unknown_tiles_from_the_camera() -> None:
    unknown = Tile.UNKNOWN
    s = TableState()
    for e in (ev.Seated(players=("a", "b", "c", "d"), switches=Switches(first_dealer=FirstDealer.EAST_DEALS)),
              ev.DealerChosen(dealer=0), ev.DiceRolled(dice=(3, 3, 3)),
              ev.Dealt(hands=tuple((unknown,) * (17 if i == 0 else 16) for i in range(4)),
                       source=ev.EventSource.CAMERA),
              ev.FlowerReplaced(seat=0, flowers=tiles("3f"), replacements=(unknown,)),
              ev.ConcealedKong(seat=0), ev.ReplacementDrew(seat=0), ev.Discarded(seat=0, tile=t("9m"))):
        s = step(s, e)
    assert s.known[t("9m")] == 1 and s.known[t("3f")] == 1 and s.seats[0].melds[0].tile == unknown
    for seat in (1, 2, 3):
        s = step(s, ev.Drew(seat=seat))
        s = step(s, ev.Discarded(seat=seat, tile=t("9m")))
    s = step(s, ev.Drew(seat=0))
    with pytest.raises(IllegalEvent) as info:
        step(s, ev.Discarded(seat=0, tile=t("9m")))
    assert info.value.reason.key == "fifth_copy"
    with pytest.raises(IllegalEvent) as info:
        step(s, ev.Discarded(seat=0, tile=t("1f")))  # a flower is laid aside, never discarded
    assert info.value.reason.key == "flower_discard" and "1f" in info.value.reason.en
    # the dealer wins by self-draw and shows his hand and the kind of his face-down kong
    won = step(s, ev.Won(seat=0, kind=ev.WinKind.SELF_DRAW, tile=t("5p"), concealed=tiles("123m456m678m123p5p"),
                         kongs=tiles("7z")))
    assert won.seats[0].melds[0].tile == t("7z") and won.known[t("7z")] == 4 and won.known[t("5p")] == 2
    with pytest.raises(IllegalEvent) as info:  # 14 tiles shown where 13 are held
        step(s, ev.Won(seat=0, kind=ev.WinKind.SELF_DRAW, tile=t("5p"), concealed=tiles("123m456m678m123p55p")))
    assert info.value.reason.key == "concealed_size"
    # an audit: a win with the face-down kong left unshown was taken, a hand no one could ever score
    with pytest.raises(IllegalEvent) as info:
        step(s, ev.Won(seat=0, kind=ev.WinKind.SELF_DRAW, tile=t("5p"), concealed=tiles("123m456m678m123p5p")))
    assert info.value.reason.key == "kongs_to_show" and "1 face down, 0 shown" in info.value.reason.en


def test_tiles_not_held_are_named_in_chinese_in_the_chinese_half() -> None:
    tb = Table({1: "1f" + "123m456m789m"})
    err = tb.refused(ev.FlowerReplaced(seat=1, flowers=tiles("2f"), replacements=tb.takes("1s")), "not_in_hand")
    assert Tile.from_code("2f").zh in err.reason.zh and "2f" not in err.reason.zh
    assert err.reason.en.endswith(" does not hold Summer")  # by name in English too (an English host review)


def test_a_deal_of_three_hands_says_so() -> None:
    s = TableState()
    for e in (ev.Seated(players=("a", "b", "c", "d"), switches=Switches(first_dealer=FirstDealer.EAST_DEALS)),
              ev.DealerChosen(dealer=0), ev.DiceRolled(dice=(3, 3, 3))):
        s = step(s, e)
    with pytest.raises(IllegalEvent) as info:
        step(s, ev.Dealt(hands=tuple((Tile.UNKNOWN,) * 16 for _ in range(3))))
    assert info.value.reason.key == "deal_hands" and "got 3" in info.value.reason.en and "?" not in str(info.value)


def test_wrong_count_bars_a_win_under_dead_hand_and_only_warns_otherwise() -> None:
    from companion.game.switches import WrongCount

    hands = {0: "123m456m789m11p234p56p9s", 2: "111z222z333z444z78s66p"}
    for rule in (WrongCount.DEAD_HAND, WrongCount.WARN_ONLY):
        tb = Table(hands, Switches(wrong_count=rule))
        tb.do(ev.WrongCount(seat=2, big=False))
        assert tb.state.warnings and tb.state.warnings[-1].key == "small_count"
        tb.discard(0, "9s")
        won = ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=tb.hand(2))
        if rule is WrongCount.DEAD_HAND:
            tb.refused(won, "no_win")
            tb.do(ev.Drew(seat=1))  # play goes on
        else:
            tb.do(won)


def test_a_winner_showing_other_tiles_than_he_holds_is_told_which_he_holds() -> None:
    """A review: a win showing 2255s where the table knew 2257s was refused as "老王 does not hold 7s", the reverse
    of the fault (he holds it and left it out)."""
    tb = Table({0: "123m456m789m11p234p56p9s", 2: "111z222z333z444z78s66p"})
    tb.discard(0, "9s")
    shown = tb.hand(2)[:-1] + (t("6s"),)  # one 4z of his left out, a 6s shown in its place
    err = tb.refused(ev.Won(seat=2, kind=ev.WinKind.DISCARD, tile=t("9s"), concealed=shown), "shown_leaves_out")
    assert err.reason.en.endswith("holds North wind, which the tiles shown leave out") and "手上有北，攤開的牌卻沒有" in err.reason.zh


def _eighth_flower_replaced(replacement: str, known: bool = True) -> Table:
    """Seat 1 lays seven flowers at the deal, draws the eighth on his first turn and takes ``replacement`` for it
    (logged as drawn, or face down when not ``known``), holding 123s 456s 789s 555z 666z and a lone 7z."""
    tb = Table({1: "1f2f3f4f5f6f7f" + "123s456s789s"})
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f"), replacements=tb.takes("555z666z7z")))
    tb.discard(0, tb.hand(0)[-1])
    tb.draw(1, "8f")
    got = tb.take(replacement) if known else Tile.UNKNOWN
    tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("8f"), replacements=(got,)))
    return tb


def _eight_line(tb: Table, shown: tuple[Tile, ...] | None = None, kind: ev.WinKind = ev.WinKind.EIGHT_FLOWERS,
                tile: Tile | None = None) -> object:
    """Seat 1 declares a win of ``kind`` (八仙過海 unless said) showing ``shown`` (default his hand as logged) and
    ``tile``: his ledger line."""
    from companion.game.session import ledger_of

    tb.do(ev.Won(seat=1, kind=kind, tile=tile, concealed=shown or tb.hand(1)))
    (one,) = ledger_of(tb.state).entries[0].lines
    return one


def test_eight_flowers_whose_replacement_completes_the_hand_are_scored_as_that_hand_and_8_more() -> None:
    """§3.1 / §4.2 ``eight_flowers`` (``eight_flowers_compound``, on by default): 八仙過海 declared when the eighth
    flower's replacement completes the hand is scored as usual and 8 added, as the same win entered as a self-draw
    is; it paid 8 flat (a review). Known replacement, one entered face down, and a replacement that completes
    nothing (8 flat; without compounding the scorer pays 8 flat too: tests/rules)."""
    hand17 = tiles("123s456s789s555z666z7z7z")
    as_self_draw = _eight_line(_eighth_flower_replaced("7z"), hand17[:-1], ev.WinKind.SELF_DRAW, t("7z"))
    eight = _eight_line(_eighth_flower_replaced("7z"), hand17)
    assert (eight.kind, eight.hand_tai, eight.items) == ("eight_flowers", as_self_draw.hand_tai, as_self_draw.items)
    names = [zh for zh, _, _ in eight.items]
    assert "八仙過海" in names and "槓上開花" in names and eight.hand_tai > 8
    face_down = _eight_line(_eighth_flower_replaced("7z", known=False), hand17)
    assert face_down.hand_tai == eight.hand_tai  # the tile of his 17 that scores best: the 7z
    nothing = _eight_line(_eighth_flower_replaced("1z"), tiles("123s456s789s555z666z7z1z"))
    assert (nothing.hand_tai, [zh for zh, _, _ in nothing.items]) == (8, ["八仙過海"])


def test_the_dealers_eight_flowers_at_the_deal_are_scored_as_his_heavenly_win_and_8_more() -> None:
    """§3.1 / §4.2: the dealer's eighth flower laid at the deal, its replacement completing his 17 tiles, is 天胡 with
    八仙過海's 8 added, as the same win entered as a self-draw is; it paid 8 flat. A dealt hand that is not complete
    is paid 8 flat."""
    def line(dealer_hand: str, replacements: str, kind: ev.WinKind) -> object:
        tb = Table({0: "1f2f3f4f5f6f7f8f" + dealer_hand})
        tb.do(ev.FlowerReplaced(seat=0, flowers=tiles("1f2f3f4f5f6f7f8f"), replacements=tb.takes(replacements)))
        assert tb.state.phase is Phase.FLOWERS
        hand = tb.hand(0)
        won = ev.Won(seat=0, kind=kind, tile=hand[-1] if kind is ev.WinKind.SELF_DRAW else None,
                     concealed=hand[:-1] if kind is ev.WinKind.SELF_DRAW else hand)
        tb.do(won)
        from companion.game.session import ledger_of

        (one,) = ledger_of(tb.state).entries[0].lines
        return one

    as_self_draw = line("123s456s789s", "555z666z77z", ev.WinKind.SELF_DRAW)
    eight = line("123s456s789s", "555z666z77z", ev.WinKind.EIGHT_FLOWERS)
    assert (eight.kind, eight.hand_tai, eight.items) == ("eight_flowers", as_self_draw.hand_tai, as_self_draw.items)
    names = [zh for zh, _, _ in eight.items]
    assert "八仙過海" in names and "天胡" in names and "槓上開花" not in names
    nothing = line("123s456s789s", "555z666z71z", ev.WinKind.EIGHT_FLOWERS)
    assert [(zh, n) for zh, _, n in nothing.items] == [("八仙過海", 8)]


def test_eight_flowers_on_the_replacement_entered_with_a_wrong_tile_are_put_right_like_any_win() -> None:
    """八仙過海 on the eighth flower's replacement is paid by the hand shown (above), so a hand entered wrong is put
    right as any win is (改正胡牌, spec §6.7; it was refused as an instant win): here 1z typed for the face-down 7z
    he drew, 8 flat, then the hand it was. It has no winning tile to correct; one declared later is paid 8 flat
    whatever he holds, and has nothing to correct."""
    from companion.app.ledger_model import ledger_panel
    from companion.game.session import ledger_of

    right = _eight_line(_eighth_flower_replaced("7z", known=False), tiles("123s456s789s555z666z7z7z"))
    tb = _eighth_flower_replaced("7z", known=False)
    typo = _eight_line(tb, tiles("123s456s789s555z666z7z1z"))
    assert typo.hand_tai == 8 and right.hand_tai > 8
    tb.refused(ev.WinCorrected(seat=1, hand=1, concealed=tiles("123s456s789s555z666z7z7z"), tile=t("7z")),
               "fix_no_tile")
    tb.do(ev.WinCorrected(seat=1, hand=1, concealed=tiles("123s456s789s555z666z7z7z")))
    (fixed,) = ledger_of(tb.state).entries[0].lines
    assert (fixed.hand_tai, fixed.items) == (right.hand_tai, right.items)
    panel = ledger_panel(tb.state)  # the Ledger tab offers it to be put right, with no tile won on
    assert panel is not None and [(w.seat, w.tile, w.self_drawn, w.corrected) for w in panel.rows[0].shown] == \
        [(1, "", False, True)]
    later = _eighth_flower_replaced("5z")
    later.discard(1, "5z")
    for seat in (2, 3, 0):
        later.draw(seat)
        later.discard(seat, later.hand(seat)[-1])
    later.draw(1, "1z")
    assert [(zh, n) for zh, _, n in _eight_line(later).items] == [("八仙過海", 8)]
    later.refused(ev.WinCorrected(seat=1, hand=1, concealed=later.hand(1)[:-1] + (t("2z"),)), "fix_instant")
    later_panel = ledger_panel(later.state)
    assert later_panel is not None and later_panel.rows[0].shown == ()


def test_eight_flowers_of_a_seat_barred_by_a_passed_win_are_paid_8_flat() -> None:
    """§2.12: a seat that passed a win may not self-draw one until he discards (``passed_win_blocks_self_draw``, on
    by default). 八仙過海 is no win on a tile and stands, but the hand its replacement completes would be that barred
    self-drawn win: 8 flat, where it paid 40 (a review). Where the bar leaves self-draws alone, the hand counts."""
    def line(blocks: bool) -> object:
        tb = Table({0: "7z", 1: "1f2f3f4f5f6f7f" + "123s456s789s"}, switches=Switches(passed_win_blocks_self_draw=blocks))
        tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f"), replacements=tb.takes("555z666z7z")))
        tb.discard(0, "7z")
        tb.do(ev.PassedWin(seat=1, tile=t("7z")))
        tb.draw(1, "8f")
        tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("8f"), replacements=tb.takes("7z")))
        assert tb.state.seats[1].barred
        if blocks:
            tb.refused(ev.Won(seat=1, kind=ev.WinKind.SELF_DRAW, tile=t("7z"), concealed=tb.hand(1)[:-1]), "barred")
        return _eight_line(tb)

    assert [(zh, n) for zh, _, n in line(True).items] == [("八仙過海", 8)]
    free = line(False)
    assert free.hand_tai > 8 and "八仙過海" in [zh for zh, _, _ in free.items]


def test_eight_flowers_are_offered_at_the_table_only_where_the_tracker_takes_them() -> None:
    """The Live tab offered 八仙過海 to any seat with seven flowers laid on its own turn, and the tracker then refused
    it (a review): it is offered with all eight laid, and then taken."""
    from companion.app.live_offer import offer_for

    def offered(tb: Table) -> set[tuple[int, ev.WinKind]]:
        return {(w.seat, w.kind) for w in offer_for(tb.state, len(tb.log)).wins}

    tb = _eighth_flower_replaced("7z")
    assert (1, ev.WinKind.EIGHT_FLOWERS) in offered(tb)
    tb.do(ev.Won(seat=1, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=tb.hand(1)))
    seven = Table({1: "1f2f3f4f5f6f7f" + "123s456s789s"})
    seven.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f"), replacements=seven.takes("555z666z7z")))
    seven.discard(0, seven.hand(0)[-1])
    seven.draw(1, "1z")
    assert offered(seven) == {(1, ev.WinKind.SELF_DRAW)}
    seven.refused(ev.Won(seat=1, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=seven.hand(1)), "eight_flowers")


def test_eight_flowers_entered_face_down_take_as_the_replacement_a_tile_the_log_did_not_know() -> None:
    """The replacement entered face down: of his 17 only a tile the log did not know can be it (here the 1s), not
    the one that would score best (the 3s he held, for a single wait)."""
    def run(known: bool) -> object:
        tb = Table({1: "1f2f3f4f5f6f7f" + "23s456s789s5z"})
        tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f"), replacements=tb.takes("55z666z77z")))
        tb.discard(0, tb.hand(0)[-1])
        tb.draw(1, "8f")
        got = tb.take("1s")
        tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("8f"), replacements=(got if known else Tile.UNKNOWN,)))
        return _eight_line(tb, tiles("123s456s789s555z666z77z"))

    known, face_down = run(True), run(False)
    assert (face_down.hand_tai, face_down.items) == (known.hand_tai, known.items)
    assert "獨聽" not in [zh for zh, _, _ in known.items]


def test_eight_flowers_declared_after_a_kong_or_on_the_last_tile_are_paid_8_flat_not_left_unscored() -> None:
    """A review: 八仙過海 declared after a kong on the replacement (16 tiles held), or on a last-tile replacement
    that completes nothing, came out unscored (a replacement or last-tile flag the instant win refuses)."""
    tb = _eighth_flower_replaced("5z")
    tb.do(ev.ConcealedKong(seat=1, tile=t("5z")))
    assert [(zh, n) for zh, _, n in _eight_line(tb).items] == [("八仙過海", 8)]
    tb = _eighth_flower_replaced("5z")
    tb.do(ev.ConcealedKong(seat=1, tile=t("5z")))
    tb.do(ev.ReplacementDrew(seat=1, tile=tb.take("2z")))
    tb.discard(1, "2z")
    assert [(zh, n) for zh, _, n in _eight_line(tb).items] == [("八仙過海", 8)]
    for replacement, eight_flat in (("1z", True), ("7z", False)):  # the eighth flower drawn as the last tile
        tb = Table({0: "44z", 1: "1f2f3f4f5f6f7f" + "123s456s789s"})
        tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("1f2f3f4f5f6f7f"), replacements=tb.takes("555z666z7z")))
        tb.discard(0, tb.hand(0)[0])

        def filler(tb: Table = tb) -> Tile:
            x = tb.take_filler()
            return filler(tb) if x == t("4z") else x

        while not (tb.state.turn == 0 and tb.state.live == 4):
            x = filler()
            seat = (tb.state.turn + 1) % 4
            tb.do(ev.Drew(seat=seat, tile=x))
            tb.do(ev.Discarded(seat=seat, tile=x))
        for seat in (1, 2):
            x = filler()
            tb.do(ev.Drew(seat=seat, tile=x))
            tb.do(ev.Discarded(seat=seat, tile=x))
        tb.do(ev.Drew(seat=3, tile=tb.take("4z")))
        tb.do(ev.Discarded(seat=3, tile=t("4z")))
        tb.do(ev.Punged(seat=0, tile=t("4z")))  # so that seat 1 draws the last tile
        tb.do(ev.Discarded(seat=0, tile=next(x for x in tb.hand(0) if x != t("4z"))))
        tb.draw(1, "8f")
        tb.do(ev.FlowerReplaced(seat=1, flowers=tiles("8f"), replacements=(tb.take(replacement),)))
        assert tb.state.last_tile_drawn
        line = _eight_line(tb)
        names = [zh for zh, _, _ in line.items]
        assert not line.unscored and (names == ["八仙過海"]) == eight_flat and ("海底撈月" in names) != eight_flat


def test_a_retraction_refused_says_which_event_and_that_the_seating_stays() -> None:
    """A review: "only the last event (#13) can be retracted, not #10" beside a 1-based "line 15" read as lines, and
    a seating alone was "no event to retract"."""
    seated = step(TableState(), ev.Seated(players=("a", "b", "c", "d"),
                                          switches=Switches(first_dealer=FirstDealer.EAST_DEALS)))
    with pytest.raises(IllegalEvent) as info:
        step(seated, ev.Retracted(target=0))
    assert info.value.reason.key == "retract_seating"
    with pytest.raises(IllegalEvent) as info:
        step(step(seated, ev.DealerChosen(dealer=0)), ev.Retracted(target=0))
    assert "(number 1, counted from 0), not number 0" in info.value.reason.en
