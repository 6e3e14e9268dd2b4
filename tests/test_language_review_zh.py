"""A language review of the Traditional Chinese a Taiwanese player reads: ``--lang`` takes the codes COMPANION_LANG
takes, the refusal of a COMPANION_LANG that is no language says what is used instead, the analysis commands write
full-width brackets and say how far from ready in words a player reads."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from companion.cli import build_parser, main
from companion.commands import _io

EX14 = "45m234s789s77p kong:6666m@R pung:999p@O"
READY = "123m456m789m123p44p56s"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("code", "said"), [("zh-TW", "聽 三萬"), ("zh_TW.UTF-8", "聽 三萬"), ("ZH", "聽 三萬"),
                                            ("en-US", "waits 3m"), ("en_US.UTF-8", "waits 3m")])
def test_lang_takes_the_codes_the_environment_variable_takes(capsys: pytest.CaptureFixture[str], code: str,
                                                             said: str) -> None:
    """``--lang zh-TW`` was refused though the help said the default is zh-TW and COMPANION_LANG=zh-TW was taken."""
    status, out, err = run(capsys, "waits", "--lang", code, EX14)
    assert status == 0 and said in out and err == "", (code, out, err)


def test_lang_still_refuses_what_is_no_language_and_its_help_lists_the_short_codes(
        capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["waits", "--lang", "fr", EX14])
    err = capsys.readouterr().err
    assert "expected a language, zh or en (or a form such as zh-TW, en-US), got “fr”" in err
    assert "--lang 要寫語言：zh 或 en（也可以寫 zh-TW、en-US 這類寫法）；收到「fr」" in err and "'fr'" not in err
    with pytest.raises(SystemExit):
        main(["demo", "--lang", "de"])
    assert "got “de”" in capsys.readouterr().err
    code, out, _ = run(capsys, "demo", "--lang", "BOTH", "--no-photo")
    assert code == 0 and "聽 三萬" in out and "waits 3m" in out
    with pytest.raises(SystemExit):
        main(["waits", "--help"])
    assert "--lang {zh,en}" in capsys.readouterr().out


@pytest.mark.parametrize(("command", "used_zh", "used_en"), [(("waits", EX14), "改用中文", "using Chinese"),
                                                             (("demo", "--no-photo"), "改用中英並列",
                                                              "using both languages")])
def test_a_language_variable_left_aside_says_what_is_used_instead(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, command: tuple[str, ...], used_zh: str,
        used_en: str) -> None:
    """COMPANION_LANG=fr was said 「… 不是 zh、en 或 both：不用」 ("don't use") with the value in Python's quotes, and
    while the parsers were built, in the first command's words whatever command ran."""
    monkeypatch.setattr(_io, "_LANG_SAID", set())
    monkeypatch.setenv("COMPANION_LANG", "fr")
    code, _, err = run(capsys, *command)
    assert code == 0 and err.count("\n") == 1, err
    assert f"「fr」不是 zh、en 或 both：已略過，{used_zh}" in err and f"“fr” is not zh, en or both: left aside, {used_en}" in err
    assert "不用" not in err and "'fr'" not in err


def test_waits_in_chinese_writes_full_width_brackets(capsys: pytest.CaptureFixture[str]) -> None:
    """A review read 「聽 三萬(3m)[兩面] 剩4張」: half-width brackets in Chinese text."""
    _, out, _ = run(capsys, "waits", READY, EX14)
    ready, single = out.splitlines()
    assert ready.endswith("聽 四條（4s）〔兩面〕剩 4 張、七條（7s）〔兩面〕剩 4 張"), ready
    assert single.endswith("聽 三萬（3m）〔兩面〕剩 4 張，獨聽（六萬四張都在自己手上）"), single
    assert not any(c in out for c in "()[]")
    _, out, _ = run(capsys, "waits", "--lang", "en", READY)
    assert "waits 4s [two-sided] 4 left, 7s [two-sided] 4 left" in out  # one wait from the next (a change review)


