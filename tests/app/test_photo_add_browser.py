"""In a real browser on a phone's screen (390 x 844): a tile the photo missed is added from the palette under the
photo's tiles, scored with the hand, listed, and taken out again with a tap (tests/app/test_app_browser.py drives
chromium so)."""

from __future__ import annotations

import re
import warnings
from typing import Any

import pytest

from companion.app.photo_model import (
    PhotoFailed,
    PhotoPanel,
    demo_photo,
    read_photo_file,
    score_photo_file,
    score_picked,
)
from companion.app.ui_kit import ID_PHOTO_TOTAL, tile_name
from companion.app.words import ui
from companion.tiles import Tile
from tests.app.test_app_browser import (
    CHROMIUM,
    IN_SIGHT_JS,
    TAB_IN_SIGHT_JS,
    PlaywrightTimeout,
    _sel,
    browser,
    live,
    page,
    replay,
    tap,
    uploads,
    url,
    wait_shown,
    wait_text,
)

__all__ = ["browser", "live", "page", "replay", "uploads", "url"]  # the fixtures, shared with test_app_browser

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs chromium")


def test_a_tile_the_photo_missed_is_added_scored_and_taken_out_on_a_phone(page: Any) -> None:
    path, context = demo_photo()
    expected = score_photo_file(path, context)
    read = read_photo_file(path)
    assert isinstance(expected, PhotoPanel) and not isinstance(read, PhotoFailed)
    # the photo's Summer (2f) added again: refused at once (a set has one); an Autumn (3f) added and scored
    summer = tile_name("2f")
    twice = ui("photo_add_too_many", have=1, tile=summer.zh, tile_en=summer.en, limit=1)
    with_autumn = score_picked(read, {}, context, added=[Tile.F3])
    assert isinstance(with_autumn, PhotoPanel)
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function(TAB_IN_SIGHT_JS, arg=_sel("tab-table"))
    for attempt in (1, 2):  # (as test_app_browser's phone test: the tabs row may still move under the finger)
        tap(page, "tab-photo")
        try:
            page.wait_for_url(re.compile(r"/photo$"), timeout=10_000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise AssertionError(f"two taps on tab-photo went to {page.url}") from None
            warnings.warn(f"a tap on tab-photo went to {page.url}: tapped again", stacklevel=1)
    wait_text(page, ID_PHOTO_TOTAL, expected.total.zh)
    tap(page, "photo-add")
    page.wait_for_function(IN_SIGHT_JS, arg=[_sel("photo-add-2f"), 844])  # brought into sight
    tap(page, "photo-add-2f")
    wait_text(page, "photo-add-refused", twice.zh)  # (the palette stays open for another)
    tap(page, "photo-add-3f")
    wait_shown(page, "photo-added-0")  # listed under the photo's tiles, to take out
    wait_text(page, ID_PHOTO_TOTAL, with_autumn.total.zh)
    assert page.locator(_sel("photo-added-1")).count() == 0
    page.wait_for_function(IN_SIGHT_JS, arg=[_sel("photo-added-0"), 844])
    tap(page, "photo-added-0")
    wait_text(page, ID_PHOTO_TOTAL, expected.total.zh)
    page.wait_for_selector(_sel("photo-added-0"), state="detached")
