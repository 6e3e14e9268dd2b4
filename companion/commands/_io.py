"""Shared plumbing for sub-commands: reading hands from arguments or stdin, reporting bad lines."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any


def input_lines(items: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(label, text) for each argument, or for each non-blank stdin line when there are none."""
    if items:
        for i, text in enumerate(items, 1):
            yield f"argument {i}", text
        return
    for n, line in enumerate(sys.stdin, 1):
        if line.strip():
            yield f"line {n}", line.rstrip("\n")


def run_batch(items: Sequence[str], handle: Callable[[str], None]) -> int:
    """Call ``handle`` on each input; a ``ValueError`` is reported on stderr with its line and the
    batch goes on. Returns the exit code: 0 if every input was handled, 1 otherwise."""
    failed = 0
    for label, text in input_lines(items):
        try:
            handle(text)
        except ValueError as e:
            failed += 1
            print(f"companion: {label}: {text.strip()!r}: {zh_reason(e)} / {e}", file=sys.stderr)
    return 1 if failed else 0


def zh_reason(e: ValueError) -> str:
    """The gist of a refused hand in Traditional Chinese, for the line that also gives the English detail."""
    from companion.hand import HandError
    from companion.tiles import CopyLimitError, NotationError

    if isinstance(e, NotationError):
        char = e.text[e.position] if 0 <= e.position < len(e.text) else ""
        return f"看不懂這個寫法（位置 {e.position}，{char!r}）" if char else "看不懂這個寫法"  # counted as in English
    if isinstance(e, CopyLimitError):
        return f"{e.tile.zh}有 {e.count} 張，一副牌只有 {e.tile.max_copies} 張"
    if isinstance(e, HandError):
        return e.zh or "這手牌不成立（張數或組合不對）"
    return "輸入有誤"


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")))
