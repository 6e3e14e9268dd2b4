"""The Score tab's stakes box gave two examples: its hint said 例如 20/5 and its refusal of "20-5" 例如 30/10 (the
rules' own, which ``--stakes`` says too): one example now, wherever the box speaks (a change review)."""

from __future__ import annotations

import re

from companion.app.photo_model import stakes_typed
from companion.app.view_photo import PhotoTab
from companion.app.words import Words, ui
from tests.app.test_tabs_beside_a_live_table import _Host, _source

EXAMPLE = re.compile(r"\d+/\d+")


def _examples(*said: str) -> set[str]:
    return {x for s in said for x in EXAMPLE.findall(s)}


def test_the_stakes_box_gives_one_example_in_its_hint_and_its_refusals() -> None:
    tab = PhotoTab(_Host(), _source())
    tab.score_typed("1112345678999m123p5m")
    tab.build()
    hint = tab.stakes_field.hint_text
    assert isinstance(hint, str) and _examples(hint)
    bad, missing = stakes_typed("20-5"), stakes_typed("")
    assert isinstance(bad, Words) and isinstance(missing, Words)
    for lang in ("zh", "en"):
        said = [getattr(w, lang) for w in (ui("photo_stakes_hint"), bad, missing)]
        assert _examples(*said) == _examples(hint) == {"30/10"}, said
