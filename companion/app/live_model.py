"""The Live tab's model: a real game entered at the table, event by event, into the table service.

Plain Python, no flet. One :class:`LiveGame` per server, shared by every phone at the table: its events live in
the table service's SQLite log (committed before they are acknowledged, so a crash loses nothing entered), and
every entry is checked by the tracker, which refuses an impossible table with its reason in both languages.

Nobody at a real table sees the others' tiles, so the deal, the draws and the replacements are logged face down
(``0x``) and only what is shown is named: discards, flowers, claims, the winner's hand. One tap records what
players do; what must come with it is logged with it (the next seat's draw before his discard, the replacement
after a kong, the deal after the dealer's dice), and undo takes the whole tap back.

:meth:`LiveGame.offer` says what may happen now; each offer was tried against the tracker, so a button the view
shows is one the table accepts (a win still needs the winner's tiles, which the tracker checks on entry).
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

from companion.app.house_rules import with_rules
from companion.app.live_offer import (
    SHOWN_NOTE,
    UNSEEN,
    Offer,
    added_kong_tap,
    dealer_after,
    eighth_flower_tap,
    false_win_penalty,
    flower_tap,
    flower_unreplaced,
    kong_tap,
    no_win_why,
    offer_for,
    refusal,
    replacement_tap,
    wrong_count_refusal,
)
from companion.app.rule_sets_model import not_there, unusable
from companion.app.table_model import RECENT_SHOWN, TableFrame, describe, table_frame
from companion.app.words import Words, asked, ui
from companion.english import listed, the_tile
from companion.files import NotAFolderError, in_the_way_kind, in_the_way_said, make_folder, write_whole
from companion.game import events as ev
from companion.game.check import replay, step
from companion.game.evolve import FLOWER_KEPT_PAST, terms_ahead
from companion.game.rotation import capped_streak
from companion.game.service import (
    Refused,
    ServiceError,
    Subscribers,
    TableService,
    dangling_table,
    looping_table,
)
from companion.game.session import dealer_takes_part, ledger_of, switches_for
from companion.game.state import OutcomeKind, Phase, TableState, offset, window
from companion.game.switches import FirstDealer, MultiWin, SwitchError, WrongCount
from companion.game.text import IllegalEvent, msg
from companion.game.view import seen_on_table
from companion.game.wall import count_seat
from companion.hand import MeldKind
from companion.names import name_key, shown_name
from companion.rules.profiles import ProfileError, load_profile, os_error_zh
from companion.rules.profiles._store import rules_text, valid_id
from companion.tiles import (
    CopyLimitError,
    NotationError,
    Tile,
    format_tiles,
    parse_tiles,
    typed_without_last,
)

__all__ = ["LiveGame", "LiveError", "default_table_path", "effective_events", "tiles_typed", "without_last_tile", "EXPORT_PATH", "not_saved"]

class LiveError(RuntimeError):
    """The live table cannot be opened (its file is in use by another companion, or unusable)."""

    def __init__(self, words: Words) -> None:
        self.words = words
        super().__init__(f"{words.en} / {words.zh}")


log = logging.getLogger(__name__)
_PAST_VERSIONS = range(1, 4)
"""The event schema versions whose number went into a kept form's or claim's digest, before the digests left it out
(while 3 was the latest)."""


GAME_KEY_EVENTS = 16  # the first events that tell one game from another on a file of the same name


def _content(event: ev.Event, version: int | None = None) -> dict[str, Any]:
    """What an event says, for a digest: its fields without the schema version (``version``: with that one, as the
    digests of the versions before took it) and without the rules it was checked under (a stamp says how it was
    checked, not what happened; the digests kept before events were stamped lack it)."""
    out = ev.to_dict(event)
    del out["rules_version"]
    if version is None:
        del out["v"]
    else:
        out["v"] = version
    return out

REOPEN_SECONDS = 10.0
"""How long a table file that could not be opened (in use by another companion) is left before it is tried again."""
INFERRED = ev.EventSource.INFERRED
EXPORT_PATH = "/export/table.jsonl"
"""Where the server offers the live game as JSON lines (``server.LiveExport``), for the players to keep."""
SINCE_SHOWN = 4
"""The entries since a win form's table that its notice names: the last ones (a stretch left out said with how many it
holds), or, where the form's hand has ended since, the entry that ended it and the last ones after it."""
UNDO_SINCE_MOST = 12
"""The most taps a win form's undo takes back (:meth:`LiveGame.undo_since`): a form left open longer than that
says so and offers Cancel only (a review's form, left open for a hand, offered to undo 67 entries with one tap)."""


def default_table_path() -> Path:
    """Where the live table is kept unless ``companion app --table`` names a file: the user's data folder, the one
    the calibrated sets and house profiles are kept in (``$COMPANION_DATA_DIR``, ``%APPDATA%`` on Windows; a review
    found the table alone ignoring them)."""
    from companion.rules.profiles._store import data_dir

    return data_dir() / "table.sqlite"


def _case_twins(names: Sequence[str]) -> tuple[str, str] | None:
    """The first two of ``names`` that show apart only by their letter case ("Bob", "bob"), as they show; None where
    none are (names that show alike outright are the log's own refusal, :func:`companion.game.check.visible_name`)."""
    shown = [shown_name(n) for n in names]
    for i, one in enumerate(shown):
        for two in shown[i + 1:]:
            if one != two and name_key(one) == name_key(two):
                return one, two
    return None


