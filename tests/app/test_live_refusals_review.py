"""A Live-tab review of the game's refusals and the win form's words: a Latin name run into the Chinese
(「C不是A的下家」 beside the tab's own 「B 打了」), "Bob, robbed kong: enter the tiles shown", a chow entered twice
refused as "A's chow outranks chow", the discarder's own win said vaguely, and a seat of None said as Python's."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.live_model import LiveGame
from companion.app.view_live import LiveTab
from companion.game import events as ev
from companion.game.text import msg
from companion.hand import MeldKind
from companion.names import in_chinese
from tests.app.test_live_tab_moves import _form_on_9m, _Phone
from tests.app.test_tabs_beside_a_live_table import _texts


def _table(tmp_path: Path, names: tuple[str, str, str, str] = ("A", "B", "C", "D")) -> LiveGame:
    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(names, "atawmj_2009", 30, 10, house={"first_dealer": "east_deals"}) is None
    assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
    return game


@pytest.mark.parametrize(("names", "not_next", "frozen"), [
    (("A", "B", "C", "D"), "只有下家能吃：C 不是 A 的下家", "B 已報聽，不能吃"),
    (("小美", "阿明", "小華", "阿珠"), "只有下家能吃：小華不是小美的下家", "阿明已報聽，不能吃"),
])
def test_a_refusal_spaces_a_latin_name_from_the_chinese_as_the_tab_does(
        tmp_path: Path, names: tuple[str, str, str, str], not_next: str, frozen: str) -> None:
    game = _table(tmp_path, names)
    assert game.discard("9m") is None
    said = game.claim(2, MeldKind.CHOW, ["7m", "8m", "9m"])
    assert said is not None and said.zh == not_next
    for tile, ready in (("1m", True), ("2m", False), ("3m", False), ("4m", False)):  # B ready, round to A's 4m
        assert game.discard(tile, ready=ready) is None
    said = game.claim(1, MeldKind.CHOW, ["2m", "3m", "4m"])
    assert said is not None and said.zh == frozen
    game.close()


def test_a_name_is_spaced_only_where_latin_meets_chinese() -> None:
    assert msg("fix_size", seat="B", hand=1, want=16, got=15).zh.startswith("B 第 1 把攤開")
    assert msg("fix_size", seat="小美", hand=1, want=16, got=15).zh.startswith("小美第 1 把攤開")
    assert msg("not_turn", seat="Bob", turn="小美").zh == "還沒輪到 Bob：現在輪到小美"
    assert in_chinese("Bob", "輪到", "（") == " Bob" and in_chinese("小B", "", "已") == "小B "
    assert in_chinese("B小", "到", "已") == " B小" and in_chinese("José", "「", "」") == "José"
    assert in_chinese("José", "是", "的") == " José "
    assert msg("ev_bad_private", seat=2, detail="x").zh.startswith("2號位")  # a number filled as it was


def test_the_win_form_says_who_wins_and_on_what_in_plain_english(tmp_path: Path) -> None:
    game, tab, _ = _form_on_9m(tmp_path)
    shown = _texts(tab.build())
    assert "C wins on a discard: enter the tiles shown" in shown and "Winning tile: 9 Characters" in shown, shown
    assert not any(s.startswith("C, ") for s in shown)
    game.close()


def test_a_chow_entered_again_is_said_entered_and_three_alike_are_no_chow(tmp_path: Path) -> None:
    game = _table(tmp_path)
    assert game.discard("8p") is None
    assert game.claim(1, MeldKind.CHOW, ["6p", "7p", "8p"]) is None
    again = game.claim(1, MeldKind.CHOW, ["6p", "7p", "8p"])
    assert again is not None and again.en == "B's chow of 8 Dots is already entered: to change it, undo it first"
    assert again.zh == "B 已經吃了八筒：要改，請先撤回" and "outranks" not in again.en
    other = game.claim(1, MeldKind.CHOW, ["7p", "8p", "9p"])  # another chow in its place: the same way out
    assert other is not None and other.en == again.en
    alike = game.claim(1, MeldKind.CHOW, ["8p", "8p", "8p"])
    assert alike is not None and alike.en == "8 Dots, 8 Dots and 8 Dots are not a chow", alike
    assert alike.zh == "八筒、八筒、八筒不是順子"
    assert game.claim(2, MeldKind.PUNG) is None  # a pung of another seat still outranks the chow
    game.close()


def test_the_discarder_claiming_a_win_on_his_own_discard_is_told_why(tmp_path: Path) -> None:
    game = _table(tmp_path)
    assert game.discard("9m") is None
    pung = game.claim(0, MeldKind.PUNG)
    win = game.win(0, ev.WinKind.DISCARD, "123p456p789p123s456s9m")
    assert pung is not None and win is not None
    assert pung.en == "no player can claim their own discard" and pung.zh == "不能搶自己打的牌"
    assert win.en == "no player can win on their own discard" and win.zh == "不能胡自己打的牌"  # (a win, said so)
    game.close()


def test_a_flower_with_no_seat_says_no_seat_not_none(tmp_path: Path) -> None:
    game = _table(tmp_path)
    said = game.flower(None, "3f")  # type: ignore[arg-type]  # (a seat missing, as a JSON null brings it)
    assert said is not None and said.en == "a seat is 0-3, no seat given" and "None" not in said.zh
    assert said.zh == "座位必須是 0-3，沒有指定座位"
    said = game.flower("1", "3f")  # type: ignore[arg-type]
    assert said is not None and said.en == 'a seat is 0-3, got "1"'
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    assert tab.build() is not None
    game.close()
