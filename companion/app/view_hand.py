"""The My-hand tab: a hand typed or tapped, analysed by :func:`~companion.app.hand_model.analyse`."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

import flet as ft

from companion.app import browser_store
from companion.app.hand_model import (
    ADVICE_SHOWN,
    MELD_KEYS,
    HandFailed,
    HandPanel,
    KeptHand,
    after_discard,
    analyse,
    with_meld,
    with_seen,
    with_tile,
    without_last,
)
from companion.app.listening import LiveListener
from companion.app.live_model import LiveError, LiveGame
from companion.app.ui_kit import (
    ACCENT,
    CARD,
    FELT,
    FLOWER_CODES,
    GREY,
    ID_HAND_BACKSPACE,
    ID_HAND_FIELD,
    ID_HAND_HEADLINE,
    ID_HAND_SCORE,
    ID_HAND_SUMMARY,
    ID_HAND_TILES,
    ID_VISIBLE_FIELD,
    PALETTE_ROWS,
    TILE_W,
    Host,
    ident,
    key_row,
    label,
    meld_tiles,
    tile,
    tile_key,
    tile_tip,
)
from companion.app.words import SEP, Words, ui
from companion.hand import MeldKind
from companion.tiles import Tile

__all__ = ["HandTab", "EXAMPLE_HAND", "HAND_KEY"]

log = logging.getLogger(__name__)
HAND_KEY = "companion.hand"
"""Where a phone's browser keeps My hand's own (:class:`~companion.app.hand_model.KeptHand`)."""
MELD_KEY_PADDING = ft.Padding.symmetric(horizontal=16)
"""A meld key's padding beside its word: with Material's 24 px, 吃碰槓： and its four keys took 355 px, and on a 360 px
phone (340 px inside the page) 暗槓 wrapped onto a line of its own; now 291 (the keys 46 to 60 px wide)."""
EXAMPLE_HAND = "45m77p234789s kong:6666m@R pung:999p@O 1f"  # rules §7 Example 14: 45m waits on 3m only


RETURN_S = 1.0
"""How soon after a kong or a discard a field's focus is the one Flutter gives back to it (seen within the same
redraw), not the player's tap."""