class LiveGame:
    """A live table backed by a :class:`TableService` at ``path`` (opened on first use)."""

    def __init__(self, path: str | Path, seed: int | None = None, replaying: str | None = None) -> None:
        self.path = Path(path)
        self.replaying = replaying  # the LOG the app replays (named where no live entry can be saved), if any
        self._service: TableService | None = None
        self._lock = threading.RLock()
        self._listeners = Subscribers("live table")
        self._rng = random.Random(seed)
        # what the win forms hold so far, by (the table's event count, seat, kind of win), for the present table
        # only; kept beside the table's file too (read back when first asked for), so a restart loses none
        self._drafts: dict[tuple[int, int, str], tuple[str, str, str]] | None = None
        self._digests: tuple[int, str] = (0, hashlib.sha256().hexdigest())  # the log's first n events' digest
        self._refused_at: float | None = None  # when :attr:`opened` last failed to open the file left on disk
        self._claims: dict[int, tuple[tuple[int, str], int]] | None = None  # seat -> (the table then, the tai his
        # refused win claimed): see :meth:`_table_now`; kept beside the table's file too, read back when first asked for
        self._then: tuple[int, TableState, Offer] | None = None  # an earlier table a win form was opened on, and its
        # offer (:meth:`_table_at`)
        # the undo path of a form's table (:meth:`_since_path`), by the log it was played out on (its length, its last
        # event) and the form's table: every render of a stale form asks, under the lock
        self._since_kept: tuple[tuple[int, ev.Event | None, int], _Since] | None = None
        # the effective events of the log's first n events, by n and the n-th (:meth:`_effective`): a stale form's
        # render worked them out ten times over, 18 ms a render at 6300 events (a review)
        self._effective_kept: dict[tuple[int, ev.Event | None], list[ev.Event]] = {}

    # --- a win form being filled in ------------------------------------------------------------------

    @property
    def drafts_path(self) -> Path:
        return self.path.with_name(self.path.name + ".drafts.json")

    def _read_drafts(self) -> dict[tuple[int, int, str], tuple[str, str, str]]:
        if self._drafts is None:
            self._drafts = {}
            try:
                for row in json.loads(self.drafts_path.read_text(encoding="utf-8")):
                    at, seat, kind, fields = int(row[0]), int(row[1]), str(row[2]), tuple(map(str, row[3]))
                    if len(row) > 4 and str(row[4]) != self._digest(at) and str(row[4]) not in self._past_digests(at):
                        continue  # another table's, kept under this name (a review's new game opened a form filled
                        # with last week's tiles)
                    if len(fields) == 3:
                        self._drafts[at, seat, kind] = (fields[0], fields[1], fields[2])
            except FileNotFoundError:
                pass
            except (OSError, ValueError, TypeError, IndexError) as bad:  # damaged: forms start empty, the game is safe
                log.warning("win forms begun not read from %s: %s", self.drafts_path, bad)
        return self._drafts

    def _write_drafts(self) -> None:
        """The drafts to a temporary file beside the table's, then renamed over the old: a crash leaves one whole."""
        rows = [[at, seat, kind, list(fields), self._digest(at)]
                for (at, seat, kind), fields in (self._drafts or {}).items()]
        path = self.drafts_path
        try:
            if not rows:
                path.unlink(missing_ok=True)
                return
            write_whole(path, json.dumps(rows, ensure_ascii=False).encode("utf-8"))
        except OSError as bad:  # a form begun is a convenience: the game itself is in the table's file
            log.warning("win forms begun not kept in %s: %s", path, bad)

    def _digest(self, n: int) -> str:
        """A digest of the table's first ``n`` events: a form begun is the table's it was begun on, not another's kept
        later under the same file name. ``""`` where the log is shorter."""
        events = self.events() if self._service is not None or self.path.exists() else []  # (no table made for it)
        if n > len(events):
            return ""
        done, digest = self._digests
        if done > n:
            done, digest = 0, hashlib.sha256().hexdigest()
        for e in events[done:n]:  # (a chain: the digest of n events from that of fewer, the log only grows)
            digest = hashlib.sha256(digest.encode() + json.dumps(_content(e), sort_keys=True).encode()).hexdigest()
        self._digests = (n, digest)
        return digest

    def _past_digests(self, n: int) -> set[str]:
        """The digests of the first ``n`` events as versions before this one took them, with the event schema's
        version inside (``"v": 2``): a form begun before an upgrade is still this table's (a review's was dropped)."""
        events = self.events()
        if n > len(events):
            return set()
        found = set()
        for version in _PAST_VERSIONS:
            digest = hashlib.sha256().hexdigest()
            for e in events[:n]:
                body = json.dumps(_content(e, version), sort_keys=True).encode()
                digest = hashlib.sha256(digest.encode() + body).hexdigest()
            found.add(digest)
        return found

    def game_key(self) -> str:
        """What tells this game from another kept later under the same file name (next week's table.sqlite, the same
        players seated): its first events (at most :data:`GAME_KEY_EVENTS`), counted and digested; ``""`` before
        any. My hand binds the hand kept on a phone to it (a change review: last week's hand came back)."""
        with self._lock:
            n = min(len(self.events()), GAME_KEY_EVENTS)
            return f"{n}:{self._digest(n)}" if n else ""

    def is_game(self, key: str) -> bool:
        """Whether ``key`` (a :meth:`game_key` kept, maybe while the log was shorter, or by a version before this
        one) is this game's."""
        n, _, digest = key.partition(":")
        if not n.isdigit() or not 0 < int(n) <= GAME_KEY_EVENTS:
            return False
        with self._lock:
            return int(n) <= len(self.events()) and (digest == self._digest(int(n))
                                                     or digest in self._past_digests(int(n)))

    def keep_draft(self, at: int, seat: int, kind: str, fields: tuple[str, str, str]) -> None:
        """What the win form of ``seat`` (``kind`` of win) on the table at event ``at`` holds so far: the hand, the
        tile drawn, the face-down kongs. The same form opened again, on a phone that reloaded the page, on another
        one, or after the laptop restarted the app, starts from it. Empty fields forget it; forms of an earlier table
        are dropped, and a form of an earlier table (left open on a phone) keeps nothing."""
        with self._lock:
            drafts = self._read_drafts()
            if any(k[0] > at for k in drafts):  # a form left open on a phone the table has moved past
                return
            kept = {k: v for k, v in drafts.items() if k[0] == at}
            if any(fields):
                kept[at, seat, kind] = fields
            else:
                kept.pop((at, seat, kind), None)
            if kept != drafts:
                self._drafts = kept
                self._write_drafts()

    def draft(self, at: int, seat: int, kind: str) -> tuple[str, str, str] | None:
        with self._lock:
            return self._read_drafts().get((at, seat, kind))

    # --- the store -----------------------------------------------------------------------------------

    def open(self) -> None:
        with self._lock:
            if self._service is not None:
                return
            # what is wrong said by name, with what the host can do, and the replay only where there is one (`companion
            # app LOG` serves it where no table file can be kept: a change review read two full paths on a phone)
            still = ui("live_replay_still", log=Path(self.replaying).name) if self.replaying else Words("", "")
            try:
                make_folder(self.path.parent)
                if looping_table(self.path) is not None:
                    raise LiveError(ui("live_table_loops", file=self.path.name) + still)
                if dangling_table(self.path) is not None:  # (a path and "cannot open its lock file": a change review)
                    log.warning("%s", dangling_table(self.path))  # (where it leads: the host's alone)
                    raise LiveError(ui("live_table_dangling", file=self.path.name) + still)
                self._service = TableService(self.path)
            except NotAFolderError as bad:  # (a data folder that is a file)
                en, zh = in_the_way_said(bad.file, by_name=True)
                advice = {"file": "live_no_folder", "loop": "live_no_folder_loop",  # ("make it a folder again" of a
                          "link": "live_no_folder_link"}[in_the_way_kind(bad.file)]  # drive not mounted: a review)
                raise LiveError(ui(advice, why=zh, why_en=en, file=self.path.name, name=bad.file.name) + still) from bad
            except (ServiceError, OSError) as bad:
                en, zh = _said(bad)
                raise LiveError(Words(f"無法開啟牌局檔 {self.path.name}：{zh}",
                                      f"cannot open the table file {self.path.name}: {en}")) from bad

    def close(self) -> None:
        with self._lock:
            self._then = self._since_kept = None
            self._effective_kept = {}
            if self._service is not None:
                self._service.close()
                self._service = None

    @property
    def opened(self) -> bool:
        """Is there a table yet: opened since the server started, or its file kept from an earlier run (opened
        now, so that after a restart the Ledger and My hand show the game before anyone opens the Live tab)? A
        table never used has no file: none is made for asking."""
        if self._service is None and self.path.exists():
            now = time.monotonic()
            if self._refused_at is not None and now - self._refused_at < REOPEN_SECONDS:
                return False  # tried a moment ago (every phone's redraw asks): the Live tab says why
            try:
                self.open()
                self._refused_at = None
            except LiveError as bad:  # in use by another companion, or unusable
                if self._refused_at is None:
                    log.warning("%s", bad.words.en)
                self._refused_at = now
                return False
        return self._service is not None

    @property
    def service(self) -> TableService:
        self.open()
        assert self._service is not None
        return self._service

    @property
    def state(self) -> TableState:
        return self.service.state

    def events(self) -> list[ev.Event]:
        return self.service.events()

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """``listener()`` after every change (on the thread that made it)."""
        return self._listeners.add(listener)

    # --- what the table shows -------------------------------------------------------------------------

    def frame(self) -> TableFrame:
        """The table as everyone may see it: hands face down, the latest events, a hand's end scored."""
        state = self.state
        effective = effective_events(self.events())
        captions: list[Words] = []
        s = state
        for e in reversed(effective[-RECENT_SHOWN:]):
            before = s.prev if s.prev is not None else TableState()
            captions.append(describe(e, before, show=False, after=s))
            s = before
        caption = captions[0] if captions else ui("live_empty")
        # hands stay face down; a winner's, once shown, is on the table for all to see
        frame = table_frame(state, caption, tuple(captions) or (caption,), len(effective), len(effective),
                            show_hands=None)
        end = frame.end
        if end is not None and state.outcome is not None and \
                state.dealer not in {w.seat for w in state.outcome.winners} and \
                any(w.seat == state.dealer for w in offer_for(state, len(self.events())).wins):
            # 一炮多響 with the dealer not yet entered: the next deal is so unless he wins on the tile as well
            # with the streak his win gives him (a review read "C deals, streak 0 … unless C wins: then C deals
            # again" after a 詐胡: the deal stays with him either way, his streak is what changes)
            later = ui("next_deal_unless_dealer", dealer=state.players[state.dealer], streak=dealer_keeps(state))
            frame = replace(frame, end=replace(end, next_deal=end.next_deal + later))
        return frame

    def seen_by(self, seat: int) -> tuple[str, str] | None:
        """For the My hand tab, what ``seat`` has on the table during a hand: his melds and flowers (notation, his
        concealed kongs left out: only he knows their kind) and every other tile he can see (all the discards, the
        others' melds but their concealed kongs), or None between hands."""
        state = self.state
        if not state.in_hand or not 0 <= seat < 4:
            return None
        st = state.seats[seat]
        own = " ".join([str(m) for m in st.melds if m.kind is not MeldKind.CKONG]
                       + ([format_tiles(st.flowers)] if st.flowers else []))
        return own, format_tiles(sorted(seen_on_table(state, seat)))

    def offer(self) -> Offer:
        with self._lock:
            events = self.events()
            state, at = self.state, len(events)
        return offer_for(state, at, events)

    def older_rules(self) -> Words | None:
        """What ``companion replay`` says of the table's events let in under the older rules of their stamp (a saved
        log imported by ``companion app --from-log``): how many, and the first by its stored number; None where
        there is none (:meth:`~companion.game.service.TableService.older_rules`)."""
        said = self.service.older_rules()  # (noted by the service as it replayed the file: no replay here)
        return Words(said.zh, said.en) if said is not None else None

    def snapshot(self) -> tuple[Offer, TableFrame]:
        """The offer and the table of one and the same moment (a screen draws both)."""
        with self._lock:
            return replace(self.offer(), undo_what=self.undo_what()), self.frame()

    # --- entries (each returns None when logged, or why not) -----------------------------------------

    def start(self, players: Sequence[str], profile: str, base: int, per_tai: int, at: int | None = None,
              house: Mapping[str, str] | None = None) -> Words | None:
        """定位: the players from East, the rule set, the stakes, and the house rules the table plays otherwise
        (:data:`companion.app.house_rules.HOUSE_RULES`: rule -> option)."""
        names = tuple(p.strip() for p in players)
        twins = _case_twins(names)
        if twins is not None:  # the log would seat them (its rule keeps a name's case), the ledger then read
            # "Bob pays bob" (a game-night review): the app asks for names a table can tell apart
            return ui("live_names_case", one=twins[0], two=twins[1])
        try:
            switches = with_rules(switches_for(profile), house or {})
        except ProfileError as bad:
            if valid_id(profile):  # a set of the dropdown, damaged or deleted since: in the app's words, by its name
                # (a review: the store's "profile file '/…/home8.toml': …", the whole path, reached the page)
                return unusable(profile) or not_there(profile)
            said = msg("profile", name=profile, why=bad.zh, why_en=str(bad))  # (the Chinese said the English reason)
            return Words(said.zh, said.en)
        except SwitchError as bad:
            return Words(bad.zh or str(bad), str(bad))
        # the rule set's values are kept in the log: a house file edited or removed later, or a new version of the
        # program with other values, changes no hand played (a money review: raising a file's tai cap repriced every
        # finished hand; removing it left the table unopenable)
        chosen = load_profile(profile)  # (loaded above; a key loads the values a table kept, a path a house file)
        return self._enter(at, [ev.Seated(players=names, switches=switches, base=base, per_tai=per_tai,
                                          profile=chosen.id, rules=rules_text(chosen))])

    def change_terms(self, base: int, per_tai: int, rules: Mapping[str, str] | None = None,
                     at: int | None = None) -> Words | None:
        """改底台、改規矩 between hands: the stakes and the house rules (rule -> option, as the table plays them now
        where not given) from the next hand on; the hands played keep theirs."""
        try:
            switches = with_rules(terms_ahead(self.state)[2], rules or {})  # (after a change already made)
        except SwitchError as bad:
            return Words(bad.zh or str(bad), str(bad))
        return self._enter(at, [ev.StakesChanged(base=base, per_tai=per_tai, switches=switches)])

    def choose_dealer(self, dice: Sequence[int] = (), second: Sequence[int] = (), at: int | None = None) -> Words | None:
        """起莊: the first dealer by the throws the profile's method uses (East deals without them)."""
        state = self.state
        method = state.switches.first_dealer
        if method is FirstDealer.EAST_DEALS:
            return self._enter(at, [ev.DealerChosen(dealer=0)])
        bad = _bad_dice(dice) or (_bad_dice(second, ui("live_second")) if method is FirstDealer.TWO_THROWS else None)
        if bad is not None:
            return bad
        dealer = count_seat(0, sum(dice))
        if method is FirstDealer.TWO_THROWS:
            dealer = count_seat(dealer, sum(second))
        return self._enter(at, [ev.DealerChosen(dealer=dealer, dice=tuple(dice),
                                                second_dice=tuple(second) if method is FirstDealer.TWO_THROWS else ())])

    def roll(self) -> tuple[int, int, int]:
        """Three dice for a table without any (the dice helper)."""
        return (self._rng.randint(1, 6), self._rng.randint(1, 6), self._rng.randint(1, 6))

    def throw(self, dice: Sequence[int], at: int | None = None) -> Words | None:
        """The dealer's throw breaks the wall; the deal that follows is logged face down with it."""
        bad = _bad_dice(dice)
        if bad is not None:
            return bad
        state = self.state
        if state.phase is Phase.HAND_OVER or state.phase is Phase.DICE:
            dealer = dealer_after(state)
        else:
            dealer = state.dealer
        hands = tuple((UNSEEN,) * (17 if s == dealer else 16) for s in range(4))
        return self._enter(at, [ev.DiceRolled(dice=tuple(dice)), ev.Dealt(hands=hands, source=INFERRED)])

    def discard(self, tile: Tile | str, ready: bool = False, at: int | None = None) -> Words | None:
        t = _tile(tile)
        if isinstance(t, Words):
            return t
        offer = self.offer()
        if offer.discard_seat is None:
            return ui("live_no_discard")
        seat = offer.discard_seat
        events: list[ev.Event] = [ev.Drew(seat=seat, source=INFERRED)] if offer.draws_first else []
        if ready:
            if offer.ready_kind is None:
                return ui("live_no_ready", seat=self.state.players[seat])
            events.append(ev.DeclaredReady(seat=seat, kind=offer.ready_kind))
        events.append(ev.Discarded(seat=seat, tile=t))
        return self._enter(at, events)

    def declare_heavenly(self, seat: int, at: int | None = None) -> Words | None:
        """天聽: a seat ready on his dealt hand declares it before his first draw."""
        return self._enter(at, [ev.DeclaredReady(seat=seat, kind=ev.ReadyKind.HEAVENLY)])

    def draw(self, at: int | None = None) -> Words | None:
        seat = self.offer().draw_seat
        if seat is None:
            return ui("live_no_draw")
        return self._enter(at, [ev.Drew(seat=seat)])

    def flower(self, seat: int, tile: Tile | str, at: int | None = None) -> Words | None:
        """A flower shown by ``seat``: laid, and its replacement drawn face down; the eighth, where a win may take
        it on the spot (八仙過海, 七搶一), is entered drawn and shown, its replacement a tap of its own
        (:meth:`replace_flower`), so that the win is entered on the hand as it stands (a hand that drew no
        replacement: spec §4.2, §4.4)."""
        t = _tile(tile)
        if isinstance(t, Words):
            return t
        with self._lock:
            if at is not None and at != len(self.events()):
                return ui("live_moved")
            state = self.state
            spot = eighth_flower_tap(state, seat, t, self.events())
            return self._enter(at, spot if spot is not None else flower_tap(state, seat, t))

    def replace_flower(self, at: int | None = None) -> Words | None:
        """Nobody wins on the eighth flower on the spot: its seat lays it and draws the replacement (face down)."""
        held = flower_unreplaced(self.state)
        if held is None:
            return ui("live_no_flower_held")
        return self._enter(at, replacement_tap(*held))

    def claim(self, seat: int, kind: MeldKind, tiles: Sequence[str] = (), at: int | None = None) -> Words | None:
        state = self.state
        w = window(state)
        if w is None or w.offer is None or w.phase is not Phase.CLAIM:
            return ui("live_no_claim")
        t = w.offer
        if kind is MeldKind.CHOW:
            # each code read, the one not understood named (one raised a NotationError; a face-down tile or a
            # flower, and two tiles or four, said "there is no tile to claim now": an evening's review)
            read_all: list[Tile] = []
            for code in tiles:
                read = _tile(code) if isinstance(code, str | Tile) and code != "" else None
                if isinstance(read, Tile) and read.is_flower:  # understood, but no part of a chow (a review read
                    return ui("live_chow_flower", tile=read.zh, tile_en=read.en)  # 「看不懂吃的牌：春」)
                if isinstance(read, Tile) and not read.is_known:
                    return ui("live_chow_face_down")
                if not isinstance(read, Tile):
                    said = _given(code)  # in words, never Python's repr (a review read 「…：None」)
                    return ui("live_chow_bad_tile", tile=said.zh, tile_en=said.en)
                read_all.append(read)
            others = list(read_all)
            if t in others:
                others.remove(t)
            if len(tiles) != 3 or len(others) != 2:  # named as tiles, the article as English gives it (a review read
                # "the 5 Characters", "3m 4m")
                got = Words("、".join(x.zh for x in read_all), listed([the_tile(x) for x in read_all])) \
                    if read_all else ui("live_chow_nothing")
                return ui("live_chow_tiles", tile=t.zh, tile_en=t.en, got=got.zh, got_en=got.en)
            return self._enter(at, [ev.Chowed(seat=seat, tiles=tuple(others), tile=t)])
        if kind is MeldKind.PUNG:
            return self._enter(at, [ev.Punged(seat=seat, tile=t)])
        if kind is MeldKind.KONG:
            return self._enter(at, kong_tap(state, ev.ExposedKong(seat=seat, tile=t), seat))
        return ui("live_no_claim")

    def concealed_kong(self, tile: Tile | str | None = None, at: int | None = None) -> Words | None:
        """暗槓 by the seat to act; ``None`` when the table cannot see its kind (face down)."""
        t = UNSEEN if tile is None else _tile(tile)
        if isinstance(t, Words):
            return t
        state = self.state
        seat = state.dealer if state.phase is Phase.FLOWERS else state.turn
        return self._enter(at, kong_tap(state, ev.ConcealedKong(seat=seat, tile=t), seat))

    def added_kong(self, tile: Tile | str, at: int | None = None) -> Words | None:
        t = _tile(tile)
        if isinstance(t, Words):
            return t
        return self._enter(at, added_kong_tap(self.state, ev.AddedKong(seat=self.state.turn, tile=t)))

    def no_rob(self, at: int | None = None) -> Words | None:
        return self._enter(at, [ev.ReplacementDrew(seat=self.state.turn)])

    def win(self, seat: int, kind: ev.WinKind, concealed: str, tile: str = "", kongs: str = "",
            at: int | None = None) -> Words | None:
        """胡: the winner's shown tiles (notation or Chinese) and, for a self-draw, the tile he drew. ``at``: the
        table the form was opened on (the log's length then); the same claim still standing on the table now is
        recorded there (:meth:`claim_at`), a claim gone since is refused, saying why and the way out."""
        with self._lock:
            if at is not None and at != len(self.events()):
                now = self.claim_at(at, seat, kind)
                if now is None:
                    return self.claim_gone(at, seat, kind)
                at = now  # (the log moving on again meanwhile is refused by _enter, as any tap on a moved table)
        events = self._win_events(seat, kind, concealed, tile, kongs)
        if isinstance(events, Words):
            return events
        said = self._enter(at, events)
        if said is not None:
            self._note_claim(seat, events)
        return said

    def _note_claim(self, seat: int, events: Sequence[ev.Event]) -> None:
        """Keep the tai ``seat``'s refused win claimed where it was refused as under the minimum (it is a 詐胡,
        spec §6.4), for the 詐胡 the table records next (:meth:`false_win`); any other refusal of his win forgets it
        (a review: a claim typed before outlived a win retyped and refused as no win at all). Kept beside the table's
        file as well, so that the laptop restarting in between does not charge the 8 tai of a claim unknown."""
        with self._lock:
            now = self._table_now()
            claims = {s: (now, kept[1]) for s, kept in self._read_claims().items() if s != seat and self._is_now(kept[0])}
            state = self.service.state
            try:
                for e in events:
                    state = step(state, e)
            except IllegalEvent as bad:
                said = dict(bad.evidence)
                if bad.reason.key == "below_min" and said.get("claimed_tai", "").isdigit():
                    claims[seat] = (now, int(said["claimed_tai"]))
            if claims != self._claims:
                self._claims = claims
                self._write_claims()

    @property
    def claims_path(self) -> Path:
        return self.path.with_name(self.path.name + ".claims.json")

    def _read_claims(self) -> dict[int, tuple[tuple[int, str], int]]:
        if self._claims is None:
            self._claims = {}
            try:
                for row in json.loads(self.claims_path.read_text(encoding="utf-8")):
                    seat, n, digest, tai = int(row[0]), int(row[1]), str(row[2]), int(row[3])
                    if 0 <= seat < 4 and tai >= 0:
                        self._claims[seat] = ((n, digest), tai)
            except FileNotFoundError:
                pass
            except (OSError, ValueError, TypeError, IndexError) as bad:  # damaged: a 詐胡 then says it takes 8 tai
                log.warning("tai claimed not read from %s: %s", self.claims_path, bad)
        return self._claims

    def _write_claims(self) -> None:
        """As :meth:`_write_drafts`: whole or not at all."""
        rows = [[seat, n, digest, tai] for seat, ((n, digest), tai) in sorted((self._claims or {}).items())]
        try:
            if rows:
                write_whole(self.claims_path, json.dumps(rows).encode("utf-8"))
            else:
                self.claims_path.unlink(missing_ok=True)
        except OSError as bad:  # the game itself is in the table's file
            log.warning("tai claimed not kept in %s: %s", self.claims_path, bad)

    def _table_now(self, version: int | None = None) -> tuple[int, str]:
        """The table as its standing entries make it: their number and a digest of the last ones. A tap taken back
        leaves it as it was (a review: a 詐胡 tapped on the wrong seat and undone lost the claim); any other
        entry changes it. The digest is of the events' content, without the event schema's version (``version``:
        as a version before this one took it, with that version inside): an upgrade changes no table."""
        effective = effective_events(self.service.events())
        tail = json.dumps([_content(e, version) for e in effective[-32:]], sort_keys=True, ensure_ascii=False)
        return len(effective), hashlib.sha256(tail.encode("utf-8")).hexdigest()

    def _is_now(self, kept: tuple[int, str]) -> bool:
        """Whether ``kept`` (a :meth:`_table_now` kept with a claim) is the table now, as this version or an earlier
        one took it (a review's upgrade charged a claim's 詐胡 the 8 tai of a claim unknown)."""
        now = self._table_now()
        return kept == now or (kept[0] == now[0] and any(kept == self._table_now(v) for v in _PAST_VERSIONS))

    def claimed(self, seat: int) -> int | None:
        """The tai ``seat`` claimed with the win refused just now as under the minimum (nothing entered since that
        stands), which his 詐胡 carries for the ``claimed_tai`` penalty (spec §6.6); else None. A money review found
        every such 詐胡 charged the 8 tai kept for a claim unknown. A restart in between keeps it (a damaged or removed
        file forgets it: the confirmation then says the 8 tai, :meth:`unknown_claim`)."""
        with self._lock:
            kept = self._read_claims().get(seat)
            return kept[1] if kept is not None and self._is_now(kept[0]) else None

    def unknown_claim(self) -> bool:
        """Whether a 詐胡 entered without a claim known is charged by the tai claimed, which it then takes as 8
        (spec §6.6 ``claimed_tai``)."""
        with self._lock:
            return false_win_penalty(self.service.state) == "claimed_tai"

    # --- a win form left open while the table moves on ----------------------------------------------

    def _table_at(self, at: int) -> tuple[TableState, Offer]:
        """The table as it was when the log was ``at`` events long, and what it offered then (a win form answers the
        table it was opened on)."""
        with self._lock:
            raw = self.events()
            if not 0 <= at < len(raw):  # (a form of the table now)
                return self.state, self.offer()
            if self._then is None or self._then[0] != at:  # (the log only grows: its first ``at`` events stay)
                then = replay(raw[:at])
                self._then = (at, then, offer_for(then, at))
            return self._then[1], self._then[2]

    def claim_at(self, at: int, seat: int, kind: ev.WinKind) -> int | None:
        """Where the win a form opened on the table at ``at`` (the log's length then) may be recorded now: ``at``
        while the log is as it was; the log's length now where the same claim stands on the table now (the same
        discard or kong offered, with only claims it outranks entered since, or the entries since taken back; the
        same self-draw or instant win offered, the winner's hand untouched: :meth:`_same_chance`); None
        where it is gone: the next seat drew, the tile is dead (spec §2.9), and the form can record nothing."""
        with self._lock:
            raw = self.events()
            if at == len(raw):
                return at
            if not 0 <= at < len(raw):
                return None
            then, now = self._then_now(at, raw)
            if now == then:  # the entries since taken back: the same table
                return len(raw)
            if now[:len(then)] != then:
                return None
            if kind.is_instant or kind is ev.WinKind.SELF_DRAW:  # the same chance, as the tracker offers it now
                return len(raw) if self._same_chance(at, seat, kind) else None
            before, after = window(self._table_at(at)[0]), window(self.state)
            if before is None or after is None or before.last_index != after.last_index:  # another tile on offer
                return None
            return len(raw) if any(c.seat == seat and c.kind is kind for c in self.offer().wins) else None

    def _same_chance(self, at: int, seat: int, kind: ev.WinKind) -> bool:
        """Whether the self-draw or instant win (``kind``) of ``seat`` that the table at ``at`` offered is offered on
        the table now, the winner's hand as it was: only other seats' entries since (a 相公 recorded for another
        seat, the eighth flower's replacement drawn while the rob stays offered), which a fresh form records on. A
        review's open form refused them ("its moment has passed"), and its undo took back the other seat's record."""
        was, offered = self._table_at(at)
        chance = next((c for c in offered.wins if c.seat == seat and c.kind is kind), None)
        if chance is None or not 0 <= seat < len(self.state.seats) or was.seats[seat] != self.state.seats[seat]:
            return False
        return any((c.seat, c.kind, c.tile, c.shown, c.hidden_kongs) == (seat, kind, chance.tile, chance.shown,
                                                                          chance.hidden_kongs)
                   for c in self.offer().wins)

    def since(self, at: int) -> tuple[Words, int] | None:
        """What the table entered since the log was ``at`` events long, in a line, and how many taps undo takes to
        bring it back; None where undo cannot (entries before it were taken back since) or may not (the form's hand
        ended since, or more than :data:`UNDO_SINCE_MOST` taps: :meth:`_since_path`). The taps are those undo
        takes back, one by one (:func:`_undo_path`): the eighth flower's correction of a draw (live_offer's
        ``eighth_flower_tap``) is one of them, said as the flower shown, whose undo puts the draw back face down (a
        review: a form opened on that draw took the correction for entries before it taken back, and one opened
        before the draw counted it as the draw, its undo left one tap short)."""
        with self._lock:
            walked = self._since_walk(at)
        if walked.why is not None or not walked.path or walked.said is None:
            return None
        return walked.said, len(walked.path)

    def undo_also(self, at: int, seat: int) -> Words | None:
        """What the undo of ``seat``'s win form opened on the table at ``at`` (:meth:`undo_since`) takes back beyond
        the play since: the records about seats (a 相公, a 詐胡 played dead, a 天聽, a 改正胡牌) entered since, each
        named with its seat, in the order they were entered, said before the tap; None where it takes back none (or
        offers no undo: :meth:`own_bar`). A review: an eighth-flower form's undo took back another seat's 相公 entered
        in between, listed among the entries, never warned. The undo still takes them back (the rules say nothing of
        keeping them): the players are told, and may cancel instead. ``seat``'s own are named too (a review: the
        warning left them out), said as his."""
        with self._lock:
            walked = self._since_walk(at)
            if walked.why is not None or not walked.path or self.own_bar(at, seat) is not None:
                return None
            names = self.state.players
        records = [line for _, line in walked.records]
        if not records:
            return None
        button = undo_since_words(len(walked.path))
        what, what_en = "、".join(w.zh for w in records), "; ".join(w.en for w in records)
        if len(records) > 1:  # (a review read several in the singular: "another player's record")
            if any(who == seat for who, _ in walked.records):  # his own among them, said so (a review: it was not)
                return ui("live_undo_since_also_many_own", button=button.zh, button_en=button.en, seat=names[seat],
                          what=what, what_en=what_en)
            return ui("live_undo_since_also_many", button=button.zh, button_en=button.en, what=what, what_en=what_en)
        if walked.records[0][0] == seat:
            return ui("live_undo_since_also_own", button=button.zh, button_en=button.en, seat=names[seat], what=what,
                      what_en=what_en)
        return ui("live_undo_since_also", button=button.zh, button_en=button.en, what=what, what_en=what_en)

    def own_bar(self, at: int, seat: int, listed: bool = True) -> Words | None:
        """Why the undo of ``seat``'s win form opened on the table at ``at`` may not take back the entries since,
        where a record about ``seat`` among them bars his win for the rest of the hand: his 相公 under ``wrong_count =
        dead_hand``, his 詐胡 played dead (spec §2.16), the seat now barred where the form's table had him free. A
        review's undo took his 相公 back, and the form then recorded the win the rules bar. The form says so, and
        offers Cancel: a record entered by mistake is taken back with the Live tab's Undo, the entries after it
        first; the form then records (:meth:`claim_at`, the table the form's again). None where none does.

        ``listed``: every record entered since named first, in the order entered (a review's form named his own
        alone, where A's and D's were entered too); else (the form lists the entries since itself, :meth:`claim_gone`)
        the bar alone, which of his records bars (a review read the records twice). The bar names only his records
        that bar (a correction of an earlier hand, a 天聽, are his too, and bar nothing)."""
        with self._lock:
            walked = self._since_walk(at)
            bars = self._own_bars(at, seat)
            if not bars:
                return None
            name = self.state.players[seat]
            every = [line for _, line in walked.records]
        undo = ui("live_undo")
        if listed and len(every) == 1:  # his one record, all that was entered: the rule said of it as ever
            return ui("live_since_own_bar", seat=name, what=every[0].zh, what_en=every[0].en, undo=undo.zh,
                      undo_en=undo.en)
        counts = sum(isinstance(e, ev.WrongCount) for e in bars)
        many = len(bars) > 1  # (in the plural, each kind said with its article: "a wrong tile count and a false win")
        kinds = [ui("live_own_bar_a_false_win" if many else "live_own_bar_false_win") if isinstance(e, ev.FalseWin)
                 else ui("live_own_bar_a_wrong_count" if many else "live_own_bar_wrong_count") if counts == 1
                 else ui("live_own_bar_wrong_counts", n=counts) for e in bars]  # (several 相公: a log from before
        # a second one of a seat's was refused, LiveGame.wrong_count)
        kinds = [w for i, w in enumerate(kinds) if w not in kinds[:i]]  # (the same kind once, counted)
        own = kinds[0] if len(kinds) == 1 else ui("live_own_bar_both", first=kinds[0].zh, first_en=kinds[0].en,
                                                   second=kinds[1].zh, second_en=kinds[1].en)
        those = ui("live_own_bar_those_two" if len(bars) == 2 else "live_own_bar_those")
        bar = ui("live_own_bar_many", seat=name, own=own.zh, own_en=own.en, undo=undo.zh, undo_en=undo.en,
                 those=those.zh, those_en=those.en) if many else ui("live_own_bar_one", seat=name, own=own.zh,
                                                                     own_en=own.en, undo=undo.zh, undo_en=undo.en)
        if not listed:
            return bar
        return ui("live_own_bar_listed", what="、".join(w.zh for w in every), what_en="; ".join(w.en for w in every),
                  bar=bar.zh, bar_en=bar.en)

    def _own_bars(self, at: int, seat: int) -> list[ev.Event]:
        """``seat``'s records entered since the form's table that bar his win (:meth:`own_bar`), in the order entered;
        none where none does, or undo may not take the entries since back for another reason."""
        with self._lock:
            walked = self._since_walk(at)
            if walked.why is not None or not walked.path or not 0 <= seat < len(self.state.seats):
                return []
            dead_hand = self.state.switches.wrong_count is WrongCount.DEAD_HAND
            bars: list[ev.Event] = [e for e in walked.entered if _record_of(e) == seat and (
                isinstance(e, ev.FalseWin) or isinstance(e, ev.WrongCount) and dead_hand)]
            was, now = self._table_at(at)[0].seats[seat], self.state.seats[seat]
            if was.no_win or was.dead or not (now.no_win or now.dead):
                return []
            return bars

    def _since_path(self, at: int) -> list[list[Words]] | Words | None:
        """The taps undo takes back to bring the table back to the form's (the log ``at`` events long), the last
        first (:func:`_undo_path`); None where it cannot; why not where it may not: the form's hand ended since (a
        win or a draw entered, the next hand dealt: a review's form, left open, offered to undo the finished hand's
        result and the next deal with one tap), or more than :data:`UNDO_SINCE_MOST` taps were entered since."""
        walked = self._since_walk(at)
        return walked.why if walked.why is not None else walked.path

    def _since_walk(self, at: int) -> _Since:
        """The taps since the form's table (:meth:`_since_path`), played out even where undo may not take them back,
        why it may not (None where it may), the entries since in a line (a barred form still says what the table
        entered: a review's said "more entries were made since" of a single 流局) and the records about seats its
        undo takes back (:meth:`undo_also`). Kept for the log it was played out on: a stale form's every render asks,
        twice, under the lock."""
        with self._lock:
            raw = self.events()
            key = (len(raw), raw[-1] if raw else None, at)
            if self._since_kept is not None and self._since_kept[0] == key:
                return self._since_kept[1]
            path: list[list[Words]] | None = None
            why: Words | None = None
            said: Words | None = None
            taken: list[tuple[ev.Event, Words]] = []
            if 0 <= at <= len(raw):
                then, state = self._table_at(at)[0], self.state
                path = _undo_path(raw, state, self._effective(raw, at), UNDO_SINCE_MOST, taken)
                ended = path is not None and _hand_ended(then, state)
                if ended:
                    why = ui("live_since_hand_over")
                elif path is not None and len(path) > UNDO_SINCE_MOST:
                    why = ui("live_since_too_many", n=UNDO_SINCE_MOST)
                if why is not None:  # (its path may stop short of the hand's end: the entries read off the table)
                    said = _said_back(*self._then_now(at, raw), then, state, ended)
            # (in the order entered: the path, and ``taken`` with it, is played out the last first; a review read
            # them backwards)
            kept = [(e, who, line) for e, line in reversed(taken) if (who := _record_of(e)) is not None]
            if said is None and path:
                said = _said_since(path, [line for _, _, line in kept])
            walked = _Since(path, why, said, tuple((who, line) for _, who, line in kept),
                            tuple(e for e, _, _ in kept))
            self._since_kept = (key, walked)
            return walked

    def _then_now(self, at: int, raw: Sequence[ev.Event] | None = None) -> tuple[list[ev.Event], list[ev.Event]]:
        """The log's effective events when it was ``at`` events long, and now (``raw``: the log, read once); kept
        (:meth:`_effective`): not to be changed."""
        raw = self.events() if raw is None else raw
        return self._effective(raw, at), self._effective(raw, len(raw))

    def _effective(self, raw: Sequence[ev.Event], n: int) -> list[ev.Event]:
        """``effective_events(raw[:n])``, kept for the log's first ``n`` events (the log only grows; a table opened
        anew forgets them), a few at a time: not to be changed."""
        n = max(0, min(n, len(raw)))
        key = (n, raw[n - 1] if n else None)
        with self._lock:
            kept = self._effective_kept.get(key)
            if kept is None:
                if len(self._effective_kept) >= 8:
                    self._effective_kept.clear()
                kept = self._effective_kept[key] = effective_events(raw[:n])
            return kept

    def _wins_since(self, at: int, tile: str | None) -> list[int]:
        """The seats whose win on ``tile`` (the form's, on the table at ``at``) was entered since and stands, nearest
        the discarder first: on the form's very discard, not another of its face (a review's form on A's 9m said
        A's win on B's later 9m came first, 截胡, where the hand had ended)."""
        then, now = self._then_now(at)
        w = window(self._table_at(at)[0])
        if tile is None or w is None or now[:len(then)] != then or not _ended_on(self._table_at(at)[0], self.state):
            return []
        seats = [e.seat for e in now[len(then):] if isinstance(e, ev.Won) and e.tile is not None and e.tile.code == tile]
        return sorted(seats, key=lambda s: offset(s, w.turn))

    def _taken_back(self, at: int) -> bool:
        """Whether the tile the form on the table at ``at`` was opened on (its discard or kong) was taken back."""
        w = window(self._table_at(at)[0])
        if w is None or w.last_index < 0:
            return False
        raw = self.events()
        then = self._effective(raw, w.last_index + 1)
        return self._effective(raw, len(raw))[:len(then)] != then

    def claim_gone(self, at: int, seat: int, kind: ev.WinKind) -> Words:
        """Why a win form opened on the table at ``at`` can record nothing now, and the way out: undo the entries
        since, where the table agrees the win was called in time, or cancel (a review's form said "look, then tap
        again", which could never work). A nearer seat's win entered since comes first (截胡, spec §2.9): undoing it
        would record the wrong winner (a review), so Cancel only; the form's own tile taken back is said so."""
        with self._lock:
            offer = self._table_at(at)[1]
            chance = next((c for c in offer.wins if c.seat == seat and c.kind is kind), None)
            since = self.since(at)
            walked = self._since_walk(at)
            then, now = self._then_now(at)
            # only records since, the tile still live: no list of the entries since is shown, the bar names them
            listed = walked.why is None and since is not None and now[:len(then)] == then and all(
                _record_of(e) is not None for e in now[len(then):])
            # the form's hand over since, too many taps, or a record since that bars the seat's win: why undo may not
            # (after the list of the entries since, the bar alone: a review read the records twice)
            path, barred = walked.path, walked.why or self.own_bar(at, seat, listed)
            drew = bool(path) and any(isinstance(e, ev.Drew) for e in now[len(then):])
            tile = chance.tile if chance is not None else None
            first = self.first_win(at, seat, kind)
            taken_back = tile is not None and self._taken_back(at)
            names = self._table_at(at)[0].players
            # the form's own draw since shown to be the eighth flower (the correction enters it again named): said so
            corrected = _drawn_shown(then, now) if since is not None else None
        if tile is not None and taken_back:
            face = Tile.from_code(tile)
            return ui("live_claim_taken_back", tile=face.zh, tile_en=face.en)
        if tile is not None and first is not None:
            face = Tile.from_code(tile)
            return ui("live_claim_first", winner=names[first], tile=face.zh, tile_en=face.en)
        if self.recorded(at, seat, kind):
            return ui("live_claim_recorded", winner=names[seat])
        if corrected is not None and since is not None:  # (what changed is in ``since``: the flower shown)
            # the flower named in the sentence itself: the lines since may have left its own line out (SINCE_SHOWN)
            what = ui("live_claim_gone_flower", seat=names[corrected[0]], tile=corrected[1].zh, tile_en=corrected[1].en)
            button = undo_since_words(since[1])
            return ui("live_claim_gone", since=since[0].zh, since_en=since[0].en, what=what.zh, what_en=what.en,
                      rule="", rule_en="") + ui("live_claim_undo_flower", button=button.zh, button_en=button.en)
        if barred is not None and listed:
            # only records since, his own that bars him among them: the tile is still live, its moment not passed,
            # the bar (which names what was entered) is the reason (a review's form said "can no longer be won on" first, which was false)
            right = self._entered_right(at, seat)
            return ui("live_claim_barred_only", why=barred.zh, why_en=barred.en, right=right.zh, right_en=right.en)
        if tile is not None:
            face = Tile.from_code(tile)
            what = ui("live_claim_gone_tile", tile=face.zh, tile_en=the_tile(face, begins=True))
        else:
            what = ui("live_claim_gone_turn")
        rule = ui("live_claim_gone_rule") if drew else Words("", "")
        # (a barred form names the entries too, the hand's end among them: a review's said "more entries were made
        # since" of a single 流局, and dropped the dead-discard clause)
        moved = since[0] if since is not None else walked.said if walked.said is not None else ui("live_claim_on") \
            if barred is not None else ui("live_claim_undone")
        said = ui("live_claim_gone", since=moved.zh, since_en=moved.en, what=what.zh, what_en=what.en, rule=rule.zh,
                  rule_en=rule.en)
        if barred is not None and walked.why is not None:
            return said + ui("live_claim_barred", why=barred.zh, why_en=barred.en)
        if barred is not None:  # (his own record's bar says how to take it back; "if it was entered right, tap Cancel"
            # after it, a review: "otherwise, tap Cancel" followed "the form opens again", far from the mistake)
            right = self._entered_right(at, seat)
            return said + ui("live_claim_barred_own", why=barred.zh, why_en=barred.en, right=right.zh,
                             right_en=right.en)
        if since is None:
            return said + ui("live_claim_cancel")
        button = undo_since_words(since[1])
        return said + ui("live_claim_undo", button=button.zh, button_en=button.en)

    def _entered_right(self, at: int, seat: int) -> Words:
        """The Cancel after :meth:`own_bar`'s sentences: "if it was (they were) entered right"."""
        return ui("live_own_bar_right_many" if len(self._own_bars(at, seat)) > 1 else "live_own_bar_right")

    def first_win(self, at: int, seat: int, kind: ev.WinKind) -> int | None:
        """The seat whose win on the form's tile, entered since the form opened on the table at ``at``, comes before
        ``seat``'s under 截胡 (``multi_win = nearest``, spec §2.9): ``seat`` cannot win, whatever undo does; else
        None."""
        with self._lock:
            chance = next((c for c in self._table_at(at)[1].wins if c.seat == seat and c.kind is kind), None)
            if chance is None or self.state.switches.multi_win is not MultiWin.NEAREST:
                return None
            w = window(self._table_at(at)[0])
            ahead = [s for s in self._wins_since(at, chance.tile)
                     if w is not None and offset(s, w.turn) < offset(seat, w.turn)]
            return ahead[0] if ahead else None

    def recorded(self, at: int, seat: int, kind: ev.WinKind) -> bool:
        """Whether the win a form opened on the table at ``at`` would record is on the table already: ``seat``'s win
        of ``kind`` entered since (another phone recorded it) on the form's very discard, or, a self-draw or instant
        win, on the form's very table. A review's form said the tile "can no longer be won on" and offered to undo
        that win, to record what this phone typed in its place."""
        with self._lock:
            out, then, now = self.state.outcome, self._table_at(at)[0], self.state
            if then.outcome is not None or out is None or not any(c.seat == seat and c.kind is kind
                                                                   for c in out.claimants):
                return False
            if window(then) is not None:
                return _ended_on(then, now)
            before = _before_end(now)
            return before is not None and before.last_index == then.last_index

    def claim_beside(self, at: int, seat: int, kind: ev.WinKind) -> Words | None:
        """What a win form opened on the table at ``at``, that still records, says of a win on its tile already on the
        table: under ``multi_win = all`` the table takes it as a further winner (一炮多響); under
        ``nearest_unless_three`` (and ``three_is_draw``) a nearer seat's win comes first unless a third seat wins too.
        None where none was entered, or the form's seat would replace it (the nearer)."""
        with self._lock:
            if self.claim_at(at, seat, kind) is None:
                return None
            chance = next((c for c in self.offer().wins if c.seat == seat and c.kind is kind), None)
            state = self.state
            w = window(state)
            if chance is None or chance.tile is None or w is None or state.outcome is None:
                return None
            won = sorted((c.seat for c in state.outcome.claimants if c.seat != seat), key=lambda s: offset(s, w.turn))
            if not won:
                return None
            names, rule = state.players, state.switches.multi_win
        face = Tile.from_code(chance.tile)
        if rule is MultiWin.ALL:
            n = Words("二", "second") if len(won) == 1 else Words("三", "third") if len(won) == 2 else Words("四", "fourth")
            return ui("live_claim_beside_all", winner="、".join(names[s] for s in won), tile=face.zh, tile_en=face.en,
                      winner_en=" and ".join(names[s] for s in won) + (" has" if len(won) == 1 else " have"),
                      n=n.zh, n_en=n.en)
        if len(won) == 2 and rule in (MultiWin.NEAREST_UNLESS_THREE, MultiWin.THREE_IS_DRAW):  # this win the third
            key = "live_claim_beside_third" if rule is MultiWin.NEAREST_UNLESS_THREE else "live_claim_beside_third_draw"
            return ui(key, winner="、".join(names[s] for s in won), tile=face.zh, tile_en=face.en,
                      winner_en=" and ".join(names[s] for s in won))
        if rule is MultiWin.NEAREST or offset(won[0], w.turn) > offset(seat, w.turn):
            return None
        key = "live_claim_beside_three" if rule is MultiWin.NEAREST_UNLESS_THREE else "live_claim_beside_draw"
        return ui(key, winner=names[won[0]], tile=face.zh, tile_en=face.en)

    def undo_since(self, at: int, seen: int | None = None, seat: int | None = None) -> Words | None:
        """Take back every tap entered since the log was ``at`` events long, one after another (the way out of a win
        form left open while the table moved on, where the table agrees the win was called in time). ``seen``: the
        log's length when the button was drawn, which said how many: another phone's entry since then is refused as
        every Live button's is (a review's tap took back the other phone's discard too, and said nothing). ``seat``:
        the form's winner, whose own record since that bars his win (:meth:`own_bar`) the undo may not take back."""
        with self._lock:
            if seen is not None and seen != len(self.events()):
                return ui("live_moved")
            barred = self._since_path(at)
            if isinstance(barred, Words):  # the form's hand over since, or too many taps
                return barred
            own = self.own_bar(at, seat) if seat is not None else None
            if own is not None and seat is not None:  # (beside the form's Cancel, said as its own words say it)
                right = self._entered_right(at, seat)
                return own + ui("live_own_bar_cancel", right=right.zh, right_en=right.en)
            since = self.since(at)
            if since is None:
                return ui("live_moved")
            for _ in range(since[1]):
                why = self.undo()
                if why is not None:
                    return why
            if effective_events(self.events()) != effective_events(self.events()[:at]):  # (undo and its path
                return ui("live_moved")  # agree: never a table short of the form's, said to be the form's)
        return None

    def check_win(self, seat: int, kind: ev.WinKind, concealed: str, tile: str = "", kongs: str = "",
                  at: int | None = None) -> Words | None:
        """Why :meth:`win` with these fields would be refused now, or None: nothing is recorded (a form filled from
        a photo says whether the table takes it before the player records it). ``at``: the table the form was opened
        on (the log's length then)."""
        with self._lock:
            if at is not None and self.claim_at(at, seat, kind) is None:
                return self.claim_gone(at, seat, kind)
            events = self._win_events(seat, kind, concealed, tile, kongs)
            if isinstance(events, Words):
                return events
            return refusal(self.service.state, *events)

    def preview_win(self, seat: int, kind: ev.WinKind, concealed: str, tile: str = "",
                    kongs: str = "", at: int | None = None) -> tuple[bool, Words]:
        """What :meth:`win` with these fields would give, before it is recorded: whether the table takes it, and the
        hand's tai (and the dealer's, where he takes part) or why not (a player review recorded first and learned
        after). ``at``: the table the form was opened on (the log's length then): the verdict is of that table and
        its tile, said with the tile where the table has moved past it (the claim gone, :meth:`claim_at`; never
        recordable then, :meth:`claim_gone` says why): a review's form judged the hand against the next discard and
        called a win on the form's tile "not a winning shape"."""
        with self._lock:
            if at is None or self.claim_at(at, seat, kind) is not None:
                return self._preview(seat, kind, concealed, tile, kongs, self.service.state, self.offer())
            state, offer = self._table_at(at)
        _, said = self._preview(seat, kind, concealed, tile, kongs, state, offer)
        chance = next((c for c in offer.wins if c.seat == seat and c.kind is kind), None)
        if chance is not None and chance.tile:  # the verdict is of the tile the form was opened on: said so
            face = Tile.from_code(chance.tile)
            # one sentence: "On 9 Characters, a win: …" (a review read "On 9 Characters: A win: …")
            said = ui("live_preview_on", tile=face.zh, tile_en=face.en) + Words(said.zh,
                                                                                said.en[:1].lower() + said.en[1:])
        return False, said

    def _preview(self, seat: int, kind: ev.WinKind, concealed: str, tile: str, kongs: str, state: TableState,
                 offer: Offer) -> tuple[bool, Words]:
        """:meth:`preview_win` on ``state``, which offered ``offer``."""
        events = self._win_events(seat, kind, concealed, tile, kongs, offer, state)
        if isinstance(events, Words):
            return False, ui("live_preview_no", why=events.zh, why_en=_mid_sentence(events.en, state.players))
        with self._lock:
            why = refusal(state, *events)
            if why is not None:
                return False, ui("live_preview_no", why=why.zh, why_en=_mid_sentence(why.en, state.players))
            after = state
            for e in events:
                after = step(after, e)
        if after.phase is not Phase.HAND_OVER:  # (every win ends the hand; a later one joins it)
            return True, ui("live_preview_yes_plain")
        entry = ledger_of(after).entries[-1]
        name = after.players[seat]
        line = next((x for x in entry.lines if x.player == name and x.kind == kind.value), None)
        if line is None:  # no line for him: under the rules' minimum, a false win (詐胡)
            return False, ui("live_preview_no", why=ui("false_win").zh, why_en=ui("false_win").en)
        if line.unscored:
            return True, ui("live_preview_yes_plain")
        dealer = line.dealer_tai if name in dealer_takes_part(entry.result) else 0
        said = ui("live_preview_yes", tai=line.capped_tai)
        if not dealer:
            return True, said
        # the dealer winning gets his tai from every payer; else only the dealer's payment carries it (a review
        # read "where the dealer wins or pays" under the dealer's own win and could not tell the total)
        if seat != entry.result.dealer:
            return True, said + ui("live_preview_dealer", tai=dealer)
        won = next((w for w in after.outcome.winners if w.seat == seat), None) if after.outcome is not None else None
        if won is not None and won.discarder is not None:  # the discarder (the kong robbed) alone pays
            return True, said + ui("live_preview_dealer_wins_one", seat=name, payer=after.players[won.discarder],
                                   tai=dealer)
        return True, said + ui("live_preview_dealer_wins", seat=name, tai=dealer)

    def _win_events(self, seat: int, kind: ev.WinKind, concealed: str, tile: str, kongs: str,
                    offer: Offer | None = None, state: TableState | None = None) -> list[ev.Event] | Words:
        """The win's events as the form typed them, or why none (``offer`` made on ``state``: the table now where
        not given)."""
        chance = next((c for c in (offer or self.offer()).wins if c.seat == seat and c.kind is kind), None)
        if chance is None:  # the rule that bars him said where one does (a review read only "cannot win that way")
            return no_win_why(state or self.state, seat, kind) or ui("live_no_win")
        if chance.flat:  # paid flat: no hand asked, and none kept (a review's 七搶一 took 1357m1357p1357s1234z, and
            concealed = ""  # refused none at all); nor a kong typed where none lies face down (one was refused
            kongs = kongs if chance.hidden_kongs else ""  # "Name the kind of each concealed kong (0, got 1)")
        try:
            shown, hidden = tiles_typed(concealed), tiles_typed(kongs)
            won = Tile.from_code(chance.tile) if chance.tile else tiles_typed(tile)
        except (NotationError, CopyLimitError) as bad:
            return ui("live_bad_tiles", why=bad.zh or str(bad), why_en=str(bad))
        flowers = [t for t in (*shown, *hidden, *(won if isinstance(won, tuple) else (won,))) if t.is_flower]
        if flowers:
            names = Words("".join(t.zh for t in flowers), " ".join(t.code for t in flowers))
            return ui("live_flower_in_hand", tiles=names.zh, tiles_en=names.en)
        if len(hidden) != chance.hidden_kongs:  # a kong left face down would leave the hand unscored
            return asked("live_win_kongs_needed", n=chance.hidden_kongs, got=len(hidden))
        instant = kind.is_instant
        if drawn_last(kind, len(shown), won == (), chance.shown):  # all typed into the hand: the last is the tile drawn
            shown, won = shown[:-1], shown[-1:]
        if isinstance(won, tuple):
            if len(won) != 1 and not instant and len(shown) != chance.shown:  # the hand first, as the form asks
                return asked("live_win_hand_first", n=len(shown), want=chance.shown)  # (a review: it asked the tile)
            if len(won) != 1 and not instant:
                return asked("live_win_tile")
            won_tile: Tile | None = won[0] if won else None
        else:
            won_tile = won
        return [ev.Won(seat=seat, kind=kind, tile=None if instant else won_tile, concealed=tuple(shown),
                       kongs=tuple(hidden))]

    def correct_win(self, hand: int, seat: int, concealed: str, tile: str = "", at: int | None = None,
                    session: int = 0, kongs: str = "") -> Words | None:
        """改正胡牌: the tiles ``seat`` showed winning hand ``hand`` of the session (``session``: an earlier one at the
        table, from 1; 0 the one under way), typed again (and, for a self-draw, the tile he drew; ``kongs``: the kinds
        of his concealed kongs face down until the win, one tile each as the win form takes them, blank as
        recorded); the ledger works that hand and every later balance out again."""
        event = _correction(hand, seat, concealed, tile, session, kongs)
        return event if isinstance(event, Words) else self._enter(at, [event])

    def preview_correction(self, hand: int, seat: int, concealed: str, tile: str = "",
                           session: int = 0, kongs: str = "") -> TableState | Words:
        """The table as :meth:`correct_win` with these fields would leave it, nothing recorded; or why it would be
        refused (a host saw the new tai and balances only after recording: a review)."""
        event = _correction(hand, seat, concealed, tile, session, kongs)
        if isinstance(event, Words):
            return event
        with self._lock:
            state = self.service.state
            why = refusal(state, event)
            return why if why is not None else step(state, event)

    def exhaustive(self, at: int | None = None) -> Words | None:
        return self._enter(at, [ev.ExhaustiveDraw()])

    def decline(self, at: int | None = None) -> Words | None:
        seat = self.offer().decline_seat
        if seat is None:
            return ui("live_no_draw")
        return self._enter(at, [ev.DeclinedLastTile(seat=seat)])

    def false_win(self, seat: int, at: int | None = None) -> Words | None:
        """詐胡 by ``seat``, with the tai his win refused just now as under the minimum claimed (:meth:`claimed`)."""
        return self._enter(at, [ev.FalseWin(seat=seat, claimed_tai=self.claimed(seat))])

    def wrong_count(self, seat: int, big: bool, at: int | None = None) -> Words | None:
        """相公: the table finds the seat holding too many (大相公) or too few (小相公) tiles; refused for a seat
        that may not win this hand already under ``wrong_count = dead_hand`` (:func:`wrong_count_refusal`, the test
        the Live tab's offer makes too). :meth:`false_win` refuses a second 詐胡 as well."""
        with self._lock:
            if at is None or at == len(self.events()):
                why = wrong_count_refusal(self.state, seat)
                if why is not None:
                    return why
            return self._enter(at, [ev.WrongCount(seat=seat, big=big)])

    def undo_what(self) -> Words | None:
        """What :meth:`undo` would take back, in a line (the tap's entry: a discard, not the draw logged with it;
        a kong, not its replacement), or None when there is nothing to take back."""
        with self._lock:
            effective = effective_events(self.events())
            state = self.state
            if not effective or state.prev is None:
                return None
            shown = _flower_shown(self.events(), state)
            if shown is not None:  # (the eighth flower shown: undo puts its draw back face down)
                return shown
            taken = _tap_length(effective)
            tail = effective[len(effective) - taken:]
            after = 0  # the tap's inferred events logged after its entry (a kong's replacement, the deal)
            while after < len(tail) - 1 and isinstance(tail[-1 - after], ev.ReplacementDrew | ev.Dealt) \
                    and tail[-1 - after].source is INFERRED:
                after += 1
            made: TableState | None = state  # the table the tap's own entry made
            for _ in range(after):
                made = made.prev if made is not None else None
            before = made.prev if made is not None else None
            if before is None:
                return None
            entry = describe(tail[-1 - after], before, show=False, after=made)
            ready = tail[-2 - after] if len(tail) >= after + 2 else None
            if isinstance(ready, ev.DeclaredReady):  # 報聽 with the discard: both go back
                return Words(f"{entry.zh}（{ready.kind.zh}）", f"{entry.en} ({ready.kind.en})")
            return entry

    def undo(self, at: int | None = None) -> Words | None:
        """Take back the last tap: the event the player entered and what was logged with it (the draw before a
        discard or a flower, a kong's replacement, the deal after the dice)."""
        with self._lock:
            effective = effective_events(self.events())
            if at is not None and at != len(self.events()):
                return ui("live_moved")
            if not effective or self.state.prev is None:
                return ui("live_nothing_to_undo")
            raw = self.events()
            shown = _shown_tap(raw, self.state)
            # the eighth flower shown on a draw logged face down: the draw entered back as it was (and the records
            # the tap set aside and entered again after it, as they were)
            refused = self._submit(shown) if shown is not None else self._take_back(effective, raw)
            if refused is None:
                self._forms_again()
        self._changed()
        return refused

    def _forms_again(self) -> None:
        """After an undo: the forms begun on an earlier table that the undos have brought back (the same effective
        events) answer the table now, so the form opens again as it was filled. A review: a winner barred by his own
        相公 entered since was told to take it back with Undo and come back to the form, which then opened empty,
        its 17 tiles kept under the table it was begun on only."""
        drafts = self._read_drafts()
        raw = self.events()
        begun = {at for at, _, _ in drafts if at < len(raw)}
        if len(begun) != 1:  # (none, or already this table's: forms are kept for one table at a time)
            return
        at = begun.pop()
        if self._effective(raw, at) != self._effective(raw, len(raw)):
            return
        self._drafts = {(len(raw), seat, kind): fields for (_, seat, kind), fields in drafts.items()}
        self._write_drafts()

    def _take_back(self, effective: Sequence[ev.Event], raw: Sequence[ev.Event]) -> Words | None:
        """Retract the last tap's events (:meth:`undo`): why not, or None."""
        refused = None
        taken = _tap_length(effective)
        tail = raw[len(raw) - taken:]
        # a win (or a seating, which may follow a win's form begun: a review) entered last, not an earlier tap
        # reached through undos: where the forms were begun
        began = len(raw) - taken if any(isinstance(e, ev.Won | ev.Seated) for e in tail) and not any(
            isinstance(e, ev.Retracted) for e in tail) else None
        retractions = []
        state = self.state
        try:  # each retraction takes back the event its predecessors left last
            for _ in range(taken):
                retraction = ev.Retracted(target=state.last_index)
                state = step(state, retraction)
                retractions.append(retraction)
            result = self.service.submit_many(retractions)  # all of the tap taken back, or none
            if isinstance(result, Refused):
                refused = Words(result.reason.zh, result.reason.en)
        except IllegalEvent as bad:
            refused = Words(bad.reason.zh, bad.reason.en)
        except ServiceError as failed:
            refused = not_saved(failed)
        if refused is None and began is not None:
            self._forms_back(began)
        return refused

    def _forms_back(self, began: int) -> None:
        """A win taken back: the forms begun on the table it was entered on answer the table after the undo, the
        same table again, so the form opens as it was filled (the usual reason to undo a win is one wrong tile)."""
        drafts = self._read_drafts()
        moved = {(len(self.events()), seat, kind): fields for (at, seat, kind), fields in drafts.items() if at == began}
        if moved:
            self._drafts = moved
            self._write_drafts()

    # --- internals -----------------------------------------------------------------------------------

    def _enter(self, at: int | None, events: Sequence[ev.Event]) -> Words | None:
        """Log ``events`` as one entry: all of them, or (the first refused) none."""
        with self._lock:
            service = self.service
            if at is not None and at != len(service.events()):
                return ui("live_moved")
            refused = refusal(service.state, *events)  # a refused entry leaves no trace in the log
            if refused is not None:
                return refused
            try:  # one transaction: a crash or a full disk keeps the whole tap or none of it (a review found a
                result = service.submit_many(events)  # draw kept without its discard, the dice without the deal)
            except ServiceError as failed:  # the store cannot take it (a full disk, a read-only file)
                return not_saved(failed)
            if isinstance(result, Refused):
                return Words(result.reason.zh, result.reason.en)
        self._changed()
        return None

    def _submit(self, events: Sequence[ev.Event]) -> Words | None:
        """Log ``events`` now, all or none: why not, or None."""
        refused = refusal(self.service.state, *events)
        if refused is not None:
            return refused
        try:
            result = self.service.submit_many(events)
        except ServiceError as failed:
            return not_saved(failed)
        return Words(result.reason.zh, result.reason.en) if isinstance(result, Refused) else None

    def _changed(self) -> None:
        self._listeners.tell()  # one phone's failure never stops the others hearing of the entry


