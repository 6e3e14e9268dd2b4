"""Wins of the first go-around as the tracker records them.

人胡 (spec §4.2 ``human_win``): a win on a discard made during the first go-around (from the dealer's first
discard until his second draw), with no call before it, whoever wins on it; the traditional reading (a
non-dealer before his own first discard) is the switch ``human_win_window``. 天胡 comes after the initial
flower replacement."""

from __future__ import annotations

from game_support import Table, t, tiles

from companion.game import events as ev
from companion.game.switches import HumanWinWindow, Switches

READY = "123m456m234p678p45s88s"  # waits on 3s / 6s
OLD = Switches(human_win_window=HumanWinWindow.BEFORE_OWN_DISCARD)


def _win(tb: Table, seat: int) -> bool:
    tb.do(ev.Won(seat=seat, kind=ev.WinKind.DISCARD, tile=t("3s"), concealed=tiles(READY)))
    assert tb.state.outcome is not None
    (rec,) = tb.state.outcome.winners
    return rec.human


def _south_after_own_discard(switches: Switches | None = None) -> bool:
    """South has discarded, then wins on West's first discard."""
    tb = Table({0: "1z1z2z2z3z5z5z6z6z7z7z9m9m9p9p9s9s", 1: READY, 2: "3s"}, switches)
    tb.discard(0, "1z")
    tb.draw(1, "4z")
    tb.discard(1, "4z")
    tb.draw(2, "4z")
    tb.discard(2, "3s")
    return _win(tb, 1)


def _dealer_on_norths_first(switches: Switches | None = None) -> bool:
    tb = Table({0: READY + "1z", 3: "3s"}, switches)
    tb.discard(0, "1z")
    for s in (1, 2):
        tb.draw(s, "4z")
        tb.discard(s, "4z")
    tb.draw(3, "4z")
    tb.discard(3, "3s")
    return _win(tb, 0)


def test_a_win_on_any_first_go_around_discard_is_human() -> None:
    assert _south_after_own_discard()
    assert _dealer_on_norths_first()


def test_a_win_on_the_dealers_first_discard_is_human_in_both_readings() -> None:
    for sw in (None, OLD):
        tb = Table({0: "3s", 2: READY}, sw)
        tb.discard(0, "3s")
        assert _win(tb, 2)


def test_the_traditional_reading_keeps_to_a_non_dealer_before_his_own_discard() -> None:
    assert not _south_after_own_discard(OLD)
    assert not _dealer_on_norths_first(OLD)


def test_no_human_win_after_the_first_go_around_or_after_a_call() -> None:
    # the dealer's second discard is outside the window
    tb = Table({0: "1z1z2z2z3z5z5z6z6z7z7z9m9m9p9p9s9s", 2: READY})
    tb.discard(0, "1z")
    for s in (1, 2, 3):
        tb.draw(s, "4z")
        tb.discard(s, "4z")
    tb.draw(0, "3s")
    tb.discard(0, "3s")
    assert not _win(tb, 2)
    # a pung in the first go-around ends it for everyone
    tb = Table({0: "7z", 1: "7z7z5p", 2: READY, 3: "3s"})
    tb.discard(0, "7z")
    tb.do(ev.Punged(seat=1, tile=t("7z")))
    tb.discard(1, "5p")
    tb.draw(2, "4z")
    tb.discard(2, "4z")
    tb.draw(3, "4z")
    tb.discard(3, "3s")
    assert not _win(tb, 2)


def test_no_heavenly_win_while_another_seat_still_holds_a_dealt_flower() -> None:
    """§2.8.1: the dealer may declare 天胡 after the initial replacement; §2.6: the passes go on until no
    player holds a flower (his discard and kongs wait for them too)."""
    tb = Table({0: "123m456m789m111p234p55s", 2: "1f123s456s789s111z22z3z"})
    rest = list(tb.hand(0))
    rest.remove(t("5s"))
    win = ev.Won(seat=0, kind=ev.WinKind.SELF_DRAW, tile=t("5s"), concealed=tuple(rest))
    tb.refused(win, "flower_first")
    tb.do(ev.FlowerReplaced(seat=2, flowers=(t("1f"),), replacements=(tb.take_filler(),)))
    tb.do(win)
    assert tb.state.outcome is not None and tb.state.outcome.winners[0].heavenly
