"""The Live tab and the eighth flower: a win may take it on the spot, before its replacement (spec §4.2 八仙過海,
§4.4 七搶一; the tracker's ``own_last_flower``). The flower's tap enters it drawn and shown, without the replacement;
such a win is paid flat, so its form asks no hand (an evening's review was asked 16 tiles that meant nothing); a tap
of its own draws the replacement where nobody wins, after which 八仙過海 on the replacement (17 tiles) is offered as
before. Each win is recorded, scored and
paid as ``companion replay`` and ``companion tai`` score the same hand."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.app.live_model import LiveGame
from companion.game import events as ev
from companion.game.check import replay
from companion.game.session import ledger_of
from companion.game.state import Phase
from companion.tiles import Tile

PLAYERS = ("阿東", "小南", "老西", "北北")
HAND16 = "123456789m1234567p"  # any 16 tiles the table has not seen elsewhere (an instant win needs no shape)
HAND17 = "123m456m789m123p456p77s"  # a complete hand: the replacement completes it


def _dealt(tmp_path: Path, laid: dict[int, str], house: dict[str, str] | None = None) -> LiveGame:
    """A table dealt, with ``laid`` flowers shown at the deal by seats counted from the dealer (0 the dealer)."""
    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(PLAYERS, "atawmj_2009", 30, 10, house=house) is None
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None
    assert game.throw((2, 2, 4)) is None
    dealer = game.state.dealer
    for k in sorted(laid):
        for f in laid[k]:
            assert game.flower((dealer + k) % 4, f + "f") is None
    return game


def _round(game: LiveGame, tiles: str) -> None:
    """Each seat in turn discards one of ``tiles`` (honours, one a seat)."""
    for code in tiles.split():
        assert game.discard(code) is None


def _same_as_replay_and_tai(game: LiveGame, seat: int, body: dict[str, object], capsys: pytest.CaptureFixture[str]
                            ) -> None:
    """The Live tab's ledger is `companion replay`'s of the same table file, and the winner's tai and takings are
    `companion tai`'s for the same hand."""
    from companion.cli import main

    live = ledger_of(game.state)
    again = ledger_of(replay(game.events()))
    assert [e.balances for e in live.entries] == [e.balances for e in again.entries]
    line = next(x for x in live.entries[-1].lines if x.player == PLAYERS[seat])
    winds = "ESWN"
    dealer = game.state.dealer
    wind = winds[(seat - dealer) % 4]
    hand = {"seat_wind": wind, "round_wind": "E", "dealer": "E", "stakes": {"base": 30, "per_tai": 10}, **body}
    capsys.readouterr()
    src = game.path.with_name("hand.jsonl")
    src.write_text(json.dumps(hand) + "\n", encoding="utf-8")
    assert main(["tai", str(src)]) == 0
    scored = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert line.capped_tai == scored["hand_tai"]
    takings = dict(live.entries[-1].balances)[PLAYERS[seat]]
    assert takings == sum(p["amount"] for p in scored["payments"])


