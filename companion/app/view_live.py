"""The Live tab: a real game entered at the table, one tap per move, drawn from :class:`LiveGame`'s offer.

Every phone on the server shows the same live table; an entry made on one redraws the others. A tap carries the
log length its screen was drawn from, so a tap on a stale screen is refused instead of landing on a moved table.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import flet as ft

from companion.app.hand_model import kong_fours
from companion.app.house_rules import (
    HOUSE_RULES,
    INSTANT_RULES,
    SEATING_RULES,
    TABLE_SWITCHES,
    HouseRule,
    rule_values,
    seating_line,
    seating_rules,
    table_terms,
    terms_change,
)
from companion.app.listening import LiveListener
from companion.app.live_model import (
    EXPORT_PATH,
    LiveError,
    LiveGame,
    drawn_last,
    not_saved,
    tiles_typed,
    undo_since_words,
    without_last_tile,
)
from companion.app.live_offer import Claim, Offer, WinChance, exhaustive_words, nearest_winner, voided
from companion.app.live_photo import READABLE_KINDS, HandFill, fill_from_photo
from companion.app.photo_model import PhotoFailed
from companion.app.rule_sets_model import rule_set_options, why_unusable
from companion.app.table_model import GameReplay, LogError, meld_words
from companion.app.ui_kit import (
    ACCENT,
    CARD,
    FELT,
    FINGER,
    FLOWER_CODES,
    GREY,
    KEY_GAP,
    PALETTE_ROWS,
    Host,
    bring_into_view,
    drop_down,
    field_width,
    ident,
    key_row,
    key_tip,
    label,
    on_tap,
    photo,
    photo_legend,
    scroll_key,
    tile,
    tile_key,
    tile_tip,
    unfolded,
)
from companion.app.upload import PhotoUpload
from companion.app.view_photo import PhotoSource
from companion.app.view_table import banner, hand_end_card, recent_list, seat_grid
from companion.app.view_wall import wall_fold
from companion.app.words import SEP, Words, asked, refused, ui, unbroken
from companion.english import shortened, the_tile
from companion.game import events as ev
from companion.game.evolve import terms_ahead
from companion.game.service import ServiceError
from companion.game.session import switches_for
from companion.game.state import ActKind, Phase, window
from companion.game.text import msg
from companion.hand import MeldKind
from companion.names import shown_name
from companion.rules.profiles import ProfileError, load_profile, profile_id
from companion.rules.profiles._store import valid_id
from companion.rules.settlement import STAKE_MAX
from companion.tiles import CopyLimitError, NotationError, Tile, typed_with

__all__ = ["LiveTab", "ID_LIVE_PROMPT", "ID_LIVE_ERROR", "ID_LIVE_UNDO", "ID_LIVE_START", "ID_LIVE_DICE",
           "ID_LIVE_THROW", "ID_LIVE_WIN_OK", "ID_LIVE_CONCEALED", "ID_LIVE_PHOTO", "ID_LIVE_PHOTO_SAID", "ID_LIVE_WIN_GONE",
           "ID_LIVE_UNDO_SINCE", "ID_LIVE_UNDO_ALSO"]

ID_LIVE_PROMPT, ID_LIVE_ERROR, ID_LIVE_UNDO, ID_LIVE_START = "live-prompt", "live-error", "live-undo", "live-start"
ID_LIVE_DICE, ID_LIVE_THROW, ID_LIVE_WIN_OK, ID_LIVE_CONCEALED = "live-dice", "live-throw", "live-win-ok", \
    "live-concealed"
ID_LIVE_PHOTO, ID_LIVE_PHOTO_SAID = "live-win-photo", "live-photo-said"
ID_LIVE_WIN_GONE, ID_LIVE_UNDO_SINCE = "live-win-gone", "live-win-undo-since"
ID_LIVE_OLDER_RULES = "live-older-rules"  # a saved log's events let in under the older rules of their stamp
ID_LIVE_UNDO_ALSO = "live-win-undo-also"  # under the win form's undo: a record about another seat it takes back too
ID_LIVE_WIN_BESIDE = "live-win-beside"  # a win on the form's tile entered since, beside which it records
log = logging.getLogger(__name__)
WIND_KEYS = "ESWN"
DOUBLE_TAP_SECONDS = 0.45
DICE_DRAFT = (-1, "dice")  # the dice typed and not sent, kept at the table as a win form's fields are (seat, kind)
"""The same tile tapped again this soon is a double tap, not the next seat discarding the same kind."""
UNDO_ZH, UNDO_EN = 16, 24
"""The undo button's account of what it takes back, cut to this many characters (the bar is one line on a phone)."""


def _stakes(base: str | None, per_tai: str | None) -> tuple[int, int] | Words:
    """底 and 台 as typed: two whole numbers, or why not (an empty field is asked for, not read as 0)."""
    b, p = (base or "").strip(), (per_tai or "").strip()
    if not b or not p:
        return asked("live_stakes_missing")
    if not (_whole(b) and _whole(p)):  # digits alone: int() also reads "3_0" as 30 (a review)
        return ui("live_stakes_bad", base=shortened(b, 16), per_tai=shortened(p, 16))
    if max(len(b.lstrip("+-")), len(p.lstrip("+-"))) > len(str(STAKE_MAX)):  # (5000 digits were "not a whole
        said = msg("stakes_big", base=shortened(b, 16), per_tai=shortened(p, 16), most=f"{STAKE_MAX:,}")  # number",
        return Words(said.zh, said.en)  # said back whole: a review; int() reads at most 4300)
    return int(b), int(p)


def _whole(text: str) -> bool:
    """A whole number as a player types it: digits (full-width too), a sign before them at most; a sign kept, so a
    negative stake is refused by the table with its own reason."""
    digits = text[1:] if text[:1] in "+-" else text
    return digits.isdecimal()


CLAIM_STYLE = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=12))
"""The claim buttons a little narrower than Flet's own (24 px a side): a seat's three chows, its pung, kong and win
take two lines on a phone, not three (a review found the third seat's buttons under the bottom bar after a discard)."""
SEAT_BAND = "#ebe4d2"
"""A seat's claims on a band of this shade, not in a frame: framed (its border, padding and gap), the three seats took
28 px more, and on an English phone with its browser's bars the last seat's buttons lay under the bottom bar."""
CHOW_STYLE = ft.ButtonStyle(padding=ft.Padding.symmetric(horizontal=8))
"""A chow's button, its run's three tiles and no word (one 吃 before them says it for all)."""


def _chow_words(tiles: Sequence[str]) -> Words:
    """A chow button's name: 吃 and its run's tiles (its face shows only the tiles)."""
    faces = [Tile.from_code(x) for x in tiles]
    return Words("吃 " + "、".join(f.zh for f in faces), "Chow " + ", ".join(f.en for f in faces))


ID_LIVE_SEATED_ELSEWHERE = "live-seated-elsewhere"  # another phone seated the table over the names typed here
ID_LIVE_PROFILE_GONE = "live-profile-gone"  # why the rule set picked can seat nobody now (deleted or damaged since)


