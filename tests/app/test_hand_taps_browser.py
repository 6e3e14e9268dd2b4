"""My hand on a phone (390 x 844) in a real browser: after a tile entered into the tiles seen, the palette's next tile
after the kong and discard buttons is the one drawn, and goes into the hand (it went into the tiles seen: a review).
Typed, the tiles seen keep the focus until the button takes it, and Flutter gives it back to their field when the
button goes with the redraw: that focus is not the player's. (Chromium + playwright, as ``test_app_browser``, whose
helpers drive the page.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.hand_model import HandPanel, after_discard, analyse, with_tile
from companion.app.server import asgi_app
from companion.app.table_model import DEMO_HANDS, GameReplay
from companion.app.words import ui
from tests.app.serving import served
from tests.app.test_app_browser import (
    RERUN,
    _open,
    browser,
    tap,
    type_into,
    wait_shown,
    wait_text,
)

__all__ = ["browser"]  # the fixture, shared with the app's other browser tests

pytestmark = [pytest.mark.timeout(240), RERUN]

HAND = "1111m2345p567s789s22z3z"  # drawn (17 tiles): a concealed kong of 1m, or a discard
SEEN = "9m"


@pytest.fixture
def page(browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))  # (the server runs in this process)
    app = asgi_app(GameReplay.demo(), ui("demo_note", hands=DEMO_HANDS))
    with served(app) as url:
        page = _open(browser, url)
        try:
            page.set_viewport_size({"width": 390, "height": 844})
            yield page
        finally:
            page.close()


def _seen_entered(page: Any, typed: bool) -> None:
    """The hand typed, then a tile entered into the tiles seen: typed on the keyboard (the field keeps the focus),
    or tapped on the palette (the tap outside the field takes its focus away)."""
    tap(page, "tab-hand")
    wait_shown(page, "hand-field")
    type_into(page, "hand-field", HAND)
    wait_text(page, "hand-headline", _headline(HAND, ""))
    if typed:
        type_into(page, "visible-field", SEEN)
    else:
        tap(page, "visible-field")  # focused, as a finger does
        tap(page, f"hand-key-{SEEN}")
    wait_text(page, "hand-headline", _headline(HAND, SEEN))


def _headline(hand: str, seen: str) -> str:
    panel = analyse(hand, seen)
    assert isinstance(panel, HandPanel), panel
    return panel.headline.zh


@pytest.mark.parametrize("typed", [False, True], ids=["seen-tapped", "seen-typed"])
def test_the_tile_tapped_after_a_kong_is_the_replacement_drawn_into_the_hand(page: Any, typed: bool) -> None:
    kong = next(k for k in _panel(HAND).kongs if k.tile == "1m")
    drawn = with_tile(kong.hand, "6p")
    assert _headline(drawn, SEEN) != _headline(kong.hand, SEEN + "6p")  # the two fields tell apart
    _seen_entered(page, typed)
    tap(page, "hand-kong-1m")
    wait_text(page, "hand-headline", _headline(kong.hand, SEEN))
    tap(page, "hand-key-6p")  # the replacement tile ("tap the replacement tile you draw")
    wait_text(page, "hand-headline", _headline(drawn, SEEN))


@pytest.mark.parametrize("typed", [False, True], ids=["seen-tapped", "seen-typed"])
def test_the_tile_tapped_after_a_discard_is_the_next_drawn_into_the_hand(page: Any, typed: bool) -> None:
    after = after_discard(HAND, "3z")
    drawn = with_tile(after, "6p")
    assert _headline(drawn, SEEN + "3z") != _headline(after, SEEN + "3z6p")
    _seen_entered(page, typed)
    tap(page, "hand-discard-3z")
    wait_text(page, "hand-headline", _headline(after, SEEN + "3z"))  # the discard counted as seen
    tap(page, "hand-key-6p")  # the next tile drawn
    wait_text(page, "hand-headline", _headline(drawn, SEEN + "3z"))


def _panel(hand: str) -> HandPanel:
    panel = analyse(hand)
    assert isinstance(panel, HandPanel), panel
    return panel