# --- helpers ---------------------------------------------------------------------------------------------

def dealer_keeps(state: TableState) -> int:
    """The streak the dealer deals the next hand with where he wins on the tile as well: N + 1 (spec §2.14), under
    the hand's streak cap and the next hand's (a cap lowered between hands counts from it), as finishing the hand
    counts it."""
    then = capped_streak(state.streak + 1, state.switches)
    return capped_streak(then, state.next_terms[2]) if state.next_terms is not None else then


def _said(error: Exception) -> tuple[str, str]:
    """An error's message in English and Chinese: the service says both (``English / 中文``), each said once (a
    review read them twice over, wrapped in the table's own words)."""
    if isinstance(error, ServiceError) and error.phone is not None:  # by name: the host's paths stay on the host
        return error.phone  # (two full paths and a command-line hint filled a phone: a change review)
    text = str(error)
    en, sep, zh = text.rpartition(" / ") if isinstance(error, ServiceError) else ("", "", "")
    if not sep and isinstance(error, OSError) and error.strerror:  # (a folder made for the table: make_folder's own)
        return error.strerror, os_error_zh(error)
    return (en, zh) if sep else (text, text)


def undo_since_words(taps: int) -> Words:
    """The win form's button that takes back the taps entered since its table."""
    return ui("live_undo_since_one") if taps == 1 else ui("live_undo_since", n=taps)