def test_shanten_in_chinese_says_it_in_words_without_bare_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    """It printed 「已胡牌 (-1)」, 「聽牌 (0)」, 「打一張就聽牌 (0)」 and the bare jargon 「五向聽」."""
    _, out, _ = run(capsys, "shanten", "123m456m789m123p456p99s", READY, READY + "1z", "123579m13579p13579s")
    complete, ready, drawn, far = out.splitlines()
    assert complete.endswith("  已胡牌") and drawn.endswith("  打一張就聽牌")
    assert "  聽牌  聽 四條" in ready
    assert far.endswith("  還差四張才聽（四向聽）")
    assert "(" not in out


def test_shanten_in_english_says_it_in_words_without_bare_numbers(capsys: pytest.CaptureFixture[str]) -> None:
    """A review: the Chinese was said in words, the English still printed 'complete (-1)', 'ready (0)' and 'one
    discard from ready (0)', numbers a beginner is not told the meaning of. The English says it in words too."""
    _, out, _ = run(capsys, "shanten", "--lang", "en", "123m456m789m123p456p99s", READY, READY + "1z",
                    "123579m13579p13579s")
    complete, ready, drawn, far = out.splitlines()
    assert complete.endswith("  complete") and drawn.endswith("  one discard from ready")
    assert "  ready  " in ready and far.endswith("  4 useful draws from ready")
    assert "(0)" not in out and "(-1)" not in out


def test_the_command_list_says_shanten_and_demo_in_plain_words() -> None:
    """The top-level help read 'shanten … / 向聽數' and 'demo … / 範例'."""
    out = build_parser().format_help()
    assert "離聽牌還差幾張（向聽數）" in out and "分析範例牌並解說" in out


def test_the_default_rule_set_is_marked_where_the_rule_sets_are_listed_in_both_languages(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its English name was 'ATAWMJ 2009 (default)': 'Profile: atawmj_2009 (ATAWMJ 2009 (default))' in a header,
    brackets in brackets, and the Chinese said no 預設. Now the name is plain; the lists mark it, in both."""
    from companion.app.rule_sets_model import rule_set_options

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    code, out, _ = run(capsys, "tai", "--list-profiles")
    listed = [line.split("\t") for line in out.splitlines()]
    assert code == 0 and listed[0] == ["atawmj_2009", "中華競技麻將 2009（預設）", "ATAWMJ 2009 (default)"]
    assert not [x for x in listed[1:] if "預設" in x[1] or "default" in x[2]]
    offered = dict(rule_set_options())
    assert (offered["atawmj_2009"].zh, offered["atawmj_2009"].en) == ("中華競技麻將 2009（預設）", "ATAWMJ 2009 (default)")
    assert offered["sml_2026"].en == "SML 2026 league"
    win = '{"concealed": "123m456m234p678p45s88s", "win_tile": "3s", "win_type": "discard", "seat_wind": "W", ' \
          '"round_wind": "S", "discarder": "S"}'
    monkeypatch.setattr("sys.stdin", io.StringIO(win + "\n"))
    code, out, _ = run(capsys, "tai", "--explain", "--lang", "en")
    assert code == 0 and "Rules: ATAWMJ 2009 (atawmj_2009)\n" in out


def test_one_idea_one_name_and_the_chinese_says_what_the_english_says() -> None:
    """The flower replacement's win, the tai cap (滿台, as the spec and its switch name it), the kept wall's
    replacements, 混一色's 'at least one of each', and an English heading that said 'Doubts'."""
    from companion.app.words import ui
    from companion.commands.score import FLAGS, _flag_name
    from companion.rules.tai import ITEMS

    assert FLAGS["after_flower"] == ui("moment_after_flower").zh and "槓上開花" in FLAGS["after_flower"]
    assert _flag_name("花上開花") == "after_flower" and _flag_name("補花") == "after_flower"  # still taken
    assert ui("capped", tai=16).zh == "（滿台 16 台）"
    assert ui("wall_kept", n=16, stacks=8).zh.endswith("（補牌仍從這頭摸）")
    assert ui("wall_kept_split", n=15, stacks=8).zh.endswith("（補牌仍從這頭摸）")
    assert "兩者都要有" in ITEMS["half_flush"].explain_zh
    assert ui("photo_doubts").en == "Please check"  # the Chinese's 請檢查 (see test_photo_notes_heading.py)
