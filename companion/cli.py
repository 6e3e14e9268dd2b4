"""The ``companion`` command.

Each sub-command lives in its own module under :mod:`companion.commands` and exposes
``register(subparsers)``, which adds its parser and sets ``func`` (``args -> exit code``).
Modules are found by name, so adding a command never edits this file.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import companion.commands

_ARGPARSE_ZH = (
    (r"the following arguments are required: (?P<a>.+)", "缺少必要的引數：{a}"),
    (r"one of the arguments (?P<a>.+) is required", "{a} 之中要給一個"),
    (r"unrecognized arguments: (?P<a>.+)", "不認得的引數：{a}"),
    (r"argument (?P<a>\S+): invalid choice: (?P<v>.+) \(choose from (?P<c>.+)\)", "{a} 不接受 {v}，可選：{c}"),
    (r"argument (?P<a>\S+): expected one argument", "{a} 後面要接一個值"),
    (r"argument (?P<a>\S+): expected at least one argument", "{a} 後面至少要接一個值"),
    (r"argument (?P<a>\S+): expected (?P<n>\d+) arguments?", "{a} 後面要接 {n} 個值"),
    (r"argument (?P<a>\S+): invalid (?P<t>\w+) value: (?P<v>.+)", "{a} 的值 {v} 不是有效的{t}"),
    (r"argument (?P<a>\S+): not allowed with argument (?P<b>\S+)", "{a} 不能和 {b} 一起用"),
    (r"argument (?P<a>\S+): ignored explicit argument (?P<v>.+)", "{a} 不接受值 {v}"),
    (r"ambiguous option: (?P<a>\S+) could match (?P<m>.+)", "選項 {a} 不明確，可能是：{m}"),
    # a wind refused by its option's converter (companion score --seat, --discarder …)
    (r"argument (?P<a>\S+): expected a wind, E, S, W or N, its English name \(East, South, West, North\), 1z-4z or its "
     r"Chinese name, got “(?P<v>.*)”",
     "{a} 要寫風位：E（東）、S（南）、W（西）或 N（北），也可以寫英文名 East、South、West、North，或 1z-4z，或直接寫 東 南 西 北"
     "（南風 這樣也可以）；收到「{v}」"),
    # a language refused by --lang's converter (commands/_io.py _lang_option)
    (r"argument (?P<a>\S+): expected a language, (?P<l>.+) \(or a form such as zh-TW, en-US\), got “(?P<v>.*)”",
     "{a} 要寫語言：{l}（也可以寫 zh-TW、en-US 這類寫法）；收到「{v}」"),
)
"""argparse's own errors (the usage mistakes it catches before a command runs) with their Chinese."""
_TYPE_ZH = {"int": "整數", "float": "數字"}


def argparse_zh(message: str) -> str:
    """The Chinese of one of argparse's error messages (its gist when the message is not one of these)."""
    for pattern, zh in _ARGPARSE_ZH:
        m = re.fullmatch(pattern, message)
        if m:
            groups = m.groupdict()
            if "t" in groups:
                groups["t"] = _TYPE_ZH.get(groups["t"], groups["t"])
            if "l" in groups:  # the languages listed: "zh, en or both" as 「zh、en 或 both」
                groups["l"] = groups["l"].replace(", ", "、").replace(" or ", " 或 ")
            return zh.format(**groups)
    return "命令列的寫法有誤（請看上面的用法，或加 --help）"


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are said in English and Traditional Chinese (exit code 2, as
    argparse does); every sub-command's parser is one too (``add_subparsers`` makes parsers of its own class)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._positionals.title = "positional arguments / 位置引數"  # argparse's headings, said in both languages
        self._optionals.title = "options / 選項"
        # a value that starts with a minus and a digit is a value, not an option: `--stakes -30/10` reaches the stakes'
        # own check, which names what was given, where argparse said only "expected one argument" (a review)
        self._negative_number_matcher = re.compile(r"^-\.?\d")
        for action in self._actions:
            if isinstance(action, argparse._HelpAction):
                action.help = "show this help and exit / 顯示這份說明後結束"

    def _get_formatter(self) -> argparse.HelpFormatter:
        formatter = super()._get_formatter()  # argparse's ``usage:`` heading in both languages (its own wrapping)
        add_usage = formatter.add_usage

        def usage_said_twice(usage: str | None, actions: Any, groups: Any, prefix: str | None = None) -> None:
            add_usage(usage, actions, groups, "usage / 用法: " if prefix is None else prefix)

        formatter.add_usage = usage_said_twice  # type: ignore[method-assign]
        return formatter

    def format_usage(self) -> str:
        return _usage_aligned(super().format_usage())

    def format_help(self) -> str:
        return _usage_aligned(super().format_help())

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: error: {message} / 錯誤：{argparse_zh(message)}\n")


def _usage_aligned(text: str) -> str:
    """The usage's wrapped lines moved right by the two columns argparse does not count (用法 is two characters
    four columns wide), so they line up under the command's first option again."""
    head, sep, rest = text.partition("\n\n")
    lines = head.split("\n")
    if not lines[0].startswith("usage / 用法: "):
        return text
    return "\n".join([lines[0], *("  " + line if line.startswith(" ") else line for line in lines[1:])]) + sep + rest


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="companion",
        description="Table companion for Taiwanese 16-tile mahjong. / 台灣十六張麻將小幫手。",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(companion.commands.__path__), key=lambda i: i.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"companion.commands.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    try:  # (Ctrl+C while the commands load, a second after the start, is a stop like any other: no traceback)
        parser = build_parser()
        args = parser.parse_args(argv)
        if not getattr(args, "func", None):
            parser.print_help()
            return 2
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        sys.stderr.close()
        return 0
    except ValueError as e:  # a number read whole but too long to write out (4300 digits): stakes of 4300 nines
        if not str(e).startswith("Exceeds the limit"):
            raise
        print(f"companion: a number in the input is too long to work with (over {sys.get_int_max_str_digits()} "
              f"digits in a result) / 輸入裡的數字太大，算出的結果超過 {sys.get_int_max_str_digits()} 位數，無法處理",
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
