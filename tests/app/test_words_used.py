"""Every string of the app's word list is shown somewhere: words nothing shows are kept translated and reviewed
for no one (a review found seven such pairs)."""

from __future__ import annotations

import re
from pathlib import Path

import companion
from companion.app.words import UI

PACKAGE = Path(companion.__file__).parent


def test_every_key_of_the_word_list_is_used_by_the_app() -> None:
    words = PACKAGE / "app" / "words.py"
    source = "\n".join(p.read_text("utf-8") for p in PACKAGE.rglob("*.py") if p != words)
    own = words.read_text("utf-8")
    start = own.index("\nUI: dict")
    end = own.index("\n}\n", start)
    source += own[:start] + own[end:]  # the list's own code may use a key; the list itself does not count
    prefixes = set(re.findall(r"""ui\(f["']([a-z0-9_]+)\{""", source))  # keys made by name: ui(f"wind_{w}")
    assert prefixes, "the keys made by name are found"
    unused = [k for k in UI if not re.search(rf"""["']{re.escape(k)}["']""", source)
              and not any(k.startswith(p) for p in prefixes)]
    assert not unused, unused
