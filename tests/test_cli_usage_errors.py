"""Usage mistakes argparse catches before a command runs are said in English and Traditional Chinese."""

import pytest

from companion.cli import argparse_zh, main


@pytest.mark.parametrize(("argv", "zh"), [
    (["waits", "--lang", "xx"], "--lang 要寫語言：zh 或 en（也可以寫 zh-TW、en-US 這類寫法）；收到「xx」"),
    (["score"], "缺少必要的引數：PHOTO"),
    (["tai", "--stakes"], "--stakes 後面要接一個值"),
    (["nosuch"], "COMMAND 不接受 'nosuch'"),
    (["read", "x.jpg", "--threads", "abc"], "--threads 的值 'abc' 不是有效的整數"),
    (["calibrate"], "缺少必要的引數：OP"),
    (["waits", "--bogus"], "不認得的引數：--bogus"),
])
def test_usage_errors_are_bilingual(argv: list[str], zh: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert "usage / 用法:" in err and "error: " in err and f"/ 錯誤：{zh}" in err


def test_a_message_argparse_may_add_later_still_gets_a_chinese_gist() -> None:
    assert argparse_zh("something argparse never said") == "命令列的寫法有誤（請看上面的用法，或加 --help）"
    assert argparse_zh("argument --dpi: invalid float value: 'x'") == "--dpi 的值 'x' 不是有效的數字"


@pytest.mark.parametrize("argv", [
    ["tai", "1112345678999m123p5m", "--stakes", "-30/10"],
    ["tai", "1112345678999m123p5m", "--stakes", "-30/-10"],
])
def test_a_value_with_a_minus_reaches_its_own_check(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """A negative stake is a value to refuse by name, not an option argparse cannot place ("expected one argument":
    a review); a word starting with a minus and a letter is still an option."""
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--stakes" in err and f"“{argv[-1]}”" in err and "expected one argument" not in err
    with pytest.raises(SystemExit):
        main(["tai", "1112345678999m123p5m", "--stakes", "--json"])
    assert "--stakes 後面要接一個值" in capsys.readouterr().err


@pytest.mark.parametrize(("option", "word", "letter"), [
    ("--seat", "南", "S"), ("--discarder", "西", "W"), ("--round", "北風", "N"), ("--dealer", "東", "E"),
    ("--seat", "w", "W"), ("--discarder", "3z", "W"),
])
def test_score_takes_a_wind_by_its_chinese_name_as_tai_does(option: str, word: str, letter: str) -> None:
    """``score --seat 南`` was refused where a `tai` line's ``"seat_wind": "南"`` was taken (a language review)."""
    from companion.cli import build_parser

    args = build_parser().parse_args(["score", "x.jpg", option, word])
    assert getattr(args, option.removeprefix("--")) == letter


def test_a_wind_refused_says_the_winds_in_both_languages(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as e:
        main(["score", "x.jpg", "--seat", "Q"])
    err = capsys.readouterr().err
    assert e.value.code == 2
    assert ("argument --seat: expected a wind, E, S, W or N, its English name (East, South, West, North), 1z-4z or "
            "its Chinese name, got “Q”") in err
    assert ("/ 錯誤：--seat 要寫風位：E（東）、S（南）、W（西）或 N（北），也可以寫英文名 East、South、West、North，或 1z-4z，"
            "或直接寫 東 南 西 北（南風 這樣也可以）；收到「Q」") in err
