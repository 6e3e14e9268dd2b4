"""Error messages of the analysis commands and of simulate, in Traditional Chinese and English.

waits / shanten / discard have --lang: an error is said in the chosen language only. simulate has no --lang:
both, Chinese first where the message is built here.
"""

from __future__ import annotations

import dataclasses
import errno
import io
import re

import pytest

from companion.cli import main
from companion.game.switches import SwitchError, Switches

SWITCH_NAMES = [f.name for f in dataclasses.fields(Switches)]  # in their order, as the refusal lists them

CJK = re.compile("[\u4e00-\u9fff]")
DRAWN = "45m345p678p123s999s55z7z"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --- --sets ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["waits", "shanten", "discard"])
@pytest.mark.parametrize("sets", ["0", "-2", "45", "100"])
def test_a_bad_sets_value_is_refused_up_front_naming_the_flag(
    capsys: pytest.CaptureFixture[str], command: str, sets: str
) -> None:
    """Below 1, or past the 44 sets a hand of 136 tiles can hold (a newcomer review gave 100 and was answered)."""
    code, out, err = run(capsys, command, "--sets", sets, DRAWN, "123m")
    assert code == 2 and out == ""
    assert err == (f"companion {command}: --sets 是胡牌要湊的組數，1 到 44（十六張麻將 5，十三張 4；一手 3 × 組數 + 2 張"
                   f"要放得進 136 張牌），收到 {sets}\n")
    code, out, err = run(capsys, command, "--lang", "en", "--sets", sets, DRAWN)
    assert code == 2 and out == ""
    assert err == (f"companion {command}: --sets is the number of sets in a winning hand, 1 to 44 "
                   f"(5 for 16-tile mahjong, 4 for 13-tile games; a hand of 3 x sets + 2 tiles must fit in the 136 "
                   f"tiles), got {sets}\n")


# --- labels and language --------------------------------------------------------------------------------------


def test_the_label_of_an_argument_is_in_the_chosen_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "shanten", DRAWN, "8z")
    assert code == 1 and err == "companion: 第 2 個引數「8z」：字牌（z）只有 1-7，沒有 8（「8z」的第 1 個字，「8」）\n"
    code, _, err = run(capsys, "shanten", "--lang", "en", DRAWN, "8z")
    assert code == 1
    assert err == "companion: argument 2: “8z”: rank 8 does not exist in suit “z” (1-7) at character 1 (“8”) in “8z”\n"


@pytest.mark.parametrize(
    "hand",
    [
        "45m234s789s77p chow:345p@O",
        "45m234s789s77p pung:123m",
        "45m234s789s77p ckong:7777s@L",
        "45m234s789s77p pung:000x",
        "0x45m234s789s77p pung:999p",
        "chow:123m chow:123p chow:123s chow:789m chow:789p chow:789s 5z",
        "45m234s789s77p kong:555p",
    ],
)
@pytest.mark.parametrize("command", ["waits", "shanten", "discard"])
def test_no_refused_hand_falls_back_to_a_generic_chinese_reason(
    capsys: pytest.CaptureFixture[str], command: str, hand: str
) -> None:
    code, _, err = run(capsys, command, hand)
    assert code == 1 and err.startswith("companion: 第 1 個引數「") and "這手牌不成立" not in err
    words = re.sub(r"'[^']*'|\w+:\w+(@\w)?", "", err.removeprefix("companion: "))  # less the notation
    assert not re.search("[a-z]{3,}", words), err  # no English words in the Chinese
    code, _, err = run(capsys, command, "--lang", "en", hand)
    assert code == 1 and err.startswith("companion: argument 1: ") and not CJK.search(err.replace("上家", "")), err


