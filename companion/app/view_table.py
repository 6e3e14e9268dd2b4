"""The Table tab: a game's log replayed step by step, drawn from :class:`~companion.app.table_model.TableFrame`."""

from __future__ import annotations

import asyncio
import bisect
import threading
from collections.abc import Callable

import flet as ft

from companion.app.ledger_model import dealer_tai_said
from companion.app.table_model import GameReplay, HandEnd, SeatPanel, TableFrame
from companion.app.ui_kit import (
    ACCENT,
    CARD,
    FELT,
    GREY,
    ID_BACK,
    ID_CAPTION,
    ID_HAND_END,
    ID_NEXT,
    ID_NEXT_HAND,
    ID_REPLAY_SLIDER,
    ID_STEP,
    TILE_W,
    Host,
    badge,
    ident,
    label,
    meld,
    tile,
    tiles,
)
from companion.app.view_wall import wall_fold
from companion.app.words import SEP, Words, signed, ui

__all__ = ["TableTab", "PLAY_SECONDS", "banner", "seat_grid", "seat_card", "hand_end_card", "recent_list"]

PLAY_SECONDS = 0.6  # one step of the automatic replay
LONG_REPLAY = 600  # more steps than this (about six hands): the slider goes hand by hand
WINDS = "東南西北"


ID_PLAY = "play"
ID_OLDER_RULES = "table-older-rules"  # under the note: events of an old log let in under the older rules of their stamp