def not_saved(failed: ServiceError) -> Words:
    """What the phone says of an entry the table file could not take."""
    en, zh = _said(failed)
    return ui("live_not_saved", why=zh, why_en=en)


def _correction(hand: int, seat: int, concealed: str, tile: str, session: int = 0,
                kongs: str = "") -> ev.WinCorrected | Words:
    """The correction the fields type, or why they type none."""
    try:
        shown = tiles_typed(concealed)
        won = tiles_typed(tile)
        hidden = tiles_typed(kongs)
    except (NotationError, CopyLimitError) as bad:
        return ui("live_bad_tiles", why=bad.zh or str(bad), why_en=str(bad))
    if len(won) > 1:
        return asked("live_win_tile")
    return ev.WinCorrected(seat=seat, hand=hand, concealed=shown, tile=won[0] if won else None, session=session,
                           kongs=hidden)


def effective_events(events: Sequence[ev.Event]) -> list[ev.Event]:
    """The log with its retractions applied (each takes back the event before it that still stands)."""
    out: list[ev.Event] = []
    for e in events:
        if isinstance(e, ev.Retracted):
            if out:
                out.pop()
        else:
            out.append(e)
    return out


def _shown_tap(raw: Sequence[ev.Event], state: TableState) -> list[ev.Event] | None:
    """Where the last tap standing in ``state`` (the table after the log ``raw``) is the one that showed the eighth
    flower on a draw the log held face down (live_offer.eighth_flower_tap: the records after the draw retracted with
    ``SET_ASIDE_NOTE``, the draw with ``SHOWN_NOTE`` and entered again named, the records entered again), the events
    that undo it, that tap only: what it entered retracted, the draw entered back face down and the records after it
    again, as they were; else None (a record entered by a tap of its own after it is that tap's to undo)."""
    at, aside = state, []
    while at.prev is not None and 0 <= at.last_index < len(raw) and isinstance(raw[at.last_index], FLOWER_KEPT_PAST):
        aside.append(raw[at.last_index])
        at = at.prev
    last = at.last_index
    if at.prev is None or not 1 <= last < len(raw):
        return None
    note = raw[last - 1]
    if not isinstance(note, ev.Retracted) or note.note != SHOWN_NOTE or not 0 <= note.target < last - 1:
        return None
    # the tap retracted as many records as it entered again after the draw (more after it: taps of their own)
    set_aside = raw[last - 1 - len(aside):last - 1]
    if len(set_aside) != len(aside) or not all(isinstance(r, ev.Retracted) and r.note == ev.SET_ASIDE_NOTE
                                               for r in set_aside):
        return None
    undo: list[ev.Event] = []
    now = state
    for _ in range(len(aside) + 1):  # the records, the last first, then the named draw
        undo.append(ev.Retracted(target=now.last_index))
        assert now.prev is not None
        now = now.prev
    return [*undo, raw[note.target], *reversed(aside)]


