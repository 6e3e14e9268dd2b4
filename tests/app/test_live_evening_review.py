"""What a review found playing the Live tab through an evening: a table held elsewhere said by name, a barred win
said why, the flat instant wins taken without a hand, a chow outranked said so, spaced tile names, a face-down tile
named in words, and a bad chow code refused in words."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.app.live_model import LiveError, LiveGame, tiles_typed
from companion.app.live_offer import refusal
from companion.app.table_model import describe
from companion.app.words import ui
from companion.game import events as ev
from companion.game.service import TableService
from companion.game.session import ledger_of
from companion.game.state import TableState
from companion.hand import MeldKind
from companion.tiles import Tile

PLAYERS = ("阿東", "小南", "老西", "北北")


def test_a_table_held_by_another_companion_is_said_by_name_and_alike_in_both_languages(tmp_path: Path) -> None:
    """The phone read the host's full path and "another table service", and the Chinese said less ("another
    program") than the English; both now say another companion window or command has it, and what to do."""
    table = tmp_path / "tk.sqlite"
    with TableService(table):  # the other companion
        game = LiveGame(table)
        with pytest.raises(LiveError) as refused:
            game.offer()
    said = refused.value.words
    for text in (said.zh, said.en):
        assert "tk.sqlite" in text and str(tmp_path) not in text, text
    assert "table service" not in said.en and "companion" in said.en and "close it there" in said.en, said.en
    assert "小幫手" in said.zh and "關掉" in said.zh, said.zh


def _dealt(tmp_path: Path, name: str = "t.sqlite") -> LiveGame:
    game = LiveGame(tmp_path / name, seed=1)
    assert game.start(PLAYERS, "atawmj_2009", 30, 10, house={"first_dealer": "east_deals"}) is None
    assert game.choose_dealer() is None and game.throw((1, 1, 3)) is None
    return game


@pytest.mark.parametrize(("kind", "claim"), [(MeldKind.PUNG, "pung"), (MeldKind.KONG, "kong")])
def test_a_pung_or_kong_over_a_chow_says_the_chow_no_longer_counts(tmp_path: Path, kind: MeldKind, claim: str) -> None:
    """The latest plays read 「小南 吃」 and then 「北北 碰」 of one discard, nothing saying the chow was gone, where a
    win over a win says so."""
    game = _dealt(tmp_path)
    assert game.discard("5m") is None
    assert game.claim(1, MeldKind.CHOW, ("3m", "4m", "5m")) is None
    assert game.claim(3, kind) is None
    said = game.frame().recent[0]
    assert f"{claim} comes before a chow: 小南's chow no longer counts" in said.en, said.en
    assert "吃不算了" in said.zh and "小南" in said.zh and ("碰" if kind is MeldKind.PUNG else "槓") + "比吃優先" in said.zh
    assert "no longer counts" not in game.frame().recent[1].en  # (the chow's own line says nothing of it)


@pytest.mark.parametrize(("kind", "claim", "zh"), [(MeldKind.CHOW, "chow", "吃"), (MeldKind.PUNG, "pung", "碰"),
                                                   (MeldKind.KONG, "kong", "槓")])
def test_a_win_over_a_chow_pung_or_kong_says_it_no_longer_counts(tmp_path: Path, kind: MeldKind, claim: str,
                                                                zh: str) -> None:
    """The latest plays read 「小南 吃 五萬」 and then 「北北 胡 五萬」, nothing saying the chow was gone, where a pung
    over a chow says so."""
    game = _dealt(tmp_path)
    assert game.discard("5m") is None
    assert game.claim(1, kind, ("3m", "4m", "5m") if kind is MeldKind.CHOW else ()) is None
    assert game.win(3, ev.WinKind.DISCARD, "123p456p789p123s46m55s") is None
    said = game.frame().recent[0]
    assert f"a win comes before a {claim}: 小南's {claim} no longer counts" in said.en, said.en
    assert f"胡比{zh}優先：小南的{zh}不算了" in said.zh, said.zh
    assert "no longer counts" not in game.frame().recent[1].en  # (the claim's own line says nothing of it)


