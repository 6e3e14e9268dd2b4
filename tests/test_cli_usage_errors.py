"""Usage mistakes argparse catches before a command runs are said in English and Traditional Chinese."""

import pytest

from companion.cli import argparse_zh, main


@pytest.mark.parametrize(("argv", "zh"), [
    (["waits", "--lang", "xx"], "--lang 不接受 'xx'，可選：'zh', 'en'"),
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
