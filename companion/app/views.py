"""The app's page: a header (the tabs, the language switch) over the tab shown, one app per browser session.

Each session has its own :class:`CompanionApp` (its step, language, hand and photo), so two phones on the same
server never move each other's view. The tabs live in ``view_table``, ``view_ledger``, ``view_hand``,
``view_photo``, ``view_learn`` and ``view_settings``; what they draw comes from the view-models, never from flet state.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from dataclasses import dataclass
from urllib.parse import urlsplit

import flet as ft

from companion.app import browser_store, lost_taps
from companion.app.live_model import LiveGame
from companion.app.table_model import GameReplay
from companion.app.ui_kit import (
    FELT,
    FINGER,
    ID_HAND_TAB,
    ID_LANG,
    ID_LEARN_TAB,
    ID_LEDGER_TAB,
    ID_LIVE_TAB,
    ID_NOTICE,
    ID_PHOTO_TAB,
    ID_SETTINGS_TAB,
    ID_TABLE_TAB,
    ID_TAP_LOST,
    ID_TITLE,
    SCROLL_AFTER,
    ident,
    label,
)
from companion.app.view_hand import HandTab
from companion.app.view_learn import LearnTab
from companion.app.view_ledger import LedgerTab
from companion.app.view_live import LiveTab
from companion.app.view_photo import PhotoSource, PhotoTab
from companion.app.view_settings import SettingsTab, TileSetSource
from companion.app.view_table import TableTab
from companion.app.words import Words, ui

__all__ = ["CompanionApp", "AppConfig", "FONT_FAMILY", "TABS", "LANG_KEY"]

log = logging.getLogger(__name__)
LANG_KEY = "companion.lang"
"""Where a browser keeps the language its player chose."""

FONT_FAMILY = "CompanionCJK"
LOCALES = {"zh": ft.Locale(language_code="zh", script_code="Hant", country_code="TW"), "en": ft.Locale(language_code="en")}
"""The page's locale in each language: Flutter web writes it into ``<html lang>``, from which a screen reader picks
its voice (a Chinese label read by an English voice is spelt out or skipped)."""
TABS = (("table", "tab_table", ID_TABLE_TAB), ("live", "tab_live", ID_LIVE_TAB), ("ledger", "tab_ledger", ID_LEDGER_TAB), ("hand", "tab_hand", ID_HAND_TAB),
        ("photo", "tab_photo", ID_PHOTO_TAB), ("learn", "tab_learn", ID_LEARN_TAB),
        ("settings", "tab_settings", ID_SETTINGS_TAB))


@dataclass
class AppConfig:
    replay: GameReplay
    note: Words
    photos: PhotoSource
    lang: str = "zh"
    live: LiveGame | None = None
    tile_sets: TileSetSource | None = None  # None: the Settings tab lists the sets but takes no photos


FIRST_SCROLLS = (SCROLL_AFTER, 1.0, 2.5, 5.0)
"""When the page opens, the tabs' row is scrolled a few times over: its labels widen once the Chinese font has loaded
(later on a slow phone or machine), and a scroll stopped at the narrower row's end left the tab at its edge."""
TAB_GAP, TAB_PEEK = 8, 32
"""The tabs' spacing, and how much of the tab before the one shown stays in sight once the row is scrolled."""
PAGE_PADDING = 10  # the page's own padding, each side
BAR_PADDING, BAR_HEIGHT = 8, 84
"""The bottom bar's padding and height: the Table tab's buttons wrap onto a second line on a phone."""
LIVE_BAR_HEIGHT = FINGER + 2 * BAR_PADDING
"""The Live tab's bar: its one row of finger-high buttons (it scrolls sideways, never wraps) and no more; at
:data:`BAR_HEIGHT` its empty band put the last seat's claims under the bar on a 360x640 phone."""


def _tab_width(name: str) -> float:
    """A tab button's width for its label, estimated: Material's padding and each character at the header's size
    (a CJK character about 14 px, a Latin one about 7.6 px)."""
    return 48 + sum(14.0 if ord(c) >= 0x2E80 else 7.6 for c in name)