def _flower_shown(raw: Sequence[ev.Event], state: TableState) -> Words | None:
    """What undo takes back where the last tap is the eighth flower shown on a draw logged face down
    (:func:`_shown_tap`): that flower shown; else None."""
    if _shown_tap(raw, state) is None or state.last_flower is None:
        return None
    seat, flower = state.last_flower
    return ui("live_flower_shown", seat=state.players[seat], tile=flower.zh, tile_en=flower.en)


def _drawn_shown(then: Sequence[ev.Event], now: Sequence[ev.Event]) -> tuple[int, Tile] | None:
    """Where the effective events ``now`` differ from ``then`` (a form's table) in a draw ``then`` held face down
    and ``now`` names as a flower (the eighth flower's correction of it, live_offer's ``eighth_flower_tap``): the
    seat that drew and the flower; else None."""
    changed = next(((was, is_) for was, is_ in zip(then, now, strict=False) if was != is_), None)
    if changed is None:
        return None
    was, named = changed

    def last_drawn(e: ev.Event) -> Tile | None:
        if isinstance(e, ev.FlowerReplaced):
            return e.replacements[-1] if e.replacements else None
        return e.tile if isinstance(e, ev.Drew | ev.ReplacementDrew) else None

    if type(was) is not type(named) or not isinstance(named, ev.Drew | ev.ReplacementDrew | ev.FlowerReplaced) \
            or not isinstance(was, ev.SeatEvent) or was.seat != named.seat:
        return None
    face_down, flower = last_drawn(was), last_drawn(named)
    return (named.seat, flower) if face_down in (None, UNSEEN) and flower is not None and flower.is_flower else None


