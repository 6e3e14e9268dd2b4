"""The analysis commands end to end: companion waits / shanten / discard / demo."""

from __future__ import annotations

import io
import json
import re

import pytest

from companion.cli import main
from companion.hand import Hand
from companion.rules.shanten import shanten
from companion.tiles import zh_count

EX14 = "45m234s789s77p kong:6666m@R pung:999p@O"
CJK = re.compile(r"[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]")


def run(capsys: pytest.CaptureFixture[str], *argv: str, stdin: str | None = None,
        monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[int, str, str]:
    if stdin is not None:
        assert monkeypatch is not None
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_waits_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "waits", EX14, "13m345p678p123s999s55z")
    assert code == 0 and err == ""
    first, second = out.splitlines()
    assert "三萬（3m）" in first and "獨聽" in first and "六萬（6m）" not in first
    assert "（六萬四張都在自己手上）" in first  # why a two-sided shape waits on one tile
    assert "二萬（2m）〔中洞〕" in second


def test_waits_english_and_exhausted(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "waits", "--lang", "en",
                       "4m pung:444m@O chow:123p@L chow:456p@L pung:777s@R pung:111z@O")
    assert code == 0
    assert "not ready: all four 4m are in your own hand" in out


def test_waits_json_with_visible(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "waits", "--json", "--visible", "3m3m6m", "45m345p678p123s999s55z")
    assert code == 0
    assert json.loads(out) == {"hand": "45m345678p123999s55z", "shanten": 0, "waits": ["3m", "6m"],
                               "shapes": {"3m": ["two_sided"], "6m": ["two_sided"]}, "single_wait": False,
                               "in_hand": [], "dead_wait": False, "unseen": {"3m": 2, "6m": 3}}


def test_waits_json_says_a_dead_wait_as_the_text_does(capsys: pytest.CaptureFixture[str]) -> None:
    """死聽: the text said it, the JSON only as unseen all 0 (a review); absent for a hand not ready."""
    hand = "45m345p678p123s999s55z"
    assert main(["waits", "--json", "--visible", "3m3m3m3m6m6m6m6m", hand]) == 0
    assert main(["waits", "--json", hand]) == 0
    assert main(["waits", "--json", "123m456m789m11z22z33z4z"]) == 0
    dead, live, not_ready = (json.loads(x) for x in capsys.readouterr().out.splitlines())
    assert dead["dead_wait"] is True and dead["unseen"] == {"3m": 0, "6m": 0}
    assert live["dead_wait"] is False and "dead_wait" not in not_ready


def test_waits_json_says_the_shapes_and_a_single_wait_as_the_text_does(capsys: pytest.CaptureFixture[str]) -> None:
    """A review: the README promised the shapes, the JSON had none; nor why a two-sided shape was 獨聽."""
    _, out, _ = run(capsys, "waits", "--json", "45m77p234789s kong:6666m@R pung:999p@O 1f")
    got = json.loads(out)
    assert got["waits"] == ["3m"] and got["shapes"] == {"3m": ["two_sided"]} and got["single_wait"] is True
    assert got["in_hand"] == ["6m"]


def test_waits_says_a_hand_with_all_eight_flowers_has_won(capsys: pytest.CaptureFixture[str]) -> None:
    """八仙過海 is a win whatever the hand waits on (spec §3.1); a teaching review found only the waits listed."""
    hand = "45m234s789s77p kong:6666m@R pung:999p@O 12345678f"
    assert main(["waits", hand, "--lang", "en"]) == 0 and main(["waits", hand]) == 0
    assert main(["waits", "--json", hand]) == 0 and main(["waits", "--json", hand.replace("12345678f", "1234567f")]) == 0
    en, zh, won, seven = capsys.readouterr().out.splitlines()
    assert en.endswith("all eight flowers: already a win (Eight flowers)") and "waits 3m" in en
    assert not CJK.search(en)
    assert zh.endswith("八張花都到齊：已經胡了（八仙過海）")
    assert json.loads(won)["eight_flowers"] is True and "eight_flowers" not in json.loads(seven)


