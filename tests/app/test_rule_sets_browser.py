"""A host makes his table's rule set in a real browser: Settings copies the default one, sets 滿 8 台, saves it, and
the Live tab's rule dropdown offers it; the players sit down under it. (Chromium + playwright, as
``test_app_browser``, whose helpers drive the page.)"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion.app.live_model import LiveGame
from companion.app.server import asgi_app
from companion.app.table_model import DEMO_HANDS, GameReplay
from companion.app.words import ui
from companion.game import events as ev
from companion.rules.profiles import load_profile
from tests.app.serving import served
from tests.app.test_app_browser import (
    RERUN,
    _open,
    browser,
    choose,
    tap,
    type_into,
    wait_said,
    wait_shown,
    wait_text,
)

__all__ = ["browser"]  # the fixture, shared with the app's other browser tests

pytestmark = [pytest.mark.timeout(240), RERUN]


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, LiveGame, Path]]:
    data = tmp_path / "data"
    monkeypatch.setenv("COMPANION_DATA_DIR", str(data))  # the server runs in this process: it reads the same
    live = LiveGame(tmp_path / "table.sqlite", seed=3)
    app = asgi_app(GameReplay.demo(), ui("demo_note", hands=DEMO_HANDS), live=live)
    with served(app) as address:
        yield address, live, data
    live.close()


def test_a_rule_set_copied_with_a_tai_cap_of_8_is_offered_when_the_players_sit_down(
        browser: Any, table: tuple[str, LiveGame, Path]) -> None:
    url, live, data = table
    page = _open(browser, url)
    try:
        tap(page, "tab-settings")
        wait_shown(page, "rs-copy")  # the default rule set is the one copied
        type_into(page, "rs-new-id", "home8")
        type_into(page, "rs-name-zh", "家裡滿八台")
        type_into(page, "rs-name-en", "Home, cap 8")
        tap(page, "rs-copy")
        wait_shown(page, "rs-editor")
        type_into(page, "rs-sw-tai_cap", "8")  # in the group of caps, open
        tap(page, "rs-save")
        wait_said(page, "rs-message", ui("rs_saved", name="家裡滿八台", name_en="Home, cap 8", id="home8").zh)
        saved = load_profile("home8")
        assert saved.switch("tai_cap") == 8 and (data / "profiles" / "home8.toml").is_file()
    finally:
        page.close()
    # the phone at the table (a page of its own: the long Settings page scrolled away left the first page's
    # accessibility boxes below where the Live tab draws its dropdown, and a tap aimed by them missed it)
    page = _open(browser, url)
    try:
        tap(page, "tab-live")
        wait_text(page, "live-prompt", ui("live_p_seat").zh)
        choose(page, "live-profile", "家裡滿八台")  # offered beside the built-in ones, by its own name
        tap(page, "live-start")
        wait_text(page, "live-prompt", ui("live_p_dealer", east="玩家一").zh)
        seated = live.events()[0]
        assert isinstance(seated, ev.Seated) and seated.profile == "home8" and "tai_cap = 8" in seated.rules
    finally:
        page.close()


def test_a_rule_set_deleted_after_the_host_picked_it_is_said_and_seats_nobody(
        browser: Any, table: tuple[str, LiveGame, Path]) -> None:
    """The host picked a house set, another phone deleted it, and Start seated the table under the default set
    without a word (a change review): the tap is refused with why, in the host's language, and nobody is seated."""
    from companion.app.rule_sets_model import clone, delete

    url, live, _ = table
    clone("atawmj_2009", "home8", "家裡滿八台", "Home, cap 8").save()
    page = _open(browser, url)
    try:
        tap(page, "tab-live")
        wait_text(page, "live-prompt", ui("live_p_seat").zh)
        choose(page, "live-profile", "家裡滿八台")
        delete("home8")  # on another phone
        tap(page, "live-start")
        gone = ui("live_profile_gone", name="家裡滿八台", name_en="Home, cap 8")
        wait_said(page, "live-error", ui("live_start_pick_another").zh)
        wait_said(page, "live-profile-gone", gone.zh)  # and under the dropdown, which still holds the set picked
        assert live.events() == []
    finally:
        page.close()
