"""A change review of the day's language changes: the notice for a COMPANION_LANG that is no language says what
``tai`` then does; ``waits`` separates its English waits, writes a full-width slash in the Chinese and says how far
from ready as ``shanten`` does; a wind refused names all that is taken, and a full-width one is taken; ``--lang``
takes languages, not whatever begins with zh or en, and quotes a refused one as the other refusals do; values are
said back as JSON writes them."""

from __future__ import annotations

import io
from typing import Any

import pytest

from companion.cli import build_parser, main
from companion.commands import _io
from companion.hand import Hand
from companion.rules import _win_json, settlement, win
from companion.rules.efficiency import from_ready
from companion.rules.said import json_said
from companion.rules.settlement import Stakes, settle_false_win
from companion.rules.shanten import shanten
from companion.rules.win import Win, WinInputError

HAND = "123m456m789m123p44p56s"
FAR = "123579m13579p13579s"
LINE = ('{"concealed": "123m456m234p678p45s88s", "win_tile": "3s", "win_type": "discard", "seat_wind": "%s", '
        '"round_wind": "S", "discarder": "E"}')


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    with pytest.raises(SystemExit) as e:
        main(list(argv))
    assert e.value.code == 2
    return capsys.readouterr().err


# --- 1. the notice says what tai then does ---------------------------------------------------------------------


