"""The Ledger tab: the session's hands and money (:mod:`companion.app.ledger_model`), of the live game being entered
or of the Table tab's replay up to its step."""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.app.ledger_model import (
    LEDGER_PATH,
    AllSessions,
    LedgerPanel,
    LedgerRow,
    WinShown,
    correction_said,
    earlier_panels,
    ledger_inputs,
    ledger_panel,
    session_panel,
)
from companion.app.listening import LiveListener
from companion.app.live_model import LiveError, LiveGame, not_saved, tiles_typed
from companion.app.ui_kit import (
    ACCENT,
    CARD,
    FELT,
    GREY,
    ID_LEDGER_SETTLE,
    Host,
    bring_into_view,
    field_width,
    ident,
    label,
    scroll_key,
    unfolded,
)
from companion.app.ui_kit import tile as picture
from companion.app.view_table import TableTab
from companion.app.words import SEP, Asked, Words, asked, refused, signed, ui
from companion.game.service import ServiceError
from companion.game.state import TableState
from companion.tiles import CopyLimitError, NotationError, Tile, parse_tiles

__all__ = ["LedgerTab"]

FIX_FORM = "ledger-fix-form"
"""The scroll key of the open correction form."""


class LedgerTab:
    def __init__(self, host: Host, table: TableTab, live: LiveGame | None = None) -> None:
        self.host, self.table, self.live = host, table, live
        # the live game's once one is seated, the replay's before (a fresh demo's Ledger said only 「還沒有人入座」, its
        # four hands behind the other button: a review), unless the player picks one
        self.of_live: bool | None = None
        # 改正胡牌: the winner whose recorded tiles are being put right (hand, seat), on the table as it was then
        self.fixing: tuple[int, int, int] | None = None  # (session, hand, seat): session 0 the one under way
        self.fix_of: WinShown | None = None  # the win as it was recorded when the form was opened
        self.fix_error: Words | None = None
        self.fix_error_box = ft.Container()  # the refusal of the last tap, above the fields: gone once they change
        self.fix_concealed = ft.TextField(dense=True, width=420, on_change=self._fix_typed)
        self.fix_tile = ft.TextField(dense=True, width=120, on_change=self._fix_typed)
        # the kinds of his concealed kongs face down until the win (typed in the win form, seen by no one before)
        self.fix_kongs = ft.TextField(dense=True, width=160, on_change=self._fix_typed)
        self.fix_preview = ft.Container()  # what recording the form would change, said as it is typed
        self.fix_said: tuple[int, int, int] | None = None  # the win whose form closed with ``fix_error`` to say
        self.fix_done: Words | None = None  # what the correction just recorded there changed
        self.visible = False  # on screen (set by the app as it draws)
        self.earlier_open: set[int] = set()  # the earlier sessions whose hands are unfolded
        self.listener = LiveListener(host, live, self._changed)
        self._heard: tuple[object, ...] | None = None  # what the live ledger was last drawn from

    # --- following the live table: another phone's entry or correction redraws the money shown here ----------

    def attach(self) -> None:
        self.listener.attach()

    def detach(self) -> None:
        self.listener.detach()

    def _changed(self) -> None:
        if self.visible and self.showing_live:
            assert self.live is not None
            try:
                now: tuple[object, ...] | None = ledger_inputs(self.live.state)
            except LiveError:
                now = None  # (said on the tab: drawn again)
            if now is None or now != self._heard:  # a tap that changes no money draws nothing
                self._heard = now
                self.listener.redraw()

    def open_fix(self, hand: int, shown: WinShown, session: int = 0) -> None:
        self.fixing, self.fix_error, self.fix_of, self.fix_said = (session, hand, shown.seat), None, shown, None
        self.fix_done = None
        self.fix_concealed.value, self.fix_tile.value = shown.concealed, shown.tile
        self.fix_kongs.value = kongs_field(shown)
        self.host.render()
        bring_into_view(self.host.page, FIX_FORM)  # opened low on a phone it showed one line (a player review)

    def _fix_typed(self) -> None:
        """Called from a field's handler: Flet sends the preview's change when the handler returns."""
        if self.fix_of is not None and self.fixing is not None:
            # the last tap's refusal was of other tiles: the preview says what these would give (an English host
            # review read "nothing to correct" above a preview refusing the new tiles for another reason)
            self.fix_error, self.fix_error_box.content = None, None
            self.fix_preview.content = self._preview(self.fixing[0], self.fixing[1], self.fix_of)

    def _preview(self, session: int, hand: int, w: WinShown) -> ft.Control | None:
        """The hand's tai and the balances the form would give once recorded, or why it would be refused; nothing
        while the form holds the tiles as recorded."""
        live = self.live
        concealed = self.fix_concealed.value or ""
        tile = (self.fix_tile.value or "").strip() if w.self_drawn else ""
        kongs, missing = self._kongs_sent(w), self._kongs_missing(w)
        if live is None or (concealed.strip() == w.concealed and (not w.self_drawn or tile == w.tile)
                            and not kongs and missing is None):
            return None
        said: Words
        if w.self_drawn and not tile:
            said, good = asked("live_win_tile"), False
        elif missing is not None:
            said, good = missing, False
        else:
            try:
                before = session_panel(live.state, session)
                # another phone put the same win right since the form opened: recording would be refused so
                after = live.preview_correction(hand, w.seat, concealed, tile, session, kongs) \
                    if _recorded(before, (hand, w.seat)) == self.fix_of else ui("ledger_fix_moved")
            except LiveError as bad:
                after = bad.words
            if isinstance(after, Asked):  # (an entry still missing is asked for, as the form's own check does)
                said, good = after, False
            elif isinstance(after, Words):
                said, good = ui("ledger_fix_preview_no", why=after.zh, why_en=after.en), False
            else:
                found = correction_said(before, session_panel(after, session), hand, "ledger_fix_preview")
                if found is None:
                    return None
                said, good = found, True
        return ident("ledger-fix-preview", label(self.host.t(said), 13, bold=good, colour=FELT if good else ACCENT))

    def _kongs_typed(self, w: WinShown) -> str:
        """The kongs field as typed: blank where the win had no kong face down (the field is not shown)."""
        return (self.fix_kongs.value or "").strip() if w.kongs else ""

    def _kongs_sent(self, w: WinShown) -> str:
        """The kongs field as the correction sends it: blank where it names the kinds as recorded (a correction of
        the tiles alone was recorded as the kongs' too, said "concealed kongs: 8 Dots" on the Live tab and the
        CSV)."""
        typed = self._kongs_typed(w)
        try:
            return "" if tiles_typed(typed) == tiles_typed(kongs_field(w)) else typed
        except (NotationError, CopyLimitError):
            return typed  # (refused by the correction, said so)

    def _kongs_missing(self, w: WinShown) -> Words | None:
        """Why the form cannot be recorded with its kongs field blank: each kong face down needs its kind."""
        return asked("live_win_kongs_needed", n=len(w.kongs), got=0) if w.kongs and not self._kongs_typed(w) else None

    def close_fix(self) -> None:
        self.fix_of = None
        self.fixing, self.fix_error = None, None
        self.host.render()

    def save_fix(self, shown: WinShown) -> None:
        live, fixing = self.live, self.fixing
        if live is None or fixing is None:
            return
        tile = (self.fix_tile.value or "").strip() if shown.self_drawn else ""
        session, hand, seat = fixing
        try:
            now = _recorded(session_panel(live.state, session), (hand, seat))
        except LiveError as bad:
            now, self.fix_error = None, bad.words
        if now != self.fix_of:  # re-seated, undone, or put right on another phone since the form was opened
            self.fixing, self.fix_error, self.fix_said = None, self.fix_error or ui("ledger_fix_moved"), fixing
            self.host.render()
            return
        if shown.self_drawn and not tile:
            self.fix_error = asked("live_win_tile")
            self.host.render()
            return
        if (missing := self._kongs_missing(shown)) is not None:
            self.fix_error = missing
            self.host.render()
            return
        before = session_panel(live.state, session)
        try:
            # (not tied to the screen's moment: a tap on the hand being played meanwhile does not clash with it)
            why = live.correct_win(hand, seat, self.fix_concealed.value or "", tile, session=session,
                                   kongs=self._kongs_sent(shown))
        except LiveError as bad:
            why = bad.words
        except ServiceError as failed:
            why = not_saved(failed)
        if why is None:  # the host is told what it changed: that hand's tai and the balances that moved
            self.fixing, self.fix_said = None, fixing
            self.fix_done = correction_said(before, session_panel(live.state, session), hand)
        self.fix_error = why
        self.host.render()

    @property
    def showing_live(self) -> bool:
        if self.live is None or not self.live.opened:
            return False
        if self.of_live is not None:
            return self.of_live
        try:
            return bool(self.live.state.players)
        except LiveError:
            return True  # (what is wrong with the table said on the tab)

    def pick(self, live: bool) -> None:
        self.of_live = live
        self.host.render()

    def build(self) -> ft.Control:
        t = self.host.t
        head: list[ft.Control] = [label(t(ui("ledger_intro")), 13)]
        if self.live is not None and self.live.opened:
            choice = ft.Row([ident("ledger-of-live", ft.Radio(value="live", label=t(ui("ledger_of_live")))),
                             ident("ledger-of-replay", ft.Radio(value="replay", label=t(ui("ledger_of_replay"))))])
            head.append(ft.RadioGroup(content=choice, value="live" if self.showing_live else "replay",
                                      on_change=lambda e: self.pick(e.control.value == "live")))
        if self.showing_live:
            assert self.live is not None
            try:
                state = self.live.state
            except LiveError as bad:
                return ft.Column([*head, label(t(bad.words), 14, colour=ACCENT)], spacing=8)
            self._heard = ledger_inputs(state)
        else:
            state = self.table.replay.states[self.table.index]
            head.append(label(t(ui("step", i=self.table.index, n=len(self.table.replay) - 1)), 12, colour=GREY))
        panel = ledger_panel(state)
        if panel is None:
            return ft.Column([*head, label(t(ui("ledger_none")), 14)], spacing=8)
        head.append(label(t(panel.stakes), 12, colour=GREY))
        if not panel.rows:  # (a session just seated: the earlier ones' money still shows)
            night = [self._sessions(panel.sessions)] if panel.sessions is not None else []
            return ft.Column([*head, *night, label(t(ui("ledger_empty")), 14), *self._earlier(state, panel)], spacing=8)
        totals, settle = self._money(panel.balances, panel.settle_up)
        summary: ft.Control = ft.Container(ft.Column([
            label(t(ui("balances")), 13, bold=True, colour=FELT), totals,
            ident(ID_LEDGER_SETTLE, ft.Column([label(t(ui("ledger_settle")), 15, bold=True, colour=FELT), *settle],
                                              spacing=2))], spacing=6),
            bgcolor="#fff4d6", padding=12, border_radius=8, border=ft.Border.all(2, "#e0b040"))
        if panel.sessions is not None:  # the night's money first: what the players pay when they go home
            summary = ft.Column([self._sessions(panel.sessions),
                                 label(t(ui("ledger_this", n=len(panel.sessions.earlier) + 1)), 14, bold=True,
                                       colour=FELT), summary], spacing=8)
        rows: list[ft.Control] = []
        if panel.pending is not None:  # changed after the last hand: from the next one on
            rows.append(ident("ledger-change-next", label(t(panel.pending), 13, bold=True, colour=FELT)))
        for r in reversed(panel.rows):  # the latest first; a change of stakes or rules between the hands it parts
            rows.append(self._row(r))
            if r.change is not None:
                rows.append(ident(f"ledger-change-{r.number}", label(t(r.change), 13, bold=True, colour=FELT)))
        if self.showing_live:  # the live game's ledger, for a spreadsheet
            head.append(ident("ledger-csv", ft.TextButton(content=t(ui("ledger_csv")), url=LEDGER_PATH)))
        # the hands' cards one width (the phone's): a card with its correction form open no wider than the rest
        hands = ft.Column(rows, spacing=8, horizontal_alignment=ft.CrossAxisAlignment.STRETCH)
        return ft.Column([*head, summary, hands, *self._earlier(state, panel)], spacing=8)

    def _earlier(self, state: TableState, panel: LedgerPanel) -> list[ft.Control]:
        """Each earlier session's hands, folded, with their corrections: a win found wrong once the players sat down
        again is put right there (a money review found it could not be)."""
        if panel.sessions is None:
            return []
        t, out = self.host.t, []
        for k, earlier in enumerate(earlier_panels(state), 1):  # (each session's ledger built once)
            if not earlier.rows:
                continue
            busy = any(x is not None and x[0] == k for x in (self.fixing, self.fix_said))

            def toggled(e: Any, k: int = k) -> None:
                if unfolded(e, f"ledger-session-{k}"):
                    self.earlier_open.add(k)
                else:
                    self.earlier_open.discard(k)

            out.append(ident(f"ledger-session-{k}", ft.ExpansionTile(key=scroll_key(f"ledger-session-{k}"),
                title=label(t(ui("ledger_session_hands", n=k, hands=len(earlier.rows))), 13, bold=True, colour=FELT),
                expanded=busy or k in self.earlier_open, on_change=toggled,
                controls=[ft.Column([self._row(r, k) for r in reversed(earlier.rows)], spacing=8,
                                    horizontal_alignment=ft.CrossAxisAlignment.STRETCH)])))
        return out

    def _money(self, balances: tuple[tuple[str, int], ...], settle_up: tuple[Words, ...]) -> tuple[ft.Control,
                                                                                                 list[ft.Control]]:
        """Each player's balance in a row, and the payments that settle them (or that nobody owes anything)."""
        t = self.host.t
        totals = ft.Row([label(f"{p} {signed(v)}", 15, bold=True, colour=ACCENT if v < 0 else FELT) for p, v in balances],
                        spacing=16, wrap=True)
        return totals, [label(t(w), 14, bold=True) for w in settle_up] or [label(t(ui("ledger_even")), 14)]

    def _sessions(self, all_: AllSessions) -> ft.Control:
        t = self.host.t
        totals, settle = self._money(all_.totals, all_.settle_up)
        return ident("ledger-all", ft.Container(ft.Column([
            label(t(ui("ledger_all", n=len(all_.earlier) + 1)), 15, bold=True, colour=FELT),
            *(label(t(w), 12, colour=GREY) for w in all_.earlier), totals,
            label(t(ui("ledger_all_settle")), 13, bold=True, colour=FELT), *settle], spacing=4),
            bgcolor="#fff4d6", padding=12, border_radius=8, border=ft.Border.all(2, "#e0b040")))

    def _fix(self, hand: int, w: WinShown, session: int = 0) -> ft.Control:
        this = (session, hand, w.seat)
        if self.fixing == this and self.fix_of != w:  # the record changed under the open form
            self.fixing, self.fix_error, self.fix_said = None, ui("ledger_fix_moved"), this
        t = self.host.t
        named = f"{hand}-{w.seat}" if not session else f"s{session}-{hand}-{w.seat}"  # (an earlier session's)
        if self.fixing != this:
            parts: list[ft.Control] = []
            if w.corrected:  # the hand as put right, in tile pictures (a review read the notation here)
                parts.append(ident(f"ledger-fixed-{named}", ft.Row(
                    [label(t(ui("ledger_fixed_pics", player=w.player)), 12, colour=GREY),
                     *(picture(t, c.code, 18) for c in parse_tiles(w.concealed)),
                     # and the tile won on, as the form shows the record (a review read the hand without it)
                     *((label("+", 12), picture(t, w.tile, 18)) if w.tile else ()),
                     *(ft.Container(ft.Row([picture(t, c, 18) for c in m], spacing=1, tight=True),
                                   padding=ft.Padding.only(left=8)) for m in w.melds)],  # and the melds laid down
                    spacing=1, wrap=True, run_spacing=2)))
            if self.fix_said == this and self.fix_error is not None:  # why the form closed unsaved
                parts.append(ident("ledger-fix-error", label(t(self.fix_error), 13, colour=ACCENT)))
            elif self.fix_said == this and self.fix_done is not None:  # what the correction changed
                parts.append(ident("ledger-fix-done", label(t(self.fix_done), 13, colour=FELT)))
            parts.append(ident(f"ledger-fix-{named}", ft.TextButton(
                content=t(ui("ledger_fix", player=w.player)), on_click=lambda: self.open_fix(hand, w, session))))
            return ft.Column(parts, spacing=2)
        self.fix_preview.content = self._preview(session, hand, w)  # (drawn anew in the language shown)
        self.fix_concealed.width = field_width(self.host.page)  # (a phone: as the Live tab's field)
        self.fix_concealed.label = t(ui("ledger_fix_concealed" if w.tile else "ledger_fix_all_concealed",
                                        player=w.player))
        self.fix_tile.label = t(ui("ledger_fix_tile"))
        self.fix_kongs.label = t(ui("ledger_fix_kongs", n=len(w.kongs))
                                 + (ui("ledger_fix_kongs_unnamed") if "" in w.kongs else Words("", "")))
        if w.self_drawn:
            tile: ft.Control = ident("ledger-fix-tile", self.fix_tile)
        elif w.tile:  # the table's: not asked for
            won = Tile.from_code(w.tile)
            tile = label(t(ui("ledger_fix_discard", tile=won.zh, tile_en=won.en)), 13)
        else:  # 八仙過海 on his hand
            tile = label(t(ui("ledger_fix_no_tile")), 13)
        rows: list[ft.Control] = [
            label(t(ui("ledger_fix_intro", player=w.player, n=hand)), 13, bold=True, colour=FELT),
            # as pictures: a player reads tiles, not the notation; the melds laid down too (a review could not see
            # the pung beside the tiles corrected)
            ident(f"ledger-fix-recorded-{named}", ft.Row(
                [label(t(ui("ledger_fix_recorded")), 12, colour=GREY),
                 *(picture(t, c.code, 20) for c in parse_tiles(w.concealed)),
                 *((label("+", 13), picture(t, w.tile, 20)) if w.tile else ()),
                 *(ft.Container(ft.Row([picture(t, c, 20) for c in m], spacing=1, tight=True),
                               padding=ft.Padding.only(left=8)) for m in w.melds)],
                spacing=1, wrap=True, run_spacing=2))]
        # above the fields: the button below may be at the screen's edge
        self.fix_error_box.content = None if self.fix_error is None else ident("ledger-fix-error", label(
            t(refused(self.fix_error)), 13, colour=ACCENT))
        rows += [
            self.fix_error_box,
            ft.Row([ident("ledger-fix-concealed", self.fix_concealed), tile,
                    *((ident("ledger-fix-kongs", self.fix_kongs),) if w.kongs else ())], wrap=True, spacing=8),
            self.fix_preview,
            ft.Row([ident("ledger-fix-ok", ft.Button(content=t(ui("ledger_fix_ok")), on_click=lambda: self.save_fix(w))),
                    ft.TextButton(content=t(ui("ledger_fix_cancel")), on_click=self.close_fix)], spacing=8)]
        return ft.Container(ft.Column(rows, spacing=6), padding=8, border_radius=6, border=ft.Border.all(1, FELT),
                            key=scroll_key(FIX_FORM))

    def _row(self, r: LedgerRow, session: int = 0) -> ft.Control:
        t = self.host.t
        parts: list[ft.Control] = [
            ft.Row([label(t(ui("ledger_hand", n=r.number)), 15, bold=True), label(t(r.setting), 12, colour=GREY)],
                   spacing=10, wrap=True),
            label(t(r.result), 13, bold=True, colour=ACCENT)]
        if r.dice or r.winds is not None:  # the dice and the seat winds (spec §6.7; they were in the CSV only)
            said = [ui("ledger_dice", n=r.dice)] if r.dice else []
            said += [ui("ledger_winds", winds=r.winds.zh, winds_en=r.winds.en)] if r.winds is not None else []
            parts.insert(1, ident(f"ledger-dice-{r.number}", label(t(SEP).join(t(w) for w in said), 12, colour=GREY)))
        parts += [label(t(w), 13) for w in r.lines]
        parts += [label(t(w), 13, colour=FELT) for w in r.transfers]
        parts.append(label(t(SEP).join(f"{p} {signed(v)}" for p, v in r.balances), 12, colour=GREY))
        if r.next is not None:  # who deals next, his streak, the round (spec §6.7): a 流局's 連莊 said where it happens
            parts.append(ident(f"ledger-next-{r.number}", label(t(r.next), 12, colour=GREY)))
        if self.showing_live:  # the host may put a winner's recorded tiles right (spec §6.7)
            for w in r.shown:
                parts.append(self._fix(r.number, w, session))
        return ft.Container(ft.Column(parts, spacing=2), bgcolor=CARD, padding=10, border_radius=8)


def _recorded(panel: LedgerPanel | None, fixing: tuple[int, int]) -> WinShown | None:
    """The win ``fixing`` (hand, seat) as the ledger records it now."""
    hand, seat = fixing
    row = next((r for r in panel.rows if r.number == hand), None) if panel is not None else None
    return next((w for w in row.shown if w.seat == seat), None) if row is not None else None


def kongs_field(w: WinShown) -> str:
    """The kinds of the win's kongs face down until the win as the form's field holds them, in order: ``0x`` in
    the place of one the win left unnamed (an old log's), so that the others keep theirs (joined, "8p" of 8p and an
    unnamed one was refused as one kong of two)."""
    return "".join(k or Tile.UNKNOWN.code for k in w.kongs)