def test_a_win_correction_spaces_its_tile_names_in_chinese(tmp_path: Path) -> None:
    """「改正第 2 把阿東攤開的牌：一萬一萬一萬四萬五萬…」 ran the tile names together, where every other message spaces them."""
    shown = tiles_typed("111m456m789m234p678s7z")
    said = describe(ev.WinCorrected(hand=2, seat=0, concealed=shown, tile=None), TableState(players=PLAYERS))
    assert "一萬 一萬 一萬 四萬 五萬" in said.zh and "一萬一萬" not in said.zh, said.zh


def test_a_face_down_tile_typed_in_the_win_form_is_said_in_words_not_as_0x(tmp_path: Path) -> None:
    """Typing 0x said 「不能是 0x」 / "not 0x": the code of the notation, which players see nowhere else."""
    game = _dealt(tmp_path)
    assert game.discard("5m") is None
    ok, said = game.preview_win(1, ev.WinKind.DISCARD, "0x")
    assert not ok
    assert "0x" not in said.zh and "0x" not in said.en, said
    assert "牌背" in said.zh and "face-down tile" in said.en, said


@pytest.mark.parametrize("tiles", [("3m", "4m", "zz"), ("3m", "4m", "0x"), ("3m", "4m", "1f")])
def test_a_chow_with_a_bad_code_is_refused_naming_it(tmp_path: Path, tiles: tuple[str, ...]) -> None:
    """A code not read raised NotationError out of LiveGame.claim; a face-down tile or a flower said "there is no
    tile to claim now" while the 5 Characters was on offer."""
    game = _dealt(tmp_path)
    assert game.discard("5m") is None
    said = game.claim(1, MeldKind.CHOW, tiles)
    # a flower or a face-down tile is understood, and said to be no part of a chow (it said "… not understood: Spring")
    expected = {"zz": ui("live_chow_bad_tile", tile="zz", tile_en="zz"), "0x": ui("live_chow_face_down"),
                "1f": ui("live_chow_flower", tile="春", tile_en="Spring")}[tiles[-1]]
    assert said == expected, said
    assert tiles[-1] == "zz" or "not understood" not in said.en and "看不懂" not in said.zh, said
    assert game.claim(1, MeldKind.CHOW, ("3m", "4m", "5m")) is None  # (the good one is taken)


def test_an_entry_with_a_field_of_the_wrong_type_is_refused_in_words_not_pythons(tmp_path: Path) -> None:
    """refusal said 「無法記錄：'NoneType' object is not iterable」, Python's message."""
    game = _dealt(tmp_path)
    assert game.discard("5m") is None
    said = refusal(game.state, ev.Chowed(seat=1, tiles=None, tile=Tile.from_code("5m")))  # type: ignore[arg-type]
    assert said == ui("live_entry_unreadable", what="吃", what_en="a chow"), said
    assert said.en == "this entry (a chow) cannot be recorded: one of its fields is not understood", said
    assert "NoneType" not in said.zh + said.en and "Chowed" not in said.en


def test_no_win_on_the_replacement_of_a_kong_claimed_from_a_discard_is_said_with_its_rule(tmp_path: Path) -> None:
    """Under discard_kong_replacement_win = forbidden the seat drawing the replacement had no win button, nothing said
    why, and the win form said "That seat cannot win that way now" (spec §2.10)."""
    game = _dealt(tmp_path)
    assert game.discard("9p") is None
    assert game.claim(2, MeldKind.KONG) is None
    assert game.no_rob() is None  # nobody wins on the 9 Dots: 老西 draws the kong's replacement
    offer = game.offer()
    assert offer.discard_seat == 2 and not any(w.seat == 2 for w in offer.wins)
    rule = ("老西 claimed this kong from a discard: under these rules there is no win on its replacement, and a "
            "declared one is a false win")
    assert offer.prompt.en.endswith(". " + rule) and "明槓" in offer.prompt.zh and "詐胡" in offer.prompt.zh, offer.prompt
    ok, said = game.preview_win(2, ev.WinKind.SELF_DRAW, "123p456p789m11z22z", "1z")
    assert not ok and said.en == "Not yet a win to record: " + rule, said
    refused = game.win(2, ev.WinKind.SELF_DRAW, "123p456p789m11z22z", "1z")
    assert refused is not None and refused.en == rule and "不能胡" in refused.zh, refused