class CompanionApp:
    def __init__(self, page: ft.Page, config: AppConfig) -> None:
        self.page = page
        self._lang = config.lang
        self.view = "table"
        self._drawing = threading.RLock()
        self._notice: ft.SnackBar | None = None  # the refusal said at the foot last
        self._foot: tuple[ft.SnackBar, str, Words] | None = None  # the bar shown last, its id and its words
        self.body = ft.Container(expand=True)
        # the header lives across redraws (only its buttons are drawn anew): the tabs' row keeps where it was
        # scrolled sideways, and is scrolled to the tab shown (on a phone the later tabs lay off its right edge, the
        # tab shown among them: a review)
        # the title takes the room the language button leaves, on two lines if need be: wrapped, the English title
        # pushed the button onto a line of its own on a phone (a review)
        self._title_row = ft.Row(spacing=12, vertical_alignment=ft.CrossAxisAlignment.CENTER)
        self._bar: tuple[ft.Control, ft.BottomAppBar] | None = None  # the bar shown and its content, kept while the
        # content is the same control
        self._tab_row = ft.Row(spacing=TAB_GAP, scroll=ft.ScrollMode.AUTO)
        self.head = ft.Column([self._title_row, self._tab_row], spacing=6)
        self.table = TableTab(self, config.replay, config.note)
        self.hand = HandTab(self, config.live, score=self.score_hand)
        self.photo = PhotoTab(self, config.photos, config.live)
        self.learn = LearnTab(self)
        self.ledger = LedgerTab(self, self.table, config.live)
        self.live = LiveTab(self, config.live, config.photos)
        self.settings = SettingsTab(self, config.tile_sets)
        self._tabs = TABS if config.live is not None else tuple(x for x in TABS if x[0] != "live")
        # the title, the language switch and the tabs are made once, their words and colours set at each redraw
        # (:meth:`_header`)
        self._tab_buttons = {view: self._tab_button(view) for view, _, _ in self._tabs}
        self._title = ft.Text(size=20, weight=ft.FontWeight.BOLD, color=FELT)
        self._lang_button = ft.OutlinedButton(content="", on_click=self.toggle_lang)
        self._title_row.controls = [ft.Container(ident(ID_TITLE, self._title), expand=True),
                                    ident(ID_LANG, self._lang_button)]
        # the tabs in one line that scrolls sideways on a phone: wrapped, they took three lines (170 px of 844) above
        # the live table's tiles (a player review)
        self._tab_row.controls = [ident(identifier, self._tab_buttons[view]) for view, _, identifier in self._tabs]
        self.prefs = ft.SharedPreferences()  # held here: Flet drops a service nobody references
        self._chosen = False  # the player switched the language on this page

    @property
    def lang(self) -> str:
        return self._lang

    def t(self, words: Words) -> str:
        return words.text(self._lang)

    def mount(self) -> None:
        self.page.bgcolor = "#f2efe6"
        self.page.padding = PAGE_PADDING
        self.page.scroll = ft.ScrollMode.AUTO
        self.page.on_disconnect = self.leave  # no replay runs on for a closed tab
        self.page.on_close = self.leave
        self.page.on_route_change = self._routed
        self.page.on_resize = self._resized  # a phone turned: the tab shown brought back into the tabs' row
        self.page.on_connect = self.rejoin  # a phone back from sleep hears the table again
        self.live.attach()
        self.hand.attach()
        self.ledger.attach()
        self.settings.attach()
        lost_taps.watch(self.page, self._tap_lost, self._tap_landed)  # a tap on a screen that had just changed is
        # said, until the player has seen it or taps on
        # the tab is in the address (/live): a reload, or a phone reconnecting after the laptop restarts, comes
        # back to it, and the browser's back button goes to the tab before
        wanted = _tab_of(self.page.route)
        if wanted in {v for v, _, _ in self._tabs}:
            self.view = wanted
        self.page.controls.clear()
        self.page.controls += [self.head, self.body]
        self.render()
        self._show_tab(FIRST_SCROLLS)
        if self.view == "photo":  # opened at /photo: the tab's first photo, as a tap on the tab gives it
            self.photo.open()
        self.page.run_task(self._restore_lang)  # the language this browser chose last time

    def _tap_lost(self) -> None:
        """(The server's event loop.) A tap from this phone named a button the screen had just replaced: say that
        it was not entered, at the foot of the screen until the player has seen it (:meth:`_tap_landed`)."""
        self._at_the_foot(ID_TAP_LOST, ui("tap_lost"))

    def _tap_landed(self) -> None:
        """(The server's event loop.) A tap from this phone landed: the notice of one lost before it has been seen."""
        said = self._foot
        if said is not None and said[1] == ID_TAP_LOST and said[0].open:
            with self._drawing:
                said[0].open = False
                said[0].update()

    def notice(self, words: Words) -> None:
        """A refusal said for a moment at the foot of the screen as well as in its place: on a phone the tiles a player
        taps lie below that place, so a refused tap seemed to do nothing (a review)."""
        self._at_the_foot(ID_NOTICE, words)

    def _at_the_foot(self, identifier: str, words: Words) -> None:
        with self._drawing:  # one redraw at a time, as every render
            said = ident(identifier, label(self.t(words), 14, colour="#ffffff"))
            bar = lost_taps.lost_bar(said, self.t(ui("tap_lost_seen"))) if identifier == ID_TAP_LOST else \
                ft.SnackBar(said, duration=ft.Duration(seconds=6))
            self.page.show_dialog(bar)
            self._foot = (bar, identifier, words)
            if identifier == ID_NOTICE:
                self._notice = bar

    def _say_again(self) -> None:
        """The words at the foot of the screen, said again in the language just chosen (a refusal stayed in Chinese
        under an English page, a review): the bar still open is replaced by one in the new language."""
        said = self._foot
        if said is None or not said[0].open:
            return
        with self._drawing:
            said[0].open = False
            said[0].update()
        self._at_the_foot(said[1], said[2])

    def clear_notice(self) -> None:
        with self._drawing:
            bar, self._notice = self._notice, None
            if bar is not None and bar.open:  # (closed by its time already: nothing to take back)
                bar.open = False
                bar.update()

    def leave(self) -> None:
        self.table.stop()
        self.live.detach()
        self.hand.detach()
        self.ledger.detach()
        self.settings.detach()

    def rejoin(self) -> None:
        self.live.error = None  # a refusal said of the screen before the reload (a host review saw it after)
        self.live.attach()
        self.hand.attach()
        self.ledger.attach()
        self.settings.attach()
        self.render()  # what was entered while it was away
        self._show_tab(FIRST_SCROLLS)  # a reload reconnects to this app, its page drawn anew (the row unscrolled)

    def render(self) -> None:
        with self._drawing:  # a handler's thread and a redraw sent by another phone's entry, one at a time
            self._render()

    def _render(self) -> None:
        self.page.title = self.t(ui("title"))
        self._locale()
        builds = {"table": self.table.build, "live": self.live.build, "ledger": self.ledger.build,
                  "hand": self.hand.build, "photo": self.photo.build, "learn": self.learn.build,
                  "settings": self.settings.build}
        self.live.visible = self.view == "live"
        self.ledger.visible = self.view == "ledger"
        self.settings.visible = self.view == "settings"
        self.hand.visible_now = self.view == "hand"
        self._header()
        self.body.content = builds[self.view]()
        bar = None
        if self.view == "table" or (self.view == "ledger" and not self.ledger.showing_live):
            bar = self.table.bottom_bar()  # the ledger follows the replay's step
        elif self.view == "live":
            bar = self.live.bottom_bar()
        # no padding over the bar: the page's own 10 px there hid as much of the last seat's claims on a small phone
        self.page.padding = ft.Padding.only(left=PAGE_PADDING, top=PAGE_PADDING, right=PAGE_PADDING,
                                            bottom=PAGE_PADDING if bar is None else 0)
        if bar is None:
            self.page.bottom_appbar = None
        else:  # the same bar while its content is the same control (the Table tab's, whose buttons stay put)
            if self._bar is None or self._bar[0] is not bar:
                high = LIVE_BAR_HEIGHT if self.view == "live" else BAR_HEIGHT
                self._bar = (bar, ft.BottomAppBar(content=bar, bgcolor="#e8e2d0", height=high, padding=BAR_PADDING))
            self.page.bottom_appbar = self._bar[1]
        self.page.update()

    def score_hand(self, text: str) -> None:
        """My hand's complete hand, scored on the Score tab with its form (who discarded, the winds, the streak)."""
        self.photo.score_typed(text)
        self.switch("photo")

    def open_replay(self, replay: GameReplay, note: Words) -> None:
        """Step through another log on the Table tab (the live game's, from the Live tab)."""
        self.table.stop()
        self.table.replay, self.table.note = replay, note
        self.table.index = len(replay) - 1
        self.switch("table")

    def _routed(self, e: ft.RouteChangeEvent) -> None:
        wanted = _tab_of(e.route) or "table"
        if wanted in {v for v, _, _ in self._tabs}:
            self.switch(wanted)

    def switch(self, view: str) -> None:
        if view == self.view:
            return
        self.view = view
        if _tab_of(self.page.route) != view:
            self.page.run_task(self.page.push_route, f"/{view}")
        if view not in ("table", "ledger"):  # both may follow the replay: it plays on there
            self.table.stop()
        self.render()
        self._show_tab()
        if view == "photo":
            self.photo.open()

    def toggle_lang(self) -> None:
        self._chosen = True  # a stored choice arriving late must not undo this one
        self._lang = "en" if self._lang == "zh" else "zh"
        self.render()
        self._say_again()
        self._show_tab()  # the labels' widths changed: the tab shown had slid off the row (a phone review)
        self.page.run_task(self._keep_lang, self._lang)

    async def _keep_lang(self, lang: str) -> None:
        """The language chosen, kept in this browser: the phone opens the app in it next time."""
        await browser_store.keep(self.prefs, LANG_KEY, lang)

    async def _restore_lang(self) -> None:
        """The language this browser chose last time (:func:`~companion.app.browser_store.read_back`)."""
        kept = await browser_store.read_back(self.prefs, LANG_KEY)
        if kept in ("zh", "en") and kept != self._lang and not self._chosen:
            self._lang = str(kept)
            self.render()
            self._show_tab()

    def _locale(self) -> None:
        """The page's locale set to the language shown, when it changes (so ``<html lang>`` follows the switch)."""
        want = LOCALES[self._lang]
        shown = self.page.locale_configuration
        if shown is None or shown.current_locale != want:
            self.page.locale_configuration = ft.LocaleConfiguration(supported_locales=list(LOCALES.values()),
                                                                    current_locale=want)

    def _header(self) -> None:
        """The title, the language switch and the tabs: made once, their words and colours set at each redraw, so a
        tap on them is never on a screen gone (an automatic replay redraws every 0.6 s, and a review's taps on
        English, the tabs and Pause were said to be on a screen that had just changed)."""
        self._title.value = self.t(ui("title"))
        self._lang_button.content = self.t(ui("language"))
        for view, key, _ in self._tabs:
            chosen = self.view == view
            button = self._tab_buttons[view]
            button.content = self.t(ui(key))
            button.style = ft.ButtonStyle(bgcolor=FELT if chosen else None, color="#ffffff" if chosen else None)

    def _tab_button(self, view: str) -> ft.Button:
        return ft.Button(content="", on_click=lambda: self.switch(view))

    def _resized(self, e: ft.PageResizeEvent) -> None:
        """The page is narrower or wider (a phone turned, a window dragged): the tabs' row scrolled again, as wide
        as the event says (a row laid out on a laptop's width, then narrowed, hid the tab shown)."""
        self._show_tab(wide=e.width)

    def _tab_offset(self, wide: float | None) -> float | None:
        """Where the tabs' row is scrolled to show the tab shown now; None when the whole row is in sight."""
        widths = [_tab_width(self.t(ui(key))) + TAB_GAP for _, key, _ in self._tabs]
        wide = wide or self.page.width or 0  # (0 until the browser has said)
        if wide and sum(widths) <= wide - 2 * PAGE_PADDING:
            return None  # the whole row in sight (a laptop): nothing to scroll, nothing sent
        at = next((i for i, (view, _, _) in enumerate(self._tabs) if view == self.view), 0)
        return max(0.0, sum(widths[:at]) - TAB_PEEK)

    def _show_tab(self, waits: tuple[float, ...] = (SCROLL_AFTER,), wide: float | None = None) -> None:
        """Scroll the tabs' row, after the redraw under way, so the tab shown starts near its left edge, the tab
        before it peeking. By an offset from the labels' estimated widths: a scroll to the tab's key moved the
        whole page down too (Flutter brings every scrolling ancestor along) and left the tab at the row's edge.
        Each scroll goes to the tab shown when it is made: the opening's late scrolls (:data:`FIRST_SCROLLS`, 8 s
        in all) went to the tab opened, and put the row back at its start under a phone that had gone to Learn and
        tapped its Wait quiz by then (a teacher's review)."""
        if self._tab_offset(wide) is None:
            return

        async def scroll() -> None:
            for wait in waits:
                await asyncio.sleep(wait)
                offset = self._tab_offset(wide)
                if offset is None:
                    return
                try:
                    await self._tab_row.scroll_to(offset=offset, duration=0)  # (past the end: the row's end)
                except RuntimeError:  # the page left in the seconds since (its session closed): nothing to scroll
                    log.debug("the tabs' row of a page that has left was not scrolled", exc_info=True)
                    return  # (a review's server printed "RuntimeError: Session closed" tracebacks)

        self.page.run_task(scroll)


def _tab_of(route: str | None) -> str:
    """The tab a page's route names (``/live``), its query left aside: a phone joins a table on the network with
    ``/live?t=TOKEN``, which opened the Table tab's demo (a review)."""
    return urlsplit(route or "/").path.strip("/")