class TableTab:
    def __init__(self, host: Host, replay: GameReplay, note: Words) -> None:
        self.host, self.replay, self.note = host, replay, note
        starts = replay.hand_starts()
        self.index = starts[0] if starts else 0
        self.show_hands = True
        self.wall_open = False
        self.playing = False
        self._play_run = 0  # the one automatic replay allowed to step; a new one retires the old
        # a step is taken, and Pause retires the replay, one at a time: Pause's handler runs in a thread of its own,
        # and a step checked before it and taken after it landed once Pause had been answered (a test review)
        self._steps = threading.Lock()
        # the bottom bar's controls, made once, their words set at each redraw (:meth:`bottom_bar`)
        self._back = ft.OutlinedButton(content="", on_click=lambda: self.go(self.index - 1))
        self._play_button = ft.Button(content="", on_click=self.toggle_play)
        self._forward = ft.Button(content="", on_click=lambda: self.go(self.index + 1))
        self._step = label("", 12)
        self._bar = ft.Row([ident(ID_BACK, self._back), ident(ID_PLAY, self._play_button),
                            ident(ID_NEXT, self._forward), ident(ID_STEP, self._step)], spacing=8, wrap=True,
                           alignment=ft.MainAxisAlignment.CENTER, vertical_alignment=ft.CrossAxisAlignment.CENTER)

    # --- actions -------------------------------------------------------------------------------------

    def go(self, index: int) -> None:
        self.index = max(0, min(index, len(self.replay) - 1))
        self.host.render()

    def stop(self) -> None:
        """Stop the automatic replay (leaving the tab, the page closing): no step is taken after this returns."""
        with self._steps:
            self.playing = False
            self._play_run += 1

    def toggle_play(self) -> None:
        if self.playing:
            self.stop()
        else:
            if self.index >= len(self.replay) - 1:  # from the end, play again from the first deal
                starts = self.replay.hand_starts()
                self.index = starts[0] if starts else 0
            with self._steps:
                self.playing = True
                self._play_run += 1
                run = self._play_run
            self.host.page.run_task(self._play, run)
        self.host.render()

    async def _play(self, run: int) -> None:
        while run == self._play_run and self.index < len(self.replay) - 1:
            await asyncio.sleep(PLAY_SECONDS)
            with self._steps:
                if run != self._play_run:
                    return
                self.index += 1
            self.host.render()
        if run == self._play_run:
            self.playing = False
            self.host.render()

    def _fold_wall(self, is_open: bool) -> None:
        self.wall_open = is_open  # kept for the next step's drawing; the tile redraws itself

    def toggle_hands(self) -> None:
        self.show_hands = not self.show_hands
        self.host.render()

    # --- drawing -------------------------------------------------------------------------------------

    def bottom_bar(self) -> ft.Control:
        """Back, play and next, pinned at the bottom of the screen so a phone never scrolls for them. Made once, their
        words set at each redraw: a tap on Pause during the automatic replay, which redraws every 0.6 s, was said to
        be on a screen gone, and the replay ran on (a review)."""
        t, last = self.host.t, len(self.replay) - 1
        self._back.content, self._back.disabled = t(ui("back")), self.index <= 0
        self._play_button.content = t(ui("pause" if self.playing else "play"))
        self._forward.content, self._forward.disabled = t(ui("forward")), self.index >= last
        self._step.value = t(ui("step", i=self.index, n=last))
        return self._bar

    def _jumps(self, frame: TableFrame) -> ft.Control:
        t, replay = self.host.t, self.replay

        def button(key: str, target: Callable[[], int], disabled: bool, identifier: str | None = None) -> ft.Control:
            b = ft.OutlinedButton(content=t(ui(key)), on_click=lambda: self.go(target()), disabled=disabled)
            return ident(identifier, b) if identifier else b

        at_start, at_end = self.index <= 0, self.index >= len(replay) - 1
        starts = replay.hand_starts()
        hand = max(1, bisect.bisect_right(starts, self.index))  # 1 for the first hand
        long = frame.total > LONG_REPLAY and len(starts) > 1
        if long:  # a whole evening: a slider of steps could not land on a
            # hand (3000 steps across a phone, a review), so it goes hand by hand; the buttons step within one
            slider = ft.Slider(min=1, max=len(starts), value=hand, divisions=len(starts) - 1,
                               label=t(ui("replay_hand_label", value="{value}")), expand=True,  # (Flet fills it in)
                               on_change_end=lambda e: self.go(starts[int(e.control.value or 1) - 1]))
        else:
            slider = ft.Slider(min=0, max=max(1, frame.total), value=frame.index, divisions=max(1, frame.total),
                               on_change_end=lambda e: self.go(int(e.control.value or 0)), expand=True)
        said = (ui("replay_hand_said", i=hand, n=len(starts)) if long  # what a screen reader says of the slider
                else ui("step", i=frame.index, n=frame.total))  # (it said "slider, 1%", a review)
        if long:
            def step(by: int) -> None:
                self.go(starts[min(len(starts), max(1, hand + by)) - 1])
        else:
            def step(by: int) -> None:
                self.go(min(frame.total, max(0, frame.index + by)))
        # the slider's own semantics (a percentage, no name) replaced by its name and the step it shows, moved by
        # a screen reader's swipe up or down as the buttons move it
        slid = ft.Semantics(identifier=ID_REPLAY_SLIDER, slider=True, label=t(ui("replay_slider")), value=t(said),
                            on_increase=lambda: step(1), on_decrease=lambda: step(-1), exclude_semantics=True,
                            content=slider, expand=True)
        switch = ft.Switch(label=t(ui("show_hands")), value=self.show_hands, on_change=self.toggle_hands)
        row = ft.Row([
            button("first", lambda: 0, at_start),
            button("prev_hand", lambda: replay.next_stop(self.index, forward=False), at_start),
            button("next_hand", lambda: replay.next_stop(self.index, forward=True), at_end, ID_NEXT_HAND),
            button("last", lambda: len(replay) - 1, at_end),
            switch,
        ], wrap=True, spacing=6)
        return ft.Column([row, ft.Row([slid])], spacing=2)

    def build(self) -> ft.Control:
        t = self.host.t
        frame = self.replay.frame(self.index, self.show_hands)
        parts: list[ft.Control] = [label(t(self.note), 12, colour=GREY)]
        if self.replay.older is not None:  # (as `companion replay` says it: the tab took them without a word)
            parts.append(ident(ID_OLDER_RULES, label(t(self.replay.older), 12, colour=ACCENT)))
        parts += [self._jumps(frame), banner(t, frame)]
        if frame.wall is not None:
            parts.append(wall_fold(t, frame.wall, self.wall_open, self._fold_wall, "table-wall"))
        if frame.end is not None:
            parts.append(hand_end_card(t, frame.end))
        parts += [seat_grid(t, frame), recent_list(t, frame)]
        return ft.Column(parts, spacing=8)