def test_a_seat_with_a_wrong_tile_count_is_told_why_it_cannot_win(tmp_path: Path) -> None:
    """A 相公 seat had no win button and its win form said only "cannot win that way now"."""
    game = _dealt(tmp_path)
    assert game.wrong_count(1, True) is None
    assert game.discard("9p") is None
    ok, said = game.preview_win(1, ev.WinKind.DISCARD, "123m456m789m234s12p55s")
    assert not ok and said.en == "Not yet a win to record: 小南 has a wrong tile count and may not win this hand", said
    assert said.zh == "還不能記：小南相公，本局不能胡", said
    assert game.draw() is None  # 小南's own turn: the prompt says why no win is offered
    prompt = game.offer().prompt
    assert prompt.en.endswith(". 小南 has a wrong tile count and may not win this hand"), prompt
    assert prompt.zh.endswith("。小南相公，本局不能胡"), prompt


def test_a_win_not_offered_for_no_rule_says_so_in_lower_case_mid_sentence(tmp_path: Path) -> None:
    """"Not yet a win to record: That seat cannot win that way now" had a capital mid-sentence."""
    game = _dealt(tmp_path)
    ok, said = game.preview_win(2, ev.WinKind.SELF_DRAW, "123p456p789m11z22z", "1z")
    assert not ok and said.en == "Not yet a win to record: that seat cannot win that way now", said


def _seven_flowers_and_the_eighth_drawn(tmp_path: Path) -> LiveGame:
    """小南 lays seven flowers; 老西 draws the eighth: 小南 may rob it (七搶一)."""
    game = _dealt(tmp_path)
    for f in ("1f", "2f", "3f", "4f", "5f", "6f", "7f"):
        assert game.flower(1, f) is None
    assert game.discard("1s") is None and game.discard("2s") is None
    assert game.draw() is None and game.flower(2, "8f") is None
    return game


@pytest.mark.parametrize("typed", ["", "1357m1357p1357s1234z"])
def test_seven_rob_one_is_paid_flat_with_no_hand_asked_and_none_kept(tmp_path: Path, typed: str) -> None:
    """七搶一 asked 16 concealed tiles that meant nothing: none refused ("should hold 16 tiles, got 0"), and any junk
    taken and kept. It is paid flat: no hand is asked, and whatever was typed is not kept; the ledger, the export
    and a replay of the table file take the win."""
    game = _seven_flowers_and_the_eighth_drawn(tmp_path)
    chance = next(c for c in game.offer().wins if c.kind is ev.WinKind.SEVEN_ROB_ONE)
    assert chance.seat == 1 and chance.shown == 0
    assert game.preview_win(1, ev.WinKind.SEVEN_ROB_ONE, typed) == (True, ui("live_preview_yes", tai=8))
    assert game.win(1, ev.WinKind.SEVEN_ROB_ONE, typed) is None
    won = game.events()[-1]
    assert isinstance(won, ev.Won) and won.concealed == ()
    line = ledger_of(game.state).entries[-1].lines[0]
    assert (line.player, line.kind, line.hand_tai) == ("小南", "seven_rob_one", 8)
    out = io.StringIO()
    assert game.service.export_jsonl(out) == len(game.events()) and '"seven_rob_one"' in out.getvalue()
    state = game.state
    game.close()
    again = LiveGame(tmp_path / "t.sqlite")  # the table file replayed
    assert again.state == state and ledger_of(again.state).balances == ledger_of(state).balances
    again.close()


