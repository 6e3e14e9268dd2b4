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
            print(f"companion: {label}: {text.strip()!r}: {e}", file=sys.stderr)
    return 1 if failed else 0


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False, separators=(", ", ": ")))
