"""Shared plumbing for sub-commands: reading hands from arguments or stdin, reporting bad lines.

Errors are said in the language the command was asked for (``lang`` ``"zh"`` or ``"en"``); a command without
``--lang`` passes ``None`` and gets both, Traditional Chinese first.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from companion.english import chinese, shortened
from companion.hand import MeldKind


class OptionError(ValueError):
    """An option's value that does not fit one input (``--visible`` tiles that, with a hand, make a fifth copy):
    reported under the option's name and value, then the input's label. ``str(e)`` is English, ``zh`` Chinese."""

    def __init__(self, option: str, value: str, message: str, zh: str) -> None:
        super().__init__(message)
        self.option = option
        self.value = value
        self.zh = zh


def say(lang: str | None, zh: str, en: str) -> str:
    """``zh`` or ``en`` as ``lang`` asks; both (``zh / en``) when the command has no ``--lang`` (``None``)."""
    if lang is None:
        return f"{zh} / {en}"
    return zh if chinese(lang) else en


def with_zh(message: str, zh: str) -> str:
    """``message`` as it is when it already says it in Chinese, else followed by ``zh``, its gist (the vision
    commands' ``English / 中文`` for errors raised where no Chinese was written)."""
    return message if re.search("[\u4e00-\u9fff]", message) else f"{message} / {zh}"


def bad_threads(threads: int) -> tuple[str, str] | None:
    """Why ``--threads`` cannot be used, as (English, Chinese), or ``None`` (a pair, not one string split on
    ``" / "`` by its reader: an English text holding " / " would have put English in the Chinese half)."""
    from companion.vision.runtime import MAX_THREADS

    if 1 <= threads <= MAX_THREADS:
        return None
    return f"--threads must be 1-{MAX_THREADS}, got {threads}", f"--threads 須介於 1 到 {MAX_THREADS}，收到 {threads}"


def complain(prog: str, lang: str | None, zh: str, en: str) -> None:
    """One error line on stderr: ``companion waits: ...`` in the chosen language(s)."""
    print(f"{prog}: {say(lang, zh, en)}", file=sys.stderr)


LANG_ENV = "COMPANION_LANG"
"""An environment variable that sets the commands' language once (zh, en; both where a command has it), so that a
player reading English need not add --lang en to every command (a review's wish); --lang still wins."""


_LANG_SAID: set[str] = set()


class _Fallback(str):
    """The ``--lang`` default where :data:`LANG_ENV` names no language: the command's own default, marked so that
    the notice is said (by :func:`lang_code`, argparse converting the default) only for the command that runs, in
    the words of its own default (it was said while every command's parser was built, as the first one's)."""


_LANG_FORM = re.compile(r"(zh|en)(?:[-_][a-z0-9]+(?:[-_.@][a-z0-9]+)*)?")
"""A language as :func:`lang_code` takes it (lower-cased): ``zh`` or ``en`` alone, or a locale's form, the language
then ``-`` or ``_`` and more: ``zh-TW``, ``zh_TW.UTF-8``, ``zh-Hant``, ``en-US``, ``en_GB.UTF-8``."""


def lang_code(value: str) -> str:
    """How ``--lang`` and :data:`LANG_ENV` read a language: ``zh``, ``en``, a locale's form of one (``zh-TW``,
    ``zh_Hant``, ``zh_TW.UTF-8`` ask for ``zh``, ``en-US`` for ``en``: :data:`_LANG_FORM`), ``both`` in any case is
    ``both``; anything else is given back as it is, to be refused naming it. ``--lang zh-TW`` was refused though the
    help said the default is zh-TW and ``COMPANION_LANG=zh-TW`` was taken (a language review); ``zhx``, ``enfoo`` and
    ``english`` were taken as languages, anything that began with zh or en (a change review)."""
    if isinstance(value, _Fallback):
        _lang_notice(os.environ.get(LANG_ENV, ""), str(value))
        return str(value)
    code = value.strip().lower()
    form = _LANG_FORM.fullmatch(code)
    if form:
        return form.group(1)
    return code if code in ("", "both") else value


def _lang_option(choices: Sequence[str]) -> Callable[[str], str]:
    """``--lang``'s converter: the language :func:`lang_code` reads, where it is one of ``choices``; else refused,
    the value quoted as given (argparse's own refusal quoted it as Python does, ``'fr'``: a change review), in the
    words :func:`companion.cli.argparse_zh` says in Chinese."""

    def lang(value: str) -> str:
        code = lang_code(value)
        if code in choices:
            return code
        listed = f"{', '.join(choices[:-1])} or {choices[-1]}"
        raise argparse.ArgumentTypeError(f"expected a language, {listed} (or a form such as zh-TW, en-US), "
                                         f"got “{value}”")

    return lang


def add_lang_option(p: Any, en: str, zh: str, both: bool = False) -> None:
    """A command's ``--lang``: Chinese by default (both languages where ``both``), or :data:`LANG_ENV`; ``en`` and
    ``zh`` say what it is the language of. The help lists the short codes; a regional code is taken too
    (:func:`lang_code`)."""
    choices = ("zh", "en", "both") if both else ("zh", "en")
    shown_en, shown_zh = ("both", "中英並列") if both else ("zh-TW", "繁體中文")
    own = "both" if both else "zh"
    default = _Fallback(own) if _env_refused() else lang_default(own, choices)
    p.add_argument("--lang", type=_lang_option(choices), choices=choices, default=default,
                   help=f"{en} (default {shown_en}, or {LANG_ENV}) / {zh}（預設{shown_zh}，或環境變數 {LANG_ENV}）")


def _env_refused() -> bool:
    """Whether :data:`LANG_ENV` is set to something that is no language (said once by :func:`_lang_notice`)."""
    chosen = lang_code(os.environ.get(LANG_ENV, ""))
    return chosen not in ("", "zh", "en", "both")


def lang_default(default: str, choices: Sequence[str] = ("zh", "en"), told: tuple[str, str] | None = None) -> str:
    """The ``--lang`` default: :data:`LANG_ENV` where it names one of ``choices``, else ``default`` (``both`` for a
    command without it, ``""`` where the caller says both itself). A language is read by the one rule
    (:func:`lang_code`): ``zh_TW`` and ``zh-Hant`` ask for Chinese, ``en-US`` for English (both were left aside, and
    the output was Chinese: a review). A value that is none of these languages is said on stderr once
    (:func:`_lang_notice`) and left aside; ``told``, (English, Chinese), says there what is used instead, where the
    command does more than say ``default``'s language."""
    given = os.environ.get(LANG_ENV, "")
    chosen = lang_code(given)
    if chosen in choices:
        return chosen
    if chosen not in ("", "zh", "en", "both"):
        _lang_notice(given, default, told)
    return default


def _lang_notice(given: str, used: str, told: tuple[str, str] | None = None) -> None:
    """Said on stderr once per value: :data:`LANG_ENV` names no language, so the command's own default ``used`` is
    (named: it read 「不用」, "don't use", and quoted the value as Python does: a language review). The value is
    quoted as given (a review read ``'fr-ca'`` for ``FR-CA``)."""
    if given in _LANG_SAID:
        return
    _LANG_SAID.add(given)
    en, zh = told or (("Chinese", "中文") if used == "zh" else ("English", "英文") if used == "en" else
                      ("both languages", "中英並列"))
    print(f"{LANG_ENV} “{given}” is not zh, en or both: left aside, using {en} / "
          f"環境變數 {LANG_ENV} 的值「{given}」不是 zh、en 或 both：已略過，改用{zh}", file=sys.stderr)


STDIN_HINT = {"hands": ("每行一手牌", "one hand per line", "也可以把牌直接寫在指令後面", "or give the hands as arguments"),
              "wins": ("每行一個 JSON 物件", "one JSON object per line", "也可以在指令後面給 JSON lines 檔案",
                       "or give JSON-lines files as arguments")}
"""Per kind of input: what a line is, and what an argument is (a ``tai`` argument is a file: a newcomer told
"give them as arguments" gave the JSON itself and was told no such file)."""


def end_of_input_keys() -> tuple[str, str]:
    """(Chinese, English) of the keys that end typed input: Ctrl+D, and Ctrl+Z then Enter on Windows."""
    if os.name == "nt":
        return "先按 Ctrl+Z 再按 Enter", "Ctrl+Z then Enter"
    return "按 Ctrl+D", "Ctrl+D"


def stdin_hint(what: str) -> None:
    """Said once on stderr when a command with nothing to read reads a terminal: a newcomer who typed the
    command alone saw nothing happen and took it for hung (a review)."""
    if sys.stdin is not None and sys.stdin.isatty():
        zh, en, args_zh, args_en = STDIN_HINT[what]
        end_zh, end_en = end_of_input_keys()
        print(f"reading {en} from the keyboard; {end_en} ends ({args_en}) / "
              f"從鍵盤讀入，{zh}；{end_zh} 結束（{args_zh}）", file=sys.stderr)


def input_labels(items: Sequence[str]) -> Iterator[tuple[str, str, str]]:
    """(Chinese label, English label, text) for each argument, or for each non-blank stdin line when there
    are none: ``第 2 個引數`` / ``argument 2``, ``第 3 行`` / ``line 3``."""
    if items:
        for i, text in enumerate(items, 1):
            yield f"第 {i} 個引數", f"argument {i}", text
        return
    stdin_hint("hands")
    for n, line in enumerate(sys.stdin, 1):
        line = line.lstrip("\ufeff") if n == 1 else line  # a byte-order mark an editor put first (a review)
        if line.strip():
            yield f"第 {n} 行", f"line {n}", line.rstrip("\n")


def run_batch(items: Sequence[str], handle: Callable[[str], None], lang: str | None = None) -> int:
    """Call ``handle`` on each input; a ``ValueError`` is reported on stderr with its line (in ``lang``, see
    :func:`say`) and the batch goes on. Returns the exit code: 0 if every input was handled, 1 otherwise."""
    failed = 0
    for label_zh, label_en, text in input_labels(items):
        short = shortened(text.strip())  # (a review's 10,000-character argument came back whole)
        shown_zh, shown = f"「{short}」", f"“{short}”"  # (quoted as a reader quotes, not as Python does)
        byte = not_utf8_at(text)
        if byte is not None:  # bytes that are no UTF-8 text, as the decoder left them (as `tai` says it)
            failed += 1
            complain("companion", lang, f"{label_zh}：不是 UTF-8 文字（第 {byte} 個位元組）",
                     f"{label_en}: not UTF-8 text (byte {byte})")
            continue
        try:
            handle(text)
        except ValueError as e:
            failed += 1
            if isinstance(e, OptionError):
                zh = f"{e.option}「{e.value}」（{label_zh}{shown_zh}）：{e.zh}"
                en = f"{e.option} “{e.value}” ({label_en} {shown}): {e}"
            else:
                zh = f"{label_zh}{shown_zh}：{zh_reason(e)}"
                en = f"{label_en}: {shown}: {e}"
            complain("companion", lang, zh, en)
    if failed and len(items) > 1 and any(_MELD_WORD.fullmatch(x.strip()) for x in items[1:]):
        # a hand copied without its quotes: each word read as a hand of its own, three errors and no word of why
        together = shortened(repr(" ".join(x.strip() for x in items)))  # (a newcomer review)
        complain("companion", lang, f"每個引數是一手牌：牌和它的吃碰槓要放在同一對引號裡，例如 {together}",
                 f"each argument is one hand: put a hand and its melds in one pair of quotes, e.g. {together}")
    return 1 if failed else 0


_MELD_WORD = re.compile(rf"({'|'.join(k.value for k in MeldKind)}):\S*", re.IGNORECASE)
"""An argument that is one meld alone (``kong:6666m@R``): a part of a hand, not a hand (a hand quoted whole may begin
with its melds: no hint for it)."""


def not_utf8_at(text: str) -> int | None:
    """Where (the 1-based byte) ``text`` holds a byte that was no UTF-8 (read with ``surrogateescape``); None if
    none."""
    i = next((k for k, c in enumerate(text) if "\udc80" <= c <= "\udcff"), None)
    return None if i is None else len(text[:i].encode("utf-8", "surrogateescape")) + 1


def zh_reason(e: ValueError) -> str:
    """What is wrong with a refused input, in Traditional Chinese (``str(e)`` says it in English)."""
    from companion.hand import HandError

    zh = getattr(e, "zh", "")  # HandError, NotationError, CopyLimitError, OptionError, SwitchError
    if isinstance(zh, str) and zh:
        return zh
    if isinstance(e, HandError):
        return f"這手牌不成立（{e}）"
    return f"輸入有誤（{e}）"


def cannot_read(name: str, error: OSError) -> tuple[str, str]:
    """(zh, en) of a file that cannot be opened or read: its name and the system's reason, as the commands say it."""
    from companion.rules.profiles import os_error_zh

    return f"無法讀取 {name}（{os_error_zh(error)}）", f"cannot read {name}: {error.strerror or error}"


def folder_missing(path: Path, folder: bool = False) -> tuple[str, str] | None:
    """(English, Chinese) saying that the folder ``path`` would be written into is not there, or ``None`` when it is:
    a file is written only into a folder that exists (a typo in a folder's name would leave a stray folder behind),
    as ``read``/``score --annotate`` and ``calibrate sheet`` say it. A file that stands where a folder must be is
    named as a file (:func:`companion.files.file_in_the_way`: ``sheet X/sheet.pdf``, ``X`` a file, was said to have
    no folder ``X``). ``folder``: ``path`` is a folder to be made itself (``calibrate photo --crops``), so a file
    there is in its way too."""
    from companion.files import file_in_the_way, in_the_way_said

    blocker = file_in_the_way(path if folder else path.parent)
    if blocker is not None:  # (a link that loops there was said "does not exist": a review)
        return in_the_way_said(blocker)
    if path.parent.is_dir():
        return None
    return f"the folder {path.parent} does not exist", f"資料夾 {path.parent} 不存在"


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")))
