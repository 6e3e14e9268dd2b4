"""The app's page: a header (the five tabs, the language switch) over the tab shown, one app per browser session.

Each session has its own :class:`CompanionApp` (its step, language, hand and photo), so two phones on the same
server never move each other's view. The tabs live in ``view_table``, ``view_ledger``, ``view_hand``,
``view_photo`` and ``view_learn``; what they draw comes from the view-models, never from flet state.
"""

from __future__ import annotations

from dataclasses import dataclass

import flet as ft

from companion.app.table_model import GameReplay
from companion.app.ui_kit import (
    FELT,
    ID_HAND_TAB,
    ID_LANG,
    ID_LEARN_TAB,
    ID_LEDGER_TAB,
    ID_PHOTO_TAB,
    ID_TABLE_TAB,
    ID_TITLE,
    ident,
    label,
)
from companion.app.view_hand import HandTab
from companion.app.view_learn import LearnTab
from companion.app.view_ledger import LedgerTab
from companion.app.view_photo import PhotoSource, PhotoTab
from companion.app.view_table import TableTab
from companion.app.words import Words, ui

__all__ = ["CompanionApp", "AppConfig", "FONT_FAMILY", "TABS"]

FONT_FAMILY = "CompanionCJK"
TABS = (("table", "tab_table", ID_TABLE_TAB), ("ledger", "tab_ledger", ID_LEDGER_TAB), ("hand", "tab_hand", ID_HAND_TAB),
        ("photo", "tab_photo", ID_PHOTO_TAB), ("learn", "tab_learn", ID_LEARN_TAB))


@dataclass
class AppConfig:
    replay: GameReplay
    note: Words
    photos: PhotoSource
    lang: str = "zh"


class CompanionApp:
    def __init__(self, page: ft.Page, config: AppConfig) -> None:
        self.page = page
        self._lang = config.lang
        self.view = "table"
        self.body = ft.Container(expand=True)
        self.table = TableTab(self, config.replay, config.note)
        self.hand = HandTab(self)
        self.photo = PhotoTab(self, config.photos)
        self.learn = LearnTab(self)
        self.ledger = LedgerTab(self, self.table)

    @property
    def lang(self) -> str:
        return self._lang

    def t(self, words: Words) -> str:
        return words.text(self._lang)

    def mount(self) -> None:
        self.page.bgcolor = "#f2efe6"
        self.page.padding = 10
        self.page.scroll = ft.ScrollMode.AUTO
        self.page.on_disconnect = self.table.stop  # no replay runs on for a closed tab
        self.page.on_close = self.table.stop
        self.page.controls.clear()
        self.page.controls.append(self.body)
        self.render()

    def render(self) -> None:
        self.page.title = self.t(ui("title"))
        builds = {"table": self.table.build, "ledger": self.ledger.build, "hand": self.hand.build,
                  "photo": self.photo.build, "learn": self.learn.build}
        self.body.content = ft.Column([self._header(), builds[self.view]()], spacing=10)
        on_table = self.view in ("table", "ledger")  # both follow the replay's step
        self.page.bottom_appbar = ft.BottomAppBar(content=self.table.bottom_bar(), bgcolor="#e8e2d0",
                                                  height=84, padding=8) if on_table else None
        self.page.update()

    def switch(self, view: str) -> None:
        if view == self.view:
            return
        self.view = view
        if view not in ("table", "ledger"):  # both follow the replay: it plays on there
            self.table.stop()
        self.render()
        if view == "photo":
            self.photo.open()

    def toggle_lang(self) -> None:
        self._lang = "en" if self._lang == "zh" else "zh"
        self.render()

    def _header(self) -> ft.Control:
        def tab(view: str, key: str, identifier: str) -> ft.Control:
            chosen = self.view == view
            button = ft.Button(content=self.t(ui(key)), on_click=lambda: self.switch(view),
                               style=ft.ButtonStyle(bgcolor=FELT if chosen else None,
                                                    color="#ffffff" if chosen else None))
            return ident(identifier, button)

        title = ident(ID_TITLE, label(self.t(ui("title")), 20, bold=True, colour=FELT))
        lang = ident(ID_LANG, ft.OutlinedButton(content=self.t(ui("language")), on_click=self.toggle_lang))
        return ft.Row([title, *(tab(*x) for x in TABS), lang], wrap=True, spacing=12,
                      vertical_alignment=ft.CrossAxisAlignment.CENTER)
