"""``companion tai --explain`` says the hand's sets and how it was won in words: the Chinese table read
「拆法：chow:123m  chow:456m … pair:77z」 and 「手牌：… win=7z@R」 (a teacher's review); the spec names the sets
順子, 刻子, 槓子 and the pair 眼 (§1.2)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from companion.cli import main

DISCARD = {"concealed": "123m456m789m456p7z", "melds": ["pung:222s@O"], "win_tile": "7z", "win_type": "discard",
           "seat_wind": "S", "round_wind": "E", "discarder": "W"}
KONGS = {"concealed": "456s9p", "melds": ["kong:2222m@O", "addkong:5555p", "ckong:9999m", "pung:777m@R"],
         "win_tile": "9p", "win_type": "self_draw", "seat_wind": "S", "round_wind": "E"}
ROBBED = {"concealed": "123m456m789m456p7z", "melds": ["chow:123s@L"], "win_tile": "7z", "win_type": "discard",
          "seat_wind": "S", "round_wind": "E", "discarder": "N"}
NOTATION = re.compile(r"\b(chow|pung|kong|addkong|ckong|pair):")


def _explain(capsys: pytest.CaptureFixture[str], tmp_path: Path, win: dict[str, object], lang: str) -> dict[str, str]:
    path = tmp_path / "win.json"
    path.write_text(json.dumps(win), encoding="utf-8")
    assert main(["tai", "--explain", "--lang", lang, str(path)]) == 0
    out = capsys.readouterr().out
    return {line.split("：" if lang == "zh" else ": ", 1)[0]: line for line in out.splitlines()}


def test_the_chinese_explain_names_the_sets_and_the_win_in_chinese(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    lines = _explain(capsys, tmp_path, DISCARD, "zh")
    assert lines["拆法"] == "拆法：順子 123m、順子 456m、順子 789m、順子 456p、眼 77z、刻子 222s（碰對家的牌）"
    assert lines["胡牌"] == "胡牌：紅中，西家打出（win=7z@R）"
    assert lines["手牌"] == "手牌：123456789m456p7z；吃碰槓：刻子 222s（碰對家的牌）"
    lines = _explain(capsys, tmp_path, KONGS, "zh")
    assert lines["拆法"] == ("拆法：順子 456s、眼 99p、槓子 2222m（明槓，槓對家的牌）、槓子 5555p（加槓）、槓子 9999m（暗槓）、"
                           "刻子 777m（碰下家的牌）")
    assert lines["胡牌"] == "胡牌：九筒，自摸（win=9p@self）"
    assert not any(NOTATION.search(line) for line in lines.values()), lines


def test_the_english_explain_reads_likewise(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = _explain(capsys, tmp_path, DISCARD, "en")
    assert lines["Split"] == "Split: chow 123m, chow 456m, chow 789m, chow 456p, pair 77z, pung 222s (called from the " \
        "player opposite)"
    assert lines["Won on"] == "Won on: Red dragon, discarded by West (win=7z@R)"
    lines = _explain(capsys, tmp_path, KONGS, "en")
    assert "kong 9999m (concealed kong)" in lines["Split"] and "kong 5555p (added kong)" in lines["Split"]
    assert lines["Won on"] == "Won on: 9 Dots, self-drawn (win=9p@self)"
    assert not any(NOTATION.search(line) for line in lines.values()), lines


def test_a_robbed_kong_and_an_instant_win_say_how_they_were_won(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    robbed = {**ROBBED, "concealed": "123m456m789m46p55z", "win_tile": "5p", "win_type": "rob_kong"}
    assert _explain(capsys, tmp_path, robbed, "zh")["胡牌"] == "胡牌：五筒，搶北家的加槓（win=5p@O）"
    assert _explain(capsys, tmp_path, robbed, "en")["Won on"] == "Won on: 5 Dots, robbing North's added kong (win=5p@O)"
    eight = {"concealed": "123p456m789p888s55p67s", "flowers": "12345678f", "win_type": "eight_flowers",
             "seat_wind": "S", "round_wind": "E"}
    assert _explain(capsys, tmp_path, eight, "zh")["胡牌"] == "胡牌：八仙過海，直接胡，不看牌型"
    assert _explain(capsys, tmp_path, eight, "en")["Won by"] == "Won by: Eight flowers, an instant win (no winning " \
        "shape needed)"
