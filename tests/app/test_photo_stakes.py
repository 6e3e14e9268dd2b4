"""The Score tab's stakes typed (a settlement review: they came only from seven presets, 30/10 to 500/100, so a
20/5 or a 50/10 table was charged the wrong money): read as ``--stakes`` reads them, the presets a quick pick."""

from __future__ import annotations

import re

import flet as ft
import pytest

from companion.app.photo_model import STAKES, PhotoContext, PhotoPanel, score_typed_hand, stakes_typed
from companion.app.view_photo import PhotoTab
from companion.app.words import Words, ui
from companion.commands.tai import parse_stakes
from companion.rules.settlement import Stakes
from companion.rules.win import WinInputError
from tests.app.test_tabs_beside_a_live_table import _Host, _source, _texts

HAND = "1112345678999m123p5m"
CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


@pytest.mark.parametrize(("typed", "plain"), [("20/5", "20/5"), ("50/10", "50/10"), ("２０／５", "20/5"),
                                              (" 50 ／ 10 ", "50/10"), ("0/0", "0/0"), ("30/10", "30/10")])
def test_stakes_typed_are_read_as_the_command_reads_them(typed: str, plain: str) -> None:
    assert stakes_typed(typed) == plain
    assert parse_stakes(typed.strip()) == Stakes(*(int(x) for x in plain.split("/")))


@pytest.mark.parametrize("typed", ["", "  ", "20-5", "20/", "/5", "-20/5", "a/b", "²/1", "20/5/1", "99999999/1",
                                   "1" * 5000 + "/1"])
def test_stakes_that_cannot_be_read_are_said_naming_the_box_in_both_languages(typed: str) -> None:
    said = stakes_typed(typed)
    assert isinstance(said, Words)
    box = ui("stakes")
    assert said.zh.startswith(f"「{box.zh}」") and said.en.startswith(f"{box.en}: ")
    assert not CJK.search(said.en), said.en
    if typed.strip():  # the command says it alike (one parser), naming its option
        with pytest.raises(WinInputError) as bad:
            parse_stakes(typed)
        assert bad.value.reason in said.en and bad.value.zh in said.zh


def test_the_tab_scores_with_the_stakes_typed_and_keeps_a_mistake_to_mend() -> None:
    """On the tab: 20/5 typed (full-width, as a Chinese keyboard types it) pays 20 + 5 a tai; a mistake is said with
    the stakes the score is still at, left in the box, the score unchanged; a quick pick sets the box."""
    tab = PhotoTab(_Host(), _source())
    tab.score_typed(HAND)
    assert isinstance(tab.shown, PhotoPanel) and tab.context.stakes == "30/10"
    tab.build()
    assert tab.stakes_field.value == "30/10" and not tab.stakes_field.disabled
    tab.stakes_field.value = "２０／５"
    tab.set_stakes()  # Enter, or leaving the box
    want = score_typed_hand(HAND, PhotoContext().as_context(), Stakes(20, 5))
    assert isinstance(want, PhotoPanel) and tab.context.stakes == "20/5"
    at_30 = score_typed_hand(HAND, PhotoContext().as_context())
    assert isinstance(tab.shown, PhotoPanel) and isinstance(at_30, PhotoPanel)
    assert tab.shown.payments == want.payments != at_30.payments
    tab.build()
    assert tab.stakes_field.value == "20/5"  # written plainly
    before = tab.shown
    tab.stakes_field.value = "20-5"
    tab.set_stakes()
    shown = _texts(tab.build())
    assert tab.stakes_field.value == "20-5" and tab.context.stakes == "20/5" and tab.shown is before
    said = tab.stakes_error
    assert said is not None and (said + ui("photo_stakes_kept", base=20, per_tai=5)).en in shown
    # a quick pick: the presets are the tab's, beside the box
    menu = _menu(tab.build())
    assert [i.content for i in menu.items] == list(STAKES)
    menu.items[1].on_click()
    assert tab.context.stakes == STAKES[1] == tab.stakes_field.value and tab.stakes_error is None
    assert not any("still at" in x for x in _texts(tab.build()))


def _menu(control: ft.Control) -> ft.PopupMenuButton:
    stack = [control]
    while stack:
        c = stack.pop()
        if isinstance(c, ft.PopupMenuButton):
            return c
        for name in ("content", "controls"):
            v = getattr(c, name, None)
            if isinstance(v, list):
                stack += v
            elif isinstance(v, ft.Control):
                stack.append(v)
    raise AssertionError("no presets' menu on the tab")