def _undo_path(raw: Sequence[ev.Event], state: TableState, then: Sequence[ev.Event],
               most: int | None = None, taken: list[tuple[ev.Event, Words]] | None = None
               ) -> list[list[Words]] | None:
    """The taps :meth:`LiveGame.undo` takes back, the last first, to bring the table (``state``, after the log
    ``raw``) back to the effective events ``then``, each said in lines (its events, or the eighth flower shown);
    None where undo cannot (entries before it taken back, a tap that began before it). Undo is played out, not
    counted from the events: the undo of the eighth flower's correction of a draw enters the draw again face down,
    which a count of events since took for one tap that removes it, or for a change before ``then``. ``most``: the
    play-out stops after ``most + 1`` taps (the path then longer than ``most``). ``taken``: given, it gets each event
    the path takes back for good, with its line (not those the eighth flower's undo enters again). Played out on the
    tail only: the effective events kept as each undo changes them (a review measured 0.1 s at 600 events, 0.5 s at
    1500, where each tap's undo worked the whole log out again)."""
    log: list[ev.Event] = list(raw)
    path: list[list[Words]] = []
    effective, then = effective_events(log), list(then)
    differ = next((k for k, (a, b) in enumerate(zip(effective, then, strict=False)) if a != b),
                  min(len(effective), len(then)))  # the first event the table now and the form's differ in
    if differ < len(then) and _drawn_shown(then, effective) is None:  # entries before it taken back
        return None
    low = len(effective)  # the events below it stand as they were, the first ``differ`` of them as in ``then``
    while True:
        if len(effective) == len(then) and differ >= low and effective[low:] == then[low:]:
            return path
        if len(effective) < len(then) or state.prev is None:
            return None
        if most is not None and len(path) > most:  # (longer than the most: said so, not played out further)
            return path
        undo = _shown_tap(log, state)  # as undo decides: the flower's tap, or the last tap's events retracted
        try:
            if undo is not None:
                said = _flower_shown(log, state)
                lines = [said if said is not None else describe(effective[-1], state.prev, show=False, after=state)]
                for e in undo:
                    state = step(state, e)
            else:
                lines, undo = [], []
                for _ in range(_tap_length(effective)):  # each retraction takes back the event left last
                    if state.prev is None:
                        return None
                    lines.append(describe(effective[-1 - len(undo)], state.prev, show=False, after=state))
                    if taken is not None:
                        taken.append((effective[-1 - len(undo)], lines[-1]))
                    undo.append(ev.Retracted(target=state.last_index))
                    state = step(state, undo[-1])
                lines.reverse()
        except IllegalEvent:
            return None
        log += undo
        path.append(lines)
        for e in undo:  # as effective_events takes them: a retraction takes back the event left last
            if isinstance(e, ev.Retracted):
                if effective:
                    effective.pop()
                    low = min(low, len(effective))
            else:
                effective.append(e)