class LiveTab:
    def __init__(self, host: Host, game: LiveGame | None, photos: PhotoSource | None = None) -> None:
        self.host, self.game, self.photos = host, game, photos
        # the win form's hand read from a photo of it laid down
        self.upload = PhotoUpload(host, photos.upload_dir if photos is not None else None, self._photo_received,
                                  self._photo_refused, self._photo_sending)
        self.photo: HandFill | PhotoFailed | None = None
        self.photo_busy: Words | None = None
        self.photo_verdict: Words | None = None  # why the table would refuse the filled form (None: it fits)
        self._photo_for: tuple[WinChance, int] | None = None  # the form a photo being sent was chosen for
        self._error: Words | None = None
        self._error_at: int | None = None  # the table (its log's length) the refusal shown was made on
        self.win: WinChance | None = None
        self.ready = False
        self.penalty: tuple[str, int, int] | None = None  # a 詐胡 or 相公 tapped, to confirm: (kind, seat, at)
        self.names = [ft.TextField(width=130, dense=True) for _ in range(4)]
        self.profile = "atawmj_2009"
        self._set_names: dict[str, Words] = {}  # the names of each rule set the dropdown has offered: one picked
        # and deleted since is said gone by the name the host saw
        self.house: dict[str, str] = {}  # house rules played otherwise than the rule set (rule -> option)
        self._kept_instant: tuple[str, ...] = ()  # the instant wins the table seated again played otherwise: offered
        self.house_open = self.reseat_open = self.wall_open = False
        self._seated_key: object = None  # the seating the form was last filled from
        self._form_on: tuple[str, ...] | None = None  # the table's players when the seating form was last drawn
        self.seated_elsewhere: tuple[Words, int] | None = None  # another phone seated the table over names typed
        # here: said, and on which table (its log's length), until the table moves on
        self.stakes = (ft.TextField(value="30", width=90, dense=True), ft.TextField(value="10", width=90, dense=True))
        # 改底台、改規矩 between hands: the stakes typed and the rules picked otherwise than the table plays now
        self.terms_stakes = (ft.TextField(width=90, dense=True), ft.TextField(width=90, dense=True))
        self.terms_rules: dict[str, str] = {}
        self.terms_open = False
        self.terms_error: Words | None = None  # why the last change was refused, said beside its button
        self.terms_moved = False  # another phone changed the terms while this one had the form open and typed in it
        self._terms_key: object = None  # the table's terms the form was last filled from
        # examples, pale and slanted: a review took the dark "9p" hint for a kong already entered
        hint = ft.TextStyle(color="#a8a8a8", italic=True)
        # kept as typed, as the win form is: a first throw was lost to a page reloaded before the second (a review)
        self.dice = ft.TextField(width=120, dense=True, hint_text="3 5 6", hint_style=hint, on_change=self._keep_dice)
        self.second = ft.TextField(width=120, dense=True, hint_text="2 4 6", hint_style=hint,
                                   on_change=self._keep_dice)
        self._dice_at: int | None = None  # the table the dice fields were last shown on
        # the tiles typed, drawn below the field as they are typed (the box alone changes: the page is not
        # rebuilt under a finger about to tap Record)
        self.typed_box = ft.Container()
        # on two lines if need be: a phone's field shows some 12 of a hand's 16 codes on one (a review)
        self.concealed = ft.TextField(width=420, dense=True, hint_text="123m456p789s東東 …", hint_style=hint,
                                      on_change=self._typing, multiline=True, min_lines=1, max_lines=2)
        # (at 120 px the English label, "The tile drawn", wrapped onto two lines: a review)
        self.drawn = ft.TextField(width=170, dense=True, hint_text="5m", hint_style=hint, on_change=self._typing)
        self.kongs = ft.TextField(width=240, dense=True, hint_text="9p", hint_style=hint, on_change=self._typing)
        self.listener = LiveListener(host, game, self._changed)
        self.visible = False
        self._entering = False
        self._last_discard: tuple[str, float] = ("", 0.0)
        self._shown: Offer | None = None  # the offer the screen was last drawn from
        self._error_line: ft.Control | None = None  # the refusal as last drawn, where one was
        self.win_at = -1

    @property
    def error(self) -> Words | None:
        """The refusal shown above the table, about the table it was made on: once the table moves on (another
        phone's entry), it goes (:meth:`_drop_stale`)."""
        return self._error

    @error.setter
    def error(self, words: Words | None) -> None:
        self._error, self._error_at = words, None  # (the table it is about: set where it is made, else where shown)

    # --- sharing one table between phones --------------------------------------------------------------

    def attach(self) -> None:
        """Redraw this session when another one changes the table."""
        self.listener.attach()

    def detach(self) -> None:
        self.listener.detach()

    def _fold_wall(self, is_open: bool) -> None:
        self.wall_open = is_open

    def _changed(self) -> None:
        if self._entering:  # this session's own entry redraws it when the tap returns
            return
        if self.visible:
            self.listener.redraw()
        elif self.error is not None:  # the tab out of sight: its refusal, said at the foot too, goes all the same
            self.listener.later(self._drop_stale)

    def _drop_stale(self, at: int | None = None) -> None:
        """The refusal shown, and said at the foot of the screen, taken back once the table has moved past the one it
        was made on (``at``: the table's log length now): a review's phone said "Not allowed: Spring (1f)…" under
        the prompt of a discard two entries later, as if the next seat's Spring had just been refused."""
        if self._error is None or self.game is None:
            return
        if at is None:
            try:
                at = len(self.game.events())
            except LiveError:
                return
        if self._error_at is None:
            self._error_at = at
        elif self._error_at != at:
            self.error = None
            self.host.clear_notice()

    # --- entries -----------------------------------------------------------------------------------------

    def _do(self, entry: Callable[[], Words | None], keep_dice: bool = False, keep_form: bool = False) -> None:
        self._entering = True
        try:
            self.error = entry()
        except LiveError as bad:
            self.error = bad.words
        except ServiceError as failed:
            self.error = not_saved(failed)
        finally:
            self._entering = False
        if self.error is not None:
            self._drop_stale()  # (sets the table it is about: the table as the refusal left it)
        if self.error is None:
            if not keep_form:
                self.win, self.ready = None, False
            if not keep_dice:  # a throw is entered once: the next starts empty
                self.dice.value = self.second.value = ""
            self.host.clear_notice()
        self.host.render()
        if self.error is not None:
            self.host.notice(self._refused(self.error))

    @staticmethod
    def _refused(why: Words) -> Words:
        return refused(why)

    def _start(self, at: int) -> None:
        names = [f.value or "" for f in self.names]
        stakes = _stakes(*(f.value for f in self.stakes))
        if isinstance(stakes, Words):
            self.error = stakes
            self.host.render()
            return
        base, per_tai = stakes
        gone = self._profile_gone(rule_set_options())
        if gone is not None:  # deleted or damaged since it was picked: never seated under another set unsaid; the
            # why is the line under the dropdown (a change review read the same sentence twice on a phone)
            self.error = ui("live_start_pick_another")
            self.host.render()
            return
        game = self.game
        assert game is not None
        house = dict(self.house)

        def entry() -> Words | None:
            why = game.start(names, self.profile, base, per_tai, at=at, house=house)
            if why is None:
                self.reseat_open = False  # seated again: the form folds away
            return why

        self._do(entry)

    def _change_terms(self, at: int) -> None:
        stakes = _stakes(*(f.value for f in self.terms_stakes))
        if isinstance(stakes, Words):
            self.error = self.terms_error = stakes
            self.host.render()
            return
        base, per_tai = stakes
        game = self.game
        assert game is not None
        rules = dict(self.terms_rules)

        self.terms_moved = False

        def entry() -> Words | None:
            why = game.change_terms(base, per_tai, rules, at=at)
            if why is None:
                self.terms_open = False  # changed: the form folds away
            return why

        self._do(entry, keep_dice=True)  # (a throw typed above, not yet entered, stays)
        self.terms_error = self.error  # said beside the button too: the line on top may be scrolled away

    def _roll(self, field: ft.TextField) -> None:
        assert self.game is not None
        field.value = " ".join(map(str, self.game.roll()))
        self._keep_dice()
        self.host.render()

    def _keep_dice(self) -> None:
        """The dice typed, kept at the table so that the page loaded again shows them (as :meth:`_keep` the win
        form's)."""
        if self.game is not None and self._dice_at is not None:
            self.game.keep_draft(self._dice_at, *DICE_DRAFT, (self.dice.value or "", self.second.value or "", ""))

    def _dice_kept(self, at: int) -> None:
        """Empty dice fields filled with what was typed on this table and not sent (the page reloaded)."""
        assert self.game is not None
        self._dice_at = at
        kept = self.game.draft(at, *DICE_DRAFT)
        if kept is not None and not self.dice.value and not self.second.value:
            self.dice.value, self.second.value = kept[0], kept[1]

    def _replay(self) -> None:
        """The live log on the Table tab, to step through (hands stay face down: the log never saw them)."""
        assert self.game is not None
        try:  # what stands (taps taken back left out), each event said by its stored number as this tab says it
            replay = GameReplay.of_table(self.game.events(), self.game.path.name)
        except LogError as bad:
            self.error = bad.words
            self.host.render()
            return
        open_replay = getattr(self.host, "open_replay", None)
        if open_replay is not None:
            # a snapshot: it does not follow later taps, and says so (a review)
            open_replay(replay, ui("live_replay_note", n=len(replay) - 1))

    # --- drawing -----------------------------------------------------------------------------------------

    def bottom_bar(self) -> ft.Control:
        t = self.host.t
        shown = self._shown  # the offer the screen above was drawn from (render builds the tab first)
        can, at = (shown.undo, shown.at) if shown is not None else (False, -1)
        what = shown.undo_what if shown is not None and can else None
        # the button names what it takes back (a correction, a stakes change or a discard alike: one tap)
        content: ft.Control | str = t(ui("live_undo"))  # plain text: the button greys it when disabled
        if what is not None:  # two short lines, so the bar keeps its other buttons on a phone
            content = ft.Column([label(t(ui("live_undo")), 13, bold=True),
                                 label(t(ui("live_undo_what", what=shortened(what.zh, UNDO_ZH),
                                            what_en=shortened(what.en, UNDO_EN))), 11)],
                                spacing=0, tight=True, horizontal_alignment=ft.CrossAxisAlignment.CENTER)
        undo = ident(ID_LIVE_UNDO, ft.OutlinedButton(content=content, disabled=not can, height=FINGER,
                                                      on_click=lambda: self._undo(at)))
        replay = ft.TextButton(content=t(ui("live_replay")), on_click=self._replay, disabled=not can)
        keep = ident("live-download", ft.TextButton(content=t(ui("live_download")), url=EXPORT_PATH, disabled=not can))
        # one line that scrolls sideways on a narrow phone: the bar's height holds one row, a wrapped second was cut
        return ft.Row([undo, replay, keep], spacing=8, scroll=ft.ScrollMode.AUTO, alignment=ft.MainAxisAlignment.CENTER)

    def _undo(self, at: int) -> None:
        """Undo the tap this screen showed last (a second tap, or a stale phone, is refused: the table moved)."""
        game = self.game
        assert game is not None
        self._do(lambda: game.undo(at=at))
        if self.error is not None:
            return
        # a win taken back: its form opens again as it was filled, on the screen that took it back (the model
        # moved its draft to this table; a review had to find the win's "go on filling" button)
        offer, _frame = game.snapshot()
        for chance in offer.wins:
            kept = game.draft(offer.at, chance.seat, chance.kind.value)
            if kept is not None and _count_typed(kept[0]):
                self._shown = offer
                self._open_win(chance)()
                return

    def build(self) -> ft.Control:
        t = self.host.t
        parts: list[ft.Control] = [label(t(ui("live_intro")), 13)]
        if self.game is None:
            return ft.Column(parts, spacing=8)
        try:
            offer, frame = self.game.snapshot()
            self._shown = offer
        except LiveError as bad:
            self._shown = None  # nothing to undo on a table that cannot be opened
            parts.append(ident(ID_LIVE_ERROR, label(t(bad.words), 14, colour=ACCENT)))
            return ft.Column(parts, spacing=8)
        if not offer.seating:  # the phone's screen is for the table once a game is on
            parts = []
        self._drop_stale(offer.at)  # a refusal made on the table before another phone's entry
        state = self.game.state
        self._seated_over(state.players, offer.at)
        if self.seated_elsewhere is not None and self.seated_elsewhere[1] == offer.at:  # (once the table moves
            # on, it is old news)
            parts.append(ident(ID_LIVE_SEATED_ELSEWHERE, label(t(self.seated_elsewhere[0]), 14, bold=True,
                                                               colour=ACCENT)))
        else:
            self.seated_elsewhere = None
        if frame.end is not None:  # the hand just ended: its score first, above what comes next
            parts.append(ft.Container(hand_end_card(t, frame.end), key=scroll_key("live-end")))
        if self.win is None:  # (the win form says what it asks)
            parts.append(ident(ID_LIVE_PROMPT, label(t(offer.prompt), 16, bold=True, colour=FELT)))
        parts.append(self._actions(offer))
        self._error_line = None
        if self.error is not None:  # under what was tapped: above it, the line moved the tiles a finger taps next
            # (a review's tap after a refusal could land a row off); the foot of the screen says it too (notice)
            self._error_line = ident(ID_LIVE_ERROR, label(t(self._refused(self.error)), 14, colour=ACCENT))
            parts.append(self._error_line)
        # the table's state under what to tap: above it, the banner pushed the discard tiles and the claims below a
        # phone's screen, so most taps needed a scroll, and the page, staying where it was scrolled, then hid the
        # next prompt (two player reviews); the prompt above says what the banner's headline said
        terms = table_terms(state) if not offer.seating else None
        if terms is not None:  # the stakes and rules played now (they may change between hands); above the prompt
            # they put the last seat's claims under the bar of a 360x640 phone
            parts.append(ident("live-house-played", label(t(terms.words), 12, colour=FELT)))
            if state.next_terms is not None:  # changed after this hand, for the next
                base, per_tai, switches = state.next_terms
                parts.append(ident("live-terms-next", label(t(terms_change(
                    state.base, state.per_tai, state.switches, base, per_tai, switches, state.profile)), 12,
                    bold=True, colour=FELT)))
        if frame.hand_line is not None or frame.seats:
            parts.append(banner(t, frame))
        if frame.wall is not None:
            parts.append(wall_fold(t, frame.wall, self.wall_open, self._fold_wall, "live-wall"))
        if frame.seats:
            parts.append(seat_grid(t, frame))
        parts.append(recent_list(t, frame))
        # a saved log imported: what this version refuses in it, as replay says it; at the foot, for the rest of the
        # evening: above the prompt, in English, it pushed the last seat's claims under a phone's bar (a review)
        older = self.game.older_rules()
        if older is not None:
            parts.append(ident(ID_LIVE_OLDER_RULES, label(t(older), 12, colour=ACCENT)))
        # that every tap is kept, at the foot: above the prompt it pushed the last seat's claims under a phone's bar
        parts.append(label(t(ui("live_file", name=self.game.path.name, n=offer.at)), 11, colour=GREY))
        return ft.Column(parts, spacing=6)

    def _seated_over(self, players: Sequence[str], at: int) -> None:
        """Said when another phone seated the table (or seated it again) while this one's seating form, drawn last,
        held names typed otherwise: the form gave way to the dice prompt and the names went without a word (a
        game-night review). Names left as the form filled them (玩家一, the seating before) are no typing."""
        was, self._form_on = self._form_on, None  # (the form drawn again below sets it)
        now = tuple(players)
        if was is None or not now or now == was:
            return
        typed = [shown_name(f.value or "") for f in self.names]
        defaults = [ui("live_player", n="一二三四"[i], n_en=i + 1) for i in range(4)]
        untouched = [{"", d.zh, d.en, *(shown_name(p) for p in was[i:i + 1])} for i, d in enumerate(defaults)]
        if all(v in untouched[i] for i, v in enumerate(typed)) or typed == [shown_name(p) for p in now]:
            return
        said = ui("live_seated_elsewhere", names="、".join(now), names_en=", ".join(now))
        self.seated_elsewhere = (said, at)
        self.host.notice(said)

    def _actions(self, o: Offer) -> ft.Control:
        if self.win is not None:  # keyed: opened from a 胡 low on a phone, the form is brought up to be filled
            return ft.Container(self._card(self._win_form(o, self.win)), key=scroll_key("live-win-form"))
        rows: list[ft.Control] = []
        if o.seating and not o.wins:
            rows.append(self._seating(o))
        elif o.dealer_throws >= 0:
            rows.append(self._dealer(o))
            rows.append(self._reseat(o))
        claims = [self._claims(o)] if o.claims or o.wins else []
        also = o.phase is Phase.HAND_OVER and bool(o.wins)  # 一炮多響: the other winners before the next deal
        if also:
            rows += claims
        if o.dice:
            rows.append(self._dice(o))
            rows.append(self._terms(o))
        if o.discard_seat is not None:
            rows.append(self._palette(o))
        if not also:  # under the palette: its rows change with every discard, and above it they moved the tiles a
            rows += claims  # finger was about to tap onto a chow button (a player review recorded chows so)
        if o.seating and o.wins:  # the session's last tile still open (截胡, 一炮多響): the next session waits in a
            # fold under the question (a review found it open and filled, one tap from any phone, and once seated the
            # last hand, which settles the night, could not be completed)
            rows.append(self._reseat(o, ui("live_next_session")))
        rows += self._others(o)
        return self._card(ft.Column(rows, spacing=8)) if rows else ft.Container()

    def _reseat(self, o: Offer, title: Words | None = None) -> ft.Control:
        """The seating form folded: players seated again, or the next session while the last hand is still open."""
        def toggled(e: Any) -> None:
            self.reseat_open = unfolded(e, "live-reseat")

        return ident("live-reseat", ft.ExpansionTile(
            key=scroll_key("live-reseat"), title=label(self.host.t(title or ui("live_reseat")), 13, colour=GREY),
            expanded=self.reseat_open, on_change=toggled, controls=[self._seating(o)]))

    @staticmethod
    def _card(content: ft.Control) -> ft.Control:
        # (8 px over and under, not 12: the claims under the tile keys fit an English phone's screen)
        return ft.Container(content, bgcolor=CARD, padding=ft.Padding.symmetric(horizontal=12, vertical=8),
                            border_radius=8, border=ft.Border.all(1, "#d0c8b0"))

    def _seating(self, o: Offer) -> ft.Control:
        t = self.host.t
        state = self.game.state if self.game else None
        self._form_on = tuple(state.players) if state is not None else ()
        # seated again (or a session over): from the table's own seating and the terms it last played
        if state is not None and state.players:
            key = (state.players, state.profile, state.switches, state.base, state.per_tai)
            if key != self._seated_key:
                self._seated_key = key
                # (a table keeps its rule set's values: ``id#digest``); one deleted since stays picked, and is said
                # gone by the name the table kept (a change review: the default was put in its place unsaid)
                kept = profile_id(state.profile)
                if valid_id(kept):  # (a file named by its path, as a command may seat one, is no set to pick)
                    self.profile = kept
                    try:
                        was = load_profile(state.profile)
                        self._set_names[kept] = Words(was.name_zh, was.name_en)
                    except ProfileError:
                        pass
                self.house = seating_rules(state)  # (the instant wins it changed too, as its house rules)
                self._kept_instant = tuple(r.key for r in INSTANT_RULES if r.key in self.house)
                self.stakes[0].value, self.stakes[1].value = str(state.base), str(state.per_tai)
        for i, f in enumerate(self.names):
            wind = ui(f"wind_{WIND_KEYS[i]}")
            f.label = t(ui("live_name_label", wind=wind.zh, wind_en=wind.en))
            default = ui("live_player", n="一二三四"[i], n_en=i + 1)
            seated = state is not None and bool(state.players)
            # an untouched default follows the language (English kept 玩家一 … 玩家四)
            if not f.value or (not seated and f.value in (default.zh, default.en)):
                f.value = state.players[i] if seated and state is not None else t(default)
        self.stakes[0].label, self.stakes[1].label = t(Words("底", "Base")), t(Words("台", "Per tai"))

        def chose(e: Any) -> None:
            picked = e.control.value or self.profile
            if picked != self.profile and self.error == ui("live_start_pick_another"):  # (the refusal of the set
                # left goes with it: a change review saw it stay)
                self.error = None
            self.profile = picked
            self.host.render()  # the house rules show the new rule set's values

        # the built-in rule sets and the house ones saved (Settings, --save-profile); a house one deleted or damaged
        # since it was picked stays picked, said so, and seats nobody (a change review: the default was put in its
        # place without a word)
        usable = rule_set_options()
        gone = self._profile_gone(usable)
        offered = usable if gone is None else rule_set_options(self.profile)
        if gone is not None and self.profile in self._set_names:  # (the dropdown names it as it showed it before,
            # not by an id the host never saw: a change review)
            shown = self._set_names[self.profile]
            said = "rs_unusable_named" if why_unusable(self.profile) is not None else "rs_gone_named"
            offered = tuple((pid, ui(said, name=shown.zh, name_en=shown.en) if pid == self.profile else words)
                            for pid, words in offered)
        rules = drop_down("live-profile", ft.Dropdown(
            label=t(ui("profile")), value=self.profile, on_select=chose, width=340, dense=True,  # the English
            # default's name whole on a phone ("…, ATAWMJ 2009 (default)" was cut at 260)
            options=[ft.DropdownOption(key=pid, text=t(name)) for pid, name in offered]), t(ui("profile")))
        start = ident(ID_LIVE_START, ft.Button(content=t(ui("live_start")), on_click=lambda: self._start(o.at)))
        return ft.Column([label(t(ui("live_players")), 13, bold=True),
                          ft.Row([ident(f"live-name-{i}", f) for i, f in enumerate(self.names)], wrap=True, spacing=8),
                          ft.Row([rules, ident("live-base", self.stakes[0]), ident("live-per-tai", self.stakes[1]), start],
                                 wrap=True, spacing=8),
                          *([ident(ID_LIVE_PROFILE_GONE, label(t(gone), 13, bold=True, colour=ACCENT))]
                            if gone is not None else [self._house_rules()])], spacing=6)

    def _profile_gone(self, usable: Sequence[tuple[str, Words]]) -> Words | None:
        """Why the rule set picked can seat no table now (deleted, or its file damaged, since it was picked), in
        both languages; None where it is one of the rule sets ``usable`` (:func:`rule_set_options`)."""
        self._set_names.update(usable)
        if self.profile in dict(usable):
            return None
        name = self._set_names.get(self.profile, Words(self.profile, self.profile))
        why = why_unusable(self.profile)
        if why is not None:  # (named as the dropdown showed it, the why said once: a change review read "cannot
            # be used" twice, of a set named by an id the host never saw; then the store's "profile file
            # '…/home8.toml': …", the set named by its id again: a review)
            return ui("live_profile_unusable", name=name.zh, name_en=name.en, why=why.zh, why_en=why.en)
        return ui("live_profile_gone", name=name.zh, name_en=name.en)

    def _rule_picks(self, prefix: str, shown: Mapping[str, str], picked: dict[str, str], usual: Mapping[str, str],
                    skip: tuple[str, ...] = (), rules: tuple[HouseRule, ...] = HOUSE_RULES) -> ft.Control:
        """A dropdown per house rule showing ``shown``; a pick other than ``usual`` goes into ``picked`` (one equal
        to it leaves it), and the form is drawn again open."""
        t = self.host.t

        def pick(rule: HouseRule) -> ft.Control:
            def changed(e: Any) -> None:
                value = e.control.value
                if value == usual[rule.key]:
                    picked.pop(rule.key, None)
                elif value:
                    picked[rule.key] = value
                if prefix == "house":
                    self.house_open = True  # drawn again open, as the player left it
                else:
                    self.terms_open = True
                self.host.render()

            options = list(rule.options)
            for value in (usual[rule.key], shown[rule.key]):  # a rule set's own value the list lacks
                if value not in (v for v, _ in options):
                    options.append((value, rule.option(value)))
            return drop_down(f"{prefix}-{rule.key}", ft.Dropdown(
                label=t(rule.name), value=shown[rule.key], on_select=changed, width=300,
                dense=True, options=[ft.DropdownOption(key=v, text=t(w)) for v, w in options]), t(rule.name))

        return ft.Container(ft.Row([pick(r) for r in rules if r.key not in skip], wrap=True, spacing=8,
                                   run_spacing=12), padding=ft.Padding.only(top=10, bottom=6))

    def _house_rules(self) -> ft.Control:
        """The rule set's procedure switches, each one a table may play otherwise (各家規矩); seating a table again,
        the instant wins it played otherwise too (kept, as its house rules are). Under them, what the table will
        play otherwise than the rule set, in words (a review: 八仙過海 switched between hands went back unsaid)."""
        t = self.host.t
        usual = rule_values(switches_for(self.profile), TABLE_SWITCHES)
        # (a pick that is another rule set's own value, that rule set chosen now, is kept for going back to it)
        chosen = {k: v for k, v in self.house.items() if usual.get(k) != v}
        instant = tuple(r for r in INSTANT_RULES if r.key in self._kept_instant or r.key in chosen)

        def toggled(e: Any) -> None:
            self.house_open = unfolded(e, "live-house")

        picks = [self._rule_picks("house", {**usual, **chosen}, self.house, usual, rules=HOUSE_RULES + instant)]
        if instant:
            names = INSTANT_RULES[0].name
            for r in INSTANT_RULES[1:]:
                names += Words("、", ", ") + r.name
            picks.append(ident("live-instant-kept", label(t(ui("live_instant_kept", names=names.zh,
                                                                names_en=names.en)), 12, colour=GREY)))
        tile = ident("live-house", ft.ExpansionTile(
            key=scroll_key("live-house"),
            title=label(t(ui("live_house_rules", n=len(chosen))), 13, colour=FELT if chosen else GREY),
            expanded=self.house_open, on_change=toggled, controls=picks))
        said = seating_line(self.profile, chosen)
        return ft.Column([tile, *([ident("live-seat-otherwise", label(t(said), 12, colour=FELT))] if said else [])],
                         spacing=4)

    def _terms(self, o: Offer) -> ft.Control:
        """改底台、改規矩: between hands, the stakes and the house rules from the next hand on (the seating
        conventions stay: changing them is seating again)."""
        t = self.host.t
        game = self.game
        assert game is not None
        key = terms_ahead(game.state)  # the next hand's: a change already made included
        if key != self._terms_key:  # filled from the table as it plays now (another phone may have changed it)
            old = self._terms_key
            typed = isinstance(old, tuple) and (bool(self.terms_rules) or (
                self.terms_stakes[0].value, self.terms_stakes[1].value) != (str(old[0]), str(old[1])))
            # what this phone had typed is replaced by the table's new terms: said, not silently
            self.terms_moved = typed and self.terms_open and not self._entering
            self._terms_key = key
            self.terms_rules = {}
            self.terms_stakes[0].value, self.terms_stakes[1].value = str(key[0]), str(key[1])
        self.terms_stakes[0].label, self.terms_stakes[1].label = t(Words("底", "Base")), t(Words("台", "Per tai"))
        now = rule_values(key[2])
        for k in [k for k, v in self.terms_rules.items() if now.get(k) == v]:
            del self.terms_rules[k]

        def toggled(e: Any) -> None:
            self.terms_open = unfolded(e, "live-terms")
            self.terms_moved = self.terms_moved and self.terms_open  # (said once: folded away, it is read)

        apply = ident("live-terms-apply", ft.Button(content=t(ui("live_terms_apply")),
                                                    on_click=lambda: self._change_terms(o.at)))
        return ident("live-terms", ft.ExpansionTile(
            key=scroll_key("live-terms"), title=label(t(ui("live_terms")), 13, colour=GREY), expanded=self.terms_open,
            on_change=toggled,
            controls=[ft.Column([*([ident("live-terms-moved", label(t(ui("live_terms_moved")), 13, bold=True,
                                                                    colour=ACCENT))] if self.terms_moved else []),
                                 label(t(ui("live_terms_note")), 12, colour=GREY),
                                 ft.Row([ident("live-terms-base", self.terms_stakes[0]),
                                         ident("live-terms-per-tai", self.terms_stakes[1]), apply],
                                        wrap=True, spacing=8),
                                 *([ident("live-terms-error", label(t(refused(said)), 13, colour=ACCENT))]
                                   if (said := self.terms_error) is not None and said == self.error else []),
                                 self._rule_picks("terms", {**now, **self.terms_rules}, self.terms_rules, now,
                                                  skip=SEATING_RULES)], spacing=8)]))

    def _dealer(self, o: Offer) -> ft.Control:
        t = self.host.t
        game = self.game
        assert game is not None
        if o.dealer_throws == 0:
            return ft.Button(content=t(ui("live_east_deals")), on_click=lambda: self._do(
                lambda: game.choose_dealer(at=o.at)))
        self._dice_kept(o.at)
        fields: list[ft.Control] = [self._dice_field(self.dice, ui("live_dice"))]
        if o.dealer_throws == 2:
            fields.append(self._dice_field(self.second, ui("live_second")))

        def choose() -> Words | None:
            first = _typed_dice(self.dice.value, ui("live_dice"))
            second = _typed_dice(self.second.value, ui("live_second")) if o.dealer_throws == 2 else ()
            if isinstance(first, Words):
                return first
            return second if isinstance(second, Words) else game.choose_dealer(first, second, at=o.at)

        def go() -> None:
            self._do(choose)

        fields.append(ident(ID_LIVE_THROW, ft.Button(content=t(ui("live_throw_dealer")), on_click=go)))
        return ft.Row(fields, wrap=True, spacing=8, vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def _dice_field(self, field: ft.TextField, name: Words) -> ft.Control:
        field.label = self.host.t(name)
        roll = ft.TextButton(content=self.host.t(ui("live_roll")), on_click=lambda: self._roll(field))
        return ft.Row([ident(ID_LIVE_DICE if field is self.dice else "live-second", field), roll], spacing=2)

    def _dice(self, o: Offer) -> ft.Control:
        game = self.game
        assert game is not None
        self._dice_kept(o.at)

        def throw() -> Words | None:
            dice = _typed_dice(self.dice.value, ui("live_dice"))
            return dice if isinstance(dice, Words) else game.throw(dice, at=o.at)

        go = ident(ID_LIVE_THROW, ft.Button(content=self.host.t(ui("live_throw")), on_click=lambda: self._do(throw)))
        return ft.Row([self._dice_field(self.dice, ui("live_dice")), go], wrap=True, spacing=8,
                      vertical_alignment=ft.CrossAxisAlignment.CENTER)

    def _palette(self, o: Offer) -> ft.Control:
        t = self.host.t
        game = self.game
        assert game is not None and o.discard_seat is not None
        known = game.state.known
        name = game.state.players[o.discard_seat]

        def tap(code: str) -> Callable[[], None]:
            def go() -> None:
                now = time.monotonic()
                last_code, last_time = self._last_discard
                if code == last_code and now - last_time < DOUBLE_TAP_SECONDS:
                    return  # a finger's double tap lands on the next seat's palette: one discard, not two
                self._last_discard = (code, now)
                self._do(lambda: game.discard(code, ready=self.ready and o.ready_kind is not None, at=o.at))
            return go

        def toggle(e: Any) -> None:
            self.ready = bool(e.control.value)

        head: list[ft.Control] = [label(t(ui("live_discard_by", seat=name)), 14, bold=True)]
        if o.ready_kind is not None:
            kind = o.ready_kind
            # the box and its words as two controls: a Checkbox's own label takes the whole width, which put the box on
            # a line of its own and the claims 40 px further down a phone's screen
            box = ft.Checkbox(value=self.ready, on_change=toggle)

            def flip() -> None:
                box.value = self.ready = not self.ready
                box.update()

            words = ft.Container(label(t(ui("live_ready", kind=kind.zh, kind_en=kind.en)), 14), on_click=flip,
                                 padding=ft.Padding.only(right=8, top=10, bottom=10))  # a finger's height, as the box
            head.append(ident("live-ready", ft.Row([box, words], spacing=0, tight=True)))
        rows = []
        for part in PALETTE_ROWS:
            cells = []
            for code in part:
                face = Tile.from_code(code)
                gone = known[face] >= 4  # pale; a tap on it is refused with the reason
                cells.append(ident(f"live-discard-{code}", tile_key(t, code, on_click=tap(code),
                                                                   opacity=0.3 if gone else 1.0,
                                                                   tooltip=tile_tip(t, code))))
            rows.append(key_row(cells))
        return ft.Column([ft.Row(head, spacing=12, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER), *rows],
                         spacing=KEY_GAP)

    def _claims(self, o: Offer) -> ft.Control:
        """One row per seat: its chows (the run drawn), pung, kong and win on the tile on offer."""
        t = self.host.t
        game = self.game
        assert game is not None
        names = game.state.players

        def claim_button(c: Claim) -> ft.Control:
            kind = {MeldKind.CHOW: "chow", MeldKind.PUNG: "pung", MeldKind.KONG: "kong"}[c.kind]
            word = {MeldKind.PUNG: ui("live_pung"), MeldKind.KONG: ui("live_kong")}
            # a chow is its run, after one 吃 said for all of them (a word on each put a phone's three chows on
            # two lines, and in English on three)
            content = ft.Row([tile(t, x, 20) for x in c.tiles], spacing=2, tight=True) if c.kind is MeldKind.CHOW \
                else label(t(word[c.kind]), 14, bold=True)
            return ident(f"live-{kind}-{c.seat}-{''.join(c.tiles)}", ft.OutlinedButton(
                content=content, height=FINGER, style=CHOW_STYLE if c.kind is MeldKind.CHOW else CLAIM_STYLE,
                tooltip=key_tip(t(_chow_words(c.tiles))) if c.kind is MeldKind.CHOW else None, on_click=lambda: self._do(lambda: game.claim(c.seat, c.kind, c.tiles, at=o.at))))

        def win_button(c: WinChance) -> ft.Control:
            word = ui("live_win") if c.kind is ev.WinKind.DISCARD else ui("live_win_short", kind=c.kind.zh,
                                                                          kind_en=c.kind.en)
            if c.kind is ev.WinKind.SELF_DRAW and game.state.act is ActKind.DEALT:  # the dealer's dealt hand: 天胡
                word = ui("live_win_short", kind="天胡", kind_en="heavenly win")  # (it read "Win: self-drawn win")
            # a form begun for him and kept (another phone, or before the laptop restarted) says so on his button
            kept = game.draft(o.at, c.seat, c.kind.value)
            typed = _count_typed(kept[0]) if kept is not None else 0
            if typed:
                word = ui("live_win_resume", n=typed)
            return ident(f"live-win-{c.seat}-{c.kind.value}", ft.Button(
                content=t(word), on_click=self._open_win(c),
                style=ft.ButtonStyle(bgcolor=ACCENT, color="#ffffff", padding=CLAIM_STYLE.padding), height=FINGER))

        rows: list[ft.Control] = []
        taken = window(game.state)
        first = (taken.turn + 1) % 4 if taken is not None and 0 <= taken.turn < 4 else 0
        for seat in ((first + k) % 4 for k in range(4)):  # in turn order from the discarder's right, as claims rank
            chows = [claim_button(c) for c in o.claims if c.seat == seat and c.kind is MeldKind.CHOW]
            mine: list[ft.Control] = [label(t(ui("live_chow")), 14, bold=True), *chows] if chows else []
            mine += [claim_button(c) for c in o.claims if c.seat == seat and c.kind is not MeldKind.CHOW]
            mine += [win_button(c) for c in o.wins if c.seat == seat]
            if mine:  # one band a seat, its name first: three seats took half a phone's screen as blocks
                rows.append(ft.Container(ft.Row([ft.Container(label(names[seat], 14, bold=True), width=64), *mine],
                                                wrap=True, spacing=6, run_spacing=4,
                                                vertical_alignment=ft.CrossAxisAlignment.CENTER),
                                         bgcolor=SEAT_BAND, border_radius=8,  # no padding over and under: 2 px
                                         # each put the last seat's win 12 px lower, under a 360x640 phone's bar
                                         padding=ft.Padding.symmetric(horizontal=8)))
        # no title where the prompt above already asks for a chow, pung, kong or win, or for a further winner on
        # the tile under the table's rule (live_offer.also_wins_prompt: a review read the rule twice, here and there)
        state = game.state
        title: Words | None = None
        if voided(state):
            title = ui("live_false_others")
        winner = nearest_winner(state) if o.phase is Phase.HAND_OVER else None
        if winner is not None:
            title = ui("live_nearer_wins", winner=unbroken(names[winner]))
        if o.phase is not Phase.HAND_OVER and state.claim_rank in (1, 2) and taken is not None \
                and taken.offer is not None and (o.claims or any(c.kind is ev.WinKind.DISCARD for c in o.wins)):
            # a chow, pung or kong has taken the discard: a win on it still comes first, and after a chow a pung
            # or a kong too; either undoes the meld (a review read "only a win" above pung buttons)
            melds = state.seats[state.claim_seat].melds
            kind = meld_words(melds[-1].kind) if melds else Words("吃碰槓", "meld")
            title = ui("live_claim_over_chow" if state.claim_rank == 1 and o.claims else "live_win_over_meld",
                       seat=names[state.claim_seat], tile=taken.offer.zh, tile_en=the_tile(taken.offer), meld=kind.zh,
                       meld_en=kind.en)
        # side by side where the screen is wide (a laptop at the table), one under another on a phone
        said = [ident("live-claims-title", label(t(title), 13, bold=True, colour=GREY))] if title is not None else []
        return ft.Column([*said, ft.Row(rows, wrap=True, spacing=8, run_spacing=4,
                                        vertical_alignment=ft.CrossAxisAlignment.START)], spacing=8)

    def _open_win(self, c: WinChance) -> Callable[[], None]:
        def go() -> None:
            self.win, self.error = c, None
            # the form answers the table it was opened on
            self.win_at = self._shown.at if self._shown is not None else -1
            self.concealed.value = self.drawn.value = self.kongs.value = ""
            kept = self.game.draft(self.win_at, c.seat, c.kind.value) if self.game is not None else None
            if kept is not None:  # this form was begun before (the page reloaded, or on another phone)
                self.concealed.value, self.drawn.value, self.kongs.value = kept
            self.photo = self.photo_verdict = None
            self.photo_busy = self.photo_busy if self._photo_for is not None else None
            self.host.render()
            bring_into_view(self.host.page, "live-win-form")  # its hand field and header, not the palette under them
        return go

    # --- the winner's hand from a photo ----------------------------------------------------------------

    def _photo_sending(self, doing: Words | None) -> None:
        self.photo_busy = doing
        self.host.render()

    def _photo_refused(self, name: str, reason: Words) -> None:
        self.photo, self.photo_verdict = PhotoFailed(name, reason), None
        self.host.render()

    async def _pick_photo(self) -> None:
        if self.win is not None:
            self._photo_for = (self.win, self.win_at)  # the form this photo is for, whatever is open when it arrives
            await self.upload.pick()

    def _photo_received(self, path: Any, name: str) -> None:
        """(A worker thread.) Read the photo and, if its form is still open on the same table, fill the form from
        it and say whether the table takes it."""
        for_form, game = self._photo_for, self.game
        self._photo_for = None
        try:
            if for_form is None or game is None or self.photos is None:
                return
            chance, at = for_form
            self.photo_busy = ui("photo_reading")
            self.host.render()
            try:
                fill = fill_from_photo(self.photos.read_file(path, name), game.state, chance)
                verdict = None
                if isinstance(fill, HandFill):
                    verdict = game.check_win(chance.seat, chance.kind, fill.concealed, fill.drawn, fill.kongs, at=at)
            except Exception:  # the app's boundary: log it, say it, keep serving
                log.exception("reading a live win's photo failed")
                fill, verdict = PhotoFailed(name, ui("photo_error")), None
            if self.win is not chance or self.win_at != at:  # that form was closed meanwhile: nothing of it is shown
                return
            self.photo, self.photo_verdict = fill, verdict
            if isinstance(fill, HandFill):
                self.concealed.value, self.drawn.value, self.kongs.value = fill.concealed, fill.drawn, fill.kongs
                self._keep()
        finally:
            self.photo_busy = None
            self.host.render()

    def _typing(self) -> None:
        """Called from the field's handler: Flet sends the box's change when the handler returns."""
        if self.error is not None:  # a refusal of the hand as it stood, edited since: taken back, here and at the foot
            # (a review's mended hand read 「可以胡」 over a red 「不行：這樣桌上會有 5 張九萬」 about the hand before)
            self.error = None
            if self._error_line is not None:  # hidden, not redrawn: the page is not rebuilt under a finger typing
                self._error_line.visible = False
            self.host.clear_notice()
        if self.win is not None:
            self.typed_box.content = self._typed(self.win)
        self._keep()

    def _keep(self) -> None:
        """The win form's fields, kept at the table so that the form opened again starts from them."""
        if self.win is not None and self.game is not None and \
                self.game.claim_at(self.win_at, self.win.seat, self.win.kind) == self.win_at:  # (a form the table
            # has moved past keeps nothing: it would drop the forms begun on the table now)
            self.game.keep_draft(self.win_at, self.win.seat, self.win.kind.value,
                                 (self.concealed.value or "", self.drawn.value or "", self.kongs.value or ""))

    def _as_filled(self, p: HandFill) -> bool:
        """The win form's fields are as the photo filled them."""
        return (self.concealed.value or "", self.drawn.value or "", self.kongs.value or "") == (p.concealed, p.drawn,
                                                                                               p.kongs)

    def _typed(self, c: WinChance) -> ft.Control:
        """The tiles typed into the hand's field, as pictures, and how many of how many (a phone types codes)."""
        t = self.host.t
        game = self.game
        if c.flat and game is not None:  # paid flat: no hand typed, its tai said at once
            good, said = game.preview_win(c.seat, c.kind, "", "", self.kongs.value or "", at=self.win_at)
            return ident("live-win-preview", label(t(said), 13, bold=True, colour=FELT if good else ACCENT))
        try:
            typed = tiles_typed(self.concealed.value or "")
        except (NotationError, CopyLimitError) as bad:  # which character, and why (a review was told only "yet")
            return label(t(ui("live_typed_bad", why=getattr(bad, "zh", "") or str(bad), why_en=str(bad))), 12,
                         colour=ACCENT)
        last = drawn_last(c.kind, len(typed), not (self.drawn.value or "").strip(), c.shown)
        said = ui("live_typed_last_drawn", n=len(typed), want=c.shown, tile=typed[-1].zh, tile_en=typed[-1].said_en) \
            if last else ui("live_typed_over", n=len(typed), want=c.shown, extra=len(typed) - c.shown) \
            if len(typed) > c.shown else ui("live_typed_count", n=len(typed), want=c.shown)  # (red alone: a review)
        count = label(t(said), 12, colour=FELT if len(typed) == c.shown or last else ACCENT)
        row = ft.Row([count, *(tile(t, x.code, 22) for x in sorted(typed[:-1] if last else typed))], spacing=1, wrap=True,
                     run_spacing=2)
        if last:  # the tile drawn apart, after the hand, as it will be recorded
            row.controls += [label("＋", 12), tile(t, typed[-1].code, 22)]
        # a kong the table holds typed as its four tiles: why the count is over, said (as My hand and the Score tab say
        # how a kong is typed: kong_fours); the last typed may be the tile drawn
        wants = (c.shown, c.shown + 1) if c.kind is ev.WinKind.SELF_DRAW and not (self.drawn.value or "").strip() \
            else (c.shown,)
        fours = kong_fours(typed, len(typed), wants, each=4) if not last else []
        if fours:
            field = ui("live_win_kongs")
            said = ui("live_typed_kong", tiles="、".join(fours), tiles_en=", ".join(fours), field=field.zh,
                      field_en=field.en)
            return ft.Column([row, ident("live-typed-kong", label(t(said), 12, colour=ACCENT))], spacing=2)
        drawn_missing = c.kind is ev.WinKind.SELF_DRAW and not (self.drawn.value or "").strip() and not last
        if (len(typed) != c.shown and not last) or drawn_missing or game is None:
            return row
        # the hand complete: what recording it would give, before the tap (a player review)
        good, said = game.preview_win(c.seat, c.kind, self.concealed.value or "", self.drawn.value or "",
                                      self.kongs.value or "", at=self.win_at)
        return ft.Column([row, ident("live-win-preview", label(t(said), 13, bold=True, colour=FELT if good else ACCENT))],
                         spacing=2)

    def _photo_part(self, c: WinChance) -> list[ft.Control]:
        """The win form's photo button and what the last photo gave."""
        if not self.upload.available or c.kind not in READABLE_KINDS:
            return []
        t = self.host.t
        out: list[ft.Control] = [ft.Row([
            ident(ID_LIVE_PHOTO, ft.OutlinedButton(content=t(ui("live_photo")), icon=ft.Icons.PHOTO_CAMERA,
                                                   on_click=self._pick_photo, disabled=self.photo_busy is not None)),
            label(t(ui("live_photo_hint")), 12, colour=GREY)], spacing=8, wrap=True)]
        if self.photo_busy is not None:
            out.append(ft.Row([ft.ProgressRing(width=18, height=18), label(t(self.photo_busy), 13)]))
            return out
        p = self.photo
        if isinstance(p, PhotoFailed):
            out.append(ident(ID_LIVE_PHOTO_SAID, label(t(p.reason), 13, colour=ACCENT)))
        elif isinstance(p, HandFill):
            said = t(ui("live_photo_filled", name=p.name))
            if self._as_filled(p):
                # the table's verdict on the form as the photo filled it (once edited, the record button tells)
                verdict = ui("live_photo_fits") if self.photo_verdict is None else ui(
                    "live_photo_unfit", why=self.photo_verdict.zh, why_en=self.photo_verdict.en)
                said += t(SEP) + t(verdict)
            out.append(ident(ID_LIVE_PHOTO_SAID, label(said, 13, bold=True,
                                                       colour=FELT if self.photo_verdict is None else ACCENT)))
            if self._as_filled(p):  # what the reading says of the form as it filled it (mended, the form speaks)
                out += [label("• " + t(n), 12) for n in p.notes]
        if p is not None and p.image is not None:
            out += [photo(p.image, width=480, said=t(ui("photo_read_said"))), photo_legend(p.legend, t)]
        return out

    def _win_form(self, o: Offer, c: WinChance) -> ft.Control:
        t = self.host.t
        game = self.game
        assert game is not None
        now = game.claim_at(self.win_at, c.seat, c.kind)
        if now is not None and now != self.win_at:  # the same claim on the table now (a claim it outranks entered,
            self.win_at = now  # or the entries since taken back): the form records there, its draft kept there
            c = self.win = next((w for w in o.wins if w.seat == c.seat and w.kind is c.kind), c)
            kept = game.draft(now, c.seat, c.kind.value)
            if kept is not None:  # a draft kept there already (brought back by an undo, or typed on another phone):
                # taken, not overwritten (a review: a second phone's empty form deleted the hand an undo brought back)
                self.concealed.value, self.drawn.value, self.kongs.value = kept
            else:
                self._keep()
        name = game.state.players[c.seat]
        rows: list[ft.Control] = [label(t(ui("live_win_form", seat=name, kind=c.kind.zh, kind_en=c.kind.won_en)), 15,
                                        bold=True, colour=ACCENT)]
        if c.tile is not None:
            rows.append(ft.Row([label(t(ui("photo_win_tile", tile=Tile.from_code(c.tile).zh, tile_en=Tile.from_code(c.tile).en)), 13),
                                tile(t, c.tile, 30)]))
        gone = now is None
        if gone:  # the table moved past the form's tile: said plainly, with the way out (a review's form asked to
            # "look, then tap again", which never worked)
            rows.append(ident(ID_LIVE_WIN_GONE, label(t(game.claim_gone(self.win_at, c.seat, c.kind)), 14, bold=True,
                                                      colour=ACCENT)))
        else:  # a win on its tile entered since, beside which the table takes this one (multi_win)
            beside = game.claim_beside(self.win_at, c.seat, c.kind)
            if beside is not None:
                rows.append(ident(ID_LIVE_WIN_BESIDE, label(t(beside), 14, bold=True, colour=ACCENT)))
        flat = c.flat  # paid flat: no hand asked (a review's 七搶一 asked 16 tiles)
        if flat:
            rows.append(label(t(ui("live_win_flat")), 13))
        else:
            rows += self._photo_part(c)
            # as wide as the phone leaves inside the card: at 420 px the last tiles typed hid past a 390 px screen's
            # edge
            self.concealed.width = field_width(self.host.page)
            self.concealed.label = t(ui("live_win_concealed", n=c.shown))
            rows.append(ident(ID_LIVE_CONCEALED, self.concealed))
        if c.kind is ev.WinKind.SELF_DRAW:  # beside the hand, above the tiles: the tap after the hand's fills it
            self.drawn.label = t(ui("live_win_drawn"))
            rows.append(ident("live-drawn", self.drawn))
            rows.append(label(t(ui("live_win_drawn_hint", n=c.shown)), 12, colour=GREY))
        self.typed_box.content = self._typed(c)
        rows.append(ident("live-typed", self.typed_box))
        if not flat:
            rows.append(self._tile_keys())
        # (a photo may name a kong the table did not expect: it shows; not on a flat win, which reads none but the
        # kinds of the kongs lying face down)
        if c.hidden_kongs or (self.kongs.value and not flat):
            self.kongs.label = t(ui("live_win_kongs"))
            rows.append(ident("live-kongs", self.kongs))

        def record() -> None:
            self._do(lambda: game.win(c.seat, c.kind, self.concealed.value or "", self.drawn.value or "",
                                      self.kongs.value or "", at=self.win_at))
            if self.error is None:  # who pays whom, at the top: the form was low on the page, which stayed there
                bring_into_view(self.host.page, "live-end")  # (a host review, after a second winner's form)

        def cancel() -> None:
            self.concealed.value = self.drawn.value = self.kongs.value = ""
            self._keep()  # given up: the form opens empty next time
            self.win, self.error = None, None
            self.host.render()

        at = self.win_at

        def undo_since() -> None:  # the form stays open, on the table it was opened on again
            self._do(lambda: game.undo_since(at, seen=o.at, seat=c.seat), keep_dice=True, keep_form=True)  # (as
            # drawn, or refused)

        buttons: list[ft.Control] = [ident(ID_LIVE_WIN_OK, ft.Button(content=t(ui("live_win_ok")), on_click=record,
                                                                     height=FINGER, disabled=gone))]
        # (none where a nearer seat's win came first: undoing it would record the wrong winner, 截胡; nor where this
        # very win is on the table already; nor where the seat's own record since bars his win, 相公)
        since = game.since(at) if gone and game.first_win(at, c.seat, c.kind) is None and not game.recorded(
            at, c.seat, c.kind) and game.own_bar(at, c.seat) is None else None
        if since is not None:
            buttons.append(ident(ID_LIVE_UNDO_SINCE, ft.Button(content=t(undo_since_words(since[1])),
                                                               on_click=undo_since, height=FINGER)))
        buttons.append(ident("live-win-cancel", ft.OutlinedButton(content=t(ui("live_cancel")), on_click=cancel)))
        rows.append(ft.Row(buttons, spacing=8, wrap=True))
        also = game.undo_also(at, c.seat) if since is not None else None
        if also is not None:  # said before the tap (a review: another seat's 相公 went with it, unwarned)
            rows.append(ident(ID_LIVE_UNDO_ALSO, label(t(also), 13, bold=True, colour=ACCENT)))
        return ft.Column(rows, spacing=6)

    def _tile_keys(self) -> ft.Control:
        """Tiles to tap into the winner's hand (a phone types notation slowly)."""
        def full() -> bool:
            """The hand's field holds all its tiles: on a self-draw the next tap is the tile drawn."""
            c = self.win
            try:
                return c is not None and c.kind is ev.WinKind.SELF_DRAW and \
                    len(tiles_typed(self.concealed.value or "")) >= c.shown
            except (NotationError, CopyLimitError):
                return False

        def add(code: str) -> Callable[[], None]:
            def go() -> None:
                if full() and not (self.drawn.value or "").strip():  # (a review: where did the 17th tap go?)
                    self.drawn.value = code
                else:
                    self.concealed.value = typed_with(self.concealed.value or "", code)  # (竹3 then 4m: 竹3 4m)
                self._typing()  # the fields and the box alone: the palette stays, so quick taps all land
            return go

        def back() -> None:
            if full() and (self.drawn.value or "").strip():  # the tile drawn goes first, as it came last
                self.drawn.value = ""
            else:
                self.concealed.value = without_last_tile(self.concealed.value or "")
            self._typing()

        state = self.game.state if self.game is not None else None
        own = state.seats[self.win.seat].concealed if state is not None and self.win is not None else None

        def gone(code: str) -> bool:
            """Every copy is seen elsewhere on the table (the winner's own tiles the log knows aside): pale, as on
            the discard keys (a review found a 9p whose four lay in a kong bright here)."""
            face = Tile.from_code(code)
            return state is not None and own is not None and state.known[face] - own[face] >= 4

        rows: list[ft.Control] = [
            key_row([ident(f"live-key-{code}", tile_key(self.host.t, code, on_click=add(code),
                                                         opacity=0.3 if gone(code) else 1.0,
                                                         tooltip=tile_tip(self.host.t, code)))
                     for code in part])
            for part in PALETTE_ROWS]
        rows.append(ft.TextButton(content=self.host.t(ui("backspace")), on_click=back))
        return ft.Column(rows, spacing=KEY_GAP)

    def _others(self, o: Offer) -> list[ft.Control]:
        t = self.host.t
        game = self.game
        assert game is not None
        state = game.state
        names = state.players
        out: list[ft.Control] = []
        first = state.dealer if o.phase is Phase.FLOWERS else state.turn  # from the dealer, as the prompt says
        for seat in sorted(o.flower_seats, key=lambda s: (s - first) % 4):
            cells = []
            for code in FLOWER_CODES:
                seen = state.known[Tile.from_code(code)] > 0  # pale; a tap on it is refused with the reason
                cells.append(ident(f"live-flower-{seat}-{code}", tile_key(
                    t, code, opacity=0.3 if seen else 1.0, tooltip=tile_tip(t, code),
                    on_click=on_tap(self._do, partial(game.flower, seat, code, at=o.at)))))
            # the seat's name on a line of its own, so its eight flowers keep a finger's size on a phone
            out.append(ft.Column([label(t(ui("live_flower_by", seat=names[seat])), 13),
                                  key_row(cells)], spacing=2))
        buttons: list[ft.Control] = [
            ident(f"live-heavenly-{s}", ft.OutlinedButton(content=t(ui("live_heavenly", seat=names[s])),
                                                          on_click=on_tap(self._do, partial(game.declare_heavenly, s,
                                                                                            at=o.at))))
            for s in o.heavenly_seats]
        if o.concealed_kong:
            buttons.append(ident("live-ckong", ft.OutlinedButton(content=t(ui("live_ckong", seat=names[state.turn])),
                                                                 on_click=on_tap(self._do,
                                                                                 lambda: game.concealed_kong(at=o.at)))))
        for code in o.added_kongs:
            buttons.append(ident(f"live-addkong-{code}", ft.OutlinedButton(
                content=t(ui("live_addkong", seat=names[state.turn], tile=Tile.from_code(code).zh,
                             tile_en=Tile.from_code(code).en)),
                on_click=on_tap(self._do, partial(game.added_kong, code, at=o.at)))))
        if o.no_rob:
            replace = ui("live_no_win_replace" if o.phase is Phase.REPLACE else "live_no_rob")
            buttons.append(ident("live-no-rob", ft.Button(content=t(replace),
                                                          on_click=on_tap(self._do, lambda: game.no_rob(at=o.at)))))
        if o.flower_held is not None:  # the eighth flower shown: its replacement, where nobody wins on it now
            held_seat, held = o.flower_held
            face = Tile.from_code(held)
            buttons.append(ident("live-flower-replace", ft.Button(
                content=t(ui("live_flower_replace", seat=names[held_seat], tile=face.zh, tile_en=face.en)),
                on_click=on_tap(self._do, lambda: game.replace_flower(at=o.at)))))
        if o.draw_seat is not None:  # first: the tap before every self-draw or kong (under the pinned bar on a phone
            # in English, after the first go-around's 天聽 buttons: a player review)
            buttons.insert(0, ident("live-draw", ft.OutlinedButton(
                content=t(ui("live_draw", seat=names[o.draw_seat])), on_click=on_tap(self._do, lambda: game.draw(at=o.at)))))
        if o.exhaustive:
            buttons.append(ident("live-exhaustive", ft.Button(content=t(exhaustive_words(game.state)), on_click=on_tap(
                self._do, lambda: game.exhaustive(at=o.at)))))
        if o.decline_seat is not None:
            buttons.append(ft.OutlinedButton(content=t(ui("live_decline", seat=names[o.decline_seat])), on_click=on_tap(
                self._do, lambda: game.decline(at=o.at))))
        if buttons:  # above the flower rows: a draw before a self-draw or a kong is tapped far more often than a
            # flower, and under them on a phone it lay under the pinned bar, a scroll every time (a player review)
            out.insert(0, ft.Row(buttons, wrap=True, spacing=6, run_spacing=6))
        if o.penalties:
            out.append(self._penalties(o))
        return out

    _PENALTY = {"false_win": "live_false_win", "big": "live_big_count", "small": "live_small_count"}

    def _penalties(self, o: Offer) -> ft.Control:
        """詐胡 and 相公, each a second tap to record (one charges a player every other's payment, and sat a finger's
        width from the next: a review)."""
        game, t = self.game, self.host.t
        assert game is not None
        names = game.state.players
        asked = self.penalty if self.penalty is not None and self.penalty[2] == o.at else None
        small: list[ft.Control] = []
        if asked is not None:
            kind, seat, _ = asked
            claimed = game.claimed(seat) if kind == "false_win" else None
            what = ui(self._PENALTY[kind], seat=names[seat])
            if claimed is not None:
                what = ui("live_false_win_claimed", seat=names[seat], tai=claimed)
            elif kind == "false_win" and game.unknown_claim():  # the penalty is the tai claimed: say the 8 it takes
                what = ui("live_false_win_unknown", seat=names[seat])
            record = partial(game.false_win, seat, at=o.at) if kind == "false_win" else \
                partial(game.wrong_count, seat, kind == "big", at=o.at)
            small += [label(t(ui("live_penalty_sure", what=what.zh, what_en=what.en)), 13, bold=True, colour=ACCENT),
                      ident("live-penalty-yes", ft.Button(content=t(ui("live_penalty_yes")), on_click=lambda: self._do(
                          self._recorded(record)))),
                      ident("live-penalty-no", ft.TextButton(content=t(ui("live_penalty_no")),
                                                             on_click=lambda: self._ask_penalty(None)))]
        else:
            for s in o.penalties:
                for kind, key in self._PENALTY.items():
                    if kind != "false_win" and s not in o.wrong_counts:  # his 相公 would be refused (a review)
                        continue
                    small.append(ident(f"live-{kind}-{s}", ft.TextButton(
                        content=t(ui(key, seat=names[s])), on_click=on_tap(self._ask_penalty, (kind, s, o.at)))))
        return ft.ExpansionTile(title=label(t(ui("live_more")), 12, colour=GREY), expanded=asked is not None,
                                controls=[ft.Row(small, wrap=True, spacing=4)])

    def _ask_penalty(self, asked: tuple[str, int, int] | None) -> None:
        self.penalty = asked
        self.host.render()

    def _recorded(self, record: Callable[[], Words | None]) -> Callable[[], Words | None]:
        def entry() -> Words | None:
            self.penalty = None
            return record()
        return entry


def _typed_dice(text: str | None, which: Words) -> tuple[int, ...] | Words:
    """Dice as typed: "3 5 6", "3,5,6", "3+5+6" (as the table's entries write a throw) or "356" (full-width digits
    too); anything else is said back as typed (a review's "0 -1 3" came back as "0 1 3"), and one number that could be
    the dice's sum ("12") is asked for die by die. A throw as the tab itself writes it, "2+2+2 = 6", is read where
    its total is the dice's sum, and refused naming both where it is not; a throw with no die ("+++") is refused (a
    review had both refused with a bare "got:", and "+++" taken for no dice at all)."""
    raw = (text or "").strip()
    bad = ui("live_bad_dice", which=which.zh, which_en=which.en, got=raw)
    dice_part, eq, total = raw.replace("＝", "=").partition("=")
    if any(not (c.isdecimal() or c.isspace() or c in ",，、+＋") for c in dice_part) \
            or eq and not total.strip().isdecimal():  # (isdigit passed ² and ①, int not)
        return bad
    if not eq and raw.isdecimal() and len(raw) < 3 and 3 <= int(raw) <= 18:  # one number typed, "12": the sum
        return bad + ui("live_dice_not_total", total=int(raw))
    dice = tuple(int(c) for c in dice_part if c.isdecimal())
    if raw and not dice:
        return bad
    if eq and sum(dice) != int(total):
        return bad + ui("live_dice_sum_wrong", dice="+".join(map(str, dice)), sum=sum(dice), total=int(total))
    return dice


def _count_typed(text: str) -> int:
    """How many tiles a kept win form's hand holds (0 where it cannot be read yet)."""
    try:
        return len(tiles_typed(text))
    except (NotationError, CopyLimitError, ValueError):
        return 0