def test_eight_flowers_on_the_spot_is_paid_flat_with_no_hand_asked_and_no_replacement(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The dealer holds seven laid and draws the eighth as the claim window closes: the tap enters the draw with the
    flower named and no replacement; 八仙過海 is offered, paid flat with no hand asked (tiles typed all the same are
    not kept), and nothing else of his turn (no discard, no self-draw) until the replacement is drawn or the win
    entered."""
    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    assert game.flower(dealer, "8f") is None
    assert game.events()[-1] == ev.Drew(seat=dealer, tile=Tile.F8)  # shown, not replaced
    o = game.offer()
    assert o.flower_held == (dealer, "8f") and o.discard_seat is None
    assert [(w.seat, w.kind, w.shown) for w in o.wins] == [(dealer, ev.WinKind.EIGHT_FLOWERS, 0)]
    assert "八仙過海" in o.prompt.zh and "eight flowers" in o.prompt.en and PLAYERS[dealer] in o.prompt.en
    assert game.discard("5z") is not None  # refused: the flower is replaced first
    for typed in ("", "123456789m12345p", HAND16 + "9p"):  # no hand, or any: 8 flat
        ok, preview = game.preview_win(dealer, ev.WinKind.EIGHT_FLOWERS, typed)
        assert ok and "8" in preview.en, typed
    assert game.win(dealer, ev.WinKind.EIGHT_FLOWERS, HAND16) is None
    assert game.events()[-1] == ev.Won(seat=dealer, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=())
    rec = game.state.outcome.winners[0] if game.state.outcome else None
    assert rec is not None and len(rec.flowers) == 8 and not rec.eight_flowers_on_hand
    assert game.state.phase is Phase.HAND_OVER
    _same_as_replay_and_tai(game, dealer, {"concealed": HAND16, "win_type": "eight_flowers", "flowers": "12345678f"},
                            capsys)
    game.close()


def test_the_eighth_flower_not_won_on_the_spot_is_replaced_and_may_still_win_on_its_replacement(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Nobody wins on it at once: a tap draws its replacement (face down), and 八仙過海 is offered on the 17 tiles
    he holds then, with the self-draw; a replacement that completes his hand scores that hand and 8 more."""
    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    assert game.flower(dealer, "8f") is None
    assert game.replace_flower() is None
    assert game.events()[-1] == ev.FlowerReplaced(seat=dealer, flowers=(Tile.F8,), replacements=(Tile.UNKNOWN,))
    o = game.offer()
    assert o.flower_held is None and o.discard_seat == dealer
    assert {(w.kind, w.shown) for w in o.wins} == {(ev.WinKind.EIGHT_FLOWERS, 17), (ev.WinKind.SELF_DRAW, 16)}
    assert game.replace_flower() is not None  # nothing waits for a replacement now
    assert game.win(dealer, ev.WinKind.EIGHT_FLOWERS, HAND17) is None
    rec = game.state.outcome.winners[0] if game.state.outcome else None
    assert rec is not None and rec.eight_flowers_on_hand
    line = ledger_of(game.state).entries[-1].lines[0]
    assert line.capped_tai > 8  # the hand's tai and 8
    _same_as_replay_and_tai(game, dealer, {"concealed": HAND17, "win_type": "eight_flowers", "flowers": "12345678f",
                                           "flags": {"replacement_after": "flower", "heavenly": False}}, capsys)
    game.close()


def test_the_seventh_flowers_replacement_being_the_eighth_is_named_and_undone_as_one_tap(tmp_path: Path) -> None:
    """The replacement the log drew face down for the seventh flower turns out the eighth: its tap names it (the log
    is append-only: a retraction and the seventh's tap again, its replacement named), and undo puts it back face
    down, taking back that one tap only."""
    game = _dealt(tmp_path, {0: "123456"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    assert game.flower(dealer, "7f") is None  # not the eighth: laid and replaced at once
    seventh = game.events()[-1]
    assert seventh == ev.FlowerReplaced(seat=dealer, flowers=(Tile.F7,), replacements=(Tile.UNKNOWN,))
    before = game.offer()
    assert before.flower_held is None and before.discard_seat == dealer
    assert game.flower(dealer, "8f") is None
    raw = game.events()
    assert isinstance(raw[-2], ev.Retracted) and raw[-1] == ev.FlowerReplaced(
        seat=dealer, flowers=(Tile.F7,), replacements=(Tile.F8,))
    o = game.offer()
    assert o.flower_held == (dealer, "8f")
    assert [(w.kind, w.shown) for w in o.wins] == [(ev.WinKind.EIGHT_FLOWERS, 0)]
    said = game.undo_what()
    assert said is not None and "eighth flower" in said.en and "第八張花" in said.zh and PLAYERS[dealer] in said.zh
    assert game.undo() is None
    after = game.offer()
    assert after.flower_held is None and after.discard_seat == dealer and len(game.state.seats[dealer].flowers) == 7
    assert game.state.seats[dealer].concealed == game.service.state.seats[dealer].concealed
    assert game.state.seats[dealer].concealed[Tile.UNKNOWN] == 17 and game.state.seats[dealer].flowers[-1] == Tile.F7
    assert game.flower(dealer, "8f") is None
    assert game.win(dealer, ev.WinKind.EIGHT_FLOWERS, HAND16) is None
    assert ledger_of(game.state).entries[-1].lines[0].capped_tai == 8
    game.close()


def test_a_draw_tapped_first_then_the_eighth_flower_is_named_on_that_draw(tmp_path: Path) -> None:
    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    assert game.draw() is None
    assert dealer in game.offer().flower_seats
    assert game.flower(dealer, "8f") is None
    assert game.events()[-1] == ev.Drew(seat=dealer, tile=Tile.F8)
    assert game.offer().flower_held == (dealer, "8f")
    assert game.undo() is None
    assert game.events()[-1] == ev.Drew(seat=dealer) and game.offer().discard_seat == dealer
    game.close()


def test_seven_rob_one_on_the_spot_is_paid_by_the_drawer_alone(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The dealer's 下家 holds seven laid; the 對家 draws the eighth: 七搶一 is offered to the holder of seven, paid
    flat with no hand asked, before the replacement, and the drawer pays alone; not robbed, the replacement is a tap and the
    rob is still offered until the drawer's next step (as before)."""
    game = _dealt(tmp_path, {1: "1234567"})
    dealer = game.state.dealer
    holder, drawer = (dealer + 1) % 4, (dealer + 2) % 4
    _round(game, "1z 2z")
    assert game.flower(drawer, "8f") is None
    assert game.events()[-1] == ev.Drew(seat=drawer, tile=Tile.F8)
    o = game.offer()
    assert o.flower_held == (drawer, "8f")
    assert [(w.seat, w.kind, w.shown) for w in o.wins] == [(holder, ev.WinKind.SEVEN_ROB_ONE, 0)]
    assert "七搶一" in o.prompt.zh and PLAYERS[holder] in o.prompt.en and "seven rob one" in o.prompt.en
    assert game.replace_flower() is None
    assert any(w.kind is ev.WinKind.SEVEN_ROB_ONE for w in game.offer().wins)
    assert game.undo() is None and game.offer().flower_held == (drawer, "8f")
    assert game.win(holder, ev.WinKind.SEVEN_ROB_ONE, HAND16) is None
    rec = game.state.outcome.winners[0] if game.state.outcome else None
    assert rec is not None and rec.discarder == drawer and len(rec.flowers) == 7
    balances = dict(ledger_of(game.state).entries[-1].balances)
    assert balances[PLAYERS[holder]] == -balances[PLAYERS[drawer]] > 0
    assert all(balances[PLAYERS[s]] == 0 for s in range(4) if s not in (holder, drawer))
    _same_as_replay_and_tai(game, holder, {"concealed": HAND16, "win_type": "seven_flowers_rob", "flowers": "1234567f",
                                           "discarder": "ESWN"[(drawer - dealer) % 4]}, capsys)
    game.close()


def test_a_flower_no_win_can_take_is_laid_and_replaced_in_one_tap_as_before(tmp_path: Path) -> None:
    """Only the eighth that a win may take waits for its replacement: with seven laid by nobody, a flower's tap lays
    it and draws its replacement at once."""
    game = _dealt(tmp_path, {0: "123456"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z")
    drawer = (dealer + 3) % 4
    assert game.flower(drawer, "8f") is None  # the dealer holds six: nobody can win on it
    assert isinstance(game.events()[-1], ev.FlowerReplaced) and game.offer().flower_held is None
    game.close()


def test_the_eighth_flower_drawn_as_the_last_tile_is_offered_to_a_win_or_the_draw(tmp_path: Path) -> None:
    """Played to the wall's end (no tiles kept back), the eighth flower drawn last has no replacement: the tap shows
    it, the win on it is offered, and the prompt says that the hand is drawn where nobody wins (the draw's button)."""
    game = _dealt(tmp_path, {0: "1234567"}, {"reserve_rule": "play_to_end"})
    dealer = game.state.dealer
    faces = [Tile(k) for k in range(34) for _ in range(4)]
    while game.state.live > 1:
        assert game.discard(faces.pop()) is None
    drawer = (game.state.turn + 1) % 4
    assert drawer in game.offer().flower_seats  # (its tap with a replacement is refused: none is left)
    assert game.flower(drawer, "8f") is None
    assert game.events()[-1] == ev.Drew(seat=drawer, tile=Tile.F8)
    o = game.offer()
    assert o.flower_held is None and o.discard_seat is None and o.exhaustive
    kind = ev.WinKind.EIGHT_FLOWERS if drawer == dealer else ev.WinKind.SEVEN_ROB_ONE
    assert [(w.seat, w.kind) for w in o.wins] == [(dealer, kind)]
    assert "流局" in o.prompt.zh and "drawn" in o.prompt.en and "最後一張" in o.prompt.zh
    assert game.exhaustive() is None and game.state.phase is Phase.HAND_OVER
    game.close()


def test_the_live_tab_shows_the_replacement_button_and_no_discard_while_the_eighth_flower_waits(tmp_path: Path) -> None:
    """Drawn without a browser: the prompt asks for the win on the spot, the replacement is a button of its own (its
    tap logs it), the win is offered, and no discard key is shown until the replacement is drawn."""
    from companion.app.view_live import LiveTab
    from tests.app.test_live_tab_moves import _Phone
    from tests.app.test_tabs_beside_a_live_table import _idents, _texts

    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    phone = _Phone()
    tab = LiveTab(phone, game)
    tab.visible = True
    tab.attach()
    assert game.flower(dealer, "8f") is None
    page = tab.build()
    names = {c.identifier: c for c in _idents(page)}
    assert "live-flower-replace" in names and not any(k.startswith("live-discard-") for k in names)
    assert game.offer().prompt.en in _texts(page)
    button = names["live-flower-replace"].content
    button.on_click()
    assert isinstance(game.events()[-1], ev.FlowerReplaced) and game.offer().discard_seat == dealer
    names = {c.identifier for c in _idents(tab.build())}
    assert "live-flower-replace" not in names and any(k.startswith("live-discard-") for k in names)
    tab.detach()
    game.close()


def test_a_seat_laying_his_eighth_flower_at_the_deal_may_win_then_not_only_at_his_turn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The tracker takes 八仙過海 from any seat holding the eight; the Live tab offered it to the seat to play alone,
    so the dealer's 下家, laying his eighth in the initial replacement, was offered nothing until his own turn (and
    in the claim window of the dealer's first discard, only a win on that tile)."""
    game = _dealt(tmp_path, {1: "12345678"})
    dealer = game.state.dealer
    seat = (dealer + 1) % 4
    eight = [(w.seat, w.shown) for w in game.offer().wins if w.kind is ev.WinKind.EIGHT_FLOWERS]
    assert eight == [(seat, 0)]  # paid flat: no hand asked
    assert game.discard("1z") is None  # not declared at once: still his in the claim window
    assert (seat, ev.WinKind.EIGHT_FLOWERS) in [(w.seat, w.kind) for w in game.offer().wins]
    assert game.undo() is None
    assert game.win(seat, ev.WinKind.EIGHT_FLOWERS, HAND16) is None
    assert ledger_of(game.state).entries[-1].lines[0].capped_tai == 8
    _same_as_replay_and_tai(game, seat, {"concealed": HAND16, "win_type": "eight_flowers", "flowers": "12345678f"},
                            capsys)
    game.close()


@pytest.mark.parametrize("penalty", ["wrong_count", "false_win"])
def test_a_robber_found_wrong_or_playing_dead_while_the_flower_waits_is_neither_asked_nor_offered(
        tmp_path: Path, penalty: str) -> None:
    """The eighth flower shown for 七搶一, then the holder of the other seven found 相公 or playing dead after a 詐胡:
    he may not win this hand (§2.16), so the offer holds no rob, the prompt asks nobody to rob, and says nobody may
    win on it (the tracker's own check decides, as it refuses the win)."""
    game = _dealt(tmp_path, {1: "1234567"}, {"false_win_after": "continue_dead"})
    dealer = game.state.dealer
    holder, drawer = (dealer + 1) % 4, (dealer + 2) % 4
    _round(game, "1z 2z")
    assert game.flower(drawer, "8f") is None
    assert (holder, ev.WinKind.SEVEN_ROB_ONE) in {(w.seat, w.kind) for w in game.offer().wins}
    assert (game.wrong_count(holder, True) if penalty == "wrong_count" else game.false_win(holder)) is None
    o = game.offer()
    assert game.win(holder, ev.WinKind.SEVEN_ROB_ONE, HAND16) is not None  # the tracker refuses it
    assert (holder, ev.WinKind.SEVEN_ROB_ONE) not in {(w.seat, w.kind) for w in o.wins}
    assert "seven rob one" not in o.prompt.en and "七搶一" not in o.prompt.zh
    assert "nobody may win on it" in o.prompt.en and "沒有人能當場胡" in o.prompt.zh
    assert o.flower_held == (drawer, "8f")  # the replacement is still the way on
    assert game.replace_flower() is None
    game.close()


def test_eight_flowers_is_not_offered_to_a_seat_found_wrong(tmp_path: Path) -> None:
    """The dealer shows his eighth flower, then is found 相公: his 八仙過海, which the tracker refuses, is not offered
    and the prompt says nobody may win on it (it checked only a dead hand)."""
    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    assert game.flower(dealer, "8f") is None
    assert game.wrong_count(dealer, True) is None
    o = game.offer()
    assert game.win(dealer, ev.WinKind.EIGHT_FLOWERS, HAND16) is not None
    assert ev.WinKind.EIGHT_FLOWERS not in {w.kind for w in o.wins}
    assert "nobody may win on it" in o.prompt.en
    game.close()


@pytest.mark.parametrize("between", ["heavenly_ready", "wrong_count", "false_win"])
def test_a_record_about_another_seat_after_the_face_down_draw_keeps_the_eighth_flower_won_on_the_spot(
        tmp_path: Path, between: str) -> None:
    """The 下家 holds seven laid and draws face down (the draw button); before his flower is tapped the table records
    something about another seat that the tracker keeps a flower on offer past (a 天聽 declared, a 相公, a 詐胡
    played dead). The eighth flower's tap still names that draw and holds the flower unreplaced, so 八仙過海 is
    entered on the 16 tiles he holds (it looked at the log's last event alone, and laid and replaced it). The record
    is set aside for the correction and entered again as it was, nothing else taken back; undo takes back that tap
    alone (the draw face down again, the record after it), and the undo after it the record."""
    from companion.app.live_model import effective_events

    game = _dealt(tmp_path, {1: "1234567"}, {"false_win_after": "continue_dead"})
    dealer = game.state.dealer
    seat, other = (dealer + 1) % 4, (dealer + 2) % 4
    assert game.discard("1z") is None
    assert game.draw() is None
    record = {"heavenly_ready": lambda: game.declare_heavenly(other),
              "wrong_count": lambda: game.wrong_count(other, True),
              "false_win": lambda: game.false_win(other)}[between]
    assert record() is None
    before = effective_events(game.events())
    assert game.flower(seat, "8f") is None
    o = game.offer()
    assert o.flower_held == (seat, "8f"), game.events()[-1]
    after = effective_events(game.events())
    # the draw named, the record after it as it was, nothing else changed
    assert after[:-2] == before[:-2] and after[-1] == before[-1] and after[-2] == ev.Drew(seat=seat, tile=Tile.F8)
    assert (seat, ev.WinKind.EIGHT_FLOWERS) in {(w.seat, w.kind) for w in o.wins}
    what = game.undo_what()
    assert what is not None and "eighth flower" in what.en
    assert game.undo() is None
    assert effective_events(game.events()) == before
    assert game.offer().flower_held is None
    assert game.undo() is None  # then the record, by its own tap
    assert effective_events(game.events()) == before[:-1]
    assert isinstance(before[-2], ev.Drew) and before[-2] == effective_events(game.events())[-1]
    assert record() is None
    assert game.flower(seat, "8f") is None
    assert game.win(seat, ev.WinKind.EIGHT_FLOWERS, HAND16) is None  # 16 tiles: no replacement drawn
    game.close()


def test_a_record_entered_after_the_flower_shown_is_undone_by_itself(tmp_path: Path) -> None:
    """The eighth flower shown on a face-down draw, then a 相公 recorded for another seat by a tap of its own: undo
    takes back that record alone, then the flower's tap."""
    from companion.app.live_model import effective_events

    game = _dealt(tmp_path, {1: "1234567"})
    dealer = game.state.dealer
    seat, other = (dealer + 1) % 4, (dealer + 2) % 4
    assert game.discard("1z") is None
    assert game.draw() is None
    drawn = effective_events(game.events())
    assert game.flower(seat, "8f") is None
    shown = effective_events(game.events())
    assert game.wrong_count(other, True) is None
    assert game.undo() is None
    assert effective_events(game.events()) == shown and game.offer().flower_held == (seat, "8f")
    assert game.undo() is None
    assert effective_events(game.events()) == drawn
    game.close()


def test_companion_replay_says_the_draw_was_corrected_to_the_eighth_flower_and_what_the_table_waits_for(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A draw logged face down, a 相公 recorded for another seat, then the draw shown as the eighth flower: `companion
    replay` printed a bare "撤回 / Retracted", an unnamed "摸牌 / Drew", "waiting for a discard", and never the flower.
    It now says, in both languages, that the record was set aside and the draw corrected to the flower (named), names
    the flower drawn, shows it apart on the seat's line, and says the table waits for the win or the replacement."""
    from companion.cli import main

    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    assert game.draw() is None
    assert game.wrong_count((dealer + 2) % 4, True) is None
    assert game.flower(dealer, "8f") is None
    path = game.path
    game.close()
    capsys.readouterr()
    assert main(["replay", "--lang", "both", str(path)]) == 0
    out = capsys.readouterr().out
    tail = out[out.rindex("\n", 0, out.index("Retracted")) + 1:]
    lines = tail.splitlines()
    heads = [x for x in lines if x.startswith("#")]
    assert "暫時撤下" in heads[0] and "set aside to correct the draw before it" in heads[0]
    assert "更正阿東面朝下記的摸牌：亮出來是花 竹" in heads[1] and "correcting 阿東's draw logged face down" in heads[1]
    assert "Bamboo flower (8f)" in heads[1]
    assert "阿東摸到花 竹" in heads[2] and "阿東 draws a flower, Bamboo flower (8f)" in heads[2]
    after_draw = tail[tail.index(heads[2]):]
    assert "1234567f +8f" in after_draw and "[16]" in after_draw.splitlines()[4]
    waits = [x for x in after_draw.splitlines() if "輪到" in x]
    assert waits and all("waiting for a discard" not in x and "等待出牌" not in x for x in waits)
    assert "waiting for a win on the eighth flower, Bamboo flower" in waits[0] and "或補花" in waits[0]


def test_the_seat_and_the_banner_show_the_eighth_flower_held_and_what_the_table_waits_for(tmp_path: Path) -> None:
    """While the eighth flower waits for a win or its replacement, the seat card showed "17 tiles (hidden)" with seven
    flowers and the banner "waiting for a discard", which the tracker refuses. The held flower is now on the seat's
    flower row, marked as just drawn and not replaced, out of the hidden count, and the banner says the table waits
    for a win on it or the replacement, in both languages; once replaced, the card and the banner are as before."""
    from companion.app.view_live import LiveTab
    from tests.app.test_live_tab_moves import _Phone
    from tests.app.test_tabs_beside_a_live_table import _texts

    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    assert game.draw() is None
    assert game.flower(dealer, "8f") is None
    frame = game.frame()
    card = next(s for s in frame.seats if s.seat == dealer)
    assert card.flower_held == "8f" and card.hidden == 16 and len(card.flowers) == 7
    assert "waiting for a discard" not in frame.phase.en and "等待出牌" not in frame.phase.zh
    assert "waiting for a win on the eighth flower, Bamboo flower" in frame.phase.en and "或補花" in frame.phase.zh
    phone = _Phone()
    tab = LiveTab(phone, game)
    tab.visible = True
    tab.attach()
    texts = _texts(tab.build())
    assert any("just drawn, not replaced yet" in x or "剛摸到，還沒補花" in x for x in texts)
    assert any("waiting for a win on the eighth flower" in x or "等待當場胡" in x for x in texts)
    assert game.replace_flower() is None
    frame = game.frame()
    card = next(s for s in frame.seats if s.seat == dealer)
    assert card.flower_held is None and card.hidden == 17 and len(card.flowers) == 8
    assert frame.phase.en == Phase.ACT.en
    texts = _texts(tab.build())
    assert not any("just drawn, not replaced yet" in x or "剛摸到，還沒補花" in x for x in texts)
    tab.detach()
    game.close()


def test_companion_replay_shows_the_held_flower_once_and_says_what_the_undo_of_its_tap_did(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--show-hands` showed the eighth flower held both in the hand and after the flowers, and the undo of the
    flower's tap printed bare "撤回 / Retracted" lines and a face-down draw and a 相公 entered again without a word
    (a change review): the flower is shown once, apart, and the undo's lines say, in both languages, what they do."""
    from companion.cli import main

    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    assert game.draw() is None
    assert game.wrong_count((dealer + 2) % 4, True) is None
    assert game.flower(dealer, "8f") is None
    assert game.undo() is None
    path = game.path
    game.close()
    capsys.readouterr()
    assert main(["replay", "--show-hands", "--lang", "both", str(path)]) == 0
    out = capsys.readouterr().out
    blocks = out.split("\n#")
    held = next(b for b in blocks if "8f（剛摸到" in b or "+8f" in b)
    seat_lines = [x for x in held.splitlines() if "+8f" in x]
    assert len(seat_lines) == 1 and seat_lines[0].split()[0].count("8f") == 0, seat_lines
    heads = [b.splitlines()[0] for b in blocks]
    undo = [h for h in heads if "undo:" in h]
    # the 相公 entered again by the correction is taken back first, then the draw (a change review: both lines said
    # the draw went back face down)
    assert len(undo) == 2 and "this record, entered again by the eighth flower's correction" in undo[0] \
        and "撤回第八張花的更正時重記的這筆" in undo[0]
    assert "correction of 阿東's draw taken back (the draw goes back to face down)" in undo[1] \
        and "撤回第八張花的更正（阿東的摸牌改回面朝下）" in undo[1]
    again = [h for h in heads if "entered again as before the correction" in h]
    assert len(again) == 2 and all("照更正前的樣子重記" in h for h in again)
    assert heads.index(again[0]) == heads.index(undo[1]) + 1 and heads[-1] == again[1]


def test_a_win_form_opened_on_the_face_down_draw_undoes_the_eighth_flowers_correction_of_it(tmp_path: Path) -> None:
    """The dealer's self-draw form is opened on his face-down draw; before it is recorded another phone taps his
    eighth flower, which corrects that draw (retracted, entered again named). The form said "earlier entries were
    taken back … tap Cancel" and its undo "the table was just updated by someone else": the correction changed the
    draw the form's table ends on, which it took for entries before it taken back. The form now says what changed
    (the eighth flower shown), and its undo takes back that one tap: the table it was opened on, to record on."""
    from companion.app.live_model import effective_events
    from companion.app.words import ui

    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    assert game.draw() is None
    form, kind = len(game.events()), ev.WinKind.SELF_DRAW
    assert (dealer, kind) in {(w.seat, w.kind) for w in game.offer().wins}
    then = effective_events(game.events())
    assert game.flower(dealer, "8f") is None  # another phone: the draw corrected to the eighth flower
    assert game.claim_at(form, dealer, kind) is None  # a flower drawn: no self-draw on it
    gone = game.claim_gone(form, dealer, kind)
    shown = ui("live_flower_shown", seat=PLAYERS[dealer], tile="竹", tile_en="Bamboo flower")
    assert shown.en in gone.en and shown.zh in gone.zh
    assert ui("live_claim_undone").en not in gone.en and ui("live_undo_since_one").en in gone.en
    for said in (ui("live_claim_gone_flower", seat=PLAYERS[dealer], tile="竹", tile_en="Bamboo flower"),  # the way out
                 ui("live_claim_undo_flower", button="撤回後來記的那一步", button_en="Undo the later entry")):
        assert said.en in gone.en and said.zh in gone.zh
    assert game.win(dealer, kind, HAND17[:-2] + "s", "7s", at=form) == gone  # refused, saying so
    assert game.since(form) == (shown, 1)
    assert game.undo_since(form) is None
    assert effective_events(game.events()) == then  # the form's own table again: the draw face down
    assert game.claim_at(form, dealer, kind) == len(game.events())
    assert game.win(dealer, kind, HAND17[:-2] + "s", "7s", at=form) is None  # on the draw, as the form said
    game.close()


def test_a_win_form_whose_draw_was_shown_the_eighth_flower_names_it_however_many_entries_follow(
        tmp_path: Path) -> None:
    """A review: the dealer's self-draw form on his face-down draw; another phone showed it to be the eighth flower,
    drew the replacement and discarded five tiles. The form's notice lists the last 4 entries only, so the flower's
    line was cut off, and "That is the tile 阿東 drew when this form was opened" pointed at "阿東 discards 2
    Characters". The sentence names the flower itself."""
    from companion.app.live_model import SINCE_SHOWN
    from companion.app.words import ui

    game = _dealt(tmp_path, {0: "1234567"})
    dealer, kind = game.state.dealer, ev.WinKind.SELF_DRAW
    _round(game, "1z 2z 3z 4z")
    assert game.draw() is None
    form = len(game.events())
    assert game.flower(dealer, "8f") is None and game.replace_flower() is None  # other phones
    _round(game, "5z 6z 7z 1m 2m")
    since = game.since(form)
    shown = ui("live_flower_shown", seat=PLAYERS[dealer], tile="竹", tile_en="Bamboo flower")
    assert since is not None and since[1] > SINCE_SHOWN and shown.en not in since[0].en  # (its line cut off)
    gone = game.claim_gone(form, dealer, kind)
    said = f"The tile {PLAYERS[dealer]} drew when this form was opened was since shown to be the eighth flower, " \
           "Bamboo flower"
    assert said in gone.en and f"這個表單開啟時{PLAYERS[dealer]}摸的牌，後來亮出是第八張花 竹" in gone.zh
    assert gone.en.index(said) < gone.en.index("If the flower was tapped by mistake")
    game.close()


@pytest.mark.parametrize("record", [False, True])
def test_a_win_form_on_a_discard_undoes_a_draw_corrected_to_the_eighth_flower_as_the_taps_it_names(
        tmp_path: Path, record: bool) -> None:
    """A form opened on a discard; the next seat's draw is tapped face down (the discard is dead), a 相公 perhaps
    recorded, then the draw corrected to the eighth flower. The form counted the correction's draw as one entry to
    take back ("Undo the 2 later entries"), but undoing the correction puts the draw back face down: its undo left
    the table one tap short of the form's, the form still refused. It now names the taps its undo takes back, the
    correction and the draw apart, and takes them all back."""
    from companion.app.live_model import effective_events
    from companion.app.words import ui

    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")  # the seat before the dealer discards 4z: the next seat is the dealer
    form, seat, kind = len(game.events()), (dealer + 1) % 4, ev.WinKind.DISCARD
    assert (seat, kind) in {(w.seat, w.kind) for w in game.offer().wins}
    then = effective_events(game.events())
    assert game.draw() is None
    if record:
        assert game.wrong_count((dealer + 2) % 4, True) is None
    assert game.flower(dealer, "8f") is None
    taps = 3 if record else 2
    since = game.since(form)
    assert since is not None and since[1] == taps
    shown = ui("live_flower_shown", seat=PLAYERS[dealer], tile="竹", tile_en="Bamboo flower")
    assert since[0].en.endswith(shown.en) and "draws a tile" in since[0].en
    assert ui("live_undo_since", n=taps).en in game.claim_gone(form, seat, kind).en
    assert game.undo_since(form) is None
    assert effective_events(game.events()) == then
    assert game.claim_at(form, seat, kind) == len(game.events())
    game.close()


def test_the_live_tab_s_self_draw_form_left_open_undoes_the_eighth_flowers_correction_and_records(
        tmp_path: Path) -> None:
    """Drawn without a browser: the dealer's self-draw form, opened on his face-down draw and left open while another
    phone showed that draw as the eighth flower, says so with an undo button (it offered Cancel alone); the button
    puts the draw back face down, the form open as it was filled, and Record records the self-draw."""
    from companion.app.view_live import ID_LIVE_UNDO_SINCE, ID_LIVE_WIN_GONE, ID_LIVE_WIN_OK, LiveTab
    from tests.app.test_live_tab_moves import _Phone
    from tests.app.test_photo_picks import _tapped
    from tests.app.test_tabs_beside_a_live_table import _idents, _texts

    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    assert game.draw() is None
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    tab.build()
    _tapped(tab.build(), f"live-win-{dealer}-self_draw")
    assert tab.win is not None and tab.win.kind is ev.WinKind.SELF_DRAW
    tab.concealed.value, tab.drawn.value = HAND17[:-2] + "s", "7s"
    tab._typing()
    assert game.flower(dealer, "8f") is None  # another phone
    page = tab.build()
    shown = {c.identifier: c for c in _idents(page)}
    assert ID_LIVE_WIN_GONE in shown and shown[ID_LIVE_WIN_OK].content.disabled and ID_LIVE_UNDO_SINCE in shown
    assert "shows the eighth flower" in " ".join(_texts(shown[ID_LIVE_WIN_GONE]))
    _tapped(page, ID_LIVE_UNDO_SINCE)
    assert tab.error is None and tab.win is not None and tab.concealed.value == HAND17[:-2] + "s"
    assert game.events()[-1] == ev.Drew(seat=dealer)  # face down again
    page = tab.build()
    shown = {c.identifier: c for c in _idents(page)}
    assert ID_LIVE_WIN_GONE not in shown and not shown[ID_LIVE_WIN_OK].content.disabled
    _tapped(page, ID_LIVE_WIN_OK)
    out = game.state.outcome
    assert tab.error is None and out is not None and [w.seat for w in out.winners] == [dealer]
    game.close()


def test_an_open_seven_rob_one_form_records_while_the_table_still_offers_the_rob(tmp_path: Path) -> None:
    """A review: a 七搶一 form opened while the eighth flower waited; another phone tapped the replacement. The table
    still offers the rob (until the drawer's next step) and a fresh form records it, but the open form said "its
    moment has passed" and refused. It records where the tracker offers the same win now."""
    game = _dealt(tmp_path, {1: "1234567"})
    dealer = game.state.dealer
    holder, drawer, kind = (dealer + 1) % 4, (dealer + 2) % 4, ev.WinKind.SEVEN_ROB_ONE
    _round(game, "1z 2z")
    assert game.flower(drawer, "8f") is None
    form = len(game.events())
    assert game.replace_flower() is None  # another phone
    assert (holder, kind) in {(w.seat, w.kind) for w in game.offer().wins}  # the table's word: still offered
    assert game.claim_at(form, holder, kind) == len(game.events())
    assert game.check_win(holder, kind, HAND16, at=form) is None
    assert game.win(holder, kind, HAND16, at=form) is None
    out = game.state.outcome
    assert out is not None and [(w.seat, w.kind) for w in out.winners] == [(holder, kind)]
    game.close()


def test_an_open_self_draw_form_records_after_a_record_for_another_seat_not_after_its_own_next_draw(
        tmp_path: Path) -> None:
    """A review: the dealer's self-draw form on his draw; another phone recorded a 相公 for a third seat. The table
    still offers the self-draw and a fresh form records it, but the open form refused it, and its undo would have
    taken back the 相公 (spec §2.16). It records now, the 相公 standing; a form whose seat has since discarded and
    drawn again is a draw gone (its hand is another)."""
    from companion.app.live_model import effective_events

    game = _dealt(tmp_path, {})
    dealer, kind = game.state.dealer, ev.WinKind.SELF_DRAW
    _round(game, "1z 2z 3z 4z")
    assert game.draw() is None
    form = len(game.events())
    assert game.wrong_count((dealer + 2) % 4, True) is None  # another phone
    assert game.claim_at(form, dealer, kind) == len(game.events())
    assert game.win(dealer, kind, HAND17[:-2] + "s", "7s", at=form) is None
    assert any(isinstance(e, ev.WrongCount) for e in effective_events(game.events()))
    assert game.state.outcome is not None
    game.close()
    game = _dealt(tmp_path / "again", {})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    assert game.draw() is None
    form = len(game.events())
    _round(game, "5z 6z 7z 1m")  # the dealer discards, the others too, and he draws again
    assert game.draw() is None and (dealer, kind) in {(w.seat, w.kind) for w in game.offer().wins}
    assert game.claim_at(form, dealer, kind) is None
    game.close()


@pytest.mark.parametrize("form", ["eight_flowers", "self_draw"])
def test_a_win_forms_undo_says_before_the_tap_that_it_takes_back_another_seats_wrong_count(
        tmp_path: Path, form: str) -> None:
    """A review: a 八仙過海 form opened on the eighth flower the correction showed on a face-down draw; another phone
    recorded 老西's 相公, then tapped the replacement. The form's "Undo the 2 later entries" took the 相公 back too,
    listed among the entries, never warned. The same with a self-draw form opened on the face-down draw, the 相公
    entered before the correction. A line under the button says so, naming the seat and the record, in both
    languages; the undo does what it did (the rules say nothing of keeping the record)."""
    from companion.app.live_model import effective_events, undo_since_words
    from companion.app.live_offer import SHOWN_NOTE
    from companion.app.view_live import ID_LIVE_UNDO_ALSO, ID_LIVE_UNDO_SINCE, LiveTab
    from companion.app.words import ui
    from tests.app.test_live_tab_moves import _Phone
    from tests.app.test_photo_picks import _tapped
    from tests.app.test_tabs_beside_a_live_table import _idents, _texts

    game = _dealt(tmp_path, {1: "1234567"} if form == "eight_flowers" else {0: "1234567"})
    dealer = game.state.dealer
    other = (dealer + 2) % 4
    if form == "eight_flowers":
        seat, kind = (dealer + 1) % 4, ev.WinKind.EIGHT_FLOWERS
        assert game.discard("1z") is None
        assert game.draw() is None and game.flower(seat, "8f") is None  # the draw shown as the eighth flower
        assert any(isinstance(e, ev.Retracted) and e.note == SHOWN_NOTE for e in game.events())  # (a correction)
    else:
        seat, kind = dealer, ev.WinKind.SELF_DRAW
        _round(game, "1z 2z 3z 4z")
        assert game.draw() is None
    assert (seat, kind) in {(w.seat, w.kind) for w in game.offer().wins}
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    tab.build()
    _tapped(tab.build(), f"live-win-{seat}-{kind.value}")
    at, then = tab.win_at, effective_events(game.events())
    assert game.undo_also(at, seat) is None  # nothing since
    assert game.wrong_count(other, True) is None  # other phones: 老西's 相公, then the replacement or the flower
    assert (game.replace_flower() if form == "eight_flowers" else game.flower(seat, "8f")) is None
    assert game.claim_at(at, seat, kind) is None
    since = game.since(at)
    assert since is not None and since[1] == 2
    also = game.undo_also(at, seat)
    button = undo_since_words(2)
    assert also == ui("live_undo_since_also", button=button.zh, button_en=button.en, what="老西相公（張數不對）",
                      what_en="老西: wrong tile count"), also
    page = tab.build()
    shown = {c.identifier: c for c in _idents(page)}
    assert ID_LIVE_UNDO_SINCE in shown and also.en in _texts(shown[ID_LIVE_UNDO_ALSO])
    _tapped(page, ID_LIVE_UNDO_SINCE)  # as before: the 相公 goes too, the form's table again
    assert tab.error is None and effective_events(game.events()) == then
    assert not any(isinstance(e, ev.WrongCount) for e in effective_events(game.events()))
    assert ID_LIVE_UNDO_ALSO not in {c.identifier for c in _idents(tab.build())}
    game.close()


def test_a_win_forms_undo_of_the_play_alone_says_nothing_more(tmp_path: Path) -> None:
    """The line under the undo is for records about another seat: a form whose undo takes back draws, discards and a
    flower shown and replaced has none."""
    game = _dealt(tmp_path, {0: "1234567"})
    dealer = game.state.dealer
    _round(game, "1z 2z 3z 4z")
    form, seat = len(game.events()), (dealer + 1) % 4
    assert (seat, ev.WinKind.DISCARD) in {(w.seat, w.kind) for w in game.offer().wins}
    assert game.draw() is None and game.flower(dealer, "8f") is None and game.replace_flower() is None
    _round(game, "5z")
    since = game.since(form)
    assert since is not None and since[1] == 4
    assert game.undo_also(form, seat) is None
    game.close()