class HandTab:
    def __init__(self, host: Host, live: LiveGame | None = None,
                 score: Callable[[str], None] | None = None) -> None:
        """``score(hand)``: score a complete hand (the Score tab, with its form of what the hand cannot show)."""
        self.host, self.live, self.score = host, live, score
        # kept across renders, so that typing keeps its place
        self.hand = ft.TextField(on_change=self._typed, border=ft.OutlineInputBorder(), width=560)
        self.visible = ft.TextField(on_change=self._typed, border=ft.OutlineInputBorder(), width=560)
        # the field the palette types into: the one focused last (a review could not tap in the tiles seen)
        self.target = self.hand
        self.hand.on_focus = lambda: self._aim(self.hand)
        self.visible.on_focus = lambda: self._aim(self.visible)
        self.hand.on_blur = lambda: self._left(self.hand)
        self.visible.on_blur = lambda: self._left(self.visible)
        # a kong's or a discard's button tapped takes the focus from the field holding it, and the redraw its play
        # makes drops the button: Flutter gives the focus back to that field, whose focus event is not the player's
        # tap (it turned the palette back to the tiles seen after a kong: the replacement tile went there, in a
        # browser with the accessibility tree on); the field that lost the focus, the one a play's button took it
        # from, and the one whose focus comes back
        self.left: ft.TextField | None = None
        self.lent: ft.TextField | None = None
        self.returning: ft.TextField | None = None
        self.played_at = 0.0  # when the play was (monotonic s): a focus coming back later is the player's own tap
        self.every_discard = False  # the player asked for every discard, not only the best few
        self.result = ft.Container()
        self.summary = ft.Container(height=40)  # two lines, whatever they say: the palette under it stays put
        # a meld key armed: the next tile tapped lays that meld down in the hand (and why a tile made none)
        self.meld: MeldKind | None = None
        self.meld_said: Words | None = None
        self.meld_box = ft.Container()
        # the hand as it was before a meld key took its tiles, and as the meld left it: the backspace puts the tiles
        # back, where it would only drop the meld, and the pair a pung took with it (a mistapped 碰 lost two tiles)
        self.laid: tuple[str, str] | None = None
        self.following: int | None = None  # the live table's seat whose view of the table fills the seen tiles
        self.visible_now = False  # the tab is on screen (set by the app as it draws)
        self.listener = LiveListener(host, live, self._changed)
        # the hand and the seat followed, kept in the phone's browser: a new page (the server restarted) starts
        # from them (held here: Flet drops a service nobody references)
        self.prefs = ft.SharedPreferences()
        self._kept: KeptHand | None = None  # what was last kept
        self._restored = False  # the kept hand was read back (or the player began anew): once a page

    # --- the hand kept on the phone ----------------------------------------------------------------------

    def _table(self) -> tuple[tuple[str, ...], str] | None:
        """The live table's players and file, once it is seated (a seat followed is kept between hands too)."""
        live = self.live
        if live is None or not live.opened:
            return None
        try:
            state = live.state
        except LiveError:
            return None
        return (state.players, live.path.name) if state.players else None

    def _game(self) -> str:
        """The game on the live table (:meth:`LiveGame.game_key`), once it is seated; else ``""``."""
        if self.live is None or self._table() is None:
            return ""
        try:
            return self.live.game_key()
        except LiveError:
            return ""

    def _remember(self) -> None:
        """Keep the hand, the tiles seen and the seat followed in this phone's browser."""
        self._restored = True  # the player's own since: nothing kept before replaces it
        table = self._table()
        seat = self.following
        player = table[0][seat] if table is not None and seat is not None and seat < len(table[0]) else ""
        kept = KeptHand(self.hand.value or "", self.visible.value or "", seat, player,
                        table[1] if table is not None else "", self._game())
        if kept == self._kept:
            return
        self._kept = kept
        try:
            self.host.page.run_task(self._keep, kept.text())
        except Exception:  # the page has gone
            log.debug("my hand not kept: the page has gone", exc_info=True)

    async def _keep(self, text: str) -> None:
        await browser_store.keep(self.prefs, HAND_KEY, text)  # (a browser keeping nothing: the hand lasts this page)

    async def _restore(self) -> None:
        """The hand kept in this browser, on a new page (:func:`~companion.app.browser_store.read_back`; not once
        answered meanwhile, on the page reconnecting)."""
        self.restore(KeptHand.read(await browser_store.read_back(self.prefs, HAND_KEY, lambda: self._restored)))

    def restore(self, kept: KeptHand | None) -> None:
        """Start from ``kept`` (the hand, the tiles seen, the seat followed again where the same player sits in it at
        the same table), unless the player has begun anew meanwhile; a hand kept beside another table, or another
        game on a file of the same name, is left alone (a hand typed with no table open comes back anywhere)."""
        if self._restored or kept is None or (self.hand.value or "").strip() or self.following is not None:
            return
        self._restored = True
        table = self._table()
        if kept.table and (table is None or table[1] != kept.table or self.live is None
                           or not self.live.is_game(kept.game)):  # typed at another table, or another game on
            return  # a file of the same name: neither the hand nor the tiles seen are this table's (a change review)
        self._kept = kept
        self.hand.value, self.visible.value = kept.hand, kept.seen
        seat = kept.follows(*table) if table is not None else None
        if seat is not None and self.live is not None:
            self.following = seat
            try:
                found = self.live.seen_by(seat)
            except LiveError:
                found = None
            if found is not None:  # what he sees now, the table having moved on meanwhile
                self.visible.value = found[1]
        if self.visible_now:
            self.host.render()
        else:
            self.analyse()

    # --- following the live table ------------------------------------------------------------------------

    def attach(self) -> None:
        """Hear the live table, so the tiles seen follow each entry while a seat is followed; on a new page, start
        from the hand kept in the phone's browser."""
        self.listener.attach()
        if not self._restored:  # (again on the page reconnecting: a reload may have cut the question off)
            try:
                self.host.page.run_task(self._restore)
            except Exception:  # the page has gone
                log.debug("my hand kept not asked for: the page has gone", exc_info=True)

    def detach(self) -> None:
        self.listener.detach()

    def _changed(self) -> None:
        """(The entering phone's thread.) The table moved: the followed seat's seen tiles, and the advice, anew."""
        live, seat = self.live, self.following
        if live is None or seat is None:
            return
        try:
            found = live.seen_by(seat)
        except LiveError:
            return
        if found is None or found[1] == (self.visible.value or ""):  # between hands, or nothing new seen
            return
        self.visible.value = found[1]
        if self.visible_now:
            self.listener.redraw()
        else:
            self.analyse()

    def _discard(self, code: str) -> Callable[[], None]:
        """The player plays the advice: the tile leaves the hand, which is then between turns (its waits show);
        the next tile drawn is tapped from the palette."""
        def go() -> None:
            after = after_discard(self.hand.value or "", code)
            if self.following is None:  # the tile is on the table now: a wait of its kind has one copy fewer left (a
                seen = (self.visible.value or "").strip()  # review: "9s 4 left" after the player's own 9s went out);
                self.visible.value = with_seen(seen, after, code)  # a seat followed hears its discard from the table
            self._play()
            self.set_hand(after)
        return go

    def _kong(self, after: str) -> Callable[[], None]:
        """The player makes the kong: the hand shows it laid down, waiting for the replacement tile to be tapped."""
        def go() -> None:
            self._play()
            self.set_hand(after)
        return go

    def _play(self) -> None:
        """A kong or a discard played: the palette's next tile is the one drawn, into the hand (a review tapped the
        replacement tile after a tile seen, and it went into the tiles seen)."""
        self.target, self.returning, self.lent = self.hand, self.lent, None
        self.played_at = time.monotonic()

    def _lend(self) -> None:
        """A play's button took the focus, from the field that just lost it (if any)."""
        self.lent, self.left = self.left, None

    def set_hand(self, text: str) -> None:
        self.hand.value = text
        self._typed()

    def _aim(self, field: ft.TextField) -> None:
        returning, self.returning, self.left, self.lent = self.returning, None, None, None
        given_back = field is returning and time.monotonic() - self.played_at < RETURN_S
        if not given_back:  # (the focus given back after a play: the palette stays on the hand; a tap on the field
            # later, where the browser gave none back, is the player's: a change review saw it swallowed once)
            self.target = field

    def _left(self, field: ft.TextField) -> None:
        self.left = field

    def _tap_into(self, text: str) -> None:
        """The palette's keys edit the field focused last."""
        self.left = self.returning = None
        self.target.value = text
        self._typed()

    def _typed(self) -> None:
        """A new hand or new tiles seen: the best few discards again."""
        self.every_discard = False
        self.analyse()
        self._remember()

    def _every_discard(self) -> None:
        self.every_discard = True
        self.analyse()

    def analyse(self) -> None:
        """Called from a handler: Flet sends the change when the handler returns."""
        found = analyse(self.hand.value or "", self.visible.value or "")
        self.result.content = self._result(found)
        self.summary.content = self._summary(found)

    def _summary(self, found: HandPanel | HandFailed) -> ft.Control | None:
        """The headline (and the best discard) right under the fields, two lines at most: on a phone the full answer
        lies below the palette, and a beginner review typed a hand and saw nothing change in view."""
        if not (self.hand.value or "").strip():
            return None
        t = self.host.t
        if isinstance(found, HandFailed):
            text, colour = t(found.reason), GREY
        else:
            text, colour = t(found.headline), ACCENT
            if found.choices:
                best = Tile.from_code(found.choices[0].tile)
                text += t(SEP) + t(ui("hand_best_discard", tile=best.zh, tile_en=best.said_en))
            text += t(SEP) + t(ui("hand_more_below"))
        return ident(ID_HAND_SUMMARY, ft.Text(text, size=13, weight=ft.FontWeight.BOLD, color=colour, max_lines=2,
                                              overflow=ft.TextOverflow.ELLIPSIS))

    def build(self) -> ft.Control:
        t = self.host.t
        self.hand.label, self.hand.hint_text = t(ui("hand_field")), t(ui("hand_hint"))
        self.visible.label, self.visible.hint_text = t(ui("visible_field")), t(ui("visible_hint"))

        def add(code: str) -> Callable[[], None]:
            def go() -> None:
                if self.meld is None or Tile.from_code(code).is_flower:  # a flower is never melded: tapped in, and
                    if self.meld is not None:  # the key let go (it was stuck saying so at each tap: a code review)
                        self._arm(None)
                    self._tap_into(with_tile(self.target.value or "", code))
                    return
                laid = with_meld(self.hand.value or "", self.meld, code)  # (a meld is the hand's, not the seen's)
                if isinstance(laid, Words):
                    self.meld_said = laid
                    self.meld_box.content = self._meld_keys()
                    return
                self._arm(None)
                self.target = self.hand  # the palette and its backspace go on in the hand, where the meld went
                before = self.hand.value or ""
                self.set_hand(laid)
                self.laid = (laid, before)
            return go

        def backspace() -> None:
            if self.laid is not None and self.target is self.hand and self.laid[0] == (self.hand.value or ""):
                self._tap_into(self.laid[1])  # the meld laid last goes, and the tiles it took come back
                self.laid = None
                return
            self._tap_into(without_last(self.target.value or ""))
            if self.laid is not None and not (self.hand.value or "").startswith(self.laid[0]):
                self.laid = None  # (kept while the tiles tapped after the meld go: a pung, a flower, two backspaces
                # dropped the meld and lost the pair it took, a change review)

        # a phone's nine tiles a row as wide as its screen allows (30 px with 2 px between were small targets)
        # and the flowers, which a review could only type (they set the seat flower's tai, not the waits)
        # each key named as the Live tab's are (the notation read aloud and shown on hover meant little: a review)
        # (nine to a row on a narrower phone too, narrower: :func:`key_row`)
        palette = [key_row([ident(f"hand-key-{code}", tile_key(t, code, on_click=add(code), tooltip=tile_tip(t, code)))
                            for code in part])
                   for part in (*PALETTE_ROWS, FLOWER_CODES)]
        buttons = ft.Row([ident(ID_HAND_BACKSPACE, ft.OutlinedButton(content=t(ui("backspace")), on_click=backspace)),
                          ft.OutlinedButton(content=t(ui("clear")), on_click=lambda: self._tap_into("")),
                          ft.OutlinedButton(content=t(ui("hand_example")), on_click=lambda: self.set_hand(EXAMPLE_HAND))],
                         spacing=8, wrap=True)
        self.meld_box.content = self._meld_keys()
        self.analyse()
        # the words the advice uses, said plainly (a beginner review met 向聽, 進張 and 搭子 unexplained)
        words = ident("hand-glossary", ft.ExpansionTile(title=label(t(ui("glossary_title")), 13, colour=GREY),
                                                        controls=[label(t(ui("glossary")), 13)]))
        return ft.Column([label(t(ui("hand_intro")), 13), *self._from_live(), ident(ID_HAND_FIELD, self.hand),
                          ident(ID_VISIBLE_FIELD, self.visible), self.summary, *palette, self.meld_box, buttons,
                          self.result, words],
                         spacing=8)

    def _arm(self, kind: MeldKind | None) -> None:
        """A meld key tapped: the next tile lays that meld down; the same key again, or the meld laid, disarms it."""
        self.meld = None if kind is self.meld else kind
        self.meld_said = None
        self.meld_box.content = self._meld_keys()

    def _meld_keys(self) -> ft.Control:
        """吃, 碰, 明槓, 暗槓: tapped, then a tile (a review could only type ``pung:999p``)."""
        t = self.host.t

        def key(kind: MeldKind) -> ft.Control:
            armed = kind is self.meld
            return ident(f"hand-meld-{kind.value}", ft.OutlinedButton(
                content=t(ui(f"hand_meld_{kind.value}")), on_click=lambda: self._arm(kind),
                style=ft.ButtonStyle(bgcolor=FELT if armed else None, color="#ffffff" if armed else None,
                                     padding=MELD_KEY_PADDING)))

        rows: list[ft.Control] = [ft.Row([label(t(ui("hand_meld_keys")), 13), *(key(k) for k in MELD_KEYS)],
                                         spacing=6, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
        if self.meld_said is not None:
            rows.append(ident("hand-meld-said", label(t(self.meld_said), 13, colour=ACCENT)))
        elif self.meld is not None:
            rows.append(ident("hand-meld-said", label(t(ui(f"hand_meld_armed_{self.meld.value}")), 13, colour=FELT)))
        return ft.Column(rows, spacing=4)

    def _from_live(self) -> list[ft.Control]:
        """During a live game: "I am this seat" fills the tiles seen on the table (and his melds, into an empty
        hand), so the copies left are counted from the table as it is."""
        live = self.live
        if live is None or not live.opened:  # no live game at this server yet: no table file is made for it
            return []
        try:
            state = live.state
        except LiveError:
            return []
        if not state.in_hand:
            return []
        t = self.host.t

        def take(seat: int) -> Callable[[], None]:
            def go() -> None:
                found = live.seen_by(seat)
                if found is None:
                    return
                own, seen = found
                if not (self.hand.value or "").strip():
                    self.hand.value = own + " " if own else ""
                self.visible.value = seen
                self.following = seat  # and from now on, each entry at the table
                self._remember()
                self.host.render()
            return go

        def stop() -> None:
            self.following = None
            self._remember()
            self.host.render()

        def seat_button(s: int) -> ft.Control:
            mine = s == self.following
            button = ft.Button(content=state.players[s], on_click=take(s), style=ft.ButtonStyle(
                bgcolor=FELT, color="#ffffff")) if mine else ft.OutlinedButton(content=state.players[s],
                                                                             on_click=take(s))
            return ident(f"hand-from-live-{s}", button)

        rows: list[ft.Control] = [ft.Row([label(t(ui("hand_from_live")), 13), *map(seat_button, range(4))],
                                         wrap=True, spacing=6)]
        if self.following is not None:
            rows.append(ft.Row([ident("hand-following", label(t(ui("hand_following", seat=state.players[
                self.following])), 12, colour=FELT)), ft.TextButton(content=t(ui("hand_follow_stop")),
                                                                   on_click=stop)], wrap=True, spacing=6))
        return rows

    def _result(self, result: HandPanel | HandFailed) -> ft.Control:
        t = self.host.t
        if isinstance(result, HandFailed):
            return ident(ID_HAND_HEADLINE, label(t(result.reason), 14, colour=GREY))
        rows: list[ft.Control] = [ident(ID_HAND_HEADLINE, label(t(result.headline), 16, bold=True, colour=ACCENT))]
        shown: list[ft.Control] = [tile(t, c, TILE_W["hand"]) for c in result.concealed]
        shown += [ft.Container(width=6)] + [meld_tiles(t, m) for m in result.melds]
        if result.flowers:
            shown += [ft.Container(width=6)] + [tile(t, c, TILE_W["meld"]) for c in result.flowers]
        rows.append(ident(ID_HAND_TILES, ft.Row(shown, spacing=1, wrap=True)))  # the hand as read
        for w in result.waits:
            # expanded, so a long reason wraps on a phone instead of running off its edge (a review)
            why = ft.Column([label(t(x), 13) for x in w.why], spacing=1, expand=True)
            rows.append(ft.Row([tile(t, w.tile, TILE_W["wait"]), label(t(ui("left", n=w.unseen)), 12), why],
                               spacing=10, vertical_alignment=ft.CrossAxisAlignment.START))
        if result.draws:
            rows.append(label(t(ui("closer")), 13, bold=True, colour=FELT))
            rows.append(ft.Row([ft.Column([tile(t, c, 26), label(str(n), 11)], spacing=0, tight=True,
                                          horizontal_alignment=ft.CrossAxisAlignment.CENTER)
                                for c, n in result.draws], spacing=4, wrap=True))
        if self.score is not None and result.complete:
            score, text = self.score, self.hand.value or ""
            rows.append(ident(ID_HAND_SCORE, ft.Button(content=t(ui("hand_score")), on_click=lambda: score(text),
                                                       style=ft.ButtonStyle(bgcolor=FELT, color="#ffffff"))))
        discards: list[ft.Control] = []
        kongs: list[ft.Control] = []
        if result.choices:
            discards.append(label(t(ui("choices")), 13, bold=True, colour=FELT))
            offered = result.choices if self.every_discard else result.choices[:ADVICE_SHOWN]
            for c in offered:
                play = ident(f"hand-discard-{c.tile}", ft.OutlinedButton(content=t(ui("hand_discard")),
                                                                         on_click=self._discard(c.tile),
                                                                         on_focus=self._lend))
                discards.append(ft.Row([tile(t, c.tile, 26), ft.Container(label(t(c.reason), 13), expand=True), play],
                                   spacing=8, vertical_alignment=ft.CrossAxisAlignment.START))
            if len(offered) < len(result.choices):  # a learner may want to see why his own pick is worse
                discards.append(ident("hand-every-discard", ft.TextButton(
                    content=t(ui("hand_every_discard", n=len(result.choices) - len(offered))),
                    on_click=self._every_discard)))
            discards.append(label(t(ui("hand_discard_hint")), 12, colour=GREY))
        if result.kongs:  # a kong is a play of its own: the four tiles go down and a replacement is drawn
            kongs.append(label(t(ui("hand_kongs")), 13, bold=True, colour=FELT))
            for k in result.kongs:
                play = ident(f"hand-kong-{k.tile}", ft.OutlinedButton(
                    content=t(ui("hand_added_kong" if k.added else "hand_concealed_kong")),
                    on_click=self._kong(k.hand), on_focus=self._lend))
                kongs.append(ft.Row([tile(t, k.tile, 26), ft.Container(label(t(k.reason), 13), expand=True), play],
                                   spacing=8, vertical_alignment=ft.CrossAxisAlignment.START))
            kongs.append(label(t(ui("hand_kong_hint")), 12, colour=GREY))
        # a kong better than any discard comes first (its line says so); else after the discards
        rows += kongs + discards if any(k.better for k in result.kongs) else discards + kongs
        return ft.Container(ft.Column(rows, spacing=6), bgcolor=CARD, padding=12, border_radius=8)
