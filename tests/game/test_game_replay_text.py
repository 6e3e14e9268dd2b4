"""The words of `companion replay`'s text: each winner by what he did, and the next deal after each hand."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.cli import main
from companion.game import events as ev

# a log in the notation: West pungs the dealer's 5m, draws the fourth and adds it; North robs it (搶槓)
_ROBBED_KONG = [
    {"v": 3, "type": "Seated", "players": ["East0", "South1", "West2", "North3"],
     "switches": {"first_dealer": "two_throws"}, "base": 30, "per_tai": 10, "profile": "atawmj_2009"},
    {"v": 3, "type": "DealerChosen", "dealer": 0, "dice": [1, 1, 3], "second_dice": [1, 1, 3]},
    {"v": 3, "type": "DiceRolled", "dice": [1, 2, 2]},
    {"v": 3, "type": "Dealt", "hands": ["5m1m1m2m2m3m3m7m7m8m8m9m9m4s4s5s5s", "4m6m1z1z1z2z2z2z3z3z3z4z4z4z7z7z",
                                        "5m5m5z5z5z6z6z6z1s1s1s3s3s3s7z8s", "1p2p3p4p5p6p7p8p9p1s2s3s4m6m9s9s"]},
    {"v": 3, "type": "Discarded", "seat": 0, "tile": "5m"},
    {"v": 3, "type": "Punged", "seat": 2, "tile": "5m"},
    {"v": 3, "type": "Discarded", "seat": 2, "tile": "8s"},
    {"v": 3, "type": "Drew", "seat": 3, "tile": "6p"},
    {"v": 3, "type": "Discarded", "seat": 3, "tile": "6p"},
    {"v": 3, "type": "Drew", "seat": 0, "tile": "6s"},
    {"v": 3, "type": "Discarded", "seat": 0, "tile": "6s"},
    {"v": 3, "type": "Drew", "seat": 1, "tile": "8p"},
    {"v": 3, "type": "Discarded", "seat": 1, "tile": "8p"},
    {"v": 3, "type": "Drew", "seat": 2, "tile": "5m"},
    {"v": 3, "type": "AddedKong", "seat": 2, "tile": "5m"},
    {"v": 3, "type": "Won", "seat": 3, "kind": "robbed_kong", "tile": "5m",
     "concealed": "1p2p3p4p5p6p7p8p9p1s2s3s4m6m9s9s"},
]


def _write(path: Path, lines: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), "utf-8")
    return path


def test_replay_says_in_english_what_each_winner_did(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A rules review: the English read "win: North3 robbed kong" (whose kong?) and "East0 win on a discard": the
    kind's name after the winner's. It says what he did, as the app does (``WinKind.won_en``)."""
    log = _write(tmp_path / "robbed.jsonl", _ROBBED_KONG)
    assert main(["replay", "--quiet", "--lang", "en", str(log)]) == 0
    text = capsys.readouterr().out
    assert "    win: North3 wins robbing a kong\n" in text
    assert "  #1 North3 wins robbing a kong, 3 tai\n" in text
    assert "robbed kong" not in text
    # every winner alike (seed 7's hands), each language's line whole
    sim = tmp_path / "sim.jsonl"
    assert main(["simulate", "--seed", "7", "--hands", "3", "--out", str(sim)]) == 0
    capsys.readouterr()
    assert main(["replay", "--quiet", "--lang", "both", str(sim)]) == 0
    both = capsys.readouterr().out
    wins = re.findall(r"^  #\d+ \S+ (\S+) \d+ 台.* / \S+ (.+?), \d+ tai", both, re.M)
    done = {k.zh: k.won_en for k in ev.WinKind}
    assert wins and all(en == done[zh] for zh, en in wins)
    assert " win on a discard" not in both and "self-drawn win" not in both