def test_eight_flowers_laid_at_the_deal_by_another_seat_is_paid_flat_with_no_hand(tmp_path: Path) -> None:
    """A flat 八仙過海 (not on the hand the dealer was dealt, nor just after a replacement) asked 16 tiles too."""
    game = _dealt(tmp_path)
    for f in ("1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"):
        assert game.flower(2, f) is None
    chance = next(c for c in game.offer().wins if c.kind is ev.WinKind.EIGHT_FLOWERS)
    assert chance.seat == 2 and chance.shown == 0
    assert game.win(2, ev.WinKind.EIGHT_FLOWERS, "") is None
    line = ledger_of(game.state).entries[-1].lines[0]
    assert (line.player, line.kind, line.hand_tai) == ("老西", "eight_flowers", 8)


def test_the_dealers_eight_flowers_at_the_deal_still_asks_his_hand(tmp_path: Path) -> None:
    """The dealer's 八仙過海 at the deal is scored on the hand he was dealt (天胡 and 8): his tiles are asked."""
    game = _dealt(tmp_path)
    for f in ("1f", "2f", "3f", "4f", "5f", "6f", "7f", "8f"):
        assert game.flower(0, f) is None
    chance = next(c for c in game.offer().wins if c.kind is ev.WinKind.EIGHT_FLOWERS)
    assert chance.seat == 0 and chance.shown == 17


def test_the_win_form_of_seven_rob_one_asks_no_hand_and_records_it(tmp_path: Path) -> None:
    """Drawn without a browser: the form of a win paid flat has no hand field and no tile keys, says why, shows the
    tai at once, and its record button enters the win."""
    from companion.app.view_live import ID_LIVE_CONCEALED, ID_LIVE_WIN_OK, LiveTab
    from tests.app.test_live_tab_moves import _Phone
    from tests.app.test_photo_picks import _tapped
    from tests.app.test_tabs_beside_a_live_table import _idents, _texts

    game = _seven_flowers_and_the_eighth_drawn(tmp_path)
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    tab.build()
    _tapped(tab.build(), "live-win-1-seven_rob_one")
    page = tab.build()
    names = {c.identifier: c for c in _idents(page)}
    assert ID_LIVE_CONCEALED not in names and "live-win-preview" in names
    texts = _texts(page)
    assert ui("live_win_flat").en in texts and ui("live_preview_yes", tai=8).en in texts
    _tapped(page, ID_LIVE_WIN_OK)
    assert tab.error is None and game.state.outcome is not None
    won = game.events()[-1]
    assert isinstance(won, ev.Won) and won.kind is ev.WinKind.SEVEN_ROB_ONE and won.concealed == ()
    game.close()


def test_every_table_event_has_an_english_name_for_a_sentence() -> None:
    """A review read "this entry (Chowed) cannot be recorded": the event's Python name, where the Chinese said 吃."""
    from companion.game.text import EVENT_EN, EVENT_ZH

    assert EVENT_EN.keys() == EVENT_ZH.keys()
    assert all(name[:1].islower() and name.isascii() for name in EVENT_EN.values()), EVENT_EN


@pytest.mark.parametrize("tiles", [(None, "4m", "5m"), ("", "4m", "5m")])
def test_a_chow_given_no_tile_says_nothing_was_given_not_pythons_none(tmp_path: Path,
                                                                      tiles: tuple[str | None, ...]) -> None:
    """「看不懂吃的牌：None」 / "…not understood: None": Python's repr of what was given."""
    game = _dealt(tmp_path)
    assert game.discard("5m") is None
    said = game.claim(1, MeldKind.CHOW, tiles)  # type: ignore[arg-type]
    assert said == ui("live_chow_bad_tile", tile="沒有", tile_en="nothing"), said
    assert said.zh == "看不懂吃的牌：沒有" and "None" not in said.en, said


