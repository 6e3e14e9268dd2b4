"""The Settings tab's rule sets (規則): the built-in and house ones listed, a copy of any made under a new id and
names, its values edited in groups (caps and minimum, scoring switches, each item's tai, the procedure), saved as
``companion tai --save-profile`` saves one, and a house one deleted. What it does is in
:mod:`companion.app.rule_sets_model`; this draws it.
"""

from __future__ import annotations

from typing import Any

import flet as ft

from companion.app.rule_sets_model import (
    FIELDS,
    GROUPS,
    MOST,
    RuleField,
    RuleSetDraft,
    RuleSetRefused,
    clone,
    delete,
    edit,
    listed_name,
    rename,
    rule_sets,
)
from companion.app.ui_kit import (
    ACCENT,
    CARD,
    FELT,
    FINGER,
    GREY,
    Host,
    drop_down,
    ident,
    label,
    on_tap,
    opened,
)
from companion.app.words import Words, ui
from companion.rules.profiles import DEFAULT_PROFILE

__all__ = ["RuleSetsPanel", "ID_RS_SOURCE", "ID_RS_NEW_ID", "ID_RS_NAME_ZH", "ID_RS_NAME_EN", "ID_RS_COPY",
           "ID_RS_SAVE", "ID_RS_MESSAGE", "field_id"]

ID_RS_SOURCE, ID_RS_NEW_ID, ID_RS_NAME_ZH, ID_RS_NAME_EN = "rs-source", "rs-new-id", "rs-name-zh", "rs-name-en"
ID_RS_COPY, ID_RS_SAVE, ID_RS_CANCEL, ID_RS_MESSAGE, ID_RS_EDITOR = "rs-copy", "rs-save", "rs-cancel", \
    "rs-message", "rs-editor"
ID_RS_RELOAD, ID_RS_SAVE_AGAIN = "rs-reload", "rs-save-again"


def field_id(key: str) -> str:
    """The identifier of the editor's field ``key`` ("switches.tai_cap" -> "rs-sw-tai_cap", "tai.menqing" ->
    "rs-tai-menqing"): no dot, which a selector would read as a class."""
    kind, _, name = key.partition(".")
    return f"rs-{'sw' if kind == 'switches' else 'tai'}-{name}"


