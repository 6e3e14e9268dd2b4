"""What may be entered at a live table now: :func:`offer_for` tries each move against the tracker.

Plain Python, no flet. The Live tab draws its buttons from an :class:`Offer`, so a button it shows is one the table
accepts (a win still needs the winner's tiles, which the tracker checks on entry).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from companion.app.words import Words, ui, unbroken
from companion.game import events as ev
from companion.game.check import four_kongs_due, step
from companion.game.check_win import instant_win_refusal, may_win_refusal, own_win_refusal
from companion.game.evolve import FLOWER_KEPT_PAST, finish_hand
from companion.game.session import table_profile
from companion.game.state import (
    ActKind,
    OutcomeKind,
    Phase,
    TableState,
    next_seat,
    offset,
    own_last_flower,
    window,
)
from companion.game.switches import FirstDealer, MultiWin, WrongCount
from companion.game.text import EVENT_EN, EVENT_ZH, IllegalEvent, own_tile
from companion.hand import MeldKind
from companion.names import in_chinese
from companion.rules.profiles import ProfileError, load_profile
from companion.rules.profiles._schema import SWITCHES
from companion.tiles import Tile

__all__ = ["Offer", "Claim", "WinChance", "offer_for", "dealer_after", "kong_tap", "added_kong_tap", "flower_tap", "refusal", "nearest_winner", "UNSEEN",
           "eighth_flower_tap", "flower_unreplaced", "replacement_tap", "SHOWN_NOTE", "face_down_draw",
           "wrong_count_refusal", "no_win_why", "flat_win", "false_win_penalty", "also_wins_prompt"]

UNSEEN = Tile.UNKNOWN
FLOWERS = tuple(Tile(i) for i in range(34, 42))


@dataclass(frozen=True, slots=True)
class Claim:
    """A claim a seat may make on the tile on offer."""

    seat: int
    kind: MeldKind  # CHOW, PUNG or KONG
    tiles: tuple[str, ...]  # the meld's tiles as pictures
    label: Words


@dataclass(frozen=True, slots=True)
class WinChance:
    """A win a seat may declare now; the tracker checks the tiles he shows."""

    seat: int
    kind: ev.WinKind
    tile: str | None  # the tile won on when the table knows it (a discard, a robbed kong), else the player's pick
    shown: int  # concealed tiles the winner shows besides the winning tile
    hidden_kongs: int  # his face-down concealed kongs, whose kinds he shows too
    label: Words

    @property
    def flat(self) -> bool:
        """Paid flat whatever his hand (:func:`flat_win`: 七搶一, a 八仙過海 not on the hand it completes), so no hand
        is asked, and none typed is kept: the one test of the model and the form (it was written out three times)."""
        return self.kind.is_instant and not self.shown


@dataclass(frozen=True, slots=True)
class Offer:
    """What may be entered now (each part tried against the tracker)."""

    phase: Phase
    at: int  # the log's length this offer was made on: an entry made from it is refused once the log moves on
    prompt: Words
    seating: bool  # the players are to be seated (the first game, or a new one after a session ends)
    dealer_throws: int  # choosing the first dealer: 0 East deals (one tap), 1 or 2 throws of three dice
    dice: bool  # the dealer's throw starts the next hand
    discard_seat: int | None  # whose discard the tile palette records
    draws_first: bool  # that seat's draw is logged first (the claim window closes unclaimed)
    ready_kind: ev.ReadyKind | None  # the ready declaration the discard may come with (報聽, or 天聽 / 地聽 first)
    heavenly_seats: tuple[int, ...]  # seats that may declare 天聽 now, before their first draw
    flower_seats: tuple[int, ...]
    claims: tuple[Claim, ...]
    wins: tuple[WinChance, ...]
    concealed_kong: bool
    added_kongs: tuple[str, ...]
    no_rob: bool  # an added kong stands unrobbed: its replacement is drawn
    draw_seat: int | None  # the next seat may draw (a flower or a kong may follow before his discard)
    exhaustive: bool
    decline_seat: int | None
    penalties: tuple[int, ...]  # seats a false win (詐胡) or a wrong count (相公) may be recorded for
    undo: bool
    session_over: bool
    undo_what: Words | None = None  # what undo would take back (the tap's entry), told on its button
    # the eighth flower the seat to play has drawn and shown, not yet replaced (a win may take it on the spot,
    # spec §4.2, §4.4): its seat and flower; its replacement is a tap of its own (replacement_tap)
    flower_held: tuple[int, str] | None = None
    # the seats of ``penalties`` a wrong count (相公) may be recorded for: not one :func:`wrong_count_refusal` refuses
    # (a review: C's 大相公 and 小相公 stood offered after his 相公, and the confirm tap was then refused)
    wrong_counts: tuple[int, ...] = ()


def dealer_after(state: TableState) -> int:
    """Who deals the next hand (after a hand ends, the ledger's next deal; before the first, the first dealer)."""
    if state.phase is Phase.HAND_OVER:
        return finish_hand(state).dealer
    return state.dealer


def refusal(state: TableState, *events: ev.Event) -> Words | None:
    """Why the tracker would refuse these events, one after another, from ``state``, or None."""
    for e in events:
        try:
            state = step(state, e)
        except IllegalEvent as bad:
            return Words(bad.reason.zh, bad.reason.en)
        except (TypeError, ValueError):  # a field of the wrong type from the Python API: said by the entry, not by
            kind = type(e).__name__  # Python's message (an evening's review), named in words (not "Chowed")
            return ui("live_entry_unreadable", what=EVENT_ZH.get(kind, kind), what_en=EVENT_EN.get(kind, kind))
    return None


def wrong_count_refusal(state: TableState, seat: int) -> Words | None:
    """Why a 相公 of ``seat`` is not taken now besides what the tracker refuses, or None: under ``wrong_count =
    dead_hand`` a seat that may not win this hand already, his 相公 entered or his 詐胡 played dead (spec §2.16: a
    相公 does nothing else and pays no penalty; a review entered C's twice, and his barred win form then said "2 wrong
    tile counts"). Under ``warn_only`` (a warning only) a second is taken. The Live tab offers no 相公 it refuses
    (:attr:`Offer.wrong_counts`), and ``LiveGame.wrong_count`` enters none."""
    if not state.in_hand or not 0 <= seat < len(state.seats) \
            or state.switches.wrong_count is not WrongCount.DEAD_HAND:
        return None
    st, name = state.seats[seat], state.players[seat]
    if st.no_win:
        return ui("live_wrong_count_again", seat=name)
    if st.dead:
        return ui("live_wrong_count_dead", seat=name)
    return None


def no_win_why(state: TableState, seat: int, kind: ev.WinKind, barring: bool = False) -> Words | None:
    """Why ``seat`` is offered no win of ``kind`` now, where the rules say why whatever his tiles: a 相公 or playing
    dead (§2.16), the replacement of a kong claimed from a discard (§2.10), a self-draw's or an instant win's other
    bars; None otherwise (no tile on offer to him: the usual words). ``barring``: only the bars a player may not
    know of (a 相公, playing dead, the discard kong's replacement), as the prompt says them beside the missing button
    (an evening's review found no win button, and nothing saying why)."""
    if not state.in_hand or not 0 <= seat < len(state.seats):
        return None
    w = window(state) if kind in (ev.WinKind.DISCARD, ev.WinKind.ROBBED_KONG) else None
    if w is not None and w.offer is not None and seat == w.turn and not barring:  # the tile is his own (a review
        own = own_tile(w.phase is Phase.ROB, winning=True)  # read "cannot win that way now" where a pung said why)
        return Words(own.zh, own.en)
    barred = may_win_refusal(w or state, seat)
    acting = state.phase is Phase.ACT and seat == state.turn
    if barred is None and kind is ev.WinKind.SELF_DRAW and acting:
        barred = own_win_refusal(state, seat)
        if barring and barred is not None and barred.reason.key != "dkong_win":
            barred = None
    if barred is None and kind.is_instant and not barring:
        barred = instant_win_refusal(state, seat, kind)
    return None if barred is None else Words(barred.reason.zh, barred.reason.en)


def _ok(state: TableState, *events: ev.Event) -> bool:
    """Would the tracker take these events, one after another, now?"""
    return refusal(state, *events) is None


def flower_tap(state: TableState, seat: int, flower: Tile) -> list[ev.Event]:
    """The events one flower tap logs: the flower and its replacement (face down), after the seat's draw when
    he shows it as the next to draw, the claim window closing unclaimed (he drew the flower he shows)."""
    first: list[ev.Event] = []
    if state.phase is Phase.CLAIM and seat == next_seat(state.turn) and state.claim_rank == 0:
        first.append(ev.Drew(seat=seat, source=ev.EventSource.INFERRED))
    return [*first, ev.FlowerReplaced(seat=seat, flowers=(flower,), replacements=(UNSEEN,))]


SHOWN_NOTE = ev.FLOWER_SHOWN_NOTE
"""The note of the retraction that names a tile drawn face down once it is shown as the eighth flower (the log is
append-only: a correction is a retraction and the event again, events.py)."""


def _draws_face_down(e: ev.Event, seat: int) -> bool:
    """Whether ``e`` is ``seat``'s draw whose last tile the log has face down (a draw, a kong's replacement, a
    flower's replacement)."""
    if isinstance(e, ev.Drew | ev.ReplacementDrew):
        return e.seat == seat and not e.tile.is_known
    if isinstance(e, ev.FlowerReplaced):
        return e.seat == seat and bool(e.replacements) and not e.replacements[-1].is_known
    return False


def _named(e: ev.Event, flower: Tile) -> ev.Event:
    """The draw ``e`` with its last tile named: ``flower`` (entered by the tap that showed it)."""
    if isinstance(e, ev.FlowerReplaced):
        return ev.FlowerReplaced(seat=e.seat, flowers=e.flowers, replacements=(*e.replacements[:-1], flower))
    if isinstance(e, ev.ReplacementDrew):
        return ev.ReplacementDrew(seat=e.seat, tile=flower, source=e.source)
    assert isinstance(e, ev.Drew)
    return ev.Drew(seat=e.seat, tile=flower)


def face_down_draw(state: TableState, seat: int, log: Sequence[ev.Event]
                   ) -> tuple[TableState, ev.Event, tuple[ev.Event, ...]] | None:
    """``seat``'s draw the log (``log``, its events as stored) holds face down that a flower shown now may still
    correct: the log's last standing event, or the last before the records the tracker keeps a flower on offer past
    (``FLOWER_KEPT_PAST``: a 天聽 declared, a 相公, a 詐胡 played dead… about another seat). The table just after that
    draw, the draw, and those records after it in their order; None where the seat's last standing event is no such
    draw."""
    at, aside = state, []
    while at.prev is not None and 0 <= at.last_index < len(log) and isinstance(log[at.last_index], FLOWER_KEPT_PAST):
        aside.append(log[at.last_index])
        at = at.prev
    if at.prev is None or not 0 <= at.last_index < len(log) or not _draws_face_down(log[at.last_index], seat):
        return None
    return at, log[at.last_index], tuple(reversed(aside))


def eighth_flower_tap(state: TableState, seat: int, flower: Tile, log: Sequence[ev.Event] = ()
                      ) -> list[ev.Event] | None:
    """The events a flower tap logs where the flower is the eighth and a win may take it on the spot, before its
    replacement (八仙過海 by the seat, 七搶一 by the holder of the other seven: spec §4.2, §4.4; the tracker's
    ``own_last_flower``): the seat's draw with the flower named, and no replacement (a tap of its own follows,
    :func:`replacement_tap`, where nobody wins on it). The draw comes with the tap where it is due (the claim window
    closing unclaimed); a draw the log (``log``, as stored) has already, face down (:func:`face_down_draw`: a draw,
    a kong's or a flower's replacement, last but for the records a flower stays on offer past), is named by a
    correction: the log takes back its last event only, so those records are retracted (``SET_ASIDE_NOTE``), the
    draw retracted and entered again with the flower named (``SHOWN_NOTE``), and the records entered again as they
    were. Nothing else is taken back or changed. None where no win may take the flower now: the usual tap then lays
    it and draws its replacement (:func:`flower_tap`)."""
    if not flower.is_flower:
        return None
    events: list[ev.Event]
    found = face_down_draw(state, seat, log) if state.phase is Phase.ACT and seat == state.turn else None
    if state.phase is Phase.CLAIM and seat == next_seat(state.turn) and state.claim_rank == 0:
        events = [ev.Drew(seat=seat, tile=flower)]
    elif found is not None:
        drawn, draw, aside = found
        events = []
        at = state
        while at.last_index != drawn.last_index:  # the records after the draw, the last first
            events.append(ev.Retracted(target=at.last_index, note=ev.SET_ASIDE_NOTE))
            assert at.prev is not None
            at = at.prev
        events += [ev.Retracted(target=drawn.last_index, note=SHOWN_NOTE), _named(draw, flower), *aside]
    else:
        return None
    after = state
    for e in events:
        got = _after(after, e)
        if got is None:
            return None
        after = got
    return events if _wins_on_the_spot(after, seat) else None


def _wins_on_the_spot(state: TableState, seat: int) -> bool:
    """Whether a win may take the flower ``seat`` has drawn and not laid: his 八仙過海, or another's 七搶一."""
    if own_last_flower(state, seat) is None:
        return False
    return any(c.kind in (ev.WinKind.EIGHT_FLOWERS, ev.WinKind.SEVEN_ROB_ONE) for c in _wins(state))


def _shown_unreplaced(state: TableState) -> tuple[int, Tile] | None:
    """The flower the seat to play has drawn and shown without its replacement (:func:`eighth_flower_tap`)."""
    if state.phase is not Phase.ACT or state.last_flower is None:
        return None
    seat, flower = state.last_flower
    return (seat, flower) if seat == state.turn and own_last_flower(state, seat) is not None else None


def flower_unreplaced(state: TableState) -> tuple[int, Tile] | None:
    """The flower the seat to play has drawn and shown without its replacement (:func:`eighth_flower_tap`), where
    its replacement may be drawn now (not the wall's last tile); None otherwise."""
    shown = _shown_unreplaced(state)
    return shown if shown is not None and _ok(state, *replacement_tap(*shown)) else None


def replacement_tap(seat: int, flower: Tile) -> list[ev.Event]:
    """The events of the tap that lays a flower shown before its replacement and draws the replacement (face
    down): nobody won on it on the spot."""
    return [ev.FlowerReplaced(seat=seat, flowers=(flower,), replacements=(UNSEEN,))]


def _after(state: TableState, e: ev.Event) -> TableState | None:
    """The table once ``e`` is taken; None where the tracker refuses it (the tap is then entered as it is, and
    refused with the tracker's reason)."""
    try:
        return step(state, e)
    except (IllegalEvent, ValueError, TypeError):
        return None


def kong_tap(state: TableState, kong: ev.Event, seat: int) -> list[ev.Event]:
    """The events one kong tap logs: the kong and its replacement draw (face down), or the kong alone where it
    ends the hand (四槓 where the item is on: a fourth kong wins, or four kongs split between players draw; the
    tracker takes no replacement then). An exposed kong of a suit tile is entered alone too: a win on that tile (in
    a chow) outranks it (§2.9) until its replacement is drawn, so the table is asked first (a review's 胡 was never
    offered once the kong's tap had drawn the replacement with it); nobody can win on an honour whose other three
    copies the kong holds, so its replacement comes in the same tap, as an added kong's does."""
    after = _after(state, kong)
    if (isinstance(kong, ev.ExposedKong) and kong.tile.is_suited) or \
            (after is not None and four_kongs_due(after) is not None and after.phase is not Phase.ROB):
        return [kong]
    return [kong, ev.ReplacementDrew(seat=seat, source=ev.EventSource.INFERRED)]


def added_kong_tap(state: TableState, kong: ev.AddedKong) -> list[ev.Event]:
    """The events one 加槓 tap logs: the kong, and its replacement draw where nobody can rob it. The robbed tile
    always completes a chow (§2.10: its owner holds the other three copies), so an added kong of an honour cannot be
    robbed and its window would only cost a tap; a fourth kong keeps its window (the four-kongs ending is asked
    there)."""
    after = _after(state, kong) if kong.tile.is_honour else None
    if after is None or after.phase is not Phase.ROB or four_kongs_due(after) is not None:
        return [kong]
    return [kong, ev.ReplacementDrew(seat=kong.seat, source=ev.EventSource.INFERRED)]


def offer_for(state: TableState, at: int, log: Sequence[ev.Event] = ()) -> Offer:
    """What may be entered in ``state``; ``at`` is the log's length it was made on, ``log`` its events as stored
    where known (the eighth flower shown on a draw it logged face down: :func:`eighth_flower_tap`)."""
    phase = state.phase
    session_over = state.session_over or (phase is Phase.HAND_OVER and _session_ends(state))
    seating = phase is Phase.SEATING or session_over
    throws = {FirstDealer.EAST_DEALS: 0, FirstDealer.ONE_THROW: 1, FirstDealer.TWO_THROWS: 2}[
        state.switches.first_dealer]
    dice = phase is Phase.DICE or (phase is Phase.HAND_OVER and not session_over)
    discard_seat: int | None = None
    draws_first = False
    shown = _shown_unreplaced(state)
    held = flower_unreplaced(state)
    if shown is not None:  # its replacement (or a win on it, or the draw where none is left) comes first: no discard
        discard_seat = None
    elif phase is Phase.ACT or (phase is Phase.FLOWERS and _ok(state, ev.Discarded(seat=state.dealer, tile=_any_tile(state)))):
        discard_seat = state.turn if phase is Phase.ACT else state.dealer
    elif phase is Phase.CLAIM and _ok(state, ev.Drew(seat=next_seat(state.turn))):
        discard_seat, draws_first = next_seat(state.turn), True
    ready_kind = None
    if discard_seat is not None:
        drew: list[ev.Event] = [ev.Drew(seat=discard_seat)] if draws_first else []
        ready_kind = next((k for k in (ev.ReadyKind.HEAVENLY, ev.ReadyKind.EARTHLY, ev.ReadyKind.READY)
                           if _ok(state, *drew, ev.DeclaredReady(seat=discard_seat, kind=k))), None)
    # 天聽 is declared before the seat's first draw: by the seat about to draw too (a review's 下家, offered only 地聽 with
    # his discard once the dealer had discarded); the seat about to discard declares with that discard (ready_kind)
    heavenly = tuple(s for s in range(4) if (s != discard_seat or draws_first) and state.in_hand
                     and _ok(state, ev.DeclaredReady(seat=s, kind=ev.ReadyKind.HEAVENLY)))
    flowers = tuple(s for s in range(4) if _flower_ok(state, s, log))
    claims = _claims(state)
    wins = _wins(state)
    turn = state.turn
    actor = state.dealer if phase is Phase.FLOWERS else turn  # the dealer may kong before his first discard
    acting = phase is Phase.ACT or phase is Phase.FLOWERS
    ckong = acting and _ok(state, *kong_tap(state, ev.ConcealedKong(seat=actor, tile=UNSEEN), actor))
    added = tuple(m.tiles[0].code for m in state.seats[actor].melds if m.kind is MeldKind.PUNG
                  and _ok(state, ev.AddedKong(seat=actor, tile=m.tiles[0]))) if acting else ()
    # an added kong nobody robs, or an exposed kong nobody wins over: its replacement is drawn on a tap
    no_rob = phase in (Phase.ROB, Phase.REPLACE) and _ok(state, ev.ReplacementDrew(seat=turn))
    draw_seat = next_seat(turn) if phase is Phase.CLAIM and _ok(state, ev.Drew(seat=next_seat(turn))) else None
    exhaustive = _ok(state, ev.ExhaustiveDraw())
    decline = next_seat(turn) if phase is Phase.CLAIM and _ok(state, ev.DeclinedLastTile(seat=next_seat(turn))) else None
    penalties = tuple(s for s in range(4) if state.in_hand and _ok(state, ev.FalseWin(seat=s))
                      and _ok(state, ev.WrongCount(seat=s)))
    wrong_counts = tuple(s for s in penalties if wrong_count_refusal(state, s) is None)
    undo = state.prev is not None and state.last_index >= 0
    # what the seat to play may do besides discarding, as offered: after a chow or pung no kong and no win (he
    # drew no tile), where the prompt named them all (a host review)
    extras: tuple[str, ...] = ()
    if discard_seat is not None and not draws_first:
        extras = tuple(k for k, on in (("live_or_flower", discard_seat in flowers), ("live_or_kong", ckong or added),
                                       ("live_or_win", any(w.seat == discard_seat for w in wins))) if on)
    prompt = _prompt(state, discard_seat, draws_first, seating, session_over, bool(wins), extras)
    if discard_seat is not None and not draws_first and phase is Phase.ACT and \
            not any(w.seat == discard_seat for w in wins):  # the win button missing said why, where a rule bars it
        why = no_win_why(state, discard_seat, ev.WinKind.SELF_DRAW, barring=True)
        if why is not None:
            prompt = prompt + ui("live_p_no_win", why=why.zh, why_en=why.en)
    if shown is not None:
        prompt = _held_prompt(state, shown, wins, held is not None)
    return Offer(phase, at, prompt, seating, throws if phase is Phase.DEALER else -1, dice, discard_seat,
                 draws_first, ready_kind, heavenly, flowers, claims, wins, ckong, added, no_rob, draw_seat, exhaustive, decline,
                 penalties, undo, session_over, flower_held=None if held is None else (held[0], held[1].code),
                 wrong_counts=wrong_counts)


def _held_prompt(state: TableState, held: tuple[int, Tile], wins: tuple[WinChance, ...], replaced: bool) -> Words:
    """The prompt while the eighth flower waits for its replacement: whose win may take it on the spot (and, as
    the wall's last tile, the draw where nobody does: none is left to replace it)."""
    seat, flower = held
    names = state.players
    robbers = [w.seat for w in wins if w.kind is ev.WinKind.SEVEN_ROB_ONE]
    eight = any(w.kind is ev.WinKind.EIGHT_FLOWERS and w.seat == seat for w in wins)
    if not replaced:
        return ui("live_p_flower_last", seat=names[seat], tile=flower.zh, tile_en=flower.en)
    if robbers:
        return ui("live_p_flower_rob", seat=names[seat], tile=flower.zh, tile_en=flower.en,
                  robber="、".join(names[s] for s in robbers), robber_en=" or ".join(names[s] for s in robbers))
    if eight:
        return ui("live_p_flower_eight", seat=names[seat], tile=flower.zh, tile_en=flower.en)
    # the seat that could take it found 相公 or playing dead since it was shown (§2.16): nobody may win on it now
    return ui("live_p_flower_none", seat=names[seat], tile=flower.zh, tile_en=flower.en)


def exhaustive_words(state: TableState) -> Words:
    """The exhaustive draw's button: after the last discard (河底 passed), or, with the last tile just drawn face
    down, where that tile was a flower and none is left to replace it; a last tile that is no flower is discarded
    (and may still be won on), so the button says which case it records."""
    due = four_kongs_due(state)
    if due is not None and due[0] == "draw":
        return ui("live_four_kongs_draw")
    if state.phase is Phase.ACT:
        return ui("live_exhaustive_flower", seat=unbroken(state.players[state.turn]))
    return ui("live_exhaustive")


def nearest_winner(state: TableState) -> int | None:
    """Under 截胡 (only the nearest claimant wins), the seat that has won on the tile on offer, whom a nearer seat's
    win would replace; None under the other rules or before a win."""
    w = window(state)
    if state.switches.multi_win is not MultiWin.NEAREST or state.outcome is None or w is None \
            or not state.outcome.claimants:
        return None
    return min((c.seat for c in state.outcome.claimants), key=lambda s: offset(s, w.turn))


def voided(state: TableState) -> bool:
    """The hand ended on a 詐胡 that voids it (``false_win_after = void_hand``), and nobody has won on the tile
    since: another seat may still win on the tile that was on offer (a win beside the false one), else the same
    dealer deals again (spec §2.16)."""
    out = state.outcome
    return state.phase is Phase.HAND_OVER and out is not None and out.kind is OutcomeKind.FALSE_WIN and not out.winners


def false_win_penalty(state: TableState) -> str | None:
    """The ``false_win_penalty`` of the rules the table plays (its rule set with its house rules, spec §6.6); None
    where its rule set cannot be read now (a house set's file removed or broken since the table sat down), which the
    table's other words say: a prompt, drawn after every entry, is no place for its traceback."""
    try:
        return str(table_profile(load_profile(state.profile or None), state.switches).switch("false_win_penalty"))
    except ProfileError:
        return None


def also_wins_prompt(state: TableState, session_over: bool) -> Words:
    """The prompt after a win on a discard where another seat may win on the tile too: the table's rule for several
    winners said once, by the name the rule sets give it (:data:`SWITCHES`), then who else wins and what comes next
    (the Live tab's buttons under it say the rule no more: a review read it twice on one screen)."""
    rule = SWITCHES["multi_win"].choice_name(state.switches.multi_win.value)
    return ui("live_p_also_wins_last" if session_over else "live_p_also_wins", rule=rule[0], rule_en=rule[1])


def _session_ends(state: TableState) -> bool:
    return finish_hand(state).session_over


def _any_tile(state: TableState) -> Tile:
    """A tile with a copy still unknown, to ask the tracker whether a discard may come now."""
    return next(Tile(i) for i in range(34) if state.known[i] < 4)


def _flower_ok(state: TableState, seat: int, log: Sequence[ev.Event] = ()) -> bool:
    """Whether ``seat`` may show a flower now: laid and replaced, or the eighth shown for a win on the spot (the
    wall's last tile too, which nothing can replace)."""
    unseen = [f for f in FLOWERS if state.known[f] == 0]
    if not unseen:
        return False
    return _ok(state, *flower_tap(state, seat, unseen[0])) or \
        (len(unseen) == 1 and eighth_flower_tap(state, seat, unseen[0], log) is not None)


def _claims(state: TableState) -> tuple[Claim, ...]:
    w = window(state)
    if w is None or w.phase is not Phase.CLAIM or w.offer is None or state.phase is Phase.HAND_OVER:
        return ()
    t = w.offer
    names = state.players
    out: list[Claim] = []
    for seat in range(4):
        if seat == w.turn:
            continue
        who = names[seat]
        if seat == next_seat(w.turn) and t.is_suited:
            for a, b in ((-2, -1), (-1, 1), (1, 2)):
                x, y = t.next_in_suit(a), t.next_in_suit(b)
                if x is not None and y is not None:
                    pair = (x, y)
                    if _ok(state, ev.Chowed(seat=seat, tiles=pair, tile=t)):
                        run = tuple(sorted((pair[0], pair[1], t)))
                        out.append(Claim(seat, MeldKind.CHOW, tuple(x.code for x in run),
                                         Words(in_chinese(who, after="吃") + "吃", f"{who} chows")))
        if _ok(state, ev.Punged(seat=seat, tile=t)):
            out.append(Claim(seat, MeldKind.PUNG, (t.code,) * 3, Words(in_chinese(who, after="碰") + "碰", f"{who} pungs")))
        if _ok(state, *kong_tap(state, ev.ExposedKong(seat=seat, tile=t), seat)):
            out.append(Claim(seat, MeldKind.KONG, (t.code,) * 4, Words(in_chinese(who, after="槓") + "槓", f"{who} kongs")))
    return tuple(out)


def _wins(state: TableState) -> tuple[WinChance, ...]:
    names = state.players
    out: list[WinChance] = []
    if not names:
        return ()
    w = window(state)
    if w is not None and w.offer is not None and w.phase in (Phase.CLAIM, Phase.ROB):
        kind = ev.WinKind.ROBBED_KONG if w.phase is Phase.ROB else ev.WinKind.DISCARD
        claimed = {c.seat for c in state.outcome.claimants} if state.outcome is not None else set()
        # where only the nearest claimant wins (截胡), a seat farther than one who has won cannot change the hand
        winner = nearest_winner(state)
        nearest = offset(winner, w.turn) if winner is not None else 4
        # a seat that has melded the tile (a kong left open by a fourth kong, §2.13) has taken it: no win on it
        melded = state.claim_seat if state.claim_rank in (1, 2) else -1
        for seat in range(4):
            st = w.seats[seat]
            if seat in (w.turn, melded) or seat in claimed or seat in state.false_wins or st.dead or st.no_win:
                continue
            if offset(seat, w.turn) > nearest:
                continue
            out.append(_chance(w, seat, kind, w.offer.code))
    acting = state.phase is Phase.ACT or state.phase is Phase.FLOWERS
    if acting and state.phase is not Phase.HAND_OVER:
        seat = state.turn if state.phase is Phase.ACT else state.dealer
        st = state.seats[seat]
        if not st.dead and not st.no_win and own_win_refusal(state, seat) is None:
            out.append(_chance(state, seat, ev.WinKind.SELF_DRAW, None))
    # all eight laid, or seven and the eighth drawn (before its replacement, or as the wall's last tile, which the
    # self-draw's gate refuses: a flower held), as the tracker counts them; a review found seven laid offered 八仙過海
    # on every turn, which the tracker then refused, and the eighth drawn last never offered. Any seat's, as the
    # tracker takes it: a seat other than the dealer that lays his eighth at the deal wins then, not at his turn
    # Asked of the tracker's own check (a review: a 相公 holder of eight was offered it, and refused)
    if state.switches.eight_flowers and state.in_hand:
        for seat in sorted(range(4), key=lambda s: offset(s, state.turn)):
            if instant_win_refusal(state, seat, ev.WinKind.EIGHT_FLOWERS) is None:
                out.append(_chance(state, seat, ev.WinKind.EIGHT_FLOWERS, None))
    due = four_kongs_due(state)
    if due is not None and due[0] == "win" and due[1] is not None:  # 四槓: the fourth kong wins at once
        out.append(_chance(state, due[1], ev.WinKind.FOUR_KONGS, None))
    if state.in_hand and state.last_flower is not None and state.switches.seven_rob_one:
        for seat in range(4):  # (not a seat found 相公 or playing dead: the tracker's check, as for 八仙過海)
            if instant_win_refusal(state, seat, ev.WinKind.SEVEN_ROB_ONE) is None:
                out.append(_chance(state, seat, ev.WinKind.SEVEN_ROB_ONE, None))
    return tuple(out)


def flat_win(state: TableState, seat: int, kind: ev.WinKind) -> bool:
    """Whether ``seat``'s win ``kind`` now is paid flat whatever his hand, so no hand is asked (a review's 七搶一 and
    八仙過海 were asked 16 tiles that meant nothing, and took any): 七搶一 always, 八仙過海 but where it is scored on
    the hand it completes (on his turn just after a replacement, or the dealer's at the deal: evolve._record)."""
    if kind is ev.WinKind.SEVEN_ROB_ONE:
        return True
    if kind is not ev.WinKind.EIGHT_FLOWERS:
        return False
    if state.phase is Phase.FLOWERS:
        return not (state.act is ActKind.DEALT and seat == state.dealer)
    return not (state.phase is Phase.ACT and seat == state.turn and own_last_flower(state, seat) is None
                and state.act in (ActKind.FLOWER, ActKind.KONG, ActKind.DISCARD_KONG)
                and own_win_refusal(state, seat) is None)


def _chance(state: TableState, seat: int, kind: ev.WinKind, tile: str | None) -> WinChance:
    st = state.seats[seat]
    shown = 0 if flat_win(state, seat, kind) else sum(st.concealed[:34]) + st.concealed[Tile.UNKNOWN]
    if kind is ev.WinKind.SELF_DRAW:
        shown -= 1  # the drawn tile is entered apart
    hidden = sum(1 for m in st.melds if m.kind is MeldKind.CKONG and m.tile == UNSEEN)
    who = state.players[seat]
    return WinChance(seat, kind, tile, shown, hidden, Words(in_chinese(who, after=kind.zh) + kind.zh, f"{who}: {kind.en}"))


def _prompt(state: TableState, discard_seat: int | None, draws_first: bool, seating: bool,
            session_over: bool, more_winners: bool = False, extras: tuple[str, ...] = ()) -> Words:
    names = state.players
    if state.phase is Phase.HAND_OVER and more_winners:  # 一炮多響: the other winners first, then the next deal
        winner = nearest_winner(state)
        if winner is not None:  # 截胡: only a nearer seat is offered, and his win replaces this one
            return ui("live_p_nearer_wins_last" if session_over else "live_p_nearer_wins", winner=unbroken(names[winner]))
        if voided(state):  # the other seats' chance on the tile of a 詐胡, not a second winner's (its penalty not
            # said to be paid where the rules have none: a settlement review)
            return ui("live_p_false_others_unpaid" if false_win_penalty(state) == "none" else "live_p_false_others")
        return also_wins_prompt(state, session_over)
    if session_over:
        return ui("live_p_over")
    if seating:
        return ui("live_p_seat")
    phase = state.phase
    if phase is Phase.DEALER:
        how = state.switches.first_dealer
        return ui("live_p_dealer_one" if how is FirstDealer.ONE_THROW else "live_p_dealer_east"
                  if how is FirstDealer.EAST_DEALS else "live_p_dealer", east=names[0])
    if phase in (Phase.DICE, Phase.HAND_OVER):
        return ui("live_p_dice", dealer=names[dealer_after(state)])
    if phase is Phase.FLOWERS:
        return ui("live_p_flowers", dealer=names[state.dealer])
    due = four_kongs_due(state)
    if due is not None and due[0] == "win" and due[1] is not None:
        if phase is Phase.ROB:  # an added fourth kong: robbed, or his four-kongs win
            return ui("live_p_rob_four_kongs", seat=names[due[1]], tile=state.offer.zh if state.offer else "",
                      tile_en=state.offer.en if state.offer else "")
        return ui("live_p_four_kongs", seat=names[due[1]])
    if due is not None and due[0] == "draw" and phase is not Phase.ROB:
        return ui("live_p_four_kongs_split")
    if phase is Phase.ROB:
        return ui("live_p_rob", seat=names[state.turn], tile=state.offer.zh if state.offer else "",
                  tile_en=state.offer.en if state.offer else "")
    w = window(state)
    if phase is Phase.REPLACE and w is not None and w.offer is not None:  # an exposed kong of a discard
        return ui("live_p_kong_win", seat=names[state.turn], tile=w.offer.zh, tile_en=w.offer.en)
    if discard_seat is not None and draws_first:
        offer = state.offer
        return ui("live_p_claim", seat=names[discard_seat], tile=offer.zh if offer else "",
                  tile_en=offer.en if offer else "", who=names[state.turn])
    if discard_seat is not None and extras:  # a flower, a kong or a win named only where one is offered
        said = [ui(k) for k in extras]
        en = [w.en for w in said]
        return ui("live_p_act", seat=names[discard_seat], extras="、".join(w.zh for w in said),
                  extras_en=en[0] if len(en) == 1 else ", ".join(en[:-1]) + " or " + en[-1])
    if discard_seat is not None:
        return ui("live_p_act_plain", seat=names[discard_seat])
    if phase is Phase.CLAIM and state.live > 0:
        return ui("live_p_last", seat=names[next_seat(state.turn)])
    if phase is Phase.CLAIM:  # 河底: the wall is out
        offer = state.offer
        return ui("live_p_bottom", who=names[state.turn], tile=offer.zh if offer else "",
                  tile_en=offer.en if offer else "")
    return Words(phase.zh, phase.en)
