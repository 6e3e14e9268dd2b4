"""A player's name is spaced one way in every Chinese line: a space only where a Latin letter or digit meets a Chinese
character (「Bob 打了」, 「小美打了」), as the game's refusals space it (「小美已報聽，不能吃」). A review read
「小美 詐胡：這套規則不罰…」 in the replay beside refusals with no space: the app's words typed a space beside the name."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from string import Formatter

from companion.app.live_model import LiveGame
from companion.app.table_model import describe
from companion.app.words import NAME_FIELDS, UI, ui
from companion.game import events as ev
from companion.game.state import TableState
from companion.game.text import TEMPLATES, msg
from companion.hand import MeldKind
from companion.tiles import Tile

NUMBERS = {("learn_dealer_total", "dealer"), ("photo_total_dealer", "dealer"), ("ledger_dealer", "dealer"),
           ("pays_stakes_capped", "dealer"), ("bad_seat", "seat")}
"""The templates whose {dealer} is a number of tai, not the dealer's name (and a seat typed as a number): spaced as
numbers are."""

PLAYER_NAMED = {"retract_shown", "drew_flower_shown", "retract_undo_shown"}
"""The game's messages whose {name} is a player's (elsewhere it is a file's, a rule set's, an event's)."""


def _chinese(c: str) -> bool:
    return c.isalnum() and unicodedata.east_asian_width(c) in "WF"


def _typed(templates: dict[str, tuple[str, str]], fields: frozenset[str]) -> list[tuple[str, str]]:
    """The templates with a space typed between a name field and a Chinese character."""
    typed = []
    for key, (zh, _) in templates.items():
        parts = list(Formatter().parse(zh))
        for i, (literal, field, _, _) in enumerate(parts):
            if (field not in fields and not (field == "name" and key in PLAYER_NAMED)) or (key, field) in NUMBERS:
                continue
            after = parts[i + 1][0] if i + 1 < len(parts) else ""
            if literal.endswith(" ") and len(literal) > 1 and _chinese(literal[-2]):
                typed.append((key, f"… {{{field}}}"))
            if after.startswith(" ") and len(after) > 1 and _chinese(after[1]):
                typed.append((key, f"{{{field}}} …"))
    return typed


def test_no_chinese_template_types_a_space_beside_a_name() -> None:
    assert not _typed(UI, NAME_FIELDS)  # the space is ui()'s to put, where the name is Latin
    assert not _typed(TEMPLATES, NAME_FIELDS | {"discarder"})  # and msg()'s


def test_a_name_in_the_apps_words_is_spaced_as_in_the_games_refusals() -> None:
    assert ui("live_no_ready", seat="小美").zh == "小美現在不能報聽"
    assert ui("live_no_ready", seat="B").zh == "B 現在不能報聽"
    assert ui("ledger_unpaid", player="小美").zh.startswith("小美詐胡：")
    assert ui("ledger_unpaid", player="Bob").zh.startswith("Bob 詐胡：")
    assert ui("pays", payer="小美", payee="Bob", amount=60).zh == "小美付 Bob 60"
    assert ui("pays", payer="C3", payee="阿東", amount=60).zh == "C3 付阿東 60"
    assert ui("live_win_form", seat="小美", kind="自摸").zh.startswith("小美自摸：")
    assert ui("live_win_form", seat="Bob", kind="自摸").zh.startswith("Bob 自摸：")
    assert ui("learn_dealer_total", dealer=2).zh == "莊家台共 2 台"  # a number, spaced as typed
    assert msg("frozen", seat="小美", what="吃", what_en="chow").zh == "小美已報聽，不能吃"
    assert msg("chow_left", seat="C", discarder="A").zh == "只有下家能吃：C 不是 A 的下家"
    for name in ("小美", "Bob", "C3"):
        assert ui("live_no_ready", seat=name).en == f"{name} cannot declare ready now"  # the English as it was


SAID = {  # who discarded, and the next seat to tap: each name as a Chinese sentence writes it
    "小美": ("小美打了 一萬：", "點小美打出的牌"),
    "Bob": ("Bob 打了 一萬：", "點 Bob 打出的牌"),
    "阿東": ("阿東打了 一萬：", "點阿東打出的牌"),
    "C3": ("C3 打了 一萬：", "點 C3 打出的牌"),
}


def test_a_live_prompt_spaces_a_chinese_and_a_latin_name_each_its_way(tmp_path: Path) -> None:
    game = LiveGame(tmp_path / "table.sqlite")
    players = tuple(SAID)  # Chinese and Latin names alternate: whoever deals, his neighbour's name is the other kind
    assert game.start(players, "atawmj_2009", 30, 10) is None
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None
    assert game.throw((2, 2, 4)) is None
    dealer = game.state.dealer
    assert game.discard("1m") is None
    prompt = game.offer().prompt
    who, nxt = players[dealer], players[(dealer + 1) % 4]
    assert SAID[who][0] in prompt.zh and SAID[nxt][1] in prompt.zh, prompt.zh
    pungs = {c.seat: c.label.zh for c in game.offer().claims if c.kind is MeldKind.PUNG}  # (the buttons 「小美碰」)
    assert pungs and all(said == {"小美": "小美碰", "Bob": "Bob 碰", "阿東": "阿東碰", "C3": "C3 碰"}[players[s]]
                         for s, said in pungs.items()), pungs
    wins = {w.seat: w.label.zh for w in game.offer().wins}  # (「小美胡」, 「Bob 胡」)
    assert wins and all(said.startswith(players[s] + (" " if players[s].isascii() else "") + "胡") for s, said in wins.items()), wins
    assert f"{who} discarded" in prompt.en and f"tap what {nxt} discards" in prompt.en, prompt.en
    game.close()


def test_the_latest_plays_space_a_name_as_the_prompt_does() -> None:
    """The Live tab's latest plays (and the replay's caption, the undo button) read 「小美 打一萬」 under the prompt
    「小美打了 一萬」, and 「北北 胡五萬（阿東 放槍）（胡比吃優先：小南的吃不算了）」 in one line."""
    before = TableState(players=tuple(SAID))
    assert describe(ev.Discarded(seat=0, tile=Tile.M1), before).zh == "小美打一萬"
    assert describe(ev.Discarded(seat=1, tile=Tile.M1), before).zh == "Bob 打一萬"
    assert describe(ev.FalseWin(seat=2), before).zh == "阿東詐胡"
    assert describe(ev.FalseWin(seat=3), before).zh == "C3 詐胡"
    assert describe(ev.Discarded(seat=1, tile=Tile.M1), before).en == "Bob discards 1 Character"


def test_the_nearer_winner_is_a_name_spaced_as_the_others() -> None:
    """A change review: {nearer} held a name but was no name field, so 「（小美 比他近：他不算胡）」 kept its space."""
    assert ui("another_win_farther", nearer="小美").zh == "（小美比他近：他不算胡）"
    assert ui("another_win_farther", nearer="Bob").zh == "（Bob 比他近：他不算胡）"