class RuleSetsPanel:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.source = DEFAULT_PROFILE  # the rule set a copy is made of
        self.new_id, self.name_zh, self.name_en = (ft.TextField(dense=True, width=300) for _ in range(3))
        self.draft: RuleSetDraft | None = None
        self.numbers: dict[str, ft.TextField] = {}  # the draft's number fields, kept while it is edited (typing keeps
        # its place across a redraw)
        self.names: tuple[ft.TextField, ft.TextField] | None = None
        self.open: set[str] = set()  # the editor's groups unfolded
        self.confirm: str | None = None  # the house rule set a first tap on Delete asked about
        self.message: tuple[Words, bool] | None = None  # what the last action did, and whether it was refused
        self.stale = ""  # the draft's set was "changed" or "gone" on another phone since it was opened (a save refused)

    # --- actions ---------------------------------------------------------------------------------------

    def _say(self, words: Words, refused: bool = False) -> None:
        self.message = (words, refused)
        if refused:  # at the foot of the screen too, as the Live tab's: a refused Copy at a phone's foot said it
            self.host.notice(words)  # below the button, off the screen, and the page did not move (a review)

    def _start(self, draft: RuleSetDraft) -> None:
        self.draft, self.numbers, self.open, self.confirm, self.stale = draft, {}, set(), None, ""
        self.names = (ft.TextField(value=draft.name.zh, dense=True, width=300),
                      ft.TextField(value=draft.name.en, dense=True, width=300))

    def copy(self) -> None:
        try:
            draft = clone(self.source, self.new_id.value or "", self.name_zh.value or "", self.name_en.value or "")
        except RuleSetRefused as bad:
            self._say(bad.words, True)
        else:
            self._start(draft)
            self.message = None
            self.open = {"caps"}
        self.host.render()

    def edit(self, pid: str) -> None:
        try:
            self._start(edit(pid))
            self.message = None
        except RuleSetRefused as bad:
            self._say(bad.words, True)
        self.host.render()

    def delete(self, pid: str) -> None:
        if self.confirm != pid:  # the first tap asks
            self.confirm = pid
            self.host.render()
            return
        self.confirm = None
        try:
            self._say(delete(pid))
            if self.draft is not None and self.draft.editing and self.draft.id == pid:
                self.draft = None
        except RuleSetRefused as bad:
            self._say(bad.words, True)
        self.host.render()

    def keep(self) -> None:
        self.confirm = None
        self.host.render()

    def set(self, key: str, value: str, redraw: bool = True) -> None:
        draft = self.draft
        if draft is None:
            return
        was = key in draft.bad
        draft.set(key, value)
        if redraw or was != (key in draft.bad):  # a number field redrawn only when its refusal comes or goes
            self.host.render()

    def save(self) -> None:
        draft = self.draft
        if draft is None:
            return
        try:
            if self.names is not None:
                rename(draft, self.names[0].value or "", self.names[1].value or "")
            said = draft.save()
        except RuleSetRefused as bad:
            self._say(bad.words, True)
            self.stale = bad.stale
        else:
            self._say(said)
            self.draft = None
            for f in (self.new_id, self.name_zh, self.name_en):
                f.value = ""
        self.host.render()

    def reload(self) -> None:
        """Open the set as another phone saved it (this editor's changes dropped, as the refusal said)."""
        if self.draft is not None:
            self.edit(self.draft.id)

    def save_again(self) -> None:
        """Make the set again as this editor has it, though another phone deleted it."""
        if self.draft is not None:
            self.draft.as_new()
            self.stale = ""
            self.save()

    def cancel(self) -> None:
        self.draft, self.message, self.stale = None, None, ""
        self.host.render()

    # --- drawing -------------------------------------------------------------------------------------

    def build(self) -> ft.Control:
        t = self.host.t
        live, photo = ui("tab_live"), ui("tab_photo")
        parts: list[ft.Control] = [
            label(t(ui("rs_heading")), 16, bold=True, colour=FELT),
            label(t(ui("rs_intro", live=live.zh, live_en=live.en, photo=photo.zh, photo_en=photo.en)), 13),
            self._list()]
        parts.append(self._editor() if self.draft is not None else self._copy_form())
        return ft.Column(parts, spacing=8)

    def _message(self) -> ft.Control:
        t = self.host.t
        assert self.message is not None
        words, refused = self.message
        return ident(ID_RS_MESSAGE, label(t(words), 13, bold=refused, colour=ACCENT if refused else FELT))

    def _list(self) -> ft.Control:
        t = self.host.t
        rows: list[ft.Control] = []
        for i, r in enumerate(rule_sets()):
            line: list[ft.Control] = [label(t(listed_name(r.id, r.name)), 14, bold=True),
                                      label(f"{r.id} · {t(ui('rs_builtin' if r.builtin else 'rs_house'))}", 12,
                                            colour=GREY)]
            if r.problem is not None:
                line.append(label(t(ui("rs_damaged", why=r.problem.zh, why_en=r.problem.en)), 12, colour=ACCENT))
            if not r.builtin:
                if r.problem is None:
                    line.append(ident(f"rs-edit-{i}", ft.OutlinedButton(content=t(ui("rs_edit")), height=FINGER,
                                                                         on_click=on_tap(self.edit, r.id))))
                if self.confirm == r.id:
                    line += [ident(f"rs-delete-{i}", ft.Button(
                                content=t(ui("rs_delete_sure", name=r.name.zh, name_en=r.name.en)), height=FINGER,
                                style=ft.ButtonStyle(bgcolor=ACCENT, color="#ffffff"),
                                on_click=on_tap(self.delete, r.id))),
                             ft.TextButton(content=t(ui("rs_keep")), height=FINGER, on_click=self.keep)]
                else:
                    line.append(ident(f"rs-delete-{i}", ft.OutlinedButton(
                        content=t(ui("rs_delete")), height=FINGER, on_click=on_tap(self.delete, r.id))))
            rows.append(ident(f"rs-row-{i}", ft.Container(
                ft.Row(line, spacing=10, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER),
                bgcolor=CARD, padding=8, border_radius=8)))
        return ft.Column(rows, spacing=6)

    def _copy_form(self) -> ft.Control:
        t = self.host.t
        sets = [r for r in rule_sets() if r.problem is None]
        if self.source not in (r.id for r in sets):
            self.source = DEFAULT_PROFILE

        def chose(e: Any) -> None:
            self.source = e.control.value or self.source

        source = drop_down(ID_RS_SOURCE, ft.Dropdown(
            label=t(ui("rs_copy_from")), value=self.source, on_select=chose, width=300, dense=True,
            options=[ft.DropdownOption(key=r.id, text=t(listed_name(r.id, r.name))) for r in sets]),
            t(ui("rs_copy_from")))
        self.new_id.label = t(ui("rs_new_id"))
        self.name_zh.label, self.name_en.label = t(ui("rs_name_zh")), t(ui("rs_name_en"))
        # what the last tap did, above the Copy button as the editor says it above Save (below it, at a phone's
        # foot, a refused id was off the screen: a review)
        said = [self._message()] if self.message is not None else []
        return ft.Column([
            ft.Row([source, ident(ID_RS_NEW_ID, self.new_id)], wrap=True, spacing=8, run_spacing=8),
            ft.Row([ident(ID_RS_NAME_ZH, self.name_zh), ident(ID_RS_NAME_EN, self.name_en)], wrap=True, spacing=8,
                   run_spacing=8),
            *said, ident(ID_RS_COPY, ft.Button(content=t(ui("rs_copy")), height=FINGER, on_click=self.copy))],
            spacing=8)

    def _editor(self) -> ft.Control:
        t, d = self.host.t, self.draft
        assert d is not None and self.names is not None
        base = Words(d.base.name_zh, d.base.name_en)
        # a set being made again is still the set it was, under its own id (a change review: one whose parent was
        # deleted too, made a copy of its built-in root, was said to be "copied from" itself)
        head = ui("rs_editing_own", name=d.name.zh, name_en=d.name.en, id=d.id) if d.editing or d.remade else \
            ui("rs_editing", name=d.name.zh, name_en=d.name.en, id=d.id, base=base.zh, base_en=base.en)
        self.names[0].label, self.names[1].label = t(ui("rs_name_zh")), t(ui("rs_name_en"))
        groups = [self._group(g) for g in GROUPS]
        row: list[ft.Control] = [ident(ID_RS_SAVE, ft.Button(content=t(ui("rs_save")), height=FINGER,
                                                             on_click=self.save))]
        if self.stale == "changed":
            row.append(ident(ID_RS_RELOAD, ft.Button(content=t(ui("rs_reload")), height=FINGER, on_click=self.reload)))
        elif self.stale == "gone":
            row.append(ident(ID_RS_SAVE_AGAIN, ft.Button(content=t(ui("rs_save_again")), height=FINGER,
                                                         on_click=self.save_again)))
        row.append(ident(ID_RS_CANCEL, ft.TextButton(content=t(ui("rs_cancel")), height=FINGER, on_click=self.cancel)))
        buttons = ft.Row(row, spacing=10, wrap=True)
        # what a save did or why it was refused, above the Save button, where the host's eyes are (at the page's foot,
        # below the long editor, a phone showed it off the screen: a review)
        said = [self._message()] if self.message is not None else []
        return ident(ID_RS_EDITOR, ft.Container(ft.Column([
            label(t(head), 14, bold=True),
            ft.Row([ident(ID_RS_NAME_ZH, self.names[0]), ident(ID_RS_NAME_EN, self.names[1])], wrap=True, spacing=8,
                   run_spacing=8),
            *groups, *said, buttons], spacing=8), bgcolor=CARD, padding=10, border_radius=8))

    def _group(self, group: str) -> ft.Control:
        t, d = self.host.t, self.draft
        assert d is not None
        fields = [f for f in FIELDS if f.group == group]
        changed = sum(1 for f in fields if d.changed(f.key))
        title = t(ui(f"rs_group_{group}"))
        if changed:
            title += " · " + t(ui("rs_changed", n=changed))

        def toggled(e: Any) -> None:
            if opened(e):
                self.open.add(group)
            else:
                self.open.discard(group)

        return ident(f"rs-group-{group}", ft.ExpansionTile(
            title=label(title, 13, bold=True, colour=FELT if changed else None), expanded=group in self.open,
            on_change=toggled, controls=[ft.Container(ft.Column([self._field(f) for f in fields], spacing=10),
                                                      padding=ft.Padding.only(top=8, bottom=8))]))

    def _field(self, f: RuleField) -> ft.Control:
        t, d = self.host.t, self.draft
        assert d is not None
        colour = FELT if d.changed(f.key) else None
        if f.kind in ("bool", "choice"):
            def chose(e: Any) -> None:
                self.set(f.key, e.control.value or "")

            return drop_down(field_id(f.key), ft.Dropdown(
                label=t(f.name), value=d.text(f.key), on_select=chose, width=330, dense=True,
                options=[ft.DropdownOption(key=v, text=t(w)) for v, w in f.choices]), t(f.name))
        box = self.numbers.get(f.key)
        if box is None:
            def typed(e: Any) -> None:
                self.set(f.key, e.control.value or "", redraw=False)

            box = self.numbers[f.key] = ft.TextField(value=d.text(f.key), dense=True, width=90, on_change=typed,
                                                     keyboard_type=ft.KeyboardType.NUMBER)
        takes = ui("rs_no_cap" if f.kind == "int_or_none" else "rs_number", least=f.least, most=MOST)
        bad = d.bad.get(f.key)
        box.border_color = ACCENT if bad is not None else None
        said: list[ft.Control] = [label(t(f.name), 13, bold=colour is not None, colour=colour),
                                  label(t(takes), 11, colour=GREY)]
        row = ft.Row([ft.Column(said, spacing=0, expand=True), ident(field_id(f.key), box)], spacing=8,
                     vertical_alignment=ft.CrossAxisAlignment.CENTER)
        if bad is None:
            return row
        # the reason under the row, whole (in the field's own error line a phone showed "「x」不…")
        return ft.Column([row, ident(f"{field_id(f.key)}-bad", label(t(bad), 12, bold=True, colour=ACCENT))],
                         spacing=2)