class _Since(NamedTuple):
    """What a win form's table became since (:meth:`LiveGame._since_walk`)."""

    path: list[list[Words]] | None  # the taps undo takes back, the last first (:func:`_undo_path`)
    why: Words | None  # why undo may not: the form's hand over since, or too many taps
    said: Words | None  # the entries since in a line
    records: tuple[tuple[int, Words], ...]  # the records about seats (their seat, their line) the path takes back
    entered: tuple[ev.Event, ...] = ()  # those records' events, as ``records`` (which of them bars: LiveGame.own_bar)


def _record_of(e: ev.Event) -> int | None:
    """The seat ``e`` is a record about, where it is no move of the play but the table's record about a player (a 相公,
    a 詐胡 played dead, a 天聽 declared on its own: a ready declaration made with a discard is that discard's; a
    改正胡牌 of an earlier hand's win, which works its payments and every balance after out again, spec §6.7: a
    review's form took one back unwarned, the balances with it); else None."""
    if isinstance(e, ev.WrongCount | ev.FalseWin | ev.WinCorrected) \
            or isinstance(e, ev.DeclaredReady) and e.kind is ev.ReadyKind.HEAVENLY:
        return e.seat
    return None


def _listed(n: int, line: Callable[[int], Words], keep: Iterable[int] = ()) -> Words:
    """``n`` entries (``line``: the ``i``-th, the first 0) in a line: the last :data:`SINCE_SHOWN` of them, and every
    one ``keep`` names before them (the entry that ended the form's hand, the records about seats: a review's list
    cut A's 相公 to "… 1 more", named nowhere else), the last ones after them fewer by as many, the last always; each
    stretch left out said with how many it holds, a stretch of one shown instead ("… 1 more" saves nothing)."""
    kept = sorted({k for k in keep if 0 <= k < n - SINCE_SHOWN})
    shown = sorted({*kept, *range(max(0, n - max(1, SINCE_SHOWN - len(kept))), n)})
    parts: list[Words] = []
    last = -1
    for i in shown:
        if i == last + 2:
            parts.append(line(last + 1))
        elif i > last + 2:
            parts.append(ui("live_since_gap", n=i - last - 1))
        parts.append(line(i))
        last = i
    return Words("、".join(w.zh for w in parts), "; ".join(w.en for w in parts))


