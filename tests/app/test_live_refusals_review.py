"""A Live-tab review of the game's refusals and the win form's words: a Latin name run into the Chinese
(「C不是A的下家」 beside the tab's own 「B 打了」), "Bob, robbed kong: enter the tiles shown", a chow entered twice
refused as "A's chow outranks chow", the discarder's own win said vaguely, and a seat of None said as Python's."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.live_model import LiveGame
from companion.game.text import msg
from companion.hand import MeldKind
from companion.names import in_chinese


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