Say = Callable[[Words], str]
WARNING = "#ffd54f"
"""What the tracker flagged (a flower laid late, a wrong count), amber on the felt: the table decides."""


def banner(t: Say, frame: TableFrame) -> ft.Control:
    """The felt strip on top: the latest event, the hand, the wall, the phase."""
    info: list[ft.Control] = [ident(ID_CAPTION, label(t(frame.caption), 18, bold=True, colour="#ffffff"))]
    for line in (frame.hand_line, frame.wall_line):
        if line is not None:
            info.append(label(t(line), 14, colour="#ffffff"))
    info.append(label(t(frame.phase), 12, colour="#d9e8dd"))
    info += [label(f"! {t(w)}", 13, bold=True, colour=WARNING) for w in frame.warnings]
    return ft.Container(ft.Column(info, spacing=2), bgcolor=FELT, padding=10, border_radius=8)


def seat_grid(t: Say, frame: TableFrame) -> ft.Control:
    seats = sorted(frame.seats, key=lambda s: WINDS.index(s.wind.zh))
    return ft.ResponsiveRow([ft.Container(seat_card(t, s), col={"xs": 12, "md": 6}) for s in seats],
                            spacing=8, run_spacing=8)


def seat_card(t: Say, s: SeatPanel) -> ft.Control:
    badges: list[ft.Control] = [label(f"{t(s.wind)}{t(SEP)}{s.name}", 16, bold=True)]
    if s.dealer:
        badges.append(badge(t(ui("dealer")) + (f" {t(ui('streak', n=s.streak))}" if s.streak else ""), ACCENT))
    if s.to_act:
        badges.append(badge(t(ui("to_act")), FELT))
    badges += [label(t(tag), 12, colour=ACCENT) for tag in s.tags]
    rows: list[ft.Control] = [ft.Row(badges, wrap=True, spacing=6)]
    if s.concealed or s.drawn:
        hand = [tile(t, c, TILE_W["hand"]) for c in s.concealed]
        if s.drawn:
            hand += [ft.Container(width=8), tile(t, s.drawn, TILE_W["hand"])]
        rows.append(ft.Row(hand, spacing=1, wrap=True))
    elif s.hidden:
        rows.append(label(t(ui("tiles_hidden", n=s.hidden)), 12))
    if s.melds:
        rows.append(ft.Row([meld(t, m, t(m.label)) for m in s.melds], spacing=10, wrap=True))
    if s.flowers or s.flower_held:
        row: list[ft.Control] = [label(t(ui("flowers")), 12)]
        if s.flowers:
            row.append(tiles(t, s.flowers, TILE_W["meld"]))
        if s.flower_held:  # drawn and shown, not replaced yet (the eighth may be won on the spot): marked apart
            row += [ft.Container(tile(t, s.flower_held, TILE_W["meld"]), border=ft.Border.all(2, ACCENT), border_radius=4),
                    label(t(ui("flower_held_mark")), 12, bold=True, colour=ACCENT)]
        rows.append(ft.Row(row, spacing=6, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER))
    rows.append(label(t(ui("river")), 12, colour=GREY))
    rows.append(tiles(t, s.discards, TILE_W["river"]) if s.discards else label(t(ui("none")), 12))
    if s.waits:
        waits: list[ft.Control] = [label(t(ui("waits")), 14, bold=True, colour=ACCENT)]
        for w in s.waits:
            waits.append(ft.Column([tile(t, w.tile, TILE_W["wait"], t(w.shapes)), label(t(ui("left", n=w.unseen)), 11)],
                                   spacing=0, horizontal_alignment=ft.CrossAxisAlignment.CENTER))
        if s.wait_note is not None:
            waits.append(label(t(s.wait_note), 12, colour=ACCENT))
        rows.append(ft.Row(waits, spacing=8, wrap=True))
    elif s.wait_note is not None:
        rows.append(label(t(s.wait_note), 12, colour=GREY))
    if s.advice:
        rows.append(label(t(ui("advice")), 13, bold=True, colour=FELT))
        for a in s.advice:
            rows.append(ft.Row([tile(t, a.tile, 22), ft.Container(label(t(a.reason), 12), expand=True)],
                               spacing=6, vertical_alignment=ft.CrossAxisAlignment.START))
    border = ft.Border.all(3, ACCENT) if s.to_act else ft.Border.all(1, "#d0c8b0")
    return ft.Container(ft.Column(rows, spacing=4), bgcolor=CARD, padding=10, border_radius=8, border=border)


