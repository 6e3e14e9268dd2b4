"""The Score tab's stakes typed, on a phone (390 x 844) in a real browser: 20/5 typed full-width pays 20 + 5 a tai,
a mistake is said and kept in the box, a preset is a tap away (see test_photo_stakes.py for the model)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.photo_model import PhotoContext, PhotoPanel, score_typed_hand
from companion.app.server import PhotoReader, asgi_app
from companion.app.table_model import DEMO_HANDS, GameReplay
from companion.app.ui_kit import ID_PHOTO_TOTAL
from companion.app.words import ui
from companion.rules.settlement import Stakes
from tests.app.serving import served
from tests.app.test_app_browser import (
    BOX_JS,
    RERUN,
    STILL_MS,
    _click,
    _open,
    _sel,
    browser,
    centre,
    tap,
    type_into,
    wait_text,
)

__all__ = ["browser"]  # the fixture, shared with the app's other browser tests

pytestmark = [pytest.mark.timeout(240), RERUN]

HAND = "1112345678999m123p5m"


@pytest.fixture
def page(browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))  # (the server runs in this process)
    app = asgi_app(GameReplay.demo(), ui("demo_note", hands=DEMO_HANDS), photos=PhotoReader())
    with served(app) as url:
        page = _open(browser, url)
        try:
            page.set_viewport_size({"width": 390, "height": 844})
            yield page
        finally:
            page.close()


def test_stakes_are_typed_on_a_phone_and_a_mistake_is_kept_to_mend(page: Any) -> None:
    at_20 = score_typed_hand(HAND, PhotoContext().as_context(), Stakes(20, 5))
    at_100 = score_typed_hand(HAND, PhotoContext().as_context(), Stakes(100, 20))
    assert isinstance(at_20, PhotoPanel) and isinstance(at_100, PhotoPanel)
    tap(page, "tab-photo")
    page.wait_for_selector(_sel(ID_PHOTO_TOTAL), state="visible")  # the bundled photo scored first
    type_into(page, "typed-field", HAND)
    page.locator(f"{_sel('typed-field')} input").first.press("Enter")
    wait_text(page, ID_PHOTO_TOTAL, at_20.total.zh)
    # the box and its presets lie on the phone's screen, not past its edge
    page.wait_for_function(f"sel => {{ {BOX_JS} return r !== null && r.left >= 0 && r.right + 40 <= 390; }}",
                           arg=f"{_sel('ctx-stakes')} input")
    type_into(page, "ctx-stakes", "２０／５")
    page.locator(f"{_sel('ctx-stakes')} input").first.press("Enter")
    page.wait_for_function("want => document.body.textContent.includes(want)", arg=at_20.payments[0].zh)
    type_into(page, "ctx-stakes", "20-5")
    page.locator(f"{_sel('ctx-stakes')} input").first.press("Enter")
    page.wait_for_selector(_sel("photo-stakes-bad"), state="visible")
    said = str(page.locator(_sel("photo-stakes-bad")).first.text_content())
    assert "20-5" in said and "底 20／台 5" in said, said
    # (the box keeps "20-5": Flutter's <input> is empty once the box has lost focus, so test_photo_stakes.py says so)
    assert at_20.payments[0].zh in str(page.locator("flt-semantics").first.text_content())  # the score stays
    # a quick pick: the presets' button, 40 px wide, just right of the box (120 px wide; the button's node has no
    # content for a browser to find it visible by)
    x, y = centre(page, "ctx-stakes")
    _click(page, lambda: (x + 60 + 20, y), "ctx-stakes-presets", answered=False)
    item = '[role=menuitem][aria-label="100/20"]'  # (named by its label alone: no content to find it visible by)
    page.wait_for_function(f"sel => {{ {BOX_JS} return r !== null && r.width > 0; }}", arg=item)

    def aim() -> tuple[float, float]:  # once the menu has opened: its items stand still (a tap while it grew
        # was lost)
        box = f"sel => {{ {BOX_JS} return [r.left, r.top, r.width, r.height]; }}"
        r = page.evaluate(box, item)
        for _ in range(40):
            time.sleep(STILL_MS / 1000)
            r, was = page.evaluate(box, item), r
            if r == was:
                break
        return r[0] + r[2] / 2, r[1] + r[3] / 2

    _click(page, aim, "the preset 100/20")
    page.wait_for_function("want => document.body.textContent.includes(want)", arg=at_100.payments[0].zh)
    page.wait_for_selector(_sel("photo-stakes-bad"), state="detached")