# --- simulate ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("switch", "zh", "en"),
    [
        ("kong_from_left=1", "可以槓上家打的牌（kong_from_left）只能是「可以」（allowed）、「不可以」（forbidden）其中之一，收到「1」",
         "Kong on the left player's discard (kong_from_left) must be one of “allowed” (allowed), “forbidden” "
         "(forbidden); got “1”"),
        # (yes, no, on, off and the names shown are taken: typed_value)
        ("kong_from_left=maybe", "可以槓上家打的牌（kong_from_left）只能是「可以」（allowed）、「不可以」（forbidden）其中之一，"
         "收到「maybe」", "Kong on the left player's discard (kong_from_left) must be one of “allowed” (allowed), "
         "“forbidden” (forbidden); got “maybe”"),
        ("four_kongs=maybe", "四槓（four_kongs）只能是「算」（true）、「不算」（false）其中之一，收到「maybe」",
         "Four kongs (four_kongs) must be one of “on” (true), “off” (false); got “maybe”"),
        ("draw_keeps_deal=3", "流局莊家連莊（draw_keeps_deal）只能是「是」（true）、「否」（false）其中之一，收到「3」",
         "The dealer keeps the deal after a draw (draw_keeps_deal) must be one of “yes” (true), “no” (false); got “3”"),
        ("multi_win=sometimes", "一炮多響（multi_win）只能是「截胡（最近的一家胡）」（nearest）、「都胡」（all）、「截胡，三家都胡"
         "時都算」（nearest_unless_three）、「截胡，三家都胡時流局」（three_is_draw）其中之一，收到「sometimes」",
         "Several winners on one discard (multi_win) must be one of “the nearest wins” (nearest), “all of them win” "
         "(all), “the nearest, but all three when three” (nearest_unless_three), “the nearest, a draw when three” "
         "(three_is_draw); got “sometimes”"),
        ("streak_cap=x", "連莊台數最多算到（streak_cap）只能是「不限」（none）或 0 到 99 的整數（例如 3），收到「x」",
         "Streak tai counted up to (streak_cap) must be “no cap” (none) or a whole number from 0 to 99 (e.g. 3); got “x”"),
        # (said as typed, in the quotes names are said in, a number as a number: a change review read "got True",
        # "got \"it's\"", and "“N in a row” (N)" as if N were the value to type)
        ("streak_cap=true", "連莊台數最多算到（streak_cap）只能是「不限」（none）或 0 到 99 的整數（例如 3），收到「true」",
         "Streak tai counted up to (streak_cap) must be “no cap” (none) or a whole number from 0 to 99 (e.g. 3); got "
         "“true”"),
        ("streak_cap=N", "連莊台數最多算到（streak_cap）只能是「不限」（none）或 0 到 99 的整數（例如 3），收到「N」",
         "Streak tai counted up to (streak_cap) must be “no cap” (none) or a whole number from 0 to 99 (e.g. 3); got “N”"),
        ("multi_win=it's", "一炮多響（multi_win）只能是「截胡（最近的一家胡）」（nearest）、「都胡」（all）、「截胡，三家都胡"
         "時都算」（nearest_unless_three）、「截胡，三家都胡時流局」（three_is_draw）其中之一，收到「it's」",
         "Several winners on one discard (multi_win) must be one of “the nearest wins” (nearest), “all of them win” "
         "(all), “the nearest, but all three when three” (nearest_unless_three), “the nearest, a draw when three” "
         "(three_is_draw); got “it's”"),
        ("kong_from_left=05", "可以槓上家打的牌（kong_from_left）只能是「可以」（allowed）、「不可以」（forbidden）其中之一，收到「05」",
         "Kong on the left player's discard (kong_from_left) must be one of “allowed” (allowed), “forbidden” "
         "(forbidden); got “05”"),
        ("no_such=1", f"沒有這些規則開關：no_such（有這些開關：{'、'.join(SWITCH_NAMES)}）",
         f"unknown procedure switches: no_such (the switches: {', '.join(SWITCH_NAMES)})"),
        ("multiwin=all", f"沒有這些規則開關：multiwin（是不是 multi_win？有這些開關：{'、'.join(SWITCH_NAMES)}）",
         f"unknown procedure switches: multiwin (did you mean multi_win? the switches: {', '.join(SWITCH_NAMES)})"),
        ("multi_win", "--switch 要寫成 名稱=值，收到「multi_win」", "--switch wants NAME=VALUE, got “multi_win”"),
    ],
)
def test_a_bad_switch_is_explained_in_both_languages(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, switch: str, zh: str, en: str
) -> None:
    """A value is said as the app says it (a review read "multi_win is nearest, all, …", the codes alone), in the
    language COMPANION_LANG asks for, both where it asks none."""
    monkeypatch.delenv("COMPANION_LANG", raising=False)
    code, out, err = run(capsys, "simulate", "--switch", switch)
    assert code == 2 and out == ""
    assert err == f"companion simulate: 規則開關有誤：{zh} / bad procedure switch: {en}\n"
    for lang, said in (("en", f"bad procedure switch: {en}"), ("zh_TW", f"規則開關有誤：{zh}")):
        monkeypatch.setenv("COMPANION_LANG", lang)
        assert run(capsys, "simulate", "--switch", switch) == (2, "", f"companion simulate: {said}\n")


def test_switch_error_carries_chinese() -> None:
    with pytest.raises(SwitchError) as e:
        Switches.from_mapping({"kong_from_left": "maybe"})
    assert e.value.zh and CJK.search(e.value.zh) and not CJK.search(str(e.value))


class _Pipe(io.StringIO):
    """A stdout whose reader went away (or whose disk is full)."""

    def __init__(self, error: OSError) -> None:
        super().__init__()
        self.error = error

    def write(self, s: str) -> int:
        raise self.error


class _Stderr(io.StringIO):
    def close(self) -> None:  # keep the text readable after cli.main closes stderr
        self.closed_by_cli = True


def test_simulate_into_a_closed_pipe_ends_quietly(monkeypatch: pytest.MonkeyPatch) -> None:
    err = _Stderr()
    monkeypatch.setattr("sys.stdout", _Pipe(BrokenPipeError(errno.EPIPE, "Broken pipe")))
    monkeypatch.setattr("sys.stderr", err)
    assert main(["simulate", "--hands", "1"]) == 0
    assert err.getvalue() == ""


@pytest.mark.parametrize("lang", [None, "en", "zh_TW"])
def test_simulate_says_standard_output_in_chinese(monkeypatch: pytest.MonkeyPatch, lang: str | None) -> None:
    """In the language COMPANION_LANG asks for, both where it asks none (Chinese first, as every command's errors)."""
    if lang is None:
        monkeypatch.delenv("COMPANION_LANG", raising=False)
    else:
        monkeypatch.setenv("COMPANION_LANG", lang)
    err = io.StringIO()
    monkeypatch.setattr("sys.stdout", _Pipe(OSError(errno.ENOSPC, "No space left on device")))
    monkeypatch.setattr("sys.stderr", err)
    assert main(["simulate", "--hands", "1"]) == 2
    zh, en = "無法寫入標準輸出（磁碟已滿）", "cannot write standard output: No space left on device"
    said = {None: f"{zh} / {en}", "en": en, "zh_TW": zh}[lang]
    assert err.getvalue() == f"companion simulate: {said}\n"
