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
    assert lines["拆法"] == ("拆法：順子 456s、眼 99p、槓子 2222m（明槓，槓對家打出的牌）、槓子 5555p（加槓）、槓子 9999m（暗槓）、"
                           "刻子 777m（碰下家的牌）")
    assert lines["胡牌"] == "胡牌：九筒，自摸（win=9p@self）"
    assert not any(NOTATION.search(line) for line in lines.values()), lines


def test_the_english_explain_reads_likewise(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    lines = _explain(capsys, tmp_path, DISCARD, "en")
    assert lines["Split"] == "Split: chow 123m, chow 456m, chow 789m, chow 456p, pair 77z, pung 222s (called from the " \
        "player opposite)"
    assert lines["Won on"] == "Won on: the Red dragon, discarded by West (win=7z@R)"
    lines = _explain(capsys, tmp_path, KONGS, "en")
    assert "kong 9999m (concealed kong)" in lines["Split"] and "kong 5555p (added kong)" in lines["Split"]
    assert lines["Won on"] == "Won on: 9p, self-drawn (win=9p@self)"
    assert not any(NOTATION.search(line) for line in lines.values()), lines


def test_a_robbed_kong_and_an_instant_win_say_how_they_were_won(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    robbed = {**ROBBED, "concealed": "123m456m789m46p55z", "win_tile": "5p", "win_type": "rob_kong"}
    assert _explain(capsys, tmp_path, robbed, "zh")["胡牌"] == "胡牌：五筒，搶北家的加槓（win=5p@O）"
    assert _explain(capsys, tmp_path, robbed, "en")["Won on"] == "Won on: 5p, robbing North's added kong (win=5p@O)"
    eight = {"concealed": "123p456m789p888s55p67s", "flowers": "12345678f", "win_type": "eight_flowers",
             "seat_wind": "S", "round_wind": "E"}
    assert _explain(capsys, tmp_path, eight, "zh")["胡牌"] == "胡牌：八仙過海，直接胡，不看牌型"
    assert _explain(capsys, tmp_path, eight, "en")["Won by"] == "Won by: Eight flowers, an instant win (no winning " \
        "shape needed)"


def test_an_eight_flowers_win_whose_replacement_completes_the_hand_says_so(capsys: pytest.CaptureFixture[str],
                                                                          tmp_path: Path) -> None:
    """Given 17 tiles and no winning tile, it read 「胡牌：二萬，自摸（win=2m@self）」: neither the eight flowers nor that
    the program chose the tile (the JSON's ``win_tile_chosen``) was said (a teacher's review)."""
    seventeen = {"concealed": "123p456m789p888s55p567s", "flowers": "12345678f", "win_type": "eight_flowers",
                 "seat_wind": "S", "round_wind": "E"}
    assert _explain(capsys, tmp_path, seventeen, "zh")["胡牌"] == \
        "胡牌：八仙過海，第八張花補進的牌也剛好胡；沒寫是哪一張，程式選了台數最高的五萬（5m）"
    assert _explain(capsys, tmp_path, seventeen, "en")["Won by"] == "Won by: Eight flowers, the eighth flower's " \
        "replacement also completing the hand; which tile it was is not given, so the program chose 5m, the one " \
        "that scores most"
    given = {**seventeen, "concealed": "123p456m789p888s55p67s", "win_tile": "5s"}
    assert _explain(capsys, tmp_path, given, "zh")["胡牌"] == "胡牌：八仙過海，第八張花補進的五條（5s）也剛好胡"
    assert _explain(capsys, tmp_path, given, "en")["Won by"] == "Won by: Eight flowers, the eighth flower's " \
        "replacement, 5s, also completing the hand"


def test_the_waits_and_the_winning_shape_name_their_tiles_in_words(capsys: pytest.CaptureFixture[str],
                                                                  tmp_path: Path) -> None:
    """Right under the Won line in words the Chinese read 「聽：3p 6p」 and 「胡 6p 的牌型：兩面」 (a teacher's review):
    the tiles said as the Won line says them, the code in brackets; the hand and the split keep the notation."""
    two_sided = {"concealed": "123m456m123p45p55z", "melds": ["chow:789s@L"], "win_tile": "6p",
                 "win_type": "discard", "seat_wind": "S", "round_wind": "E", "discarder": "E"}
    lines = _explain(capsys, tmp_path, two_sided, "zh")
    assert lines["聽"] == "聽：三筒（3p）、六筒（6p）"
    assert lines["胡六筒（6p）的牌型"] == "胡六筒（6p）的牌型：兩面"
    assert lines["手牌"] == "手牌：123456m12345p55z；吃碰槓：順子 789s（吃上家的牌）"
    lines = _explain(capsys, tmp_path, two_sided, "en")
    assert lines["Waits"] == "Waits: 3p, 6p"
    assert lines["Won on 6p"] == "Won on 6p: two-sided wait"
    lines = _explain(capsys, tmp_path, DISCARD, "en")
    assert lines["Waits"] == "Waits: the Red dragon (7z)"


def test_a_kong_from_a_discard_and_a_chow_read_as_english(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An exposed kong read "kong 2222m (exposed, called from the player opposite)", and a chow with no source, as a
    photo gives it, "chow 789s (called)", though only the left player's discard makes a chow (a teacher's review)."""
    lines = _explain(capsys, tmp_path, KONGS, "en")
    assert "exposed kong 2222m (from the opposite player's discard)" in lines["Split"]
    unsourced = {"concealed": "123m456m123p45p55z", "melds": ["chow:789s"], "win_tile": "6p", "win_type": "discard",
                 "seat_wind": "S", "round_wind": "E", "discarder": "E"}
    assert _explain(capsys, tmp_path, unsourced, "en")["Hand"].endswith("melds: chow 789s (called from the left)")
    assert _explain(capsys, tmp_path, unsourced, "zh")["手牌"].endswith("吃碰槓：順子 789s（吃上家的牌）")


def test_a_list_of_melds_says_each_source_in_one_bracketed_form(capsys: pytest.CaptureFixture[str],
                                                                tmp_path: Path) -> None:
    """The English melds read "exposed kong 2222z, from the discard of the player opposite, chow 789s (called from the
    left), …, pung 777z (called from the player on the right)": a comma inside the comma-separated list, and three
    forms (a final review). Each source is now bracketed the one way."""
    win = {"concealed": "2345m", "melds": ["kong:2222z@O", "chow:789s@L", "pung:111s@O", "pung:777z@R"],
           "win_tile": "2m", "win_type": "self_draw", "seat_wind": "S", "round_wind": "E"}
    assert _explain(capsys, tmp_path, win, "en")["Hand"] == (
        "Hand: 2345m; melds: exposed kong 2222z (from the opposite player's discard), chow 789s (called from the "
        "left), pung 111s (called from the player opposite), pung 777z (called from the right)")
    assert _explain(capsys, tmp_path, win, "zh")["手牌"] == (
        "手牌：2345m；吃碰槓：槓子 2222z（明槓，槓對家打出的牌）、順子 789s（吃上家的牌）、刻子 111s（碰對家的牌）、"
        "刻子 777z（碰下家的牌）")


def test_rule_dependent_explanations_say_the_values_of_the_rule_set_in_use(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A house-rules review: 見風見台 always said "(the Zhaishenye platform)" and 自摸聽牌 always "add 1", in house
    sets of other values too, and a zhaishenye eight-flowers line's hint said "the 8 tai of eight flowers are
    added" where that set adds 16. Each says the value of the rule set in use."""
    from companion.rules.profiles import load_profile
    from companion.rules.tai import REGISTRY

    house = tmp_path / "winds2.toml"
    house.write_text('id = "winds2"\ninherits = "star31"\n[tai]\nready_on_self_draw = 2\nseat_wind = 2\n'
                     '[switches]\nany_wind_pung_tai = 2\n', encoding="utf-8")
    mine = load_profile(house)
    assert REGISTRY["any_wind_pung"].explain("en", mine) == "Every wind pung scores 2 tai, whatever the seat or round."
    assert "兩台" in REGISTRY["any_wind_pung"].explain("zh", mine)
    assert REGISTRY["ready_on_self_draw"].explain("en", mine).startswith("Adds 2 for being ready on every self-drawn")
    assert REGISTRY["ready_on_self_draw"].explain("zh", mine).startswith("每次自摸另加聽牌兩台")
    assert "共三台" in REGISTRY["round_wind"].explain("zh", mine)
    default = load_profile(None)  # (the Learn card's, which counts neither: whose rule it is)
    assert "Zhaishenye" in REGISTRY["any_wind_pung"].explain("en", default)
    eight = {"profile": "zhaishenye", "concealed": "123m456m234p678p45s88s", "flowers": "12345678f",
             "win_tile": "3s", "win_type": "eight_flowers", "seat_wind": "W", "round_wind": "S", "discarder": None,
             "flags": {"earthly": True}}
    path = tmp_path / "eight.jsonl"
    path.write_text(json.dumps(eight) + "\n", encoding="utf-8")
    main(["tai", str(path)])
    error = json.loads(capsys.readouterr().out)["error"]
    assert "the 16 tai of eight flowers are added" in error["message"] and "八仙過海 16 台" in error["message_zh"]
