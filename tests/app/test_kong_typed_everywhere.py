"""A kong typed as four of the hand's own tiles: the Score tab said how a kong is typed (kong:7777z, ckong:7777z),
My hand only that 18 tiles are neither 16 nor 17, and the Live win form only how many too many (a change review).
One helper (:func:`companion.app.hand_model.kong_fours`) finds them for all three."""

from __future__ import annotations

from pathlib import Path

from companion.app.hand_model import HandFailed, HandPanel, analyse
from companion.app.live_model import LiveGame
from companion.app.live_offer import WinChance
from companion.app.photo_model import PhotoContext, PhotoFailed, score_typed_hand
from companion.app.view_live import LiveTab
from companion.app.words import Words, ui
from companion.game import events as ev
from tests.app.test_tabs_beside_a_live_table import _Host, _texts

KONG = ui("typed_count_kong", tiles="7777z", one="7777z")


def test_my_hand_says_how_a_kong_is_typed_as_the_score_tab_does() -> None:
    got = analyse("123m456m789m123p55s7777z")  # 18: a drawn tile's 17 with the kong typed as four
    assert isinstance(got, HandFailed) and got.reason.en.endswith(KONG.en) and got.reason.zh.endswith(KONG.zh)
    assert "ckong:7777z" in got.reason.en and "ckong:7777z" in got.reason.zh
    between = analyse("123m456m789m12p55s7777z")  # 17 typed: 16 between turns and the kong as four, a legal 17 too
    assert isinstance(between, HandPanel)
    assert isinstance(analyse("123m456m789m123p55s ckong:7777z"), HandPanel)  # as it says: read
    score = score_typed_hand("123m456m789m123p55s7777z", PhotoContext().as_context())
    assert isinstance(score, PhotoFailed) and score.reason.en.endswith(KONG.en)  # the same words on the Score tab


def test_a_count_off_for_another_reason_blames_no_kong_on_my_hand() -> None:
    got = analyse("123m456m789m123p155s7777z")  # 19: a tile too many besides the four
    assert isinstance(got, HandFailed) and "kong:" not in got.reason.en and "kong:" not in got.reason.zh


def test_the_live_win_form_says_a_kong_on_the_table_is_not_typed_in_the_hand(tmp_path: Path) -> None:
    tab = LiveTab(_Host(), LiveGame(tmp_path / "table.sqlite"))
    # a concealed kong made at the table: the hand shows 13 tiles besides it and the tile won on
    chance = WinChance(seat=1, kind=ev.WinKind.DISCARD, tile="3p", shown=13, hidden_kongs=1, label=Words("胡", "Win"))
    tab.concealed.value = "123m456m789m12p55s7777z"  # its four typed among the hand's: 17 of 13
    field = ui("live_win_kongs")
    said = ui("live_typed_kong", tiles="7777z", field=field.zh, field_en=field.en)
    shown = _texts(tab._typed(chance))
    assert said.en in shown and "17 of 13 tiles, 4 too many:" in shown
    tab.concealed.value = "123m456m789m12p55s1z"  # one too many, no four: no kong blamed
    assert said.en not in _texts(tab._typed(chance)) and not any("kong" in x for x in _texts(tab._typed(chance)))
    drawn = WinChance(seat=1, kind=ev.WinKind.SELF_DRAW, tile=None, shown=13, hidden_kongs=1, label=Words("胡", "Win"))
    tab.concealed.value = "123m456m789m12p55s3p7777z"  # a self-draw, its tile drawn typed last: 18 of 13
    assert said.en in _texts(tab._typed(drawn))