def test_replay_says_who_deals_next_and_when_the_session_is_over(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A rules review: the CSV said "一將打完 / The session is over" and the JSON ``next: {dealer: null}``, the text
    of a whole session (seed 1's first 22 hands) ended on "the hand is over" and never named the next dealer."""
    log = tmp_path / "session.jsonl"
    assert main(["simulate", "--seed", "1", "--hands", "22", "--out", str(log)]) == 0
    assert main(["replay", "--json", str(log)]) == 0
    hands = json.loads(capsys.readouterr().out)["hands"]
    assert len(hands) == 22 and hands[-1]["next"]["dealer"] is None
    assert main(["replay", "--quiet", "--lang", "en", str(log)]) == 0
    text = capsys.readouterr().out
    table, each = text.split("== each hand ==\n", 1)
    assert table.rstrip("\n").endswith("    the hand is over\n    win: Lin wins on a discard\n    The session is over")
    said = re.findall(r"^      (Next hand: (\S+) deals, .*|The session is over)$", each, re.M)
    assert len(said) == 22 and said[-1][0] == "The session is over"
    assert [who for _, who in said[:-1]] == [h["next"]["dealer"] for h in hands[:-1]]
    assert main(["replay", "--quiet", "--lang", "zh", str(log)]) == 0
    zh = capsys.readouterr().out
    assert zh.count("      下一把：") == 21 and "      一將打完\n" in zh and "    一將打完\n" in zh
    # a hand not the last says who deals it, on the table after each event too
    assert main(["replay", "--lang", "en", str(log)]) == 0
    every = capsys.readouterr().out
    assert re.search(r"^    the hand is over\n    win: .+\n    Next hand: \S+ deals, streak \d+, East round$", every,
                     re.M)


def test_a_hand_drawn_after_a_false_win_played_dead_says_it_was_drawn(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A settlement review: under ``false_win_after = continue_dead`` seed 14's first hand has the dealer's false win,
    played dead, and then an exhaustive draw. The hand's line said the false win alone, so the dealer keeping the deal
    (a draw's, spec §2.14) read as a mistake; it says the draw first, then the false win, in each language."""
    log = tmp_path / "dead.jsonl"
    assert main(["simulate", "--seed", "14", "--hands", "1", "--switch", "false_win_after=continue_dead",
                 "--out", str(log)]) == 0
    capsys.readouterr()
    said = {}
    for lang in ("zh", "en"):
        assert main(["replay", "--quiet", "--lang", lang, str(log)]) == 0
        said[lang] = re.findall(r"^  #1 (.*)$", capsys.readouterr().out, re.M)
    assert said["zh"] == ["流局；小美詐胡 8 台 + 莊家 1 台"]
    assert said["en"] == ["exhaustive draw; 小美 makes a false win, 8 tai + 1 dealer tai"]


def test_replay_in_chinese_writes_its_colons_full_width(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A settlement review: `replay --quiet --lang zh` printed 「小美 → 老王: 60」, 「第 1 將: …」 and 「胡牌: 老王 自摸」,
    a half-width colon in Chinese lines. In Chinese each is ：; in English (and both languages at once) ``: ``."""
    log = _write(tmp_path / "robbed.jsonl", _ROBBED_KONG)
    assert main(["replay", "--quiet", "--lang", "zh", str(log)]) == 0
    zh = capsys.readouterr().out
    assert "    胡牌：North3 搶槓\n" in zh, zh
    paid = [x for x in zh.splitlines() if "→" in x]
    assert paid and all(re.fullmatch(r" +\S+ → \S+：\d+", x) for x in paid), paid
    assert re.search(r"^  North3：\+\d+$", zh, re.M) and ": " not in zh.split("== 帳 ==")[1]
    assert main(["replay", "--quiet", "--lang", "en", str(log)]) == 0
    en = capsys.readouterr().out
    assert "    win: North3 wins robbing a kong\n" in en and re.search(r"^  North3: \+\d+$", en, re.M)
    assert "：" not in en
    # a log of two sessions (seed 1's 40 hands: 22 and 18) heads each 「第 k 將：」, and its sums alike
    sim = tmp_path / "sim.jsonl"
    assert main(["simulate", "--seed", "1", "--hands", "40", "--out", str(sim)]) == 0
    capsys.readouterr()
    assert main(["replay", "--quiet", "--lang", "zh", str(sim)]) == 0
    two = capsys.readouterr().out
    assert re.search(r"^ 第 1 將：", two, re.M) and re.search(r"^ 第 2 將：", two, re.M)
    assert ": " not in two.split("== 帳 ==")[1]


def test_replay_in_chinese_names_the_discards_and_spaces_names_as_the_app(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A language review: `replay --lang zh` listed each seat's discards as codes (「打出：5m 6s」) and kept a typed
    space after a Chinese name (「胡牌：小美 搶槓」, 「小美 搶槓 … 台」, 「輪到 老王」). In Chinese the discards are said
    by their names, and a name takes a space only where a Latin letter or digit meets a Chinese character, as the
    app spaces names; English and both languages at once keep the codes."""
    chinese = [{**x, "players": ["老王", "阿明", "Bob", "小美"]} if x["type"] == "Seated" else x for x in _ROBBED_KONG]
    log = _write(tmp_path / "named.jsonl", chinese)
    assert main(["replay", "--lang", "zh", str(log)]) == 0
    zh = capsys.readouterr().out
    assert "打出：八條、五萬" in zh, zh
    assert not re.search(r"打出：.*\d[mpsz]", zh)
    assert "    胡牌：小美搶槓\n" in zh and re.search(r"^  #1 小美搶槓 \d+ 台", zh, re.M)
    assert "輪到老王" in zh and "輪到 Bob" in zh and "輪到 老王" not in zh
    assert main(["replay", "--lang", "en", str(log)]) == 0
    en = capsys.readouterr().out
    assert "discards:8s 5m" in en and "win: 小美 wins robbing a kong" in en
    assert main(["replay", "--lang", "both", str(log)]) == 0
    assert "打出/discards:8s 5m" in capsys.readouterr().out


def test_replay_in_chinese_spaces_a_passed_win_s_names_as_the_app(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The --passed lines in Chinese: a Chinese name beside a tile's name takes no typed space (「小美 二筒」 read
    apart from the app's 「小美二筒」); English keeps its spaces and the code."""
    log = tmp_path / "s7.jsonl"
    assert main(["simulate", "--seed", "7", "--hands", "3", "--out", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", "--quiet", "--passed", "--lang", "zh", str(log)]) == 0
    assert "  #8 小美二筒 ← Lin：報過水\n" in capsys.readouterr().out
    assert main(["replay", "--quiet", "--passed", "--lang", "en", str(log)]) == 0
    assert "  #8 小美 2p ← Lin: declared\n" in capsys.readouterr().out
