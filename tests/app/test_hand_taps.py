"""My hand without a browser: the tile tapped after a kong or a discard goes into the hand, whatever field took the
palette before, and whatever focus Flutter gives back as the button tapped goes with the redraw (the order of the
events as chromium sends them, measured in ``test_hand_taps_browser``)."""

from __future__ import annotations

import flet as ft
import pytest

from companion.app.hand_model import HandPanel, after_discard, analyse, with_tile
from companion.app.view_hand import HandTab
from tests.app.test_photo_picks import _drawn, _tapped
from tests.app.test_tabs_beside_a_live_table import _Host

HAND = "1111m2345p567s789s22z3z"  # drawn: a concealed kong of 1m, or a discard


def _button(control: object, identifier: str) -> ft.OutlinedButton:
    """The play's button drawn with ``identifier`` (test_photo_picks' finder of a drawn control)."""
    button = _drawn(control, identifier)
    assert isinstance(button, ft.OutlinedButton)
    return button


@pytest.mark.parametrize("typed", [False, True], ids=["seen-tapped", "seen-typed"])
@pytest.mark.parametrize("play", ["hand-kong-1m", "hand-discard-3z"])
def test_the_tile_after_a_kong_or_a_discard_goes_into_the_hand(play: str, typed: bool) -> None:
    tab = HandTab(_Host())
    drawn = tab.build()
    tab.set_hand(HAND)
    tab.visible.on_focus()  # the tiles seen tapped: the palette types there
    if typed:
        tab.visible.value = "9m"
        tab.visible.on_change()
    else:
        _tapped(drawn, "hand-key-9m")
        tab.visible.on_blur()  # the tap outside the field takes its focus away
    assert tab.visible.value == "9m" and tab.hand.value == HAND
    button = _button(tab.result, play)
    if typed:  # the field still focused: the button takes the focus from it, and gets it back once the button goes
        tab.visible.on_blur()
        button.on_focus()
        button.on_click()
        tab.visible.on_focus()
    else:
        button.on_focus()
        button.on_click()
    after = tab.hand.value
    panel = analyse(HAND)
    assert isinstance(panel, HandPanel)
    kong = next(k.hand for k in panel.kongs if k.tile == "1m")
    assert after == (kong if play.startswith("hand-kong") else after_discard(HAND, "3z"))
    seen = tab.visible.value
    _tapped(drawn, "hand-key-6p")  # the replacement, or the next tile drawn
    assert tab.hand.value == with_tile(after, "6p") and tab.visible.value == seen


def test_the_tiles_seen_tapped_after_a_play_take_the_palette_again() -> None:
    """A tap on the tiles seen after the play is the player's: the palette types there again."""
    tab = HandTab(_Host())
    drawn = tab.build()
    tab.set_hand(HAND)
    tab.visible.on_focus()
    _tapped(drawn, "hand-key-9m")
    tab.visible.on_blur()
    _button(tab.result, "hand-kong-1m").on_click()  # (no focus taken: no accessibility tree)
    tab.visible.on_focus()
    _tapped(drawn, "hand-key-9s")
    assert tab.visible.value == "9m9s"


def test_a_tap_on_the_field_a_play_took_the_focus_from_is_the_players_later(monkeypatch: pytest.MonkeyPatch) -> None:
    """A change review: where the browser gives no focus back after a play, the player's own tap on the tiles seen
    was taken for the focus coming back, and swallowed once; a focus later than a redraw is the player's."""
    from companion.app import view_hand

    now = [100.0]
    monkeypatch.setattr(view_hand.time, "monotonic", lambda: now[0])
    tab = HandTab(_Host())
    drawn = tab.build()
    tab.set_hand(HAND)
    tab.visible.on_focus()
    tab.visible.value = "9m"
    tab.visible.on_change()
    tab.visible.on_blur()
    button = _button(tab.result, "hand-discard-3z")
    button.on_focus()
    button.on_click()  # the field gets no focus back
    hand, seen = tab.hand.value, tab.visible.value
    now[0] += 5  # the player taps the tiles seen a while later
    tab.visible.on_focus()
    _tapped(drawn, "hand-key-9s")
    assert tab.hand.value == hand and tab.visible.value == f"{seen}9s"