def _said_since(path: Sequence[Sequence[Words]], records: Sequence[Words] = ()) -> Words:
    """The entries of an undo path (:func:`_undo_path`, the last tap first) in a line (:func:`_listed`), each of
    ``records`` (the lines of the records about seats it takes back, as the path holds them) kept in it."""
    lines = [line for tap in reversed(path) for line in tap]
    return _listed(len(lines), lines.__getitem__,
                   [i for i, line in enumerate(lines) if any(line is r for r in records)])


def _said_back(then: Sequence[ev.Event], now: Sequence[ev.Event], was: TableState, state: TableState,
               ended: bool) -> Words | None:
    """The entries since a barred form's table in a line (:func:`_listed`), read off the table's history, where its
    undo path may stop short of them (at most ``UNDO_SINCE_MOST + 1`` taps are played out): the effective events
    ``now`` past those they share with ``then`` (the form's), ``state`` the table after them. ``ended``: the entry
    that ended the hand of ``was`` (the form's table) is among those shown, however many follow it. None where the
    history holds fewer."""
    d = next((k for k, (a, b) in enumerate(zip(then, now, strict=False)) if a != b), min(len(then), len(now)))
    n = len(now) - d
    chain = [state]  # chain[k]: the table after ``now[-1 - k]``, so entry i is played from chain[n - i]
    while len(chain) <= n:
        back = chain[-1].prev
        if back is None:
            return None
        chain.append(back)
    # the entry after which the hand was over, whatever ended it: a win on the form's own tile (its rival), a 流局 or
    # a declined last tile entered on it too (a review's list named the next hand's dice throw, and hid the win that
    # ended the hand among "… 1 more", for :func:`_hand_ended` leaves those out: they are no bar to undo alone)
    keep = [i for i in range(n) if _record_of(now[d + i]) is not None]  # (the records about seats too)
    over = next((i for i in range(n) if _over(was, chain[n - 1 - i])), None) if ended else None
    return _listed(n, lambda i: describe(now[d + i], chain[n - i], show=False, after=chain[n - 1 - i]),
                   keep if over is None else [over, *keep])


def _over(then: TableState, now: TableState) -> bool:
    """Whether the hand of the table ``then`` was over on the table ``now``: its result entered, or the next hand
    dealt (or the session closed) since."""
    return (then.deals, len(then.results), len(then.past)) != (now.deals, len(now.results), len(now.past)) \
        or then.outcome is None and now.outcome is not None


def _hand_ended(then: TableState, now: TableState) -> bool:
    """Whether the hand of the table ``then`` (a win form's) ended before the table ``now``: the next hand dealt
    (or the session closed), or the hand's end entered other than on the tile ``then`` offers (:func:`_ended_on`):
    a win on that discard is the form's rival (:meth:`LiveGame.first_win`, which says so), and a 流局 or a declined
    last tile entered on it is the entry a win on the last discard replaces (spec §2.7, §2.13: the draw happens only
    if nobody wins on it). A win on another discard of the same face ends the hand (a review's form, on A's 9m,
    offered to undo D's win on B's 9m and the five taps before it, and recorded its own win in its place)."""
    if (then.deals, len(then.results), len(then.past)) != (now.deals, len(now.results), len(now.past)):
        return True
    out = now.outcome
    if then.outcome is not None or out is None:
        return False
    if then.offer is None or not _ended_on(then, now):
        return True
    if out.claimants:
        return any(c.tile is None or c.tile.code != then.offer.code or c.discarder is None for c in out.claimants)
    return not (out.kind is OutcomeKind.DECLINED or out.kind is OutcomeKind.DRAW and not out.four_kongs)


def _ended_on(then: TableState, now: TableState) -> bool:
    """Whether the hand's end on the table ``now`` was entered on the very tile the table ``then`` offered (the same
    discard or added kong, the same event: not another of its face): the table just before the end was entered
    offered it still."""
    was, end = window(then), _before_end(now)
    before = window(end) if end is not None else None
    return was is not None and before is not None and before.last_index == was.last_index


def _before_end(now: TableState) -> TableState | None:
    """The table just before the entry that ended the hand of the table ``now`` (None where it has not ended)."""
    if now.outcome is None:
        return None
    end = now
    while end.prev is not None and end.prev.outcome is not None:  # back to the entry that ended the hand
        end = end.prev
    return end.prev


def _tap_length(effective: Sequence[ev.Event]) -> int:
    """How many of the log's last events one tap entered (undo takes them all back): the entry itself, what it
    implied after it (a kong's replacement, the deal after the dice: marked ``inferred``), a ready declaration
    made with a discard, and the draw it implied before it (``inferred``: a draw tapped on its own stays)."""
    def at(k: int) -> ev.Event | None:
        return effective[-1 - k] if k < len(effective) else None

    n = 0
    entry = at(n)
    while isinstance(entry, ev.ReplacementDrew | ev.Dealt) and entry.source is INFERRED:
        n += 1
        entry = at(n)
    n += 1
    if isinstance(entry, ev.Dealt | ev.ReplacementDrew):  # entered on their own (an added kong left unrobbed)
        return n
    ready = at(n)
    if isinstance(entry, ev.Discarded) and isinstance(ready, ev.DeclaredReady) and ready.seat == entry.seat:
        n += 1
    drew = at(n)
    if isinstance(entry, ev.Discarded | ev.FlowerReplaced) and isinstance(drew, ev.Drew) and drew.source is INFERRED \
            and drew.seat == entry.seat:
        n += 1
    return n


def _mid_sentence(en: str, names: Sequence[str]) -> str:
    """``en``, a reason said on its own with a capital, after "Not yet a win to record: ": its first letter small
    (a review read "…to record: Name the kind of each concealed kong"), a player's name first kept as it is."""
    if any(name and en.startswith(name) for name in names):
        return en
    return en[:1].lower() + en[1:]


def _given(code: object) -> Words:
    """A field given where a tile was wanted and not read as one, in words: nothing given as such, else as typed."""
    if code is None or code == "":
        return ui("live_chow_nothing")
    return Words(str(code), str(code))


def _tile(value: Tile | str) -> Tile | Words:
    if isinstance(value, Tile):
        return value
    try:
        return Tile.from_code(value)
    except (ValueError, KeyError):
        return Words(f"看不懂的牌：「{value}」", f"not a tile: “{value}”")


def _bad_dice(dice: Sequence[int], which: Words | None = None) -> Words | None:
    name = which or ui("live_dice")
    if not dice:  # an empty field said empty (it was "收到：—", the dash read as 一: a review)
        return ui("live_dice_empty", which=name.zh, which_en=name.en)
    if len(dice) != 3 or any(not isinstance(d, int) or isinstance(d, bool) or not 1 <= d <= 6 for d in dice):
        shown = " ".join(map(str, dice))
        said = ui("live_bad_dice", which=name.zh, which_en=name.en, got=shown)
        # one number, the sum (12): ask for each die; two dice ("1 2") are not a total of 12 (a review was told so)
        if len(dice) == 1 and isinstance(dice[0], int) and not isinstance(dice[0], bool) and 3 <= dice[0] <= 18:
            said = said + ui("live_dice_not_total", total=dice[0])
        return said
    return None


def drawn_last(kind: ev.WinKind, typed: int, drawn_empty: bool, want: int) -> bool:
    """A self-draw whose hand field holds one tile more (``typed``) than the hand (``want``) and whose tile-drawn
    field is empty: the last tile typed is the one drawn (a review typed all 17 into the first field, and was only
    told 17 of 16)."""
    return kind is ev.WinKind.SELF_DRAW and drawn_empty and typed == want + 1


def without_last_tile(text: str) -> str:
    """The hand field with its last tile taken off, however it was typed (:func:`companion.tiles.typed_without_last`,
    as My hand's backspace): ``123m`` -> ``12m``, a Chinese name whole (一萬, 白板)."""
    return typed_without_last(text)


def tiles_typed(text: str) -> tuple[Tile, ...]:
    """Tiles as a phone types them: the notation or Chinese names, full-width digits and letters and capitals too."""
    return parse_tiles(text) if text.strip() else ()  # (parse_tiles folds; errors then quote the text as typed)