def test_a_language_left_aside_says_that_tai_explains_in_chinese(capsys: pytest.CaptureFixture[str],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """COMPANION_LANG=fr tai --explain said 'using both languages / 改用中英並列', then wrote its table and the
    table's errors in Chinese alone."""
    monkeypatch.setattr(_io, "_LANG_SAID", set())
    monkeypatch.setenv("COMPANION_LANG", "fr")
    monkeypatch.setattr("sys.stdin", io.StringIO(LINE % "W" + '\n{"concealed": "123m"}\n'))
    code, out, err = run(capsys, "tai", "--explain")
    assert code == 1 and "第 1 行" in out and "錯誤：欄位 win_type 有誤" in out and "line 1" not in out
    assert "using Chinese (the --explain table and its errors), both languages for other errors" in err
    assert "已略過，改用中文（--explain 的表格與其中的錯誤），其他錯誤訊息中英並列" in err
    assert "using both languages" not in err and err.count("\n") == 1
    monkeypatch.setattr(_io, "_LANG_SAID", set())  # JSON out: it holds both languages, as the errors are said
    monkeypatch.setattr("sys.stdin", io.StringIO('{"concealed": "123m"}\n'))
    code, out, err = run(capsys, "tai")
    assert code == 1 and '"message_zh"' in out and "using both languages / " in err and "改用中英並列" in err


# --- 2. waits ----------------------------------------------------------------------------------------------------


def test_waits_in_english_are_told_apart_and_the_chinese_slash_is_full_width(
        capsys: pytest.CaptureFixture[str]) -> None:
    """The English ran together, '3p[two-sided] 4 left 6p[two-sided] 4 left', and the Chinese wrote 〔兩面/雙碰〕
    where the app writes 兩面／雙碰."""
    _, out, _ = run(capsys, "waits", "--lang", "en", "123m456m789m3455566p")
    assert out.rstrip().endswith("waits 2p [two-sided] 4 left, 5p [two-sided/double pung] 1 left, "
                                 "6p [double pung] 2 left"), out
    _, out, _ = run(capsys, "waits", "--lang", "zh", "123m456m789m3455566p")
    assert "五筒（5p）〔兩面／雙碰〕剩 1 張、六筒（6p）〔雙碰〕剩 2 張" in out and "/" not in out


def test_waits_says_how_far_from_ready_in_the_words_shanten_says_it(capsys: pytest.CaptureFixture[str]) -> None:
    """waits said 「未聽牌（還差兩張才聽，二向聽）」 where shanten says 「還差兩張才聽（二向聽）」."""
    far_zh, far_en = from_ready(shanten(Hand.parse(FAR)))
    _, waits_zh, _ = run(capsys, "waits", "--lang", "zh", FAR)
    _, shanten_zh, _ = run(capsys, "shanten", "--lang", "zh", FAR)
    assert waits_zh.rstrip().endswith(f"未聽牌：{far_zh}") and shanten_zh.rstrip().endswith(far_zh), waits_zh
    assert far_zh == "還差四張才聽（四向聽）" and "，四向聽" not in waits_zh
    _, waits_en, _ = run(capsys, "waits", "--lang", "en", FAR)
    assert waits_en.rstrip().endswith(f"not ready: {far_en}") and far_en == "4 useful draws from ready"


# --- 3. winds ----------------------------------------------------------------------------------------------------


def test_a_wind_refused_says_in_both_languages_that_1z_4z_and_the_chinese_names_are_taken(
        capsys: pytest.CaptureFixture[str]) -> None:
    """--seat south: the English named E S W N alone, the Chinese added 東 南 西 北; neither 南風 nor 1z-4z. (South
    itself is taken since: a first-hour review.)"""
    err = refused(capsys, "score", "x.jpg", "--seat", "southeast")
    english, _, chinese = err.rpartition("error: ")[2].partition(" / 錯誤：")
    assert "1z-4z" in english and "Chinese name" in english and "“southeast”" in english
    assert "1z-4z" in chinese and "南風" in chinese and "東 南 西 北" in chinese and "「southeast」" in chinese
    for taken in ("2z", "南風", "南", "south"):
        assert build_parser().parse_args(["score", "x.jpg", "--seat", taken]).seat == "S"


@pytest.mark.parametrize("typed", ["Ｓ", "ｓ", "２ｚ"])
def test_a_full_width_wind_is_taken_as_full_width_tiles_are(capsys: pytest.CaptureFixture[str],
                                                             monkeypatch: pytest.MonkeyPatch, typed: str) -> None:
    """A phone's Ｓ was refused as a wind, in --seat and in tai's seat_wind, where its ４５ｍ was taken as tiles."""
    assert build_parser().parse_args(["score", "x.jpg", "--seat", typed]).seat == "S"
    monkeypatch.setattr("sys.stdin", io.StringIO(LINE % typed + "\n"))
    code, out, err = run(capsys, "tai")
    assert code == 0 and '"error"' not in out and err == "", (out, err)


# --- 4. --lang ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("given", ["zhx", "enfoo", "english", "zh.", "en-", "fr"])
def test_lang_refuses_what_only_begins_with_zh_or_en_and_quotes_it(capsys: pytest.CaptureFixture[str],
                                                                   given: str) -> None:
    """--lang zhx, enfoo and english were taken (anything beginning with zh or en); a refusal quoted 'fr'."""
    err = refused(capsys, "waits", "--lang", given, HAND)
    assert f"argument --lang: expected a language, zh or en (or a form such as zh-TW, en-US), got “{given}”" in err
    assert f"/ 錯誤：--lang 要寫語言：zh 或 en（也可以寫 zh-TW、en-US 這類寫法）；收到「{given}」" in err
    assert f"'{given}'" not in err
    err = refused(capsys, "demo", "--lang", given)
    assert "zh, en or both" in err and "zh、en 或 both" in err


@pytest.mark.parametrize(("given", "code"), [
    ("zh", "zh"), ("EN", "en"), ("both", "both"), ("zh-TW", "zh"), ("zh_TW", "zh"), ("zh_TW.UTF-8", "zh"),
    ("zh-Hant", "zh"), ("zh-Hant-TW", "zh"), ("en-US", "en"), ("en_GB.UTF-8", "en"), (" en ", "en"),
    ("zhx", "zhx"), ("enfoo", "enfoo"), ("english", "english"), ("zh.UTF-8", "zh.UTF-8")])
def test_a_language_is_zh_en_both_or_a_locale_form_of_zh_or_en(given: str, code: str) -> None:
    assert _io.lang_code(given) == code


def test_a_language_variable_that_only_begins_with_en_is_left_aside_and_said(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_io, "_LANG_SAID", set())
    monkeypatch.setenv("COMPANION_LANG", "english")
    code, out, err = run(capsys, "waits", HAND)
    assert code == 0 and "聽 四條" in out and "COMPANION_LANG “english” is not zh, en or both" in err
    monkeypatch.setenv("COMPANION_LANG", "en_GB.UTF-8")
    code, out, err = run(capsys, "waits", HAND)
    assert code == 0 and "waits 4s" in out and err == ""


# --- 5. values said as JSON writes them --------------------------------------------------------------------------


@pytest.mark.parametrize(("streak", "said"), [("2", '"2"'), (True, "true (a yes/no)"), (None, "null (no value)"),
                                              (1.5, "1.5 (a number with a point")])
def test_a_streak_refused_is_said_as_json(streak: Any, said: str) -> None:
    """Win._check_context said streak {streak!r}: '2', True, None."""
    with pytest.raises(WinInputError) as info:
        Win.of(HAND, "3s", "self_draw", streak=streak)
    assert f"got {said}" in str(info.value) and f"收到 {json_said(streak)[1]}" in info.value.zh
    assert "'" not in str(info.value) + info.value.zh and "True" not in str(info.value) + info.value.zh


@pytest.mark.parametrize(("claimed", "said"), [("3", '"3"'), (True, "true (a yes/no)"), (2.5, "2.5 (a number")])
def test_a_claimed_tai_refused_is_said_as_json(claimed: Any, said: str) -> None:
    """settlement said claimed_tai {claimed_tai!r} and 「不填（None）」."""
    won = Win.of(HAND, "3s", "self_draw", seat_wind="S")
    with pytest.raises(WinInputError) as info:
        settle_false_win(won, Stakes(30, 10), "wikibooks_base", claimed)
    english, chinese = str(info.value), info.value.zh
    assert f"got {said}" in english and "or null (no value)" in english and "null（空值）" in chinese
    assert "None" not in english + chinese and "'" not in english + chinese and "True" not in english + chinese


def test_one_json_said_for_the_win_its_json_and_the_settlement() -> None:
    """win said values through a lazy import of _win_json's json_said (a circular import dodged); now all three
    import it from one module below them."""
    assert win.json_said is _win_json.json_said is settlement.json_said is json_said
    assert not hasattr(win, "_said")


@pytest.mark.parametrize(("typed", "letter"), [("South", "S"), ("south", "S"), ("EAST", "E"), ("West", "W"),
                                               ("north", "N"), ("Ｎｏｒｔｈ", "N")])
def test_a_wind_is_taken_by_its_english_name(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                             typed: str, letter: str) -> None:
    """A first-hour review typed --seat South and was refused, though 南 and 南風 were taken and the refusal itself
    listed "East, South, West, North": the English names are taken too, in --seat and in tai's seat_wind."""
    assert build_parser().parse_args(["score", "x.jpg", "--seat", typed]).seat == letter
    line = (LINE % typed).replace('"discarder": "E"', f'"discarder": "{"W" if letter == "E" else "E"}"')
    monkeypatch.setattr("sys.stdin", io.StringIO(line + "\n"))
    code, out, err = run(capsys, "tai")
    assert code == 0 and '"error"' not in out and err == "", (out, err)
