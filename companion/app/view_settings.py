"""The Settings tab (設定): the player's own tile set, and the house rule sets (:mod:`companion.app.view_rule_sets`).
Which calibrated set reads the photos (use one, none, delete one), and a new set calibrated from photos of the
printable sheet: download it, lay the tiles on it, upload a photo of each page, see what each page gave, name the set
and save it. What it does is in
:mod:`companion.app.tileset_model`; a photo arrives through :class:`companion.app.upload.PhotoUpload`.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping
from pathlib import Path

import flet as ft

from companion.app.listening import PageListener
from companion.app.tileset_model import (
    OtherSetAsked,
    ReplaceAsked,
    SheetDraft,
    SheetFailed,
    SheetPage,
    TileSetError,
    delete_set,
    select_set,
    selection_gone,
    tile_sets,
)
from companion.app.ui_kit import ACCENT, CARD, FELT, FINGER, GREY, TILE_W, Host, ident, label, on_tap, tiles
from companion.app.upload import PhotoUpload
from companion.app.view_rule_sets import RuleSetsPanel
from companion.app.words import Words, ui
from companion.tiles import Tile
from companion.vision.sheet import KINDS

__all__ = ["SettingsTab", "TileSetSource", "ID_SET_UPLOAD", "ID_SET_NAME", "ID_SET_SAVE", "ID_SET_CURRENT",
           "ID_SET_MESSAGE"]

log = logging.getLogger(__name__)
ID_SET_CURRENT, ID_SET_UPLOAD, ID_SET_NAME, ID_SET_SAVE, ID_SET_MESSAGE = "set-current", "set-upload", "set-name", \
    "set-save", "set-message"
ID_SET_NONE, ID_SET_PAGE, ID_SET_MISSING = "set-none", "set-page", "set-missing"


@dataclasses.dataclass(frozen=True)
class TileSetSource:
    """What the tab needs of the server: reading a photo of a sheet page, fitting the selected set now, the folder
    photos land in (None: this server takes none), where the printable sheet is served per paper, and the pages
    read so far (kept by the server: a phone that reloads the page finds them)."""

    read_sheet: Callable[[Path, str], SheetPage | SheetFailed]
    follow_selection: Callable[[], None]
    upload_dir: Path | None
    sheets: Mapping[str, str]
    draft: SheetDraft = dataclasses.field(default_factory=SheetDraft)


class SettingsTab:
    def __init__(self, host: Host, source: TileSetSource | None) -> None:
        self.host, self.source = host, source
        self.draft = source.draft if source is not None else SheetDraft()
        self.name = ""  # the name typed for the new set
        self.busy: Words | None = None  # what the tab is doing, while it does it
        # what the last action did, whether it was refused, and beside which part ("sets" or "new") it is said
        self.message: tuple[Words, bool, str] | None = None
        self.replace: tuple[str, int] | None = None  # (name, pages' version) a first Save asked to replace
        self.confirm_clear = False  # a first tap on Start over asked
        self.visible = False  # the tab is shown (another phone's change redraws it)
        self.failed: SheetFailed | None = None  # the last photo, when it could not be read as a page
        self.other: SheetPage | None = None  # the last page, when its tiles look like another set's (said in failed)
        self.replaced: tuple[str, int] | None = None  # the page whose earlier photo the last one replaced
        self.confirm: str | None = None  # the set a first tap on Delete asked about
        self.upload = PhotoUpload(host, source.upload_dir if source else None, self._received, self._refused,
                                  self._sending)
        self.listener = PageListener(host, self.draft.subscribe, self._heard)
        self.rule_sets = RuleSetsPanel(host)  # the house rule sets (規則)

    # --- actions ---------------------------------------------------------------------------------------

    def _say(self, words: Words, refused: bool = False, where: str = "sets") -> None:
        self.message = (words, refused, where)

    def _work(self, doing: Words, work: Callable[[], None], where: str = "sets") -> None:
        """``work`` in a worker thread while the tab says ``doing``; a refusal is said (beside ``where``), a failure
        logged and said."""
        self.busy, self.message = doing, None
        self.host.render()

        def run() -> None:
            try:
                work()
            except ReplaceAsked as ask:
                self.replace = (ask.name, ask.version)  # the next Save of these pages under that name replaces
                self._say(ask.words, True, where)
            except TileSetError as bad:
                self.replace = None
                self._say(bad.words, True, where)
            except Exception:  # the app's boundary: log it, say it, keep serving
                log.exception("a tile-set action failed")
                self._say(ui("set_error"), True, where)
            self.busy = None
            self.host.render()

        self.host.page.run_thread(run)

    def use(self, name: str | None) -> None:
        self.confirm = None

        def work() -> None:
            said = select_set(name)
            if self.source is not None:
                self.source.follow_selection()  # the fit happens now, not at the next photo
            self._say(said)

        self._work(ui("set_switching") if name else ui("set_none_used"), work)

    def delete(self, name: str) -> None:
        if self.confirm != name:  # the first tap asks
            self.confirm = name
            self.host.render()
            return
        self.confirm = None
        try:
            self._say(delete_set(name))
        except TileSetError as bad:
            self._say(bad.words, True)
        self.host.render()

    def keep_box(self, box: tuple[SheetPage, Tile]) -> None:
        """A doubted box holds the right tile after all (said of the photo shown: a replaced one asks afresh)."""
        self.draft.keep(*box)
        self.host.render()

    def keep(self) -> None:
        self.confirm = None
        self.host.render()

    def same_set(self) -> None:
        """The page said to look like another set's is of this set after all: it is used."""
        page, self.other = self.other, None
        if page is not None:
            self.failed = None
            self.replaced = page.key if self.draft.add(page, same_set=True) else None
        self.host.render()

    def set_name(self, value: str) -> None:
        self.name = value  # no redraw: the field shows what is typed

    def save(self) -> None:
        if self.busy is not None:  # a second tap before the greyed button reached the phone
            return
        name = self.name.strip()
        asked = self.replace
        replace = asked[1] if asked is not None and asked[0] == name else None

        def work() -> None:
            said = self.draft.save(name, replace=replace)
            self.failed, self.replaced, self.name, self.replace = None, None, "", None
            if self.source is not None:
                self.source.follow_selection()
            self._say(said, where="new")

        self._work(ui("set_saving"), work, "new")

    def start_over(self) -> None:
        if not self.confirm_clear:  # the first tap asks: the pages may be another phone's work too
            self.confirm_clear = True
            self.host.render()
            return
        self.confirm_clear = False
        self.draft.clear()
        self.failed = self.replaced = self.message = self.replace = self.other = None
        self.host.render()

    # --- following the pages other phones send ---------------------------------------------------------

    def attach(self) -> None:
        self.listener.attach()

    def detach(self) -> None:
        self.listener.detach()

    def _heard(self) -> None:
        """(Any thread.) The pages changed: a shown tab is drawn again on its own page's loop."""
        if self.visible:
            self.listener.redraw()

    async def pick(self) -> None:
        await self.upload.pick()

    def _refused(self, name: str, reason: Words) -> None:
        self.failed = SheetFailed("", reason)  # (the reason names the photo)
        self.host.render()

    def _sending(self, doing: Words | None) -> None:
        self.busy = doing
        self.host.render()

    def _received(self, path: Path, name: str) -> None:
        """(A worker thread.) Read the photo of a page that arrived."""
        assert self.source is not None  # no upload without a source
        self.busy = ui("set_reading")
        self.message = None
        self.host.render()
        try:
            got = self.source.read_sheet(path, name)
        except Exception:  # the app's boundary
            log.exception("reading a photo of the sheet failed")
            got = SheetFailed(name, ui("set_error"))
        self.other = None
        if isinstance(got, SheetFailed):
            self.failed, self.replaced = got, None
        else:
            self.failed = None
            try:
                self.replaced = got.key if self.draft.add(got) else None
            except OtherSetAsked as ask:  # said, and the player may say it is the same set
                self.failed, self.replaced, self.other = SheetFailed("", ask.words), None, ask.page
        self.busy = None
        self.host.render()

    # --- drawing -------------------------------------------------------------------------------------

    def build(self) -> ft.Control:
        t = self.host.t
        parts: list[ft.Control] = [label(t(ui("set_heading")), 16, bold=True, colour=FELT),
                                   label(t(ui("set_intro")), 13), self._sets()]
        if self.busy is not None:
            parts.append(ft.Row([ft.ProgressRing(width=20, height=20), label(t(self.busy), 13)]))
        parts += self._message("sets")
        parts += [ft.Divider(), label(t(ui("set_new")), 16, bold=True, colour=FELT), self._new()]
        # a host looked here for the rules and found only tile sets: where they are set, and the house rule sets
        # made here (copied, edited, saved, deleted)
        live, terms, photo = ui("tab_live"), ui("live_terms"), ui("tab_photo")
        parts += [ft.Divider(), ident("set-rules-where", label(t(ui(
            "set_rules_where", live=live.zh, live_en=live.en, terms=terms.zh, terms_en=terms.en, photo=photo.zh,
            photo_en=photo.en)), 13, colour=GREY)), self.rule_sets.build()]
        return ft.Column(parts, spacing=8)

    def _sets(self) -> ft.Control:
        t, busy = self.host.t, self.busy is not None
        rows = tile_sets()
        used = next((r for r in rows if r.selected and r.problem is None), None)
        gone = None if used else selection_gone()
        damaged = next((r for r in rows if r.selected and r.problem is not None), None)
        now = ui("set_current", name=used.name, kinds=used.kinds) if used else \
            (ui("set_current_damaged", name=damaged.name) if damaged.damaged else
             ui("set_current_unreadable", name=damaged.name)) if damaged else \
            ui("set_current_gone", name=gone) if gone else ui("set_current_none")
        out: list[ft.Control] = [ident(ID_SET_CURRENT, label(t(now), 14, bold=True))]
        for i, r in enumerate(rows):  # identified by place: a name may be in any script
            line: list[ft.Control] = [label(r.name, 14, bold=True),
                                      label(t(r.problem) if r.problem else t(ui("set_kinds", n=r.kinds)), 12,
                                            colour=ACCENT if r.problem else GREY)]
            if r.selected and r.problem is None:
                line.append(label(t(ui("set_in_use")), 13, bold=True, colour=FELT))
            elif r.problem is None:
                line.append(ident(f"set-use-{i}", ft.Button(content=t(ui("set_use")), height=FINGER,
                                                                 disabled=busy, on_click=on_tap(self.use, r.name))))
            if self.confirm == r.name:
                line += [ident(f"set-delete-{i}", ft.Button(
                            content=t(ui("set_delete_sure", name=r.name)), height=FINGER, disabled=busy,
                            style=ft.ButtonStyle(bgcolor=ACCENT, color="#ffffff"),
                            on_click=on_tap(self.delete, r.name))),
                         ft.TextButton(content=t(ui("set_keep")), height=FINGER, on_click=self.keep)]
            else:
                line.append(ident(f"set-delete-{i}", ft.OutlinedButton(
                    content=t(ui("set_delete")), height=FINGER, disabled=busy,
                    on_click=on_tap(self.delete, r.name))))
            out.append(ft.Container(ft.Row(line, spacing=12, wrap=True,
                                           vertical_alignment=ft.CrossAxisAlignment.CENTER),
                                    bgcolor=CARD, padding=8, border_radius=8))
        if used is not None:
            out.append(ident(ID_SET_NONE, ft.OutlinedButton(content=t(ui("set_use_none")), height=FINGER,
                                                             disabled=busy, on_click=lambda: self.use(None))))
        return ft.Column(out, spacing=6)

    def _new(self) -> ft.Control:
        t, busy = self.host.t, self.busy is not None
        steps = [label(t(ui(k)), 13) for k in ("set_step1", "set_step2", "set_step3", "set_step4")]
        sheets = self.source.sheets if self.source else {}
        downloads = [ident(f"set-sheet-{paper}", ft.TextButton(content=t(ui(f"set_sheet_{paper}")), url=path))
                     for paper, path in sheets.items()]
        out: list[ft.Control] = [*steps, ft.Row(downloads, spacing=8, wrap=True)]
        if self.upload.available:
            out.append(ident(ID_SET_UPLOAD, ft.Button(content=t(ui("set_upload")), height=FINGER, disabled=busy,
                                                      on_click=self.pick)))
        else:
            out.append(label(t(ui("set_no_uploads")), 13, colour=GREY))
        if self.failed is not None:
            f = self.failed
            said = ui("sheet_failed", photo=f.photo, why=f.why.zh, why_en=f.why.en) if f.photo else f.why
            out.append(ident("set-failed", label(t(said), 13, bold=True, colour=ACCENT)))
            if self.other is not None:
                out.append(ident("set-same-set", ft.OutlinedButton(content=t(ui("sheet_same_set")), height=FINGER,
                                                                   disabled=busy, on_click=self.same_set)))
        out += [self._page(p) for p in self.draft.shown()]
        if self.draft.pages:  # (one draft per server: two phones calibrating two sets at once would mix pages)
            out.append(label(t(ui("set_shared_pages")), 12, colour=GREY))
            missing = self.draft.missing()
            if missing:
                out.append(ident(ID_SET_MISSING, ft.Column([label(t(ui("set_missing", n=len(missing))), 13),
                                                            tiles(t, missing, TILE_W["river"])], spacing=4)))
            else:
                out.append(ident(ID_SET_MISSING, label(t(ui("set_all_kinds", n=len(KINDS))), 13, bold=True,
                                                       colour=FELT)))
            name = ident(ID_SET_NAME, ft.TextField(label=t(ui("set_name")), hint_text=t(ui("set_name_hint")),
                                                   value=self.name, width=260, dense=True, disabled=busy,
                                                   on_change=lambda e: self.set_name(e.control.value or "")))
            out.append(ft.Row([name,
                               ident(ID_SET_SAVE, ft.Button(content=t(ui("set_save")), height=FINGER, disabled=busy,
                                                            on_click=self.save)),
                               ident("set-start-over", ft.TextButton(
                                   content=t(ui("set_start_over_sure" if self.confirm_clear else "set_start_over")),
                                   height=FINGER, disabled=busy, on_click=self.start_over))],
                              spacing=10, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER))
        out += self._message("new")  # beside the Save button, where the finger is
        return ft.Column(out, spacing=8)

    def _message(self, where: str) -> list[ft.Control]:
        if self.message is None or self.message[2] != where:
            return []
        words, refused, _ = self.message
        return [ident(ID_SET_MESSAGE, label(self.host.t(words), 13, bold=refused,
                                            colour=ACCENT if refused else FELT))]

    def _page(self, p: SheetPage) -> ft.Control:
        t = self.host.t
        lines: list[ft.Control] = [
            label(t(p.title), 14, bold=True),
            label(t(ui("sheet_found", found=len(p.found), boxes=p.boxes)), 13,
                  colour=FELT if len(p.found) == p.boxes else None)]
        if self.replaced == p.key:
            lines.append(label(t(ui("sheet_replaced")), 12, colour=GREY))
        if p.empty:
            lines.append(ft.Row([label(t(ui("sheet_empty")), 13), tiles(t, p.empty, TILE_W["river"])], wrap=True))
        if p.turned:  # laid upside down, turned (a review: taken unsaid, the set's faces learnt turned)
            lines.append(ft.Row([label(t(ui("sheet_turned")), 13, colour=ACCENT), tiles(t, p.turned, TILE_W["river"])],
                                wrap=True))
        for code, why in p.unreadable:
            k = Tile.from_code(code)
            lines.append(label(t(ui("sheet_unreadable", tile=k.zh, tile_en=k.en, why=why.zh, why_en=why.en)), 13,
                               colour=ACCENT))
        for m in self.draft.doubted(p):  # the box and what its tile looks like, each named (the pair alone, under
            # the empty boxes, read as two more of them: a review)
            lines.append(label(t(ui("sheet_check", tile=m.tile.zh, tile_en=m.tile.en, looks=m.looks_like.zh,
                                    looks_en=m.looks_like.en)), 13, colour=ACCENT))
            lines.append(ft.Row([label(t(ui("sheet_box")), 13), tiles(t, [m.tile.code], TILE_W["river"]),
                                 label(t(ui("sheet_looks")), 13), tiles(t, [m.looks_like.code], TILE_W["river"]),
                                 ident(f"set-keep-{p.paper}-{p.number}-{m.tile.code}", ft.OutlinedButton(
                                     content=t(ui("sheet_keep")), height=FINGER, disabled=self.busy is not None,
                                     on_click=on_tap(self.keep_box, (p, m.tile))))],
                                wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER))
        return ident(f"{ID_SET_PAGE}-{p.paper}-{p.number}", ft.Container(
            ft.Column(lines, spacing=4), bgcolor=CARD, padding=10, border_radius=8))