def hand_end_card(t: Say, end: HandEnd) -> ft.Control:
    rows: list[ft.Control] = [label(t(ui("hand_over_is", outcome=end.outcome.zh, outcome_en=end.outcome.en)), 16,
                                bold=True)]
    for line in end.lines:
        rows.append(label(f"{line.player} — {t(line.kind)}", 15, bold=True, colour=ACCENT))
        concealed, melds, won = line.hand
        if concealed or melds:  # the hand shown, as pictures
            pics: list[ft.Control] = [tile(t, c, 22) for c in concealed]
            for m in melds:  # each set apart, at the concealed tiles' size (a review read a 全求 hand's sets as one run)
                pics += [ft.Container(width=8), ft.Row([tile(t, c, 22) for c in m], spacing=1, tight=True)]
            pics += [label("+", 13), tile(t, won, 22)] if won else []
            # and the flowers, set apart: 正花 or 花槓 among the items came from them (a review saw none on the card)
            pics += [ft.Container(width=8), ft.Row([tile(t, c, 22) for c in line.flowers], spacing=1, tight=True)] \
                if line.flowers else []
            # (left out of the screen reader's tree: the card reads as its words, as before the pictures)
            rows.append(ft.Semantics(content=ft.Row(pics, spacing=1, wrap=True, run_spacing=2), exclude_semantics=True))
        if line.unscored is not None:
            rows.append(label(t(line.unscored), 12))
            continue
        if line.items:
            rows.append(label(t(ui("tai_items")), 12, colour=GREY))
        for words, tai in line.items:
            rows.append(ft.Row([ft.Container(label(t(words), 13), width=220), label(f"{tai}", 13)]))
        rows += [label(t(w), 11, colour=GREY) for w in line.house]
        total = t(ui("penalty_limit", tai=line.hand_tai, amount=line.shared) if line.shared is not None
                  else ui("penalty_none") if line.unpaid
                  else ui("penalty_tai" if line.penalty else "hand_tai", tai=line.hand_tai))
        if line.capped_tai != line.hand_tai:
            total += t(ui("capped", tai=line.capped_tai))
        if line.dealer_tai:
            total += t(SEP) + t(dealer_tai_said(line.dealer_tai, line.dealer_why))
        rows.append(label(total, 13, bold=True))
    if end.transfers:
        rows.append(label(t(ui("payments")), 13, bold=True, colour=FELT))
        rows += [label(t(x), 13) for x in end.transfers]
    rows.append(label(t(ui("balances")), 13, bold=True, colour=FELT))
    rows.append(label(t(SEP).join(f"{p} {signed(v)}" for p, v in end.balances), 13))
    rows.append(label(t(end.next_deal), 13, colour=GREY))
    return ident(ID_HAND_END, ft.Container(ft.Column(rows, spacing=3), bgcolor="#fff4d6", padding=12,
                                           border_radius=8, border=ft.Border.all(2, "#e0b040")))


def recent_list(t: Say, frame: TableFrame) -> ft.Control:
    rows: list[ft.Control] = [label(t(ui("recent")), 13, bold=True)]
    rows += [label(t(w), 12, colour="#333333" if i == 0 else "#777777") for i, w in enumerate(frame.recent)]
    return ft.Container(ft.Column(rows, spacing=2), padding=8)
