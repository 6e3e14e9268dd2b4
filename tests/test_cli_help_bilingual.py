"""Every sub-command's help, and every option's and positional's, is in English and Traditional Chinese."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator

import pytest

from companion.cli import build_parser, main

_CJK = re.compile(r"[\u4e00-\u9fff]")
_ASCII_LETTER = re.compile(r"[A-Za-z]")


def _is_bilingual(text: str) -> bool:
    return bool(_CJK.search(text)) and bool(_ASCII_LETTER.search(text))


def _subparsers(parser: argparse.ArgumentParser) -> Iterator[argparse._SubParsersAction]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            yield action


_Walked = tuple[tuple[str, ...], argparse.ArgumentParser]


def _walk(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[_Walked]:
    """Every parser under ``parser`` (itself first) with the sub-command names that lead to it."""
    yield path, parser
    for action in _subparsers(parser):
        for name, child in action.choices.items():
            yield from _walk(child, (*path, name))


def _command_paths() -> list[tuple[str, ...]]:
    return [path for path, _ in _walk(build_parser()) if path]


def _sub_command_helps() -> list[tuple[str, str | None]]:
    """``(command path, help)`` of every sub-command (the help ``add_parser`` got, as the listing shows)."""
    out = []
    for path, parser in _walk(build_parser()):
        for action in _subparsers(parser):
            for choice in action._choices_actions:
                out.append((" ".join((*path, choice.dest)), choice.help))
    return out


def _argument_helps() -> list[tuple[str, str]]:
    """``(command path and argument, help)`` of every option and positional that has a help shown."""
    out = []
    for path, parser in _walk(build_parser()):
        for action in parser._actions:
            if isinstance(action, (argparse._HelpAction, argparse._SubParsersAction)):
                continue
            if action.help is None or action.help == argparse.SUPPRESS:
                continue
            name = "/".join(action.option_strings) or action.dest
            out.append((f"{' '.join(path) or 'companion'} {name}", action.help))
    return out


def test_the_walk_finds_every_command_and_the_nested_ones() -> None:
    paths = _command_paths()
    for command in ("waits", "shanten", "discard", "tai", "simulate", "replay", "read", "classify",
                    "calibrate", "score"):
        assert (command,) in paths
    for op in ("sheet", "photo", "add", "list", "use", "delete"):
        assert ("calibrate", op) in paths


@pytest.mark.parametrize(("command", "help_text"), _sub_command_helps(), ids=lambda v: str(v)[:40])
def test_every_sub_command_help_is_bilingual(command: str, help_text: str | None) -> None:
    assert help_text is not None, f"{command}: no help"
    assert _is_bilingual(help_text), f"{command}: help not in both languages: {help_text!r}"


@pytest.mark.parametrize(("argument", "help_text"), _argument_helps(), ids=lambda v: str(v)[:40])
def test_every_argument_help_is_bilingual(argument: str, help_text: str) -> None:
    assert _is_bilingual(help_text), f"{argument}: help not in both languages: {help_text!r}"


@pytest.mark.parametrize("path", _command_paths(), ids=" ".join)
def test_help_of_every_command_runs(path: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main([*path, "--help"])
    assert exc.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage / 用法: companion {' '.join(path)}")
    assert _CJK.search(out)
    assert "options / 選項:" in out and "\noptions:" not in out  # argparse's headings said twice
    assert "\npositional arguments:" not in out
    assert "-h, --help" in out and "顯示這份說明後結束" in out


def test_a_wrapped_usage_lines_up_under_the_command_s_first_option(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # (argparse wraps to the terminal's width: a wide one did not wrap at all)
    with pytest.raises(SystemExit):
        main(["app", "--help"])
    lines = capsys.readouterr().out.split("\n\n")[0].splitlines()
    assert len(lines) > 1  # the app's usage wraps
    first = lines[0].index("[-h]")
    width = first + len(_CJK.findall(lines[0]))  # 用法 is two characters four columns wide
    assert all(len(line) - len(line.lstrip()) == width for line in lines[1:]), lines


def test_the_tai_helps_switch_example_is_a_value_the_command_takes() -> None:
    """`companion tai --help` showed "discard_kong_replacement_win": "allowed", which the command refused (a review)."""
    import re

    from companion.commands.tai import FIELDS
    from companion.rules.profiles._schema import check_switch

    line = next(x for x in FIELDS.splitlines() if x.strip().startswith("switches"))
    shown = re.findall(r'"(\w+)": "(\w+)"', line)
    assert shown
    for name, value in shown:
        assert check_switch(name, value, "help") == value