@pytest.mark.parametrize("hand", ["12478m3569p23788s15z 12345678f", "45m234s789s77p5p kong:6666m@R pung:999p@O 12345678f"])
def test_shanten_and_discard_say_all_eight_flowers_have_won(hand: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Not only ``waits``: the text of ``shanten`` said "5 steps from ready" where its JSON said eight_flowers, and
    ``discard`` advised "the best choice" with "complete": false (a teaching review)."""
    assert main(["shanten", hand, "--lang", "en"]) == 0 and main(["shanten", hand]) == 0
    en, zh = capsys.readouterr().out.splitlines()
    # (in English alone: a wording review read "(八仙過海, Eight Immortals)" in the English)
    assert "already a win (Eight flowers)" in en and not CJK.search(en) and "已經胡了（八仙過海）" in zh
    if Hand.parse(hand).is_drawn_size:
        assert main(["discard", hand, "--lang", "en"]) == 0
        said = capsys.readouterr().out.splitlines()[1].strip()
        assert said.startswith("All eight flowers: already a win (Eight flowers,") and not CJK.search(said)
        assert main(["discard", "--json", hand]) == 0 and main(["discard", "--json", hand.replace("8f", "f")]) == 0
        won, seven = (json.loads(x) for x in capsys.readouterr().out.splitlines())
        assert won["complete"] is False and won["eight_flowers"] is True  # complete: the shape, as shanten says
        assert seven["complete"] is False and "eight_flowers" not in seven


def test_waits_json_without_visible_has_no_unseen(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "waits", "--json", "123m456m789m11z22z33z4z")
    assert json.loads(out) == {"hand": "123456789m1122334z", "shanten": 1, "waits": [], "shapes": {},
                               "single_wait": False, "in_hand": []}


def test_stdin_batch_reports_bad_lines_and_goes_on(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stdin = "45m345p678p123s999s55z\n\nbad hand\n123m\n12m345p678p123s999s55z\n"
    code, out, err = run(capsys, "waits", "--json", stdin=stdin, monkeypatch=monkeypatch)
    assert code == 1
    assert [json.loads(line)["waits"] for line in out.splitlines()] == [["3m", "6m"], ["3m"]]
    errors = err.splitlines()
    assert len(errors) == 2
    # in Chinese (the default language), the line label included, and only in Chinese
    assert errors[0] == "companion: 第 3 行「bad hand」：不認得這個字（「bad hand」的第 1 個字，「b」）"
    assert errors[1].startswith("companion: 第 4 行「123m」：張數不對：3 張") and "手牌應有 16 張" in errors[1]
    assert "line" not in err and "between turns" not in err
    # --lang en: the same in English only
    code, _, err = run(capsys, "waits", "--json", "--lang", "en", stdin=stdin, monkeypatch=monkeypatch)
    errors = err.splitlines()
    assert code == 1 and len(errors) == 2
    assert errors[0] == "companion: line 3: “bad hand”: unexpected character at character 1 (“b”) in “bad hand”"
    assert errors[1].startswith("companion: line 4: “123m”") and "16 between turns" in errors[1]
    assert not any("\u4e00" <= c <= "\u9fff" for c in err)
    # a byte-order mark an editor put first is no character of the hand (a review's file was refused at it)
    code, out, _ = run(capsys, "waits", "--json", stdin="\ufeff" + stdin, monkeypatch=monkeypatch)
    assert code == 1 and [json.loads(line)["waits"] for line in out.splitlines()] == [["3m", "6m"], ["3m"]]


def test_a_refused_hand_says_what_is_wrong_in_chinese_too(capsys: pytest.CaptureFixture[str]) -> None:
    """Each language says the same thing: a drawn hand given to waits points to discard (and back), a bad meld's
    source and a second copy of a flower are named."""
    _, _, err = run(capsys, "waits", "45m345p678p123s999s55z7z")
    assert "這手有 17 張" in err and "companion discard" in err
    _, _, err = run(capsys, "waits", "--lang", "en", "45m345p678p123s999s55z7z")
    assert "got 17" in err and "這手" not in err
    _, _, err = run(capsys, "discard", "45m345p678p123s999s55z")
    assert "這手有 16 張" in err and "companion waits" in err
    _, _, err = run(capsys, "waits", "45m234s789s77p pung:999s@X")
    assert "吃碰槓的來源須是 L" in err
    _, _, err = run(capsys, "waits", "--lang", "en", "45m234s789s77p pung:999s@X")
    assert "meld source must be L, O or R" in err
    _, _, err = run(capsys, "waits", "1111m234s789s77p5m 7f7f")
    assert "有 2 張，一副牌只有 1 張" in err


def test_a_fifth_copy_is_refused_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    """With --visible, the copies are counted in the hand and on the table, each language saying both and
    naming the --visible input."""
    code, _, err = run(capsys, "waits", "--visible", "5555m", "45m345678p123999s55z")
    assert code == 1
    assert err == ("companion: --visible「5555m」（第 1 個引數「45m345678p123999s55z」）："
                   "五萬手牌有 1 張、--visible 有 4 張，共 5 張，一副牌只有 4 張\n")
    code, _, err = run(capsys, "waits", "--lang", "en", "--visible", "5555m", "45m345678p123999s55z")
    assert code == 1
    assert err == ("companion: --visible “5555m” (argument 1 “45m345678p123999s55z”): "
                   "5 copies of 5m, 1 in the hand and 4 in --visible: a set holds only 4\n")


@pytest.mark.parametrize("command", ["waits", "shanten", "discard"])
def test_visible_tiles_with_the_hand_are_counted_together(capsys: pytest.CaptureFixture[str], command: str) -> None:
    """The hand holds four 6m and --visible one more: the Chinese says 4 + 1 (not "六萬有 5 張")."""
    hand = "6666m45m345p678p123s9s" if command != "discard" else "6666m45m345p678p123s9s1z"
    code, out, err = run(capsys, command, "--visible", "3m3m6m", hand)
    assert code == 1 and out == ""
    assert f"--visible「3m3m6m」（第 1 個引數「{hand}」）：六萬手牌有 4 張、--visible 有 1 張，共 5 張" in err
    code, out, err = run(capsys, command, "--lang", "en", "--visible", "3m3m6m", hand)
    assert code == 1 and f"--visible “3m3m6m” (argument 1 “{hand}”): 5 copies of 6m, 4 in the hand and 1 in" in err


def test_waits_rejects_a_drawn_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "waits", "--json", "--lang", "en", "45m345p678p123s999s55z7z")
    assert code == 1 and out == ""
    assert "between turns" in err


def test_bad_visible_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "waits", "--visible", "3q", EX14)
    assert code == 2 and err == "companion waits: --visible「3q」：不認得這個字（「3q」的第 2 個字，「q」）\n"
    code, _, err = run(capsys, "waits", "--lang", "en", "--visible", "3q", EX14)
    assert code == 2 and err == "companion waits: --visible “3q”: unexpected character at character 2 (“q”) in “3q”\n"
    _, _, err = run(capsys, "shanten", "--visible", "8z", EX14)
    assert err == "companion shanten: --visible「8z」：字牌（z）只有 1-7，沒有 8（「8z」的第 1 個字，「8」）\n"


def test_a_notation_error_names_the_right_place_in_both_halves(capsys: pytest.CaptureFixture[str]) -> None:
    """The stray 5 is the second token equal to a tile of the first: the place is its own, the same number in
    both languages."""
    code, _, err = run(capsys, "waits", "123m456p789s1155z 5")
    assert code == 1 and "數字後面要接花色字母" in err and "第 19 個字，「5」" in err
    code, _, err = run(capsys, "waits", "--lang", "en", "123m456p789s1155z 5")
    assert code == 1 and "digits without a suit letter (m p s z f x) or its Chinese character at character 19 (“5”)" in err


def test_shanten_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "shanten", "123m456m789m123p456p99s", "45m345p678p123s999s55z",
                       "147m258p369s1234567z")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].endswith("  已胡牌")
    assert "  聽牌  " in lines[1] and "三萬（3m）" in lines[1]
    assert lines[2].endswith(" 還差十張才聽（十向聽）")
    _, out, _ = run(capsys, "shanten", "--json", "--lang", "en", "123m456m789m123p456p99s", EX14)
    first, second = map(json.loads, out.splitlines())
    assert first == {"hand": "123456789m123456p99s", "shanten": -1}
    assert second["shanten"] == 0 and second["waits"] == ["3m"]


def test_shanten_sets_option(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "shanten", "--sets", "4", "--lang", "en", "123m456p789s1234z")
    assert code == 0 and out.rstrip().endswith("2 useful draws from ready")


def test_discard_ranked_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "discard", "--lang", "en", "--top", "2", "45m345p678p123s999s55z7z")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "45m345678p123999s557z"
    assert lines[1].strip().startswith("1. Discard the Red dragon (7z; a lone honour): ready, waiting on 3m and 6m")
    assert lines[2].strip().startswith("2. ") and len(lines) == 3


def test_discard_on_a_complete_hand_says_to_declare_the_win(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "discard", "--lang", "en", "--top", "1", "123456789m123p456p55z")
    assert code == 0 and "already complete: declare the win" in out.splitlines()[1]
    _, out, _ = run(capsys, "discard", "--top", "1", "123456789m123p456p55z")
    assert "這手牌已經胡了" in out
    _, out, _ = run(capsys, "discard", "--json", "--top", "1", "123456789m123p456p55z", "45m345p678p123s999s55z7z")
    assert [json.loads(x)["complete"] for x in out.splitlines()] == [True, False]


def test_a_ready_discard_with_every_winning_tile_in_sight_is_not_the_best(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "discard", "--lang", "en", "--visible", "3m3m3m3m6m6m6m6m", "45m345p678p123s999s55z7z")
    lines = out.splitlines()
    # 7z leaves a wait on 3m 6m, all in sight: ranked a step from ready, by the 8 draws that mend it (4m 5m 5z), as
    # many as the best of the hands a step from ready (4m's: 5m 5z 7z)
    dead = next(x for x in lines if "Red dragon (7z;" in x)
    assert code == 0 and "nothing left to win on" in dead and "(4m, 5m and the White dragon; 8 tiles unseen) make it ready on a live" in dead
    assert "Discard 4m" in lines[2] and "1 useful draw from ready" in lines[2] and "as good as the best" in lines[2]
    # 5z: no draw makes it ready on a live wait (it had said "0 kinds improve it ()", then "every tile that would
    # improve it is in sight" where unseen copies make it ready only on waits all in sight: a newcomer review)
    assert "1 useful draw from ready, but no draw makes it ready on a tile still unseen" in next(
        x for x in lines if "White dragon (5z;" in x)
    code, out, _ = run(capsys, "discard", "--lang", "zh", "--visible", "1z1z5z5z", "123m4569p789s1155z chow:789m@L")
    assert "打一萬（拆順子）：還差一張才聽（一向聽），但不管摸進哪張，能聽的牌都已經出完了" in out


def test_a_drawn_hand_at_shanten_0_is_one_discard_from_ready(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "shanten", "45m345p678p123s999s55z7z")
    assert out.rstrip().endswith("  打一張就聽牌")
    _, out, _ = run(capsys, "shanten", "--lang", "en", "45m345p678p123s999s55z7z")
    assert out.rstrip().endswith("  one discard from ready")


def test_english_counts_of_one_are_singular(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "discard", "--lang", "en", "56889s111225555z pung:555m@R")
    assert "1 kinds" not in out and "1 tiles" not in out
    _, out, _ = run(capsys, "discard", "--lang", "en", "12333444455567888m")
    assert "with 1 tile unseen" in out and "1 tiles" not in out


def test_discard_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "discard", "--json", "--visible", "6m", "45m345p678p123s999s55z7z")
    assert code == 0
    obj = json.loads(out)
    best = obj["options"][0]
    assert best["discard"] == "7z" and best["shanten"] == 0
    assert best["improvements"] == {"3m": 4, "6m": 3} and best["unseen"] == 7
    assert best["reason"].startswith("打紅中")
    assert len(obj["options"]) == len(set(Hand.parse("45m345p678p123s999s55z7z").concealed)) == 14


def test_discard_offers_the_kong_and_puts_a_better_one_first(capsys: pytest.CaptureFixture[str]) -> None:
    """A teaching review: the command ranked "discard 1m, the best choice" where My hand says the concealed kong of
    1m is as near ready and a draw more."""
    code, out, _ = run(capsys, "discard", "--lang", "en", "--top", "1", "1111m234p567p789s55s67s")
    lines = out.splitlines()
    assert code == 0 and lines[1].strip() == "Or make a kong (a replacement draw follows):"
    assert lines[2].startswith("   * Concealed kong of 1m") and "with an extra draw" in lines[2]
    assert lines[3].strip().startswith("1. Discard 1m")
    _, out, _ = run(capsys, "discard", "--json", "1111m234p567p789s55s67s")
    assert [(k["kong"], k["added"], k["better"]) for k in json.loads(out)["kongs"]] == [("1m", False, True)]
    # a kong worth less than a discard comes after the discards, unmarked
    _, out, _ = run(capsys, "discard", "4444m6m345p678p123s55z7z")
    lines = out.splitlines()
    assert lines[-2].strip() == "也可以槓（槓完補一張）：" and lines[-1].startswith("   - 暗槓四萬") and "先別槓" in lines[-1]
    _, out, _ = run(capsys, "discard", "--json", "45m345p678p123s999s55z7z")
    assert json.loads(out)["kongs"] == []


def test_discard_refuses_a_negative_top(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "discard", "--top", "-1", "45m345p678p123s999s55z7z")
    assert code == 2 and out == "" and err == "companion discard: --top 是要列出的選項數（0：全部），收到 -1\n"
    code, out, err = run(capsys, "discard", "--lang", "en", "--top", "-1", "45m345p678p123s999s55z7z")
    assert code == 2 and out == "" and err == "companion discard: --top is how many options to show (0: all), got -1\n"


def test_discard_needs_a_drawn_hand(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "discard", "--lang", "en", "45m345p678p123s999s55z")
    assert code == 1 and "after a draw" in err


def test_demo_explains_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "demo", "--no-photo")  # the photo's part: tests/vision/test_hand_score.py
    assert code == 0
    assert "獨聽" in out and "single wait" in out
    assert "最佳選擇" in out and "the best choice" in out
    assert out.count("== ") == 10
    code, out, _ = run(capsys, "demo", "--lang", "en", "--no-photo")
    assert code == 0 and "聽" not in out.replace("獨聽", "") and out.count("== ") == 5
    # the drawn hand said in words, as the Chinese (it read "one discard from ready (0)", a beginner's review)
    assert "   one discard from ready\n" in out and "(0)" not in out


@pytest.mark.parametrize("command", ["waits", "shanten", "discard"])
def test_the_hand_in_each_commands_help_is_one_it_takes(capsys: pytest.CaptureFixture[str], command: str) -> None:
    """A newcomer's first try was the help's example, which held 13 tiles: refused."""
    import argparse

    from companion.commands import discard, shanten, waits

    parser = argparse.ArgumentParser()
    {"waits": waits, "shanten": shanten, "discard": discard}[command].register(parser.add_subparsers())
    help_text = parser._subparsers._group_actions[0].choices[command].format_help()  # type: ignore[union-attr]
    example = (waits.DRAWN if command == "discard" else waits.WAITING)
    assert example in " ".join(help_text.split()).replace("' :", "':")
    code, out, err = run(capsys, command, "--lang", "en", example)
    assert code == 0 and err == "" and out


class _Keyboard(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_command_reading_the_keyboard_says_so(capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A newcomer typed `companion waits` alone and saw nothing happen: at a terminal it now says what it reads."""
    monkeypatch.setattr("sys.stdin", _Keyboard(EX14 + "\n"))
    code, out, err = run(capsys, "waits", "--lang", "en")
    assert code == 0 and "one hand per line" in err and "Ctrl+D" in err and "3m" in out
    monkeypatch.setattr("sys.stdin", io.StringIO(EX14 + "\n"))  # a pipe: nothing said
    assert run(capsys, "waits")[2] == ""
    monkeypatch.setattr("sys.stdin", _Keyboard(""))  # nothing typed: said, and ended 2, as an empty file is (it
    code, out, err = run(capsys, "tai")  # ended 0 without a word: a review)
    assert code == 2 and "one JSON object per line" in err and "no hand on standard input" in err


def test_the_keyboard_hint_says_what_an_argument_is_and_the_end_key_of_the_system(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """`tai` at a terminal said "or give them as arguments", and the JSON given as one was read as a file's name:
    its hint names files, the JSON given as an argument is told to be piped, and Windows is told Ctrl+Z then Enter."""
    monkeypatch.setattr("sys.stdin", _Keyboard(""))
    err = run(capsys, "tai")[2]
    assert "or give JSON-lines files as arguments" in err and "指令後面給 JSON lines 檔案" in err
    monkeypatch.setattr("sys.stdin", _Keyboard(EX14 + "\n"))
    assert "or give the hands as arguments" in run(capsys, "waits")[2]
    monkeypatch.setattr("os.name", "nt")
    monkeypatch.setattr("sys.stdin", _Keyboard(""))
    err = run(capsys, "tai")[2]
    assert "Ctrl+Z then Enter ends" in err and "Ctrl+D" not in err and "Ctrl+Z 再按 Enter" in err
    monkeypatch.undo()
    code, out, err = run(capsys, "tai", '{"concealed": "1m"}')
    assert code == 2 and out == "" and "not a hand's JSON: pipe the JSON in" in err and "請用管線送進來" in err
    assert "No such file" not in err and "'" + '{"concealed"' not in err  # (in the quotes the rest says, not Python's)
    assert '“{"concealed": "1m"}”: an argument' in err and '「{"concealed": "1m"}」：指令後面' in err

def test_companion_lang_sets_the_commands_language_once(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A review wished not to add --lang en to every command: COMPANION_LANG sets it; --lang still wins; a value
    that is no language is said once, naming the variable, and left aside."""
    from companion.commands import _io

    monkeypatch.setenv("COMPANION_LANG", "en")
    code, out, err = run(capsys, "waits", EX14)
    assert code == 0 and "waits 3m" in out and err == ""
    assert "聽 三萬（3m）" in run(capsys, "waits", "--lang", "zh", EX14)[1]
    monkeypatch.setenv("COMPANION_LANG", "both")  # a command without "both" keeps its own default
    assert "聽 三萬（3m）" in run(capsys, "waits", EX14)[1]
    monkeypatch.setattr(_io, "_LANG_SAID", set())
    monkeypatch.setenv("COMPANION_LANG", "fr")
    code, out, err = run(capsys, "waits", EX14)
    assert code == 0 and "聽 三萬（3m）" in out and err.count("is not zh, en or both") == 1


def test_companion_lang_reads_a_regional_code_by_the_one_language_rule(capsys: pytest.CaptureFixture[str],
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A change review: COMPANION_LANG=en-US was left aside with a notice and the output was Chinese, and zh_TW
    was left aside too: the variable is read by the one language rule (companion.english.chinese)."""
    from companion.commands import _io

    monkeypatch.setattr(_io, "_LANG_SAID", set())
    for value, said in (("en-US", "waits 3m"), ("EN_gb", "waits 3m"), ("zh_TW", "聽 三萬（3m）"),
                        ("zh-Hant", "聽 三萬（3m）")):
        monkeypatch.setenv("COMPANION_LANG", value)
        code, out, err = run(capsys, "waits", EX14)
        assert code == 0 and said in out and err == "", (value, out, err)


def test_companion_lang_notice_quotes_the_value_as_given(capsys: pytest.CaptureFixture[str],
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """A review: COMPANION_LANG=FR-CA was said as 'fr-ca', a value the user never wrote: the notice quotes the
    variable as it was set, in both languages."""
    from companion.commands import _io

    monkeypatch.setattr(_io, "_LANG_SAID", set())
    monkeypatch.setenv("COMPANION_LANG", "FR-CA")
    code, out, err = run(capsys, "waits", EX14)
    assert code == 0 and "聽 三萬（3m）" in out
    assert err.count("“FR-CA”") == 1 and err.count("「FR-CA」") == 1 and "fr-ca" not in err, err


def test_a_discard_of_the_last_copy_of_its_own_wait_says_so_and_ranks_a_step_behind(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An audit: discarding the fourth 8s beside a called pung of 8s leaves a wait on 8s with no copy left. The JSON
    said shanten 0 where the text ranked it a step behind; a beginner was not told the last copy is his discard."""
    code, out, _ = run(capsys, "discard", "--json", "--lang", "en", "23444555m789s444z pung:888s@O",
                       monkeypatch=monkeypatch)
    options = json.loads(out)["options"]
    eight = next(o for o in options if o["discard"] == "8s")
    assert code == 0 and eight["shanten"] == 0 and eight["ranked_shanten"] == 1 and eight["dead_waits"] == ["8s"]
    assert "(the last 8s is this discard)" in eight["reason"] and options[-1] is eight
    assert all(o["ranked_shanten"] == o["shanten"] for o in options if "dead_waits" not in o)
    code, _, err = run(capsys, "waits", "--lang", "en", "234m56667p55789s1111z", monkeypatch=monkeypatch)
    assert code == 1 and "just drawn: companion discard says which tile to discard" in err


def test_discard_on_a_hand_not_drawn_yet_points_to_waits_in_both_languages(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The Chinese said to use `companion waits`, the English only counted the tiles (a newcomer review)."""
    for lang, hint in (("en", "(not drawn yet: companion waits says what it waits on)"),
                       ("zh", "（還沒摸牌：請用 companion waits 看聽哪張）")):
        code, _, err = run(capsys, "discard", "--lang", lang, "123m456p789s1155z chow:789m@L", monkeypatch=monkeypatch)
        assert code == 1 and hint in err


def test_a_hand_typed_without_its_quotes_is_told_to_quote_it(capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Copied from the help without the quotes, each word was a hand of its own: three errors and no word of why
    (a newcomer review). Hands given apart on purpose get no such hint."""
    code, _, err = run(capsys, "waits", "--lang", "en", "45m77p234789s", "kong:6666m@R", "pung:999p@O",
                       monkeypatch=monkeypatch)
    assert code == 1 and err.count("companion: argument ") == 3
    assert "put a hand and its melds in one pair of quotes, e.g. '45m77p234789s kong:6666m@R pung:999p@O'" in err
    code, _, err = run(capsys, "waits", "--lang", "zh", "45m77p234789s", "kong:6666m@R", monkeypatch=monkeypatch)
    assert "牌和它的吃碰槓要放在同一對引號裡，例如 '45m77p234789s kong:6666m@R'" in err
    code, _, err = run(capsys, "waits", "--lang", "en", "45m77p", "1112345678999m", monkeypatch=monkeypatch)
    assert code == 1 and "quotes" not in err
    code, _, err = run(capsys, "waits", "--lang", "en", "1112345678999m", "pung:666z 123m", monkeypatch=monkeypatch)
    assert code == 1 and "quotes" not in err  # quoted whole, melds first: a hand of its own (a change review)


def test_the_demo_in_english_says_it_in_english_alone(capsys: pytest.CaptureFixture[str]) -> None:
    """A wording review read "a single wait (獨聽)" in the English demo: an English player reads it in English."""
    assert main(["demo", "--lang", "en", "--no-photo"]) == 0
    out = capsys.readouterr().out
    assert "a single wait." in out and not CJK.findall(out)


def _english_halves(tree: object) -> list[str]:
    """The English half's string literals of every Note(en, zh) and PhotoHandError(en, zh) in a module."""
    import ast

    assert isinstance(tree, ast.Module)
    firsts: list[ast.expr] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.args and \
                node.func.id in ("Note", "PhotoHandError"):
            firsts.append(node.args[0])
    return [c.value for first in firsts for c in ast.walk(first)
            if isinstance(c, ast.Constant) and isinstance(c.value, str)]


def test_score_says_its_english_without_chinese_glosses(capsys: pytest.CaptureFixture[str]) -> None:
    """A wording review: ``companion score --lang en``, the one command a player runs on a photo, still printed
    "assumed self-drawn (自摸)", and its notes "(明槓)", "(加槓)", "(暗槓 turned up)", "(白板)", after demo, waits,
    shanten and discard had lost theirs. Every English half of the photo scorer's notes and refusals, and the
    command's output on the demo photo."""
    import ast
    from pathlib import Path

    import companion.vision.hand_score as hand_score

    han = re.compile(r"[\u4e00-\u9fff]")
    english = _english_halves(ast.parse(Path(hand_score.__file__).read_text(encoding="utf-8")))
    assert len(english) > 30 and any("assumed self-drawn" in e for e in english)
    assert [e for e in english if han.search(e)] == []
    from companion.commands.score import _WAY_OUT  # a refusal's way out, as the command says it
    assert [en for en, _ in _WAY_OUT.values() if han.search(en)] == []
    photo = Path(hand_score.__file__).parents[1] / "assets" / "demo" / "win_hand.jpg"
    code, out, _ = run(capsys, "score", str(photo), "--lang", "en")
    assert code == 0 and "assumed self-drawn: give --discarder SEAT" in out and not han.findall(out)


def test_eight_flowers_has_one_english_name_the_tai_items(capsys: pytest.CaptureFixture[str]) -> None:
    """A wording review: with the glosses gone, 八仙過海 had two English names, "Eight Immortals" (waits, shanten,
    discard, the app's My hand) and "Eight flowers" (the tai items, the Score refusals, the Live tab). One name, the
    tai item's, everywhere: in no string of the product another."""
    import ast
    from pathlib import Path

    import companion
    from companion.app.words import ui
    from companion.rules.tai import ITEMS
    from companion.vision.hand_score import FLOWERS_NEEDED

    name = ITEMS["eight_flowers"].en
    assert name == "Eight flowers"
    other = [(p.name, c.value) for p in Path(companion.__file__).parent.rglob("*.py")
             for c in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(c, ast.Constant) and isinstance(c.value, str) and "immortal" in c.value.lower()]
    assert other == []
    held = "45m234s789s77p kong:6666m@R pung:999p@O 12345678f"
    for command, hand in (("waits", held), ("shanten", held), ("discard", held.replace("77p", "77p5p"))):
        assert main([command, hand, "--lang", "en"]) == 0, command
        assert f"already a win ({name}" in capsys.readouterr().out, command
    assert f"({name}, settled" in ui("eight_flowers_won").en and name in ui("eight_flowers_too").en
    assert FLOWERS_NEEDED["eight_flowers"][1] == name


def test_waits_says_how_far_from_ready_as_my_hand_does(capsys: pytest.CaptureFixture[str]) -> None:
    """The waits fallback read 「未聽牌（3 向聽）」 / "not ready (3 steps from ready)" where My hand reads
    「還差三張才聽，三向聽」 / "3 useful draws from ready" (a final review)."""
    hand = "1m4m7m1p4p7p1s4s7s1z2z3z4z5z6z7z"
    s = shanten(Hand.parse(hand))
    _, zh, _ = run(capsys, "waits", "--lang", "zh", hand)
    _, en, _ = run(capsys, "waits", "--lang", "en", hand)
    assert f"未聽牌：還差{zh_count(s, '兩')}張才聽（{zh_count(s)}向聽）" in zh and " 向聽" not in zh
    assert f"not ready: {s} useful draws from ready" in en


def test_discard_says_how_far_from_ready_as_my_hand_does(capsys: pytest.CaptureFixture[str]) -> None:
    """``discard`` said 二向聽 / "2 steps from ready" (and "1 step behind the best") where My hand and ``waits`` say
    還差兩張才聽（二向聽） / "2 useful draws from ready": the same words in both now."""
    from companion.app.hand_model import HandPanel, analyse

    hand = "123456789m12347p19s5z"  # every discard leaves it two from ready but those that break a chow (three)
    panel = analyse(hand)
    assert isinstance(panel, HandPanel)
    assert panel.headline.en == "After the best discard: 2 useful draws from ready"
    assert "還差兩張才聽（二向聽）" in panel.headline.zh
    _, zh, _ = run(capsys, "discard", "--lang", "zh", hand)
    _, en, _ = run(capsys, "discard", "--lang", "en", hand)
    best, chow = en.splitlines()[1], next(x for x in en.splitlines() if "Discard 1m" in x)
    assert "(5z; a lone honour): 2 useful draws from ready, 15 kinds" in best
    assert ": 3 useful draws from ready, " in chow and chow.endswith(" — 1 more useful draw than the best needs.")
    assert "step" not in en, en
    assert "打白板（孤張字牌）：還差兩張才聽（二向聽），15種進張" in zh and "打一萬（拆順子）：還差三張才聽（三向聽）" in zh


def test_waits_says_a_dead_wait_as_my_hand_does(capsys: pytest.CaptureFixture[str]) -> None:
    # every copy of the one wait in sight: it read "0 left (single wait)" and never "dead wait" (a newcomer review)
    hand = "13m345678p123999s55z"
    code, out, _ = run(capsys, "waits", "--lang", "en", "--visible", "2222m", hand)
    assert code == 0 and "0 left (single wait). A dead wait: every copy you wait for is already visible" in out
    code, out, _ = run(capsys, "waits", "--visible", "2222m", hand)
    assert code == 0 and "剩 0 張，獨聽。死聽" in out
    code, out, _ = run(capsys, "waits", "--lang", "en", "--visible", "222m", hand)
    assert code == 0 and "dead wait" not in out.lower()


def test_waits_takes_a_hand_as_chinese_writes_it(capsys: pytest.CaptureFixture[str]) -> None:
    """Digits and a suit character (45萬, as the app's own glossary writes it), melds by their Chinese names: the
    language review's hand was refused at 萬."""
    code, out, err = run(capsys, "waits", "45萬234條789條77筒 kong:6666m@R pung:999p@O")
    code_zh, out_zh, _ = run(capsys, "waits", "45萬234條789條77筒 槓:6666m@下家 碰:999p@對家")
    _, plain, _ = run(capsys, "waits", EX14)
    assert (code, code_zh, err) == (0, 0, "") and out == out_zh == plain


def test_others_melds_in_visible_are_read_as_their_tiles(capsys: pytest.CaptureFixture[str]) -> None:
    """--visible says "others' melds": one written as a hand writes its own (pung:333m@L, 碰:三萬三萬三萬) counts its
    tiles, where a review was told the p of pung had no digits before it; a meld written wrong is named."""
    code, out, err = run(capsys, "waits", "--json", "--visible", "pung:333m@L", EX14)
    assert code == 0 and err == "" and json.loads(out)["unseen"] == {"3m": 1}
    code, out, err = run(capsys, "discard", "--json", "--top", "1", "--visible", "碰:三萬三萬三萬", EX14 + " 1z")
    assert code == 0 and err == "" and json.loads(out)["options"][0]["improvements"] == {"3m": 1}
    code, out, err = run(capsys, "waits", "--lang", "en", "--visible", "3m3m pung:333m", EX14)
    assert code == 2 and out == "" and "5 copies of 3m" in err and "Traceback" not in err
    code, out, err = run(capsys, "waits", "--visible", "pung:33m@L", EX14)
    assert code == 2 and out == "" and "--visible「pung:33m@L」：碰要 3 張牌" in err


def test_the_commands_say_a_hand_of_pairs_is_no_win_as_my_hand_does(capsys: pytest.CaptureFixture[str]) -> None:
    """Eight pairs read only "4 useful draws from ready" from waits, shanten and discard, where My hand adds that
    this game has no pairs win (a player from a 七對 game asks why): each command now says it, in each language."""
    pairs = "11m22p33s44m55p66s77s88m"
    zh = "注意：十六張麻將沒有七對、八對的胡法"
    en = "Note: Taiwanese 16-tile has no seven- or eight-pairs win"
    for argv in (("waits", pairs), ("shanten", pairs), ("discard", "--top", "1", pairs + "9p")):
        code, out, err = run(capsys, *argv)
        assert code == 0 and err == "" and zh in out, out
        code, out, err = run(capsys, *argv[:1], "--lang", "en", *argv[1:])
        assert code == 0 and err == "" and en in out and not CJK.search(out.replace(pairs, "")), out
    code, out, _ = run(capsys, "shanten", "1112345678999m123s", "1122334455667788m9m")
    assert code == 0 and "注意" not in out.splitlines()[0] and zh in out.splitlines()[1]  # ready: no word of it


def test_a_fifth_copy_quotes_the_hand_as_typed(capsys: pytest.CaptureFixture[str]) -> None:
    """A review typed ``1111m1m`` and read "5 copies of 1m … in “11111m”", a hand he never typed: the hand is quoted
    as typed, its melds too."""
    code, out, err = run(capsys, "waits", "1111m1m", "--lang", "en")
    assert code == 1 and out == "" and "5 copies of 1m (1 Character) in “1111m1m”" in err and "11111m" not in err
    code, out, err = run(capsys, "waits", "1m pung:111m@L 1m", "--lang", "en")
    assert code == 1 and "in “1m pung:111m@L 1m”" in err and "Traceback" not in err
    code, out, err = run(capsys, "waits", "1111m1m", "--lang", "zh")
    assert code == 1 and "一萬有 5 張，一副牌只有 4 張" in err
