"""Values a player typed, said back as he typed them: a JSON value as JSON writes it (``"3s3s"``, ``true``,
``null``), never as Python does (``'3s3s'``, ``True``, ``None``).

Its own module, below :mod:`companion.rules.win` and :mod:`companion.rules._win_json`, which both say values back
(``win`` imported it from ``_win_json`` inside a function, to dodge a circular import: a change review).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

__all__ = ["json_said", "json_written"]


def json_written(value: Any, at_most: int = 80) -> str:
    """``value`` as a JSON file writes it (``true``, ``null``, ``"1"``, ``{"tile": "10m"}``), cut short with ``…``
    where longer than ``at_most``, a text keeping its closing quote. The one spelling of a value said back: a log's
    whole line (:func:`companion.game.events.as_written`) and a single value (:func:`json_said`) alike (a review read
    one cut at 40 with the quote and one at 80 without)."""
    try:
        said = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # (not from a JSON file: an object made in Python)
        said = repr(value)
    if len(said) <= at_most:
        return said
    if isinstance(value, str):
        return said[:at_most - 2] + "…\""
    return said[:at_most - 1] + "…"


def json_said(value: Any, *, whole: bool = False) -> tuple[str, str]:
    """A JSON value as its line wrote it, in plain words (English, Chinese), not as Python spells it: ``true (a
    yes/no)``, ``null (no value)``, ``a list [...]``, ``an object {...}``, ``"7z"``, ``3``; a number written with a point or
    an exponent is said so (a review read ``got list``, ``got True`` and ``got 1000000000.0`` for ``1e9``). ``whole``
    says a list's or an object's items too (``a list ["2", true]``), where a file's line is said back."""
    if isinstance(value, bool):
        word = "true" if value else "false"
        return f"{word} (a yes/no)", f"{word}（是非值）"
    if value is None:
        return "null (no value)", "null（空值）"
    if isinstance(value, list):  # ``whole``: its items said too, where a file's line is said back (a review)
        shown = json_written(value, 40) if whole else "[...]"
        return f"a list {shown}", f"清單 {shown}"
    if isinstance(value, Mapping):
        shown = json_written(value, 40) if whole else "{...}"
        return f"an object {shown}", f"物件 {shown}"
    if isinstance(value, float):
        shown = repr(value)
        if value.is_integer() and abs(value) >= 1e6:  # 1e9 as written, not 1000000000.0
            mantissa, _, exponent = f"{value:g}".partition("e")
            shown = f"{mantissa}e{int(exponent)}" if exponent else shown
        return (f"{shown} (a number with a point or an exponent: write a whole number in digits alone)",
                f"{shown}（有小數點或指數的數字：整數請只用數字寫）")
    if isinstance(value, str):
        shown = json_written(value, 40)
        return shown, shown
    return str(value), str(value)
