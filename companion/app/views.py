"""Thin Flet views of the view-models: every control here is drawn from a ``TableFrame`` or a ``PhotoPanel``.

The page holds one :class:`CompanionApp` per browser session: its own step, language and view, so two phones
on the same server do not move each other's replay. Controls that tests and screen readers look for carry a
stable ``Semantics`` identifier (``ID_*``).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import flet as ft

from companion.app.hand_model import HandFailed, HandPanel, analyse
from companion.app.learn_model import LearnItem, learn_items
from companion.app.photo_model import PhotoContext, PhotoFailed, PhotoPanel, ReadPhoto, score_read_photo
from companion.app.table_model import GameReplay, HandEnd, MeldPic, SeatPanel, TableFrame
from companion.app.words import Words, ui
from companion.tiles import Tile

__all__ = ["CompanionApp", "AppConfig", "FONT_FAMILY"]

FONT_FAMILY = "CompanionCJK"
PLAY_SECONDS = 0.6  # one step of the automatic replay
TILE_W = {"hand": 34, "meld": 28, "river": 24, "wait": 30}

ID_CAPTION, ID_STEP, ID_NEXT, ID_BACK, ID_NEXT_HAND = "caption", "step", "next", "back", "next-hand"
ID_TITLE = "title"
ID_HAND_TAB, ID_HAND_FIELD, ID_VISIBLE_FIELD, ID_HAND_HEADLINE = "tab-hand", "hand-field", "visible-field", \
    "hand-headline"
ID_LEARN_TAB, ID_LEARN_TITLE, ID_LEARN_TOTAL = "tab-learn", "learn-title", "learn-total"
EXAMPLE_HAND = "45m77p234789s kong:6666m@R 1f"  # rules §7 Example 14: 45m waits on 3m only
ID_LANG, ID_TABLE_TAB, ID_PHOTO_TAB, ID_HAND_END, ID_PHOTO_TOTAL = "lang", "tab-table", "tab-photo", "hand-end", \
    "photo-total"

FELT = "#1f5f3f"
CARD = "#fbf8f0"
ACCENT = "#b3261e"


@dataclass
class AppConfig:
    replay: GameReplay
    note: Words
    demo_photo: Callable[[], tuple[ReadPhoto | PhotoFailed, Mapping[str, Any]]]  # slow: run in the background
    read_upload: Callable[[bytes, str], ReadPhoto | PhotoFailed]  # slow too
    lang: str = "zh"


def _tile(code: str, width: int, tip: str | None = None) -> ft.Control:
    return ft.Image(src=f"tiles/{code}.png", width=width, height=round(width * 4 / 3), tooltip=tip,
                    semantics_label=code)


def _tiles(codes: Sequence[str], width: int) -> ft.Control:
    return ft.Row([_tile(c, width) for c in codes], spacing=1, wrap=True, run_spacing=2)


def _label(text: str, size: int = 13, bold: bool = False, colour: str | None = None) -> ft.Text:
    return ft.Text(text, size=size, weight=ft.FontWeight.BOLD if bold else None, color=colour)


def _ident(identifier: str, control: ft.Control) -> ft.Control:
    return ft.Semantics(identifier=identifier, content=control)


@dataclass
class CompanionApp:
    page: ft.Page
    config: AppConfig
    index: int = 0
    show_hands: bool = True
    view: str = "table"
    playing: bool = False
    photo: PhotoPanel | PhotoFailed | None = None
    photo_read: ReadPhoto | PhotoFailed | None = None
    photo_context: PhotoContext = field(default_factory=PhotoContext)
    photo_demo: bool = False  # the photo shown is the bundled one
    photo_busy: bool = False
    picker: ft.FilePicker | None = None  # held here: Flet drops a service nobody references
    body: ft.Container = field(default_factory=lambda: ft.Container(expand=True))
    hand_field: ft.TextField | None = None  # kept across renders so typing keeps its place
    visible_field: ft.TextField | None = None
    hand_result: ft.Container = field(default_factory=ft.Container)
    learn_item: str = "seat_flower"

    @property
    def lang(self) -> str:
        return self.config.lang

    def t(self, words: Words) -> str:
        return words.text(self.lang)

    # --- the page ------------------------------------------------------------------------------------

    def mount(self) -> None:
        self.page.title = ui("title").text(self.lang)
        self.page.bgcolor = "#f2efe6"
        self.page.padding = 10
        self.page.scroll = ft.ScrollMode.AUTO
        self.page.controls.clear()
        self.page.controls.append(self.body)
        self.index = self.config.replay.hand_starts()[0] if self.config.replay.hand_starts() else 0
        self.render()

    def render(self) -> None:
        self.page.title = ui("title").text(self.lang)
        content = {"table": self._table, "hand": self._hand, "photo": self._photo, "learn": self._learn}[self.view]()
        self.body.content = ft.Column([self._header(), content], spacing=10)
        self.page.update()

    def _header(self) -> ft.Control:
        def tab(key: str, view: str, ident: str) -> ft.Control:
            chosen = self.view == view
            button = ft.Button(content=self.t(ui(key)), on_click=lambda: self._switch(view),
                               style=ft.ButtonStyle(bgcolor=FELT if chosen else None,
                                                    color="#ffffff" if chosen else None))
            return _ident(ident, button)

        lang = _ident(ID_LANG, ft.OutlinedButton(content=self.t(ui("language")), on_click=self._toggle_lang))
        title = _ident(ID_TITLE, _label(self.t(ui("title")), 20, bold=True, colour=FELT))
        return ft.Row([title, tab("tab_table", "table", ID_TABLE_TAB), tab("tab_hand", "hand", ID_HAND_TAB),
                       tab("tab_photo", "photo", ID_PHOTO_TAB), tab("tab_learn", "learn", ID_LEARN_TAB), lang],
                      wrap=True, spacing=12,
                      vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def _switch(self, view: str) -> None:
        self.view = view
        self.playing = False
        self.render()
        if view == "photo" and self.photo_read is None and not self.photo_busy:
            self._use_demo_photo()

    def _toggle_lang(self) -> None:
        self.config.lang = "en" if self.lang == "zh" else "zh"
        self.render()

    # --- Table -------------------------------------------------------------------------------------

    def _go(self, index: int) -> None:
        self.index = max(0, min(index, len(self.config.replay) - 1))
        self.render()

    def _toggle_play(self) -> None:
        self.playing = not self.playing
        self.render()
        if self.playing:
            self.page.run_task(self._play)

    async def _play(self) -> None:
        while self.playing and self.index < len(self.config.replay) - 1:
            await asyncio.sleep(PLAY_SECONDS)
            if not self.playing:
                break
            self.index += 1
            self.render()
        self.playing = False
        self.render()

    def _toggle_hands(self) -> None:
        self.show_hands = not self.show_hands
        self.render()

    def _controls(self, frame: TableFrame) -> ft.Control:
        replay = self.config.replay

        def button(key: str, target: Callable[[], int], ident: str | None = None) -> ft.Control:
            b = ft.OutlinedButton(content=self.t(ui(key)), on_click=lambda: self._go(target()))
            return _ident(ident, b) if ident else b

        play = ft.Button(content=self.t(ui("pause" if self.playing else "play")), on_click=self._toggle_play)
        slider = ft.Slider(min=0, max=max(1, frame.total), value=frame.index, divisions=max(1, frame.total),
                           on_change_end=lambda e: self._go(int(e.control.value or 0)), expand=True)
        switch = ft.Switch(label=self.t(ui("show_hands")), value=self.show_hands, on_change=self._toggle_hands)
        buttons = ft.Row([
            button("first", lambda: 0),
            button("prev_hand", lambda: replay.next_stop(self.index, forward=False)),
            button("back", lambda: self.index - 1, ID_BACK),
            play,
            button("forward", lambda: self.index + 1, ID_NEXT),
            button("next_hand", lambda: replay.next_stop(self.index, forward=True), ID_NEXT_HAND),
            button("last", lambda: len(replay) - 1),
            switch,
        ], wrap=True, spacing=6)
        step = _ident(ID_STEP, _label(self.t(ui("step", i=frame.index, n=frame.total)), 12))
        return ft.Column([buttons, ft.Row([step, slider])], spacing=2)

    def _table(self) -> ft.Control:
        frame = self.config.replay.frame(self.index, self.show_hands)
        head: list[ft.Control] = [_label(self.t(self.config.note), 12, colour="#555555")]
        head.append(self._controls(frame))
        caption = _ident(ID_CAPTION, _label(self.t(frame.caption), 18, bold=True, colour="#ffffff"))
        info = [caption]
        for line in (frame.hand_line, frame.wall_line):
            if line is not None:
                info.append(_label(self.t(line), 14, colour="#ffffff"))
        info.append(_label(self.t(frame.phase), 12, colour="#d9e8dd"))
        banner = ft.Container(ft.Column(info, spacing=2), bgcolor=FELT, padding=10, border_radius=8)
        seats = sorted(frame.seats, key=lambda s: ("東南西北".index(s.wind.zh)))
        grid = ft.ResponsiveRow([ft.Container(self._seat(s), col={"xs": 12, "md": 6}) for s in seats],
                                spacing=8, run_spacing=8)
        parts: list[ft.Control] = [*head, banner]
        if frame.end is not None:
            parts.append(self._hand_end(frame.end))
        parts.append(grid)
        parts.append(self._recent(frame))
        return ft.Column(parts, spacing=8)

    def _seat(self, s: SeatPanel) -> ft.Control:
        title = f"{s.wind.zh if self.lang == 'zh' else s.wind.en}　{s.name}"
        badges: list[ft.Control] = [_label(title, 16, bold=True)]
        if s.dealer:
            dealer = self.t(ui("dealer")) + (f" {self.t(ui('streak', n=s.streak))}" if s.streak else "")
            badges.append(ft.Container(_label(dealer, 12, bold=True, colour="#ffffff"), bgcolor=ACCENT,
                                       padding=ft.Padding.symmetric(horizontal=6, vertical=2), border_radius=6))
        if s.to_act:
            badges.append(ft.Container(_label(self.t(ui("to_act")), 12, colour="#ffffff"), bgcolor=FELT,
                                       padding=ft.Padding.symmetric(horizontal=6, vertical=2), border_radius=6))
        badges += [_label(self.t(tag), 12, colour=ACCENT) for tag in s.tags]
        rows: list[ft.Control] = [ft.Row(badges, wrap=True, spacing=6)]
        if s.concealed or s.drawn:
            hand = [_tile(c, TILE_W["hand"]) for c in s.concealed]
            if s.drawn:
                hand += [ft.Container(width=8), _tile(s.drawn, TILE_W["hand"])]
            rows.append(ft.Row(hand, spacing=1, wrap=True))
        elif s.hidden:
            rows.append(_label(self.t(ui("tiles_hidden", n=s.hidden)), 12))
        if s.melds:
            rows.append(ft.Row([self._meld(m) for m in s.melds], spacing=10, wrap=True))
        if s.flowers:
            rows.append(ft.Row([_label(self.t(ui("flowers")), 12), _tiles(s.flowers, TILE_W["meld"])]))
        rows.append(_label(self.t(ui("river")), 12, colour="#555555"))
        rows.append(_tiles(s.discards, TILE_W["river"]) if s.discards else _label(self.t(ui("none")), 12))
        if s.waits:
            waits: list[ft.Control] = [_label(self.t(ui("waits")), 14, bold=True, colour=ACCENT)]
            for w in s.waits:
                tip = self.t(w.shapes)
                waits.append(ft.Column([_tile(w.tile, TILE_W["wait"], tip),
                                        _label(self.t(ui("left", n=w.unseen)), 11)], spacing=0,
                                       horizontal_alignment=ft.CrossAxisAlignment.CENTER))
            if s.wait_note is not None:
                waits.append(_label(self.t(s.wait_note), 12, colour=ACCENT))
            rows.append(ft.Row(waits, spacing=8, wrap=True))
        elif s.wait_note is not None:
            rows.append(_label(self.t(s.wait_note), 12, colour="#555555"))
        if s.advice:
            rows.append(_label(self.t(ui("advice")), 13, bold=True, colour=FELT))
            for a in s.advice:
                rows.append(ft.Row([_tile(a.tile, 22), ft.Container(_label(self.t(a.reason), 12), expand=True)],
                                   spacing=6, vertical_alignment=ft.CrossAxisAlignment.START))
        border = ft.Border.all(3, ACCENT) if s.to_act else ft.Border.all(1, "#d0c8b0")
        return ft.Container(ft.Column(rows, spacing=4), bgcolor=CARD, padding=10, border_radius=8, border=border)

    def _meld(self, m: MeldPic) -> ft.Control:
        return ft.Column([ft.Row([_tile(c, TILE_W["meld"]) for c in m.tiles], spacing=1, tight=True),
                          _label(self.t(m.label), 11, colour="#555555")], spacing=1, tight=True)

    def _hand_end(self, end: HandEnd) -> ft.Control:
        rows: list[ft.Control] = [_label(self.t(ui("hand_over")) + "：" + self.t(end.outcome), 16, bold=True)]
        for line in end.lines:
            rows.append(_label(f"{line.player} — {self.t(line.kind)}", 15, bold=True, colour=ACCENT))
            if line.unscored:
                rows.append(_label(self.t(ui("unscored", why=line.unscored)), 12))
                continue
            if line.items:
                rows.append(_label(self.t(ui("tai_items")), 12, colour="#555555"))
            for words, tai in line.items:
                rows.append(ft.Row([ft.Container(_label(self.t(words), 13), width=220), _label(f"{tai}", 13)]))
            total = self.t(ui("hand_tai", tai=line.hand_tai))
            if line.capped_tai != line.hand_tai:
                total += self.t(ui("capped", tai=line.capped_tai))
            if line.dealer_tai:
                total += "　" + self.t(ui("dealer_tai", tai=line.dealer_tai))
            rows.append(_label(total, 13, bold=True))
        if end.transfers:
            rows.append(_label(self.t(ui("payments")), 13, bold=True, colour=FELT))
            rows += [_label(self.t(t), 13) for t in end.transfers]
        rows.append(_label(self.t(ui("balances")), 13, bold=True, colour=FELT))
        rows.append(_label("　".join(f"{p} {v:+d}" for p, v in end.balances), 13))
        rows.append(_label(self.t(end.next_deal), 13, colour="#555555"))
        return _ident(ID_HAND_END, ft.Container(ft.Column(rows, spacing=3), bgcolor="#fff4d6", padding=12,
                                                border_radius=8, border=ft.Border.all(2, "#e0b040")))

    def _recent(self, frame: TableFrame) -> ft.Control:
        rows: list[ft.Control] = [_label(self.t(ui("recent")), 13, bold=True)]
        rows += [_label(self.t(w), 12, colour="#333333" if i == 0 else "#777777") for i, w in enumerate(frame.recent)]
        return ft.Container(ft.Column(rows, spacing=2), padding=8)

    # --- My hand ------------------------------------------------------------------------------------

    def _fields(self) -> tuple[ft.TextField, ft.TextField]:
        if self.hand_field is None or self.visible_field is None:
            self.hand_field = ft.TextField(on_change=self._analyse, border=ft.OutlineInputBorder(), width=560)
            self.visible_field = ft.TextField(on_change=self._analyse, border=ft.OutlineInputBorder(), width=560)
        self.hand_field.label, self.hand_field.hint_text = self.t(ui("hand_field")), self.t(ui("hand_hint"))
        self.visible_field.label = self.t(ui("visible_field"))
        self.visible_field.hint_text = self.t(ui("visible_hint"))
        return self.hand_field, self.visible_field

    def _set_hand(self, text: str) -> None:
        hand, _visible = self._fields()
        hand.value = text
        self._analyse()

    def _analyse(self) -> None:
        hand, visible = self._fields()
        self.hand_result.content = self._hand_result(analyse(hand.value or "", visible.value or ""))
        # called from a handler: Flet sends the change when the handler returns

    def _hand(self) -> ft.Control:
        hand, visible = self._fields()

        def add(code: str) -> Callable[[], None]:
            return lambda: self._set_hand((hand.value or "") + code)

        def backspace() -> None:
            text = (hand.value or "").rstrip()
            cut = 2 if len(text) >= 2 and text[-1] in "mpszf" and text[-2].isdigit() else 1
            self._set_hand(text[:-cut])

        palette = [ft.Row([ft.Container(_tile(f"{r}{suit}", 30), on_click=add(f"{r}{suit}"), tooltip=f"{r}{suit}")
                           for r in range(1, 10 if suit != "z" else 8)], spacing=2, wrap=True)
                   for suit in "mpsz"]
        buttons = ft.Row([ft.OutlinedButton(content=self.t(ui("backspace")), on_click=backspace),
                          ft.OutlinedButton(content=self.t(ui("clear")), on_click=lambda: self._set_hand("")),
                          ft.OutlinedButton(content=self.t(ui("hand_example")),
                                            on_click=lambda: self._set_hand(EXAMPLE_HAND))], spacing=8, wrap=True)
        self.hand_result.content = self._hand_result(analyse(hand.value or "", visible.value or ""))
        return ft.Column([_label(self.t(ui("hand_intro")), 13), _ident(ID_HAND_FIELD, hand),
                          _ident(ID_VISIBLE_FIELD, visible), *palette, buttons, self.hand_result], spacing=8)

    def _hand_result(self, result: HandPanel | HandFailed) -> ft.Control:
        if isinstance(result, HandFailed):
            return _ident(ID_HAND_HEADLINE, _label(self.t(result.reason), 14, colour="#555555"))
        rows: list[ft.Control] = [_ident(ID_HAND_HEADLINE, _label(self.t(result.headline), 16, bold=True,
                                                                  colour=ACCENT))]
        tiles: list[ft.Control] = [_tile(c, TILE_W["hand"]) for c in result.concealed]
        tiles += [ft.Container(width=6)] + [self._meld_tiles(m) for m in result.melds]
        if result.flowers:
            tiles += [ft.Container(width=6)] + [_tile(c, TILE_W["meld"]) for c in result.flowers]
        rows.append(ft.Row(tiles, spacing=1, wrap=True))
        for w in result.waits:
            why = ft.Column([_label(self.t(x), 13) for x in w.why], spacing=1)
            rows.append(ft.Row([_tile(w.tile, TILE_W["wait"]), _label(self.t(ui("left", n=w.unseen)), 12), why],
                               spacing=10, vertical_alignment=ft.CrossAxisAlignment.START))
        if result.draws:
            rows.append(_label(self.t(ui("closer")), 13, bold=True, colour=FELT))
            rows.append(ft.Row([ft.Column([_tile(c, 26), _label(str(n), 11)], spacing=0, tight=True,
                                          horizontal_alignment=ft.CrossAxisAlignment.CENTER)
                                for c, n in result.draws], spacing=4, wrap=True))
        if result.choices:
            rows.append(_label(self.t(ui("choices")), 13, bold=True, colour=FELT))
            for c in result.choices:
                rows.append(ft.Row([_tile(c.tile, 26), ft.Container(_label(self.t(c.reason), 13), expand=True)],
                                   spacing=8, vertical_alignment=ft.CrossAxisAlignment.START))
        return ft.Container(ft.Column(rows, spacing=6), bgcolor=CARD, padding=12, border_radius=8)

    def _meld_tiles(self, tiles: tuple[str, ...]) -> ft.Control:
        return ft.Row([_tile(c, TILE_W["meld"]) for c in tiles], spacing=1, tight=True)

    # --- Learn --------------------------------------------------------------------------------------

    def _pick_item(self, item_id: str) -> None:
        self.learn_item = item_id
        self.render()

    def _learn(self) -> ft.Control:
        items = learn_items()
        chosen = next((i for i in items if i.id == self.learn_item), items[0])

        def chip(item: LearnItem) -> ft.Control:
            mine = item.id == chosen.id
            return _ident(f"learn-{item.id}", ft.Container(
                _label(self.t(item.name), 13, bold=mine, colour="#ffffff" if mine else None),
                bgcolor=FELT if mine else CARD, padding=ft.Padding.symmetric(horizontal=10, vertical=6),
                border_radius=14, border=ft.Border.all(1, "#d0c8b0"), on_click=lambda: self._pick_item(item.id)))

        chips = ft.Row([chip(i) for i in items], wrap=True, spacing=6, run_spacing=6)
        return ft.Column([_label(self.t(ui("learn_intro")), 13), chips, self._learn_card(chosen)], spacing=10)

    def _learn_card(self, item: LearnItem) -> ft.Control:
        worth = self.t(ui("learn_worth", n=item.value)) if item.value else self.t(ui("learn_off"))
        rows: list[ft.Control] = [
            _ident(ID_LEARN_TITLE, _label(f"{item.name.zh}　{item.name.en}", 20, bold=True, colour=ACCENT)),
            _label(f"{self.t(item.kind)}　·　{worth}", 13, colour="#555555"),
            _label(self.t(item.explain), 15)]
        ex = item.example
        if ex is None:
            rows.append(_label(self.t(ui("learn_no_example")), 13))
        else:
            rows.append(ft.Divider())
            rows.append(_label(f"{self.t(ui('learn_example'))}　{self.t(ex.profile)}", 14, bold=True, colour=FELT))
            tiles: list[ft.Control] = [_tile(c, TILE_W["hand"]) for c in ex.concealed]
            if ex.win_tile:
                win = Tile.from_code(ex.win_tile)
                tip = self.t(ui("photo_win_tile", tile=win.zh, tile_en=win.code))
                tiles += [ft.Container(width=8), _tile(ex.win_tile, TILE_W["hand"], tip)]
            rows.append(ft.Row(tiles, spacing=1, wrap=True))
            extra = [self._meld_tiles(m) for m in ex.melds]
            if ex.flowers:
                extra += [ft.Container(width=6), _label(self.t(ui("flowers")), 12),
                          _tiles(ex.flowers, TILE_W["meld"])]
            if extra:
                rows.append(ft.Row(extra, spacing=8, wrap=True))
            rows.append(_label(self.t(ex.setting), 13, colour="#555555"))
            rows.append(_label(self.t(ex.note), 14))
            rows.append(_label(self.t(ui("learn_scores")), 13, bold=True, colour=FELT))
            for words, tai, taught in ex.items:
                rows.append(ft.Row([ft.Container(_label(self.t(words), 13, bold=taught,
                                                        colour=ACCENT if taught else None), width=220),
                                    _label(str(tai), 13, bold=taught)]))
            total = ui("learn_total", hand=ex.hand_tai) + (ui("learn_dealer", dealer=ex.dealer_tai)
                                                           if ex.dealer_tai else Words("", ""))
            rows.append(_ident(ID_LEARN_TOTAL, _label(self.t(total), 14, bold=True)))
        return ft.Container(ft.Column(rows, spacing=6), bgcolor=CARD, padding=14, border_radius=8)

    # --- Score a photo ---------------------------------------------------------------------------------

    def _busy(self, work: Callable[[], None]) -> None:
        """Run slow work (reading a photo) off the page's loop, the page showing that it reads meanwhile."""
        self.photo_busy = True
        self.render()

        def run() -> None:
            try:
                work()
            except Exception as bad:  # the app's boundary: say it and keep serving
                self.photo = PhotoFailed(self.photo_read.name if self.photo_read else "", ui("error", why=str(bad)))
            self.photo_busy = False
            self.render()

        self.page.run_thread(run)

    def _use_demo_photo(self) -> None:
        def work() -> None:
            read, context = self.config.demo_photo()
            self.photo_read = read
            self.photo_demo = True
            self.photo_context = PhotoContext.from_context(context)
            self._score()

        self._busy(work)

    def _score(self) -> None:
        read = self.photo_read
        if read is None:
            self.photo = None
        elif isinstance(read, PhotoFailed):
            self.photo = read
        else:
            self.photo = score_read_photo(read, self.photo_context.as_context())

    async def _pick_photo(self) -> None:
        if self.picker is None:
            self.picker = ft.FilePicker()
        files = await self.picker.pick_files(file_type=ft.FilePickerFileType.IMAGE, with_data=True,
                                             cancel_upload_on_window_blur=False)
        if not files or files[0].bytes is None:
            return
        data, name = files[0].bytes, files[0].name

        def work() -> None:
            if self.photo_demo:  # the bundled photo's context is not the player's: start from the defaults
                self.photo_context = PhotoContext()
            self.photo_read = self.config.read_upload(data, name)
            self.photo_demo = False
            self._score()

        self._busy(work)

    def _set_context(self, **change: Any) -> None:
        self.photo_context = dataclasses.replace(self.photo_context, **change)
        self._busy(self._score)

    def _context_form(self) -> ft.Control:
        c = self.photo_context
        winds = [ft.DropdownOption(key=w, text=self.t(ui(f"wind_{w}"))) for w in "ESWN"]

        def pick(key: str, label: str, value: str, options: list[ft.DropdownOption], width: int = 130,
                 disabled: bool = False) -> ft.Control:
            def changed(e: Any) -> None:
                got = e.control.value
                self._set_context(**{key: int(got) if key == "streak" else got})

            return _ident(f"ctx-{key}", ft.Dropdown(label=self.t(ui(label)), value=value, options=options,
                                                    on_select=changed, width=width, dense=True, disabled=disabled))

        how = [ft.DropdownOption(key="self_draw", text=self.t(ui("self_draw"))),
               ft.DropdownOption(key="discard", text=self.t(ui("on_discard")))]
        streaks = [ft.DropdownOption(key=str(n), text=str(n)) for n in range(9)]
        return ft.Column([
            _label(self.t(ui("photo_context")), 12, colour="#555555"),
            ft.Row([pick("win_type", "win_type", c.win_type, how, 210),
                    pick("discarder", "discarder", c.discarder, winds, disabled=c.win_type != "discard"),
                    pick("seat_wind", "seat_wind", c.seat_wind, winds, 160),
                    pick("round_wind", "round_wind", c.round_wind, winds),
                    pick("dealer", "dealer_seat", c.dealer, winds),
                    pick("streak", "streak_n", str(c.streak), streaks, 100)], wrap=True, spacing=8, run_spacing=8),
        ], spacing=4)

    def _photo(self) -> ft.Control:
        intro = _label(self.t(ui("photo_intro")), 13)
        buttons = ft.Row([
            _ident("photo-pick", ft.Button(content=self.t(ui("photo_pick")), on_click=self._pick_photo,
                                           disabled=self.photo_busy)),
            _ident("photo-demo", ft.OutlinedButton(content=self.t(ui("photo_demo")), on_click=self._use_demo_photo,
                                                   disabled=self.photo_busy)),
        ], spacing=8)
        head: list[ft.Control] = [intro, buttons]
        if self.photo_read is not None and not isinstance(self.photo_read, PhotoFailed):
            head.append(self._context_form())
        if self.photo_busy or self.photo is None:
            head.append(ft.Row([ft.ProgressRing(width=20, height=20), _label(self.t(ui("photo_reading")), 13)]))
            return ft.Column(head, spacing=8)
        p = self.photo
        if isinstance(p, PhotoFailed):
            head.append(_ident("photo-failed", _label(self.t(p.reason), 14, colour=ACCENT)))
            if p.image is not None:
                head.append(ft.Image(src=p.image, width=720))
            return ft.Column(head, spacing=8)
        head.append(_label(p.name, 12, colour="#555555"))
        return ft.Column([*head, ft.ResponsiveRow([
            ft.Container(ft.Image(src=p.image, fit=ft.BoxFit.CONTAIN), col={"xs": 12, "md": 7}),
            ft.Container(self._photo_card(p), col={"xs": 12, "md": 5})])], spacing=8)

    def _photo_card(self, p: PhotoPanel) -> ft.Control:
        read: list[ft.Control] = [_label(self.t(ui("photo_read_as")), 13, bold=True),
                                  ft.Row([_tile(c, TILE_W["hand"]) for c in p.concealed], spacing=1, wrap=True)]
        if p.win_tile:
            win = Tile.from_code(p.win_tile)
            read.append(ft.Row([_label(self.t(ui("photo_win_tile", tile=win.zh, tile_en=win.code)), 13),
                                _tile(p.win_tile, TILE_W["hand"])]))
        if p.melds:
            read.append(ft.Row([self._meld(m) for m in p.melds], spacing=10, wrap=True))
        if p.flowers:
            read.append(ft.Row([_label(self.t(ui("flowers")), 12), _tiles(p.flowers, TILE_W["meld"])]))
        if p.notes:
            read.append(_label(self.t(ui("photo_doubts")), 13, bold=True, colour=ACCENT))
            read += [_label("• " + self.t(n), 12) for n in p.notes]
        tai: list[ft.Control] = [_label(self.t(ui("tai_items")), 13, bold=True, colour=FELT)]
        for words, n in p.items:
            tai.append(ft.Row([ft.Container(_label(self.t(words), 13), width=220), _label(str(n), 13)]))
        line = self.t(ui("hand_tai", tai=p.hand_tai))
        if p.capped_tai != p.hand_tai:
            line += self.t(ui("capped", tai=p.capped_tai))
        if p.dealer_tai:
            line += "　" + self.t(ui("dealer_tai", tai=p.dealer_tai))
        tai.append(_label(line, 13))
        tai.append(_ident(ID_PHOTO_TOTAL, _label(self.t(p.total), 16, bold=True, colour=ACCENT)))
        tai.append(_label(self.t(ui("payments")), 13, bold=True, colour=FELT))
        tai += [_label(self.t(w), 13) for w in p.payments]
        return ft.Container(ft.Column(read + [ft.Divider()] + tai, spacing=4), bgcolor=CARD, padding=12,
                            border_radius=8)