def test_a_chow_of_the_wrong_count_names_its_tiles_in_words_and_the_one_on_offer(tmp_path: Path) -> None:
    """"a chow is the 5 Characters on offer …, got: 3m 4m" and 「收到：3m 4m」: the tiles by their codes in both
    languages. "a chow is 5 Characters on offer" then read like five tiles: it takes *the* 5 Characters, the one
    offered."""
    game = _dealt(tmp_path)
    assert game.discard("5m") is None
    said = game.claim(1, MeldKind.CHOW, ("3m", "4m"))
    assert said == ui("live_chow_tiles", tile="五萬", tile_en="5 Characters", got="三萬、四萬",
                      got_en="3 Characters and 4 Characters"), said
    assert said.en.startswith("a chow takes the 5 Characters on offer and two tiles from the hand"), said
    assert "the the" not in said.en and "3m" not in said.zh + said.en, said
    assert game.claim(1, MeldKind.CHOW, ()) == ui("live_chow_tiles", tile="五萬", tile_en="5 Characters", got="沒有",
                                                  got_en="nothing")
    assert game.claim(1, MeldKind.CHOW, ("3m", "4m", "5m")) is None  # (the good one is taken)


def test_seven_rob_one_with_a_kong_typed_reads_no_kong_as_it_reads_no_hand(tmp_path: Path) -> None:
    """A 七搶一 (paid flat, no hand asked) with a kong typed was refused "Not yet a win to record: Name the kind of
    each concealed kong (0, got 1)": a capital mid-sentence, and a field the flat win does not read."""
    game = _seven_flowers_and_the_eighth_drawn(tmp_path)
    chance = next(c for c in game.offer().wins if c.kind is ev.WinKind.SEVEN_ROB_ONE)
    assert chance.flat and chance.hidden_kongs == 0
    assert game.preview_win(1, ev.WinKind.SEVEN_ROB_ONE, "", "", "5p") == (True, ui("live_preview_yes", tai=8))
    assert game.win(1, ev.WinKind.SEVEN_ROB_ONE, "", "", "5p") is None
    won = game.events()[-1]
    assert isinstance(won, ev.Won) and won.concealed == () and won.kongs == ()


def test_a_reason_said_after_not_yet_a_win_to_record_goes_on_in_lower_case(tmp_path: Path) -> None:
    """"Not yet a win to record: Type the hand's 16 tiles first": the form's own reason kept its capital."""
    game = _dealt(tmp_path)
    assert not next(c for c in game.offer().wins if c.kind is ev.WinKind.SELF_DRAW).flat
    ok, said = game.preview_win(0, ev.WinKind.SELF_DRAW, "1m2m")
    assert not ok and said.en == "Not yet a win to record: type the hand's 16 tiles first (2 so far), then the tile " \
                                 "drawn", said


def test_the_win_form_of_seven_rob_one_shows_no_kongs_field_for_a_kong_typed(tmp_path: Path) -> None:
    """A kong typed into a flat win's form (a draft from another phone) showed its kongs field, which the win does
    not read (none lies face down): the form shows none, and records the win."""
    from companion.app.view_live import ID_LIVE_WIN_OK, LiveTab
    from tests.app.test_live_tab_moves import _Phone
    from tests.app.test_photo_picks import _tapped
    from tests.app.test_tabs_beside_a_live_table import _idents

    game = _seven_flowers_and_the_eighth_drawn(tmp_path)
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    tab.build()
    _tapped(tab.build(), "live-win-1-seven_rob_one")
    tab.kongs.value = "5p"
    page = tab.build()
    assert "live-kongs" not in {c.identifier for c in _idents(page)}
    _tapped(page, ID_LIVE_WIN_OK)
    won = game.events()[-1]
    assert tab.error is None and isinstance(won, ev.Won) and won.kongs == (), tab.error
    game.close()
