"""The Score-a-photo tab: the bundled photo or the player's own, read once and scored with the form's context.

A chosen photo comes through :class:`companion.app.upload.PhotoUpload` (checked for size on the phone, sent by
Flet's signed upload) and is read off the page's loop; the page says what it is doing meanwhile. A photo that cannot be read or scored shows the reason and leaves nothing half-changed.
"""

from __future__ import annotations

import dataclasses
import logging
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import flet as ft

from companion.app.house_rules import TableTerms, table_terms
from companion.app.ledger_model import dealer_tai_said
from companion.app.live_model import LiveError, LiveGame
from companion.app.photo_model import (
    FIELD_WORDS,
    MOMENTS,
    MOMENTS_FOR,
    PAYING,
    READIES,
    STAKES,
    TABLE_RULES,
    PhotoContext,
    PhotoFailed,
    PhotoPanel,
    ReadPhoto,
    ReadTile,
    read_tiles,
    score_picked,
    score_typed_hand,
    stakes_typed,
)
from companion.app.rule_sets_model import rule_set_options, rule_set_used
from companion.app.ui_kit import (
    ACCENT,
    CARD,
    FELT,
    FLOWER_CODES,
    GREY,
    ID_PHOTO_DEMO,
    ID_PHOTO_FAILED,
    ID_PHOTO_PICK,
    ID_PHOTO_SUM,
    ID_PHOTO_TOTAL,
    ID_TYPED_FIELD,
    ID_TYPED_SCORE,
    PALETTE,
    TILE_W,
    Host,
    bring_into_view,
    drop_down,
    ident,
    label,
    meld,
    on_tap,
    photo,
    photo_legend,
    scroll_key,
    tile,
    tile_name,
    tile_tip,
    tiles,
)
from companion.app.upload import PhotoUpload
from companion.app.words import SEP, Words, ui
from companion.game.session import switches_for
from companion.game.switches import SeatWind
from companion.rules.profiles import Profile, ProfileError, load_profile
from companion.rules.settlement import Stakes
from companion.tiles import Tile

__all__ = ["PhotoTab", "PhotoSource"]

log = logging.getLogger(__name__)
PHOTO_FIX_TO = "photo-fix-to"  # the key of the palette's line, scrolled to when a tile is tapped for correcting
ID_PHOTO_RULES_NOTE = "photo-rules-note"  # the rules scored with, where the set picked is gone
ID_PHOTO_RULES_USED = "photo-rules-used"  # the rule set a score card was scored with
ID_PHOTO_RULES_STALE = "photo-rules-stale"  # the card was scored with a set no longer here
ID_PHOTO_FIX_TOTAL = "photo-fix-total"  # the total, under the tiles corrected
ID_PHOTO_ADD = "photo-add"  # "add a tile the photo missed": its palette's keys photo-add-CODE, the added photo-added-K
PHOTO_ADD_TO = "photo-add-to"  # the key of the adding palette's line, scrolled to when it opens


@dataclasses.dataclass(frozen=True)
class PhotoSource:
    """Where photos come from: the bundled one (with its context), and a file read by the shared reader."""

    demo: Callable[[], tuple[ReadPhoto | PhotoFailed, Mapping[str, Any]]]
    read_file: Callable[[Path, str], ReadPhoto | PhotoFailed]
    upload_dir: Path | None  # None: this server takes no uploads


STREAKS = 21
"""The streaks the form offers: 0 to 20."""


