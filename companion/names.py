"""Names as a player sees them, for every layer: a rule set's, a tile set's, a player's. Two names that show alike
are one name to the people at the table, so the names a host gives are compared as they show, by one folding
(a review saved "Home" beside "Home  rules"-like twins: two spaces, a variation selector, a Hangul filler, a space
left at the end by the command line).

:func:`shown_name` is a name as it shows, its case kept; :func:`name_key` also folds the case, for names that must
differ in more than their case. :func:`in_chinese` is a name as a Chinese sentence writes it, and
:func:`chinese_filled` a Chinese template filled with names so.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Collection, Mapping
from string import Formatter

__all__ = ["chinese_filled", "in_chinese", "name_key", "shown_name"]

_BLANK = frozenset(
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers (NFKC turns U+3164 and U+FFA0 into U+1160)
    "\u17b4\u17b5"  # Khmer inherent vowels, shown as nothing
    "\u180b\u180c\u180d\u180e\u180f"  # Mongolian variation selectors and vowel separator
    "\u2800"  # braille pattern blank
)
"""Characters that show nothing and are neither spaces nor format characters (Cf)."""


def _shows_nothing(c: str) -> bool:
    if c in _BLANK or "\ufe00" <= c <= "\ufe0f" or "\U000e0100" <= c <= "\U000e01ef":  # (variation selectors)
        return True
    return unicodedata.category(c) in ("Cf", "Cc", "Cs")  # format, control, a lone surrogate


def shown_name(name: str) -> str:
    """``name`` as it shows: its compatibility forms folded (NFKC: full-width letters, the ideographic space), the
    characters that show nothing taken out (zero-width spaces and joiners, variation selectors, fillers), each run
    of white space one space, and none at either end. The case is kept."""
    folded = unicodedata.normalize("NFKC", name)
    kept = "".join(" " if c.isspace() else c for c in folded if c.isspace() or not _shows_nothing(c))
    return " ".join(kept.split())


def name_key(name: str) -> str:
    """What two names that look alike share: :func:`shown_name` with the case folded too (``Ｈｏｍｅ``, ``home`` and
    ``Home\u200b`` are one name to a player)."""
    return shown_name(name).casefold()


def _chinese_letter(c: str) -> bool:
    """A Chinese character (wide, a letter: not the wide punctuation 「：（」, which takes no space)."""
    return c.isalnum() and unicodedata.east_asian_width(c) in "WF"


def _latin_letter(c: str) -> bool:
    """A letter or digit of a narrow script: Latin (accented too), a digit."""
    return c.isalnum() and unicodedata.east_asian_width(c) not in "WF"


def in_chinese(name: str, before: str = "", after: str = "") -> str:
    """``name`` as a Chinese sentence writes it between the text ``before`` and ``after``: a space where a Latin
    letter or digit at its edge meets a Chinese character (「C 不是 A 的下家」, 「B 已報聽」), none where Chinese meets
    Chinese (「小華不是小美的下家」) or punctuation (「：Bob」). A review read 「C不是A的下家」 beside the Live tab's
    「B 打了」."""
    if not name:
        return name
    lead = " " if before and _chinese_letter(before[-1]) and _latin_letter(name[0]) else ""
    trail = " " if after and _chinese_letter(after[0]) and _latin_letter(name[-1]) else ""
    return lead + name + trail


def chinese_filled(template: str, fill: Mapping[str, object], names: Collection[str] | None = None) -> str:
    """The Chinese ``template`` filled from ``fill``, each text filled into a field of ``names`` (every field when
    None) spaced from what is beside it as :func:`in_chinese` writes a name (「C 不是 A 的下家」, 「小美現在不能報聽」);
    numbers and the other fields are filled as they are (the templates space them where they should be)."""
    parts: list[tuple[str, bool]] = []
    for literal, field, spec, conversion in Formatter().parse(template):
        if literal:
            parts.append((literal, False))
        if field is not None:
            value = fill[field]
            value = Formatter().convert_field(value, conversion) if conversion else value
            named = isinstance(value, str) and (names is None or field in names)
            parts.append((format(value, spec or ""), named))
    out = ""
    for i, (text, named) in enumerate(parts):
        after = next((t for t, _ in parts[i + 1:] if t), "")
        out += in_chinese(text, out, after) if named else text
    return out