class PhotoTab:
    def __init__(self, host: Host, source: PhotoSource, live: LiveGame | None = None) -> None:
        self.host, self.source, self.live = host, source, live
        self.read: ReadPhoto | PhotoFailed | None = None  # what is shown: the last photo read, or its failure
        self.shown: PhotoPanel | PhotoFailed | None = None
        # beside a live table the rules start as the table's (its house rules change some scores), with its stakes
        self.context = PhotoContext(profile=TABLE_RULES) if live is not None else PhotoContext()
        self.chosen: set[str] = set()  # the form's fields the player set since the bundled photo was shown
        self.reset: tuple[str, ...] = ()  # the fields another photo put back to the defaults, until one is set
        self.demo = False  # the photo shown is the bundled one
        self.typed: str | None = None  # a winning hand typed instead of photographed (scored in place of a photo)
        self.typed_win: Tile | None = None  # the tile the typed hand was won on, as the player picked it (None: most tai)
        self.typed_field = ft.TextField(dense=True, width=420,  # kept across renders, so typing keeps its place
                                        on_submit=lambda: self.score_typed())  # Enter scores it, as the button
        self.busy: Words | None = None  # what the page is doing, while it does it
        self.typed_waiting: str | None = None  # a hand sent (Enter) while the page was busy: scored when it is done
        self._lock = threading.Lock()  # the player's word and a reading's result landing, one after the other
        self._given = 0  # the player's words (a hand sent, a photo asked for or picked): a reading asked for by an
        # earlier one lands unshown (a hand sent while the bundled photo was read was replaced by its score)
        self._picked: tuple[int, str | None] | None = None  # the word a photo being sent was picked by, the hand
        # field as it was then
        self.picks: dict[int, Tile] = {}  # the player's corrections: detection index -> the tile it really is
        self.photo_win: Tile | None = None  # the tile the photo's hand was won on, as the player picked it
        self.picking: int | None = None  # the tile being corrected
        self.added: list[Tile] = []  # tiles the player says the reading missed (no box on them), scored with the hand
        self.add_refused: Words | None = None  # a tile the photo already holds as many of as a set has, not added
        self.adding = False  # the palette of a tile to add is open
        self._runs = 0  # scorings started: only the latest one's result is shown
        self._scored_with: tuple[str | Profile, Stakes] | None = None  # the rules and stakes of the last scoring
        self._scored_note: Words | None = None  # why those rules were not the set picked, said when it was scored
        self._scored_name: Words | None = None  # the live table's rules' name, where the card was scored with them
        self.upload = PhotoUpload(host, source.upload_dir, self._received, self._refused, self._sending)
        # the stakes typed (底/台: a 20/5 table's, which no preset was), kept across renders as the hand's field is;
        # read when the player presses Enter or leaves it (set_stakes)
        self.stakes_field = ft.TextField(dense=True, width=120, on_submit=lambda: self.set_stakes(),
                                         on_blur=lambda: self.set_stakes())
        self.stakes_error: Words | None = None  # why the stakes typed were not taken (the box keeps them, to mend)
        self._stakes_shown: str | None = None  # the stakes last written into the box

    # --- work off the page's loop ----------------------------------------------------------------------

    def _work(self, doing: Words, work: Callable[[], None]) -> None:
        self.busy = doing
        self.host.render()

        self.host.page.run_thread(lambda: self._guarded(work))

    def _guarded(self, work: Callable[[], None]) -> None:
        """(A worker thread.) ``work``, then the page drawn again; a failure is logged and said, never raised."""
        try:
            work()
        except Exception:  # the app's boundary: log it, say it, keep serving
            log.exception("reading or scoring a photo failed")
            self.read = self.shown = PhotoFailed("", ui("photo_error"))
        self._done()

    def _done(self) -> None:
        """The page is done (a reading or scoring, or a photo's send that failed): a hand sent meanwhile is scored
        now, else the page drawn again."""
        with self._lock:  # (a hand sent now is either waiting here or scored at once: never lost between the two)
            self.busy = None
            waiting, self.typed_waiting = self.typed_waiting, None
        if waiting is not None:  # the player's last word, scored now (the bundled photo's reading, on a loaded
            # machine, had emptied the field and shown its own score: a browser test's Enter was lost)
            self.score_typed(waiting)
            return
        self.host.render()

    def _give(self) -> tuple[int, str | None]:
        """(Under the lock.) The player's newest word: a hand sent before it and waiting is not scored over it. Its
        number, and the hand field as it is now (a reading landing later empties it only if nothing was typed since)."""
        self._given += 1
        self.typed_waiting = None
        return self._given, self.typed_field.value

    def _table(self) -> TableTerms | Words | None:
        """The live table's terms, when the form's rules are the table's; why they are not to be had (nobody seated,
        a table file that cannot be opened, rules this install does not know); None when other rules are picked.
        A table never used is not made for asking."""
        if self.context.profile != TABLE_RULES or self.live is None:
            return None
        if not self.live.opened:  # no table file yet, or one in use by another companion
            return ui("photo_table_unknown" if self.live.path.exists() else "photo_table_none")
        try:
            state = self.live.state
        except LiveError:  # the table file cannot be opened now (the Live tab says why)
            return ui("photo_table_unknown")
        if not state.players:
            return ui("photo_table_none")
        return table_terms(state) or ui("photo_table_unknown")

    def _rules(self) -> tuple[str | Profile, Stakes]:
        """The rules and stakes the form scores with: the live table's, or the rule set and stakes picked (the
        default rule set while the table's are asked for and nobody is seated)."""
        table = self._table()
        if isinstance(table, TableTerms):
            return table.profile, table.stakes
        base, per_tai = (int(x) for x in self.context.stakes.split("/"))
        profile = self.context.profile
        if profile == TABLE_RULES:
            return PhotoContext().profile, Stakes(base, per_tai)
        # read once here: a house rule set edited or deleted meanwhile scores the whole form alike; one deleted since
        # it was picked scores with the default, which the form names (rules_note)
        return rule_set_used(profile)[0], Stakes(base, per_tai)

    def _scored_by(self) -> list[ft.Control]:
        """The rule set the card was scored with, named on it (spec §5.1), and why where it is not the one picked."""
        used = self._scored_with[0] if self._scored_with is not None else None
        try:
            profile = used if isinstance(used, Profile) else load_profile(used)
        except ProfileError:
            return []
        t, then, now = self.host.t, self._scored_note, self.rules_note()
        # the live table's rules as it names them ("as seated" where the file of that name now says otherwise: a
        # review read "Scored with: Friday house" beside the table's 5 tai and the edited file's 3)
        name = self._scored_name or Words(profile.name_zh, profile.name_en)
        out = [ident(ID_PHOTO_RULES_USED, label(t(ui("rs_scored_with", name=name.zh, name_en=name.en)), 12,
                                                colour=GREY))]
        # the card says what held when it was scored, never what the form picks now (a review: a card scored with
        # a set deleted since said it was scored with the default); the form's own note is not said twice
        if then is not None and then != now:
            out.append(label(t(then), 13, bold=True, colour=ACCENT))
        if now is not None and then != now:  # scored with a set since deleted or damaged: its numbers are that set's
            out.append(ident(ID_PHOTO_RULES_STALE, label(t(ui("rs_scored_before", name=profile.name_zh,
                                                              name_en=profile.name_en)), 13, bold=True,
                                                         colour=ACCENT)))
        return out

    def rules_note(self) -> Words | None:
        """Why the form scores with other rules than the rule set it shows picked (deleted or damaged since)."""
        if self.context.profile == TABLE_RULES:
            return None
        return rule_set_used(self.context.profile)[1]

    def _dealer_east(self) -> bool:
        """The rules count seat winds from the dealer (莊家坐東, spec §2.15): the dealer is East, not a choice (a
        review set the dealer South and got the wrong 門風)."""
        try:
            return switches_for(self._rules()[0]).seat_wind is SeatWind.DEALER_EAST
        except ProfileError:
            return False

    def _score(self) -> None:
        self._runs += 1
        run, read, picks, context, added = self._runs, self.read, dict(self.picks), self.context, list(self.added)
        if self._dealer_east():
            context = dataclasses.replace(context, dealer="E")
        profile, stakes = self._rules()
        self._scored_with, self._scored_note = (profile, stakes), self.rules_note()
        table = self._table() if isinstance(profile, Profile) else None
        self._scored_name = table.name if isinstance(table, TableTerms) else None
        if self.typed is not None:
            shown = score_typed_hand(self.typed, context.as_context(), stakes, profile, self.typed_win)
            if run == self._runs:
                self.shown = shown
            return
        if read is None or isinstance(read, PhotoFailed):
            self.shown = read
            return
        shown = score_picked(read, picks, context.as_context(), stakes, profile, self.photo_win, added)
        if run == self._runs and read is self.read:  # a later scoring (a quicker tap) is not overwritten
            self.shown = shown

    # --- the player's corrections ----------------------------------------------------------------------

    def pick_tile(self, index: int | None) -> None:
        """Start correcting the tile ``index`` (None: stop)."""
        if self.busy is None:
            self.picking, self.adding = index, False
            self.host.render()
            if index is not None:  # the palette opens under the tiles, below a phone's screen (a review)
                bring_into_view(self.host.page, PHOTO_FIX_TO)

    def correct(self, code: str) -> None:
        """The tile being corrected is really ``code``: scored again with it, for certain. Picking what a corrected
        tile was read as takes the correction back; picking what a doubtful one was read as confirms it."""
        read = self.read
        if self.picking is None or self.busy is not None or not isinstance(read, ReadPhoto):
            return
        i, self.picking = self.picking, None
        if not 0 <= i < len(read.dets):  # (a tap meant for an earlier photo)
            return
        as_read = Tile(int(read.dets.kind[i])).code
        if code == as_read and i in self.picks:
            del self.picks[i]
        else:
            self.picks[i] = Tile.from_code(code)
        self._work(ui("photo_scoring"), self._score)

    def start_adding(self, on: bool = True) -> None:
        """Open (``on``) or close the palette of a tile the photo missed."""
        if self.busy is None:
            self.adding, self.picking, self.add_refused = on, None, None
            self.host.render()
            if on:  # under the tiles, below a phone's screen, as the correcting palette
                bring_into_view(self.host.page, PHOTO_ADD_TO)

    def add_tile(self, code: str) -> None:
        """The photo missed a ``code``: scored again with it (a flower with the flowers, another tile in the hand's
        row)."""
        if not self.adding or self.busy is not None or not isinstance(self.read, ReadPhoto):
            return
        added = Tile.from_code(code)
        have = sum(1 for r in read_tiles(self.read, self.picks) if r.code == code) + self.added.count(added)
        limit = 1 if added.is_flower else 4
        if have >= limit:  # refused here, not scored and blamed on tiles of the photo the player cannot find (a review)
            name = tile_name(code)
            self.add_refused = ui("photo_add_too_many", have=have, tile=name.zh, tile_en=name.en, limit=limit)
            self.host.render()
            return
        self.adding, self.add_refused = False, None
        self.added.append(added)
        self._work(ui("photo_scoring"), self._score)

    def remove_added(self, k: int) -> None:
        """Take the ``k``-th tile added out again."""
        if self.busy is None and 0 <= k < len(self.added):
            del self.added[k]
            self._work(ui("photo_scoring"), self._score)

    def undo_picks(self) -> None:
        if self.busy is None:
            self.picks, self.picking = {}, None
            self.added, self.adding = [], False  # (all as first read: the tiles added too, a review)
            self._work(ui("photo_scoring"), self._score)

    def open(self) -> None:
        """The tab is shown: the bundled photo the first time."""
        if self.read is None and self.typed is None and self.busy is None:
            self.use_demo()
        elif self.busy is None and self.shown is not None and self._scored_with != self._rules():
            self._work(ui("photo_scoring"), self._score)  # the live table's terms changed since: scored again

    def score_typed(self, text: str | None = None) -> None:
        """Score the winning hand typed (``text``, or the tab's field) with the form, instead of a photo."""
        if text is not None:
            self.typed_field.value = text
        with self._lock:
            sent, waits = (self.typed_field.value or "").strip(), self.busy is not None
            if sent or not waits:  # (an empty field sent while a photo is read says nothing)
                self._give()
            if sent and waits:  # a photo is being read: the hand is scored when it is done, the photo's score unshown
                self.typed_waiting = sent
        if waits:
            self.host.render()
            return
        typed = (self.typed_field.value or "").strip()
        if self.typed is not None and typed != self.typed and isinstance(self.shown, PhotoPanel) and not self.demo:
            # another hand after one that scored: what that one had of its own is not this one's (a review paid a
            # streak set for the hand before); a hand mended after a refusal (a typo) keeps what was set for it
            self.context, self.reset = self.context.next_hand()
        self.typed, self.typed_win = typed, None
        self.picks, self.picking, self.photo_win, self.added, self.adding = {}, None, None, [], False
        if self.demo:
            self._leave_demo()
        self.read, self.demo = None, False
        self._work(ui("photo_scoring"), self._score)

    def pick_win(self, code: str | None) -> None:
        """The typed hand, or the photo's, was won on ``code`` (None: not known, the most tai is taken): scored
        again."""
        if self.busy is not None:
            return
        if self.typed is not None:
            self.typed_win = Tile.from_code(code) if code else None
        elif isinstance(self.read, ReadPhoto):
            self.photo_win = Tile.from_code(code) if code else None
        else:
            return
        self._work(ui("photo_scoring"), self._score)

    def use_demo(self) -> None:
        with self._lock:
            asked, field = self._give()

        def work() -> None:
            read, context = self.source.demo()
            with self._lock:
                if asked != self._given:  # the player has since sent a hand: it stands
                    return
                self.picks, self.picking, self.typed, self.photo_win = {}, None, None, None
                self.added, self.adding = [], False
                if self.typed_field.value == field:  # the photo is scored now, not the hand typed (a review saw it
                    # stay); one typed while it was read is the player's newer word, kept
                    self.typed_field.value = ""
                self.read, self.demo, self.chosen, self.reset = read, True, set(), ()
                # the table's own rules and stakes are kept
                self.context = dataclasses.replace(PhotoContext.from_context(context), profile=self.context.profile,
                                                   stakes=self.context.stakes)
            self._score()

        self._work(ui("photo_reading"), work)

    def set_context(self, **change: Any) -> None:
        self.context = dataclasses.replace(self.context, **change)
        c = self.context
        if c.discarder == c.seat_wind and "discarder" not in change:
            # the winner moved to the discarder's seat: the discarder moves to his 上家, the seat before his in turn
            # (a review's score vanished behind "the winner cannot be the discarder" after changing the seat)
            self.context = dataclasses.replace(c, discarder="ESWN"["ESWN".index(c.seat_wind) - 1])
        if self.context.moment not in MOMENTS_FOR.get(self.context.win_type, MOMENTS):
            # a moment the new way of winning cannot have goes back to ordinary (not an error on the next score)
            self.context = dataclasses.replace(self.context, moment="")
        self.chosen |= set(change)  # the player's own: his first photo after the bundled one keeps them
        self.reset = ()
        self._work(ui("photo_scoring"), self._score)

    def set_stakes(self, text: str | None = None) -> None:
        """The stakes typed in the box (``text``: a quick pick), read as ``--stakes`` reads them: scored again with
        them; stakes that cannot be read are said, naming the box, and left in it to mend (the score stays at the
        stakes it had)."""
        if text is not None:
            self.stakes_field.value = text
        got = stakes_typed(self.stakes_field.value)
        if isinstance(got, Words):
            self.stakes_error = got
            self.host.render()
            return
        self.stakes_error, self.stakes_field.value, self._stakes_shown = None, got, got  # written plainly: 20/5
        if got != self.context.stakes:
            self.set_context(stakes=got)
        else:  # (Enter, then leaving the box: taken once)
            self.host.render()

    def _leave_demo(self) -> None:
        """The player's own hand follows the bundled photo: the bundled photo's situation (放槍 by 北, seat 南,
        streak 1) is not his, so the form goes back to its defaults but for the rules, the stakes and what the
        player set himself meanwhile."""
        kept = {f: getattr(self.context, f) for f in self.chosen | {"profile", "stakes"}}
        self.context, self.chosen = PhotoContext(**kept), set()

    # --- a photo of the player's ---------------------------------------------------------------------

    async def pick(self) -> None:
        await self.upload.pick()

    def _refused(self, name: str, reason: Words) -> None:
        """The photo ``name`` was not taken (too large, empty, its send failed): said, unless the player sent a hand
        since it was picked, which stands (it is scored as the send ends, :meth:`_sending`)."""
        with self._lock:
            picked, self._picked = self._picked, None
            if picked is not None and picked[0] != self._given:
                return
            self.read = self.shown = PhotoFailed(name, reason)
        self.host.render()

    def _sending(self, doing: Words | None) -> None:
        """A photo picked is being sent (``doing``), or its send ended without it (None: a refusal follows)."""
        if doing is not None:  # a photo picked: it replaces a hand sent before, not one sent while it comes
            with self._lock:
                self._picked = self._give()
            self.busy = doing
            self.host.render()
            return
        # a hand sent while it was sending is scored now (it waited in typed_waiting, and was scored only by the
        # next change of the form, written back into a field the player had emptied meanwhile: a change review)
        self._done()

    def _received(self, path: Path, name: str) -> None:
        """(A worker thread.) Read the photo that arrived, and score it."""
        with self._lock:  # (one not sent through the picker is the player's word as it arrives)
            (asked, field), self._picked = self._picked or self._give(), None

        def work() -> None:
            read = self.source.read_file(path, name)
            with self._lock:
                if asked != self._given:  # a hand sent since the photo was picked: it stands
                    return
                if isinstance(read, ReadPhoto) and self.demo:
                    self._leave_demo()
                elif isinstance(read, ReadPhoto):  # another hand: what the last one had of its own is not this one's
                    self.context, self.reset = self.context.next_hand()
                # (before the new photo: no pick of the old one reaches it)
                self.picks, self.picking, self.photo_win, self.added, self.adding = {}, None, None, [], False
                self.typed = None
                if self.typed_field.value == field:  # (a hand typed while it came is kept, as for the bundled photo)
                    self.typed_field.value = ""
                self.read, self.demo = read, self.demo and not isinstance(read, ReadPhoto)
            self._score()

        self.busy = ui("photo_reading")
        self.host.render()
        self._guarded(work)

    # --- drawing -------------------------------------------------------------------------------------

    def _form(self) -> ft.Control:
        t, c = self.host.t, self.context
        winds = [ft.DropdownOption(key=w, text=t(ui(f"wind_{w}"))) for w in "ESWN"]

        def pick(key: str, name: str, value: str, options: list[ft.DropdownOption], width: int = 130,
                 disabled: bool = False) -> ft.Control:
            def changed(e: Any) -> None:
                got = e.control.value
                self.set_context(**{key: int(got) if key == "streak" else "" if got == "-" else got})

            return drop_down(f"ctx-{key}", ft.Dropdown(
                label=t(ui(name)), value=value, options=options, on_select=changed, width=width, dense=True,
                disabled=disabled or self.busy is not None), t(ui(name)))

        east = self._dealer_east()
        how = [ft.DropdownOption(key="self_draw", text=t(ui("self_draw"))),
               ft.DropdownOption(key="discard", text=t(ui("on_discard"))),
               ft.DropdownOption(key="rob_kong", text=t(ui("rob_kong"))),
               ft.DropdownOption(key="eight_flowers", text=t(ui("win_eight_flowers"))),
               ft.DropdownOption(key="seven_flowers_rob", text=t(ui("win_seven_rob_one")))]
        moments = [ft.DropdownOption(key=m or "-", text=t(ui(f"moment_{m}")))
                   for m in MOMENTS_FOR.get(c.win_type, MOMENTS)]
        readies = [ft.DropdownOption(key=r or "-", text=t(ui(f"ready_{r}"))) for r in READIES]
        calls = [ft.DropdownOption(key=k or "-", text=t(ui(f"photo_calls_{k}"))) for k in ("", "concealed")]
        # (the default rules cap no streak: a rules review met a dealer on his ninth, which the form could not say)
        streaks = [ft.DropdownOption(key=str(n), text=str(n)) for n in range(STREAKS)]
        # the built-in rule sets and the house ones saved (Settings, --save-profile); one deleted since it was
        # picked is said to be gone (the form scores with the default rules then)
        rules = [ft.DropdownOption(key=pid, text=t(name))
                 for pid, name in rule_set_options(c.profile if c.profile != TABLE_RULES else None)]
        if self.live is not None:
            rules.insert(0, ft.DropdownOption(key=TABLE_RULES, text=t(ui("photo_table_rules"))))
        table = self._table()
        seated = table if isinstance(table, TableTerms) else None
        shown_stakes = f"{seated.stakes.base}/{seated.stakes.per_tai}" if seated is not None else c.stakes
        if seated is not None:  # the table's, not typed here
            self.stakes_error = None
        if shown_stakes != self._stakes_shown:  # picked, or the table's changed: the box says them (what the
            # player is typing meanwhile is not written over by a redraw)
            self.stakes_field.value = self._stakes_shown = shown_stakes
        field = self.stakes_field
        field.label, field.hint_text = t(ui("stakes")), t(ui("photo_stakes_hint"))
        field.disabled = seated is not None
        presets = ident("ctx-stakes-presets", ft.PopupMenuButton(
            icon=ft.Icons.ARROW_DROP_DOWN, tooltip=t(ui("photo_stakes_presets")), disabled=seated is not None,
            items=[ft.PopupMenuItem(content=x, on_click=on_tap(self.set_stakes, x)) for x in STAKES]))
        terms: list[ft.Control] = []
        if self.stakes_error is not None:  # the box keeps what was typed; the score is still at the stakes before
            base, per_tai = c.stakes.split("/")
            bad = self.stakes_error + ui("photo_stakes_kept", base=base, per_tai=per_tai)
            terms.append(ident("photo-stakes-bad", label(t(bad), 13, bold=True, colour=ACCENT)))
        if seated is not None:
            terms.append(ident("photo-table-terms", label(t(ui("photo_table_terms", terms=seated.words.zh,
                                                               terms_en=seated.words.en)), 12, colour=FELT)))
        elif isinstance(table, Words):  # why the table's are not used
            terms.append(ident("photo-table-terms", label(t(table), 12, colour=GREY)))
        note = self.rules_note()
        if note is not None:  # the rules charged are named (spec §5.1), not only the set picked and gone
            terms.append(ident(ID_PHOTO_RULES_NOTE, label(t(note), 13, bold=True, colour=ACCENT)))
        said: list[ft.Control] = []
        if self.reset:  # said until the player sets a field: a form he did not touch may look like his own
            names = [ui(FIELD_WORDS[f]) for f in self.reset]
            said.append(ident("photo-new-hand", label(t(ui("photo_new_hand", fields="、".join(w.zh for w in names),
                                                          fields_en=", ".join(w.en for w in names))), 12,
                                                   colour=FELT)))
        return ft.Column([
            *said,
            label(t(ui("photo_context")), 12, colour=GREY),
            ft.Row([pick("win_type", "win_type", c.win_type, how, 175),
                    pick("discarder", "discarder", c.discarder, [w for w in winds if w.key != c.seat_wind],
                         disabled=c.win_type not in PAYING),
                    pick("seat_wind", "seat_wind", c.seat_wind, winds, 160),
                    pick("round_wind", "round_wind", c.round_wind, winds),
                    pick("dealer", "dealer_seat", "E" if east else c.dealer, winds, disabled=east),
                    pick("streak", "streak_n", str(c.streak), streaks, 100),
                    pick("moment", "moment", c.moment or "-", moments, 260),
                    pick("ready", "ready_kind", c.ready or "-", readies, 175),
                    pick("concealed", "photo_calls", c.concealed or "-", calls, 175),
                    pick("profile", "profile", c.profile, rules, 260),
                    ft.Row([ident("ctx-stakes", field), presets], spacing=0, tight=True)],
                   wrap=True, spacing=8, run_spacing=8),
            *terms,
        ], spacing=4)

    def build(self) -> ft.Control:
        t = self.host.t
        busy = self.busy is not None
        buttons: list[ft.Control] = []
        if self.upload.available:
            buttons.append(ident(ID_PHOTO_PICK, ft.Button(content=t(ui("photo_pick")), on_click=self.pick,
                                                          disabled=busy)))
        buttons.append(ident(ID_PHOTO_DEMO, ft.OutlinedButton(content=t(ui("photo_demo")), on_click=self.use_demo,
                                                              disabled=busy)))
        self.typed_field.label = t(ui("typed_field"))
        self.typed_field.hint_text = t(ui("hand_hint"))
        typed = ft.Row([ident(ID_TYPED_FIELD, self.typed_field),
                        ident(ID_TYPED_SCORE, ft.OutlinedButton(content=t(ui("typed_score")), disabled=busy,
                                                                on_click=lambda: self.score_typed()))],
                       wrap=True, spacing=8)
        head: list[ft.Control] = [label(t(ui("photo_intro")), 13), ft.Row(buttons, spacing=8), typed]
        form = self._form() if isinstance(self.read, ReadPhoto) or self.typed is not None else None
        if form is not None:
            head.append(form)
        if self.shown is None or (self.busy is not None and self.busy != ui("photo_scoring")):
            doing = self.busy or ui("photo_reading")
            head.append(ft.Row([ft.ProgressRing(width=20, height=20), label(t(doing), 13)]))
            return ft.Column(head, spacing=8)
        if self.busy is not None:  # scored again (a correction, the form): the last score stays meanwhile, so the
            # page keeps its length and its place (a review's page jumped to the top on every tile corrected)
            head.append(ft.Row([ft.ProgressRing(width=20, height=20), label(t(self.busy), 13)]))
        p = self.shown
        if isinstance(p, PhotoFailed):
            head.append(ident(ID_PHOTO_FAILED, label(t(p.reason), 14, colour=ACCENT)))
            failed_set = self.read.tile_set if isinstance(self.read, ReadPhoto) else None
            if failed_set:  # which set read it: a refusal is when a player wonders (a review found it unsaid there)
                head.append(label(t(ui("photo_tile_set", name=failed_set)), 12, colour=GREY))
            if p.waits and isinstance(self.read, ReadPhoto):  # its winning tile not in the photo: tap the one won on
                head.append(self._waits(p.waits))
            if isinstance(self.read, ReadPhoto):  # read but not a win: a misread tile may be why (the tiles the
                # refusal names framed: a tile read surely that would make it a win as another kind, a fifth copy)
                head.append(self._corrections(self.read, check=p.check))
            # won on the tile picked, the hand is no win: back to the most tai
            if (self.typed_win if self.typed is not None else self.photo_win) is not None:
                head.append(ident("typed-win-most", ft.TextButton(content=t(ui("typed_win_most")),
                                                                  on_click=lambda: self.pick_win(None))))
            if p.image is not None:
                head += [photo(p.image, width=720, said=t(ui("photo_read_said"))), photo_legend(p.legend, t)]
            return ft.Column(head, spacing=8)
        tile_set = self.read.tile_set if isinstance(self.read, ReadPhoto) else None
        damaged = self.read.set_damaged if isinstance(self.read, ReadPhoto) else None
        name = t(ui("typed_name", hand=p.name)) if self.typed is not None else p.name
        head.append(label(name + (t(SEP) + t(ui("photo_tile_set", name=tile_set)) if tile_set else ""), 12,
                          colour=GREY))
        if damaged:  # the set the player chose was left out: said where the tiles are (the CLI refuses to read)
            unreadable = isinstance(self.read, ReadPhoto) and self.read.set_unreadable
            said = ui("photo_set_unreadable" if unreadable else "photo_set_damaged", name=damaged)
            head.append(ident("photo-set-damaged", label(t(said), 12, colour=ACCENT)))
        fixes = [self._corrections(self.read, dict(p.scored), p.total)] if isinstance(self.read, ReadPhoto) else []
        if form is not None and p.image:  # the sum under the form too: on a phone the card is a screen and a half
            # below it, and each box changed needed a scroll down to see what it did, and back (a review)
            near = ui("photo_sum", total=p.total.zh, total_en=p.total.en, pays="；".join(w.zh for w in p.payments),
                      pays_en="; ".join(w.en for w in p.payments))
            changed = self._changed(p)
            if changed:  # a win only with tiles read otherwise: said where the sum is (a review read a red sum alone)
                near = near + ui("photo_sum_changed", n=changed)
            head.insert(head.index(form) + 1, ident(ID_PHOTO_SUM, label(t(near), 14, bold=True, colour=ACCENT)))
        if not p.image:  # a typed hand: no photo beside it, and its card before the form (on a phone the form
            # filled the screen and the score sat below it, out of sight: a beginner review)
            before = [c for c in head if c is not form]
            return ft.Column([*before, ft.Container(self._card(p), width=520), *([form] if form else [])], spacing=8)
        return ft.Column([*head, ft.ResponsiveRow([
            ft.Container(ft.Column([photo(p.image, said=t(ui("photo_read_said"))), photo_legend(p.legend, t)], spacing=4), col={"xs": 12, "md": 7}),
            ft.Container(self._card(p), col={"xs": 12, "md": 5})]), *fixes], spacing=8)

    def _changed(self, p: PhotoPanel) -> int:
        """How many tiles of the photo the hand ``p`` was scored as another kind than they were read (the player's
        own corrections aside)."""
        if not isinstance(self.read, ReadPhoto):
            return 0
        kinds = self.read.dets.kind
        return sum(i not in self.picks and i < len(kinds) and code != Tile(int(kinds[i])).code
                   for i, code in p.scored)  # (a tile added is no tile read otherwise)

    def _corrections(self, read: ReadPhoto, scored: dict[int, str] | None = None,
                     total: Words | None = None, check: tuple[int, ...] = ()) -> ft.Control:
        """Every tile as scored (or read), to tap and correct: unsure ones, those the reader changed and those a
        refusal names (``check``) framed orange, corrected ones green; the one being corrected opens a palette of
        every kind; once a tile is corrected, the ``total`` it gives is said here too, under the finger (the card is
        a screen above on a phone)."""
        t, busy = self.host.t, self.busy is not None
        shown = read_tiles(read, self.picks, scored)

        def cell(n: int, r: ReadTile) -> ft.Control:
            chosen = self.picking == r.index
            doubtful = r.doubtful or (r.index in check and not r.picked)
            colour = ACCENT if chosen else FELT if r.picked else "#e8833a" if doubtful else "#d0c8b0"
            return ident(f"photo-tile-{n}", ft.Container(
                tile(t, r.code, TILE_W["wait"]), padding=2, border_radius=4, tooltip=tile_tip(t, r.code),
                border=ft.Border.all(3 if chosen or r.picked or doubtful else 1, colour),
                on_click=None if busy else on_tap(self.pick_tile, r.index)))

        rows: list[ft.Control] = [label(t(ui("photo_fix")), 13, bold=True, colour=FELT),
                                  label(t(ui("photo_fix_legend_changed")), 11, colour=GREY),
                                  ft.Row([cell(n, r) for n, r in enumerate(shown)], spacing=2, wrap=True,
                                         run_spacing=2)]
        n = next((k for k, r in enumerate(shown) if r.index == self.picking), None)
        if n is not None:
            keys = [ident(f"photo-fix-{code}", ft.Container(tile(t, code, 26), tooltip=tile_tip(t, code),
                                                            on_click=None if busy else on_tap(self.correct, code)))
                    for code in (*PALETTE, *FLOWER_CODES, "0x")]  # each named, for a screen reader too (a review)
            rows += [ident(PHOTO_FIX_TO, ft.Container(label(t(ui("photo_fix_to", n=n + 1)), 13, bold=True),
                                                      key=scroll_key(PHOTO_FIX_TO))),
                     ft.Row(keys, spacing=2, wrap=True, run_spacing=2),
                     label(t(ui("photo_fix_back")), 11, colour=GREY),  # a false tile taken out (a review)
                     ft.TextButton(content=t(ui("photo_fix_cancel")), on_click=lambda: self.pick_tile(None))]
        mended = bool(self.picks or self.added)  # (a hand mended by an added tile alone showed no total: a review)
        if mended and total is not None:
            rows.append(ident(ID_PHOTO_FIX_TOTAL, label(t(total), 14, bold=True, colour=ACCENT)))
        if mended:
            fixed = [label(t(ui("photo_fixed", n=len(self.picks))), 12, colour=FELT)] if self.picks else []
            rows.append(ft.Row([*fixed,
                                ident("photo-fix-undo", ft.TextButton(content=t(ui("photo_fix_reset")),
                                                                      on_click=self.undo_picks, disabled=busy))],
                               spacing=8, wrap=True))
        rows += self._adding()
        return ft.Container(ft.Column(rows, spacing=4), bgcolor=CARD, padding=10, border_radius=8)

    def _adding(self) -> list[ft.Control]:
        """The tiles the player added (each tapped to take it out) and the way to add one the photo missed: a palette
        of every face (a review's missed flower lost its tai, and only typing the whole hand got it back)."""
        t, busy = self.host.t, self.busy is not None
        out: list[ft.Control] = []
        if self.added:
            chips = [ident(f"photo-added-{k}", ft.Container(
                tile(t, code.code, TILE_W["wait"]), padding=2, border_radius=4, border=ft.Border.all(3, FELT),
                tooltip=tile_tip(t, code.code), on_click=None if busy else on_tap(self.remove_added, k)))
                for k, code in enumerate(self.added)]
            out += [label(t(ui("photo_added")), 12, colour=FELT), ft.Row(chips, spacing=2, wrap=True, run_spacing=2)]
        if not self.adding:
            out.append(ident(ID_PHOTO_ADD, ft.TextButton(content=t(ui("photo_add")), disabled=busy,
                                                         on_click=lambda: self.start_adding())))
            return out
        keys = [ident(f"photo-add-{code}", ft.Container(tile(t, code, 26), tooltip=tile_tip(t, code),
                                                         on_click=None if busy else on_tap(self.add_tile, code)))
                for code in (*PALETTE, *FLOWER_CODES)]
        refused = [ident("photo-add-refused", label(t(self.add_refused), 13, colour=ACCENT))] \
            if self.add_refused is not None else []
        return [*out, ident(PHOTO_ADD_TO, ft.Container(label(t(ui("photo_add_to")), 13, bold=True),
                                                       key=scroll_key(PHOTO_ADD_TO))),
                *refused, ft.Row(keys, spacing=2, wrap=True, run_spacing=2),
                ident("photo-add-cancel", ft.TextButton(content=t(ui("photo_add_cancel")),
                                                        on_click=lambda: self.start_adding(False)))]

    def _waits(self, waits: tuple[str, ...]) -> ft.Control:
        """The tiles a photo's hand shown without its winning tile waits on: tap the one it was won on (a review's
        16 tiles were refused, and the refusal pointed at the misread tiles)."""
        t, busy = self.host.t, self.busy is not None
        row = [ident(f"photo-wait-{code}", ft.Container(tile(t, code, TILE_W["wait"]), padding=2, border_radius=4,
                                                        border=ft.Border.all(1, "#d0c8b0"),
                                                        on_click=None if busy else on_tap(self.pick_win, code)))
               for code in waits]
        return ft.Column([label(t(ui("photo_win_missing_pick")), 12, bold=True),
                          ft.Row(row, spacing=3, wrap=True, run_spacing=3)], spacing=2)

    def _win_choices(self, p: PhotoPanel) -> ft.Control:
        """The tiles a typed hand, or a photo with no tile set apart, can have been won on, each with its tai: the one
        scored framed, tap another."""
        t, busy = self.host.t, self.busy is not None

        def choice(code: str, tai: int) -> ft.Control:
            scored = code == p.win_tile
            return ident(f"typed-win-{code}", ft.Container(
                ft.Column([tile(t, code, TILE_W["wait"]), label(str(tai), 11, bold=scored)], spacing=0,
                          horizontal_alignment=ft.CrossAxisAlignment.CENTER),
                padding=2, border_radius=4, border=ft.Border.all(3 if scored else 1, ACCENT if scored else "#d0c8b0"),
                on_click=None if busy else on_tap(self.pick_win, code)))

        row: list[ft.Control] = [choice(code, tai) for code, tai in p.win_choices]
        if p.win_picked:
            row.append(ident("typed-win-most", ft.TextButton(content=t(ui("typed_win_most")), disabled=busy,
                                                             on_click=lambda: self.pick_win(None))))
        return ft.Column([label(t(ui("typed_win_pick")), 12, bold=True),
                          ft.Row(row, spacing=3, wrap=True, run_spacing=3)], spacing=2)

    def _card(self, p: PhotoPanel) -> ft.Control:
        t = self.host.t
        typed = self.typed is not None
        read: list[ft.Control] = [label(t(ui("typed_hand" if typed else "photo_read_as")), 13, bold=True),
                                  ft.Row([tile(t, c, TILE_W["hand"]) for c in p.concealed], spacing=1, wrap=True)]
        if p.win_tile and len(p.win_choices) > 1:
            read.append(self._win_choices(p))
        elif p.win_tile:
            win = Tile.from_code(p.win_tile)
            read.append(ft.Row([label(t(ui("photo_win_tile", tile=win.zh, tile_en=win.en)), 13),
                                tile(t, p.win_tile, TILE_W["hand"])]))
        if p.melds:
            read.append(ft.Row([meld(t, m, t(m.label)) for m in p.melds], spacing=10, wrap=True))
        if p.flowers:
            read.append(ft.Row([label(t(ui("flowers")), 12), tiles(t, p.flowers, TILE_W["meld"])]))
        if p.notes:
            read.append(label(t(ui("typed_notes" if typed else "photo_doubts")), 13, bold=True, colour=ACCENT))
            read += [label("• " + t(n), 12) for n in p.notes]
        tai: list[ft.Control] = [label(t(ui("tai_items")), 13, bold=True, colour=FELT)]
        for words, n in p.items:
            tai.append(ft.Row([ft.Container(label(t(words), 13), width=220), label(str(n), 13)]))
        tai += [label(t(w), 11, colour=GREY) for w in p.house]
        line = t(ui("hand_tai", tai=p.hand_tai))
        if p.capped_tai != p.hand_tai:
            line += t(ui("capped", tai=p.capped_tai))
        if p.dealer_tai:
            line += t(SEP) + t(dealer_tai_said(p.dealer_tai, p.dealer_why))
        tai.append(label(line, 13))
        tai.append(ident(ID_PHOTO_TOTAL, label(t(p.total), 16, bold=True, colour=ACCENT)))
        tai.append(label(t(ui("payments")), 13, bold=True, colour=FELT))
        tai += [label(t(w), 13) for w in p.payments]
        tai += self._scored_by()
        return ft.Container(ft.Column(read + [ft.Divider()] + tai, spacing=4), bgcolor=CARD, padding=12,
                            border_radius=8)
