"""``evolve(state, event)``: the next state. It never checks and never fails on a checked event.

``step`` = :func:`companion.game.check.check` + ``evolve``; ``replay(events)`` rebuilds any state.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.game import events as ev
from companion.game.check_win import own_win_refusal
from companion.game.rotation import capped_streak, next_deal, resolve_claimants
from companion.game.state import (
    EMPTY,
    ActKind,
    HandResult,
    Outcome,
    OutcomeKind,
    Phase,
    SeatState,
    SessionRecord,
    TableState,
    WinRecord,
    add_tiles,
    concealed_kong_kind,
    kongs_to_reveal,
    new_flower_pass,
    offset,
    own_last_flower,
    replace,
    seat_wind_of,
    seven_rob_target,
    take_tiles,
    window,
)
from companion.game.switches import HumanWinWindow, Switches
from companion.game.text import msg, tile_names
from companion.game.wall import DEAL_TILES, Wall
from companion.game.winning import completes
from companion.hand import Meld, MeldKind, Source
from companion.rules.profiles import keep_rules
from companion.tiles import Tile

__all__ = ["evolve", "FLOWER_KEPT_PAST", "finish_hand", "source_of", "terms_ahead", "corrected_hand", "win_hand", "shown_kongs",
           "corrected_melds", "session_view",
           "seated_rules"]

_UNK = Tile.UNKNOWN


FLOWER_KEPT_PAST: tuple[type[ev.Event], ...] = (ev.HandKnown, ev.WrongCount, ev.FalseWin, ev.PassedWin,
                                                ev.DeclaredReady)
"""The table's records (a hand made known, a 相公, a 詐胡 played dead, a pass, a ready declaration: a 天聽 too) that the
eighth flower just laid or drawn stays on offer past, as a claim window does (a review: a legal 七搶一 was refused):
a draw logged face down before them may still be shown as that flower (the Live tab's correction)."""


def evolve(state: TableState, event: ev.Event) -> TableState:
    if isinstance(event, ev.Retracted):
        assert state.prev is not None
        return replace(state.prev, log_len=state.log_len + 1)
    new = _HANDLERS[type(event)](state, event)
    if new.results != state.results and not isinstance(event, ev.DiceRolled | ev.Seated | ev.WinCorrected):
        # a handler that rebuilds the table from the claim window (an outranking claim, a win, a 詐胡 on the tile)
        # starts from before a correction of an earlier hand made meanwhile: the correction stands
        new = replace(new, results=state.results)
    if state.next_terms is not None and new.next_terms is None and new.outcome is not None and \
            not isinstance(event, ev.StakesChanged):
        # a record made after the change on the hand just over (another winner, a 詐胡 on the same tile) is built
        # from the claim window, from before the change: the change stands
        new = replace(new, next_terms=state.next_terms)
    if isinstance(event, ev.Drew | ev.ReplacementDrew | ev.Discarded):
        new = _bar_silent_passers(state, new, event)
    # the first seating starts the undo history; seating again can be taken back, with the session before it (a
    # review: the next session seated in one tap left the last hand, which settles the night, beyond undo)
    prev = None if isinstance(event, ev.Seated) and not state.players else state
    # the eighth flower just laid (or drawn) stays on offer to 七搶一 past the table's records about other seats (a
    # hand made known, a 相公, a 詐胡 played dead, a pass, a ready declaration), as a claim window does (a review: a
    # legal 七搶一 was refused)
    kept = isinstance(event, (*FLOWER_KEPT_PAST, ev.FlowerReplaced, ev.Drew, ev.ReplacementDrew))  # (a flower
    # drawn: see _turned_up)
    return replace(new, prev=prev, log_len=state.log_len + 1, last_index=state.log_len,
                   last_flower=new.last_flower if kept else None)


# --- helpers ---------------------------------------------------------------------------------------

def _seat(state: TableState, seat: int, **changes: Any) -> tuple[SeatState, ...]:
    seats = list(state.seats)
    seats[seat] = replace(seats[seat], **changes)
    return tuple(seats)


def _know(known: tuple[int, ...], tiles: list[Tile] | tuple[Tile, ...]) -> tuple[int, ...]:
    return add_tiles(known, (t for t in tiles if t != _UNK))


def source_of(claimer: int, giver: int) -> Source:
    """The giver relative to the claimer: 上家 L, 對家 O, 下家 R."""
    return {1: Source.LEFT, 2: Source.OPPOSITE, 3: Source.RIGHT}[offset(claimer, giver)]


def _take(state: TableState, seat: int, tiles: tuple[Tile, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    counts, revealed = take_tiles(state.seats[seat].concealed, tiles)
    return counts, _know(state.known, revealed)


def _after_draw(state: TableState) -> bool:
    return state.last_tile_drawn or (state.wall is not None and state.wall.live <= 0)


def _window_base(state: TableState) -> TableState:
    """The state at the claim window: before any claim already made on the tile on offer."""
    return window(state) or state


# --- session ---------------------------------------------------------------------------------------

def _seated(state: TableState, e: ev.Seated) -> TableState:
    past = state.past
    done = finish_hand(state)
    if state.players and done.results:
        # the terms its last hand was played with (a change made after it was never played)
        past += (SessionRecord(state.players, state.switches, state.base, state.per_tai, state.profile,
                               state.first_dealer, done.results),)
    profile = seated_rules(e)
    return TableState(phase=Phase.DEALER, switches=e.switches, players=tuple(e.players), base=e.base,
                      per_tai=e.per_tai, profile=profile, past=past, deals=state.deals)  # deals: the table's


def seated_rules(e: ev.Seated) -> str:
    """What loads the rule set a seating is scored under: the values it kept, by their key, else its id."""
    return keep_rules(e.profile, e.rules) if e.rules else e.profile


def _dealer(state: TableState, e: ev.DealerChosen) -> TableState:
    return replace(state, phase=Phase.DICE, first_dealer=e.dealer, dealer=e.dealer, streak=0, round_wind=0,
                   hand_in_round=1)


def terms_ahead(state: TableState) -> tuple[int, int, Switches]:
    """The stakes 底/台 and the switches the next hand will be dealt with (a change made after the hand just over
    included)."""
    return state.next_terms if state.next_terms is not None else (state.base, state.per_tai, state.switches)


def hand_result(state: TableState) -> HandResult:
    """The hand as it stands, with its outcome, as the session's results record it."""
    assert state.outcome is not None
    return HandResult(len(state.results) + 1, state.round_wind, state.hand_in_round, state.dealer, state.streak,
                      sum(state.dice), tuple(seat_wind_of(state, s) for s in range(4)), state.players, state.outcome,
                      (state.base, state.per_tai), state.switches, state.known)


def finish_hand(state: TableState) -> TableState:
    """Move a finished hand into the results and advance dealer, N and round wind."""
    if state.outcome is None:
        return state
    result = hand_result(state)
    nd = next_deal(state.dealer, state.streak, state.round_wind, state.hand_in_round, state.first_dealer,
                   state.outcome, state.switches)
    done = replace(state, results=state.results + (result,), dealer=nd.dealer, streak=nd.streak,
                   round_wind=nd.round_wind, hand_in_round=nd.hand_in_round, session_over=nd.session_over,
                   outcome=None)
    if state.next_terms is not None:  # changed for the next hand (a lowered streak cap counts from it on)
        base, per_tai, switches = state.next_terms
        done = replace(done, base=base, per_tai=per_tai, switches=switches, next_terms=None,
                       streak=capped_streak(done.streak, switches))
    return done


def _stakes_changed(state: TableState, e: ev.StakesChanged) -> TableState:
    """Before the first hand, the stakes and rules change at once; after a hand they wait for it to be closed
    (by the next dice), so that it keeps its own and its other winners may still be entered."""
    if state.outcome is not None:
        terms = (e.base, e.per_tai, e.switches if e.switches is not None else terms_ahead(state)[2])
        # (changed back to the hand's own: nothing is left to change)
        return replace(state, next_terms=None if terms == (state.base, state.per_tai, state.switches) else terms)
    return replace(state, base=e.base, per_tai=e.per_tai,
                   switches=e.switches if e.switches is not None else state.switches)


def _dice(state: TableState, e: ev.DiceRolled) -> TableState:
    s = finish_hand(state)
    return replace(s, phase=Phase.DEAL, dice=tuple(e.dice),
                   wall=Wall(s.dealer, sum(e.dice), s.switches.reserve_rule), seats=(SeatState(),) * 4,
                   known=EMPTY, turn=s.dealer, act=ActKind.DEALT, offer=None, claim_base=None, claim_rank=0,
                   claim_seat=-1, passes=(0, -1, ((), (), (), ())), kong_kind="", false_wins=(), false_claims=(),
                   calls_made=False, last_tile_drawn=False, outcome=None, warnings=())


def _dealt(state: TableState, e: ev.Dealt) -> TableState:
    seats = tuple(replace(SeatState(), concealed=add_tiles(EMPTY, h)) for h in e.hands)
    known = _know(EMPTY, [t for h in e.hands for t in h])
    assert state.wall is not None
    return replace(state, phase=Phase.FLOWERS, seats=seats, known=known, wall=state.wall.take_head(DEAL_TILES),
                   turn=state.dealer, act=ActKind.DEALT, deals=state.deals + 1)


# --- draws and flowers -----------------------------------------------------------------------------

def _flower(state: TableState, e: ev.FlowerReplaced) -> TableState:
    counts, known = _take(state, e.seat, e.flowers)
    counts = add_tiles(counts, e.replacements)
    known = _know(known, e.replacements)
    st = state.seats[e.seat]
    seats = _seat(state, e.seat, concealed=counts, flowers=st.flowers + tuple(e.flowers),
                  drawn=e.replacements[-1])
    assert state.wall is not None
    # in play a replacement that is a flower again turns up last, to be laid at once (for 七搶一 and 八仙過海 on it)
    shown = e.replacements[-1] if state.phase is not Phase.FLOWERS and _is_flower(e.replacements[-1]) \
        else e.flowers[-1]
    new = replace(state, seats=seats, known=known, wall=state.wall.take_tail(len(e.replacements)),
                  last_flower=(e.seat, shown))
    if state.phase is Phase.FLOWERS:
        number, _pos, held = state.passes
        off = offset(e.seat, state.dealer)
        if new_flower_pass(state, e.seat, e.flowers):
            number, held = number + 1, ((), (), (), ())
        held_l = list(held)
        held_l[e.seat] = held_l[e.seat] + tuple(e.replacements)
        return replace(new, passes=(number, off, tuple(held_l)))
    act = state.act if state.act in (ActKind.KONG, ActKind.DISCARD_KONG) else ActKind.FLOWER
    if _laid_late(st.drawn, e.flowers):  # §2.6: a flower kept hidden is flagged
        new = replace(new, warnings=new.warnings + (msg("flower_late", **state.who(e.seat), tiles=tile_names(e.flowers),
                                                        tiles_en=" and ".join(f.said_en for f in e.flowers)),))
        if st.passed:  # the hand it passed with held that flower: not the one its tiles shown at a win say (a review)
            new = replace(new, seats=_seat(new, e.seat, **_NOTHING_PASSED))
    return replace(new, act=act, last_tile_drawn=_after_draw(new))


def _laid_late(drawn: Tile | None, flowers: tuple[Tile, ...]) -> bool:
    """Whether flowers laid in play were not the tile just drawn (or replaced), the one a player lays at once
    (§2.6): one held since an earlier turn, or laid after a claim. A drawn tile the log does not know (face
    down) may have been the flower, so one flower laid on it is not flagged."""
    if len(flowers) > 1 or drawn is None:
        return True
    return drawn.is_known and drawn != flowers[0]


def _is_flower(tile: Tile) -> bool:
    return tile.is_known and tile.is_flower


def _turned_up(seat: int, tile: Tile) -> tuple[int, Tile] | None:
    """A flower drawn in play turns up: on offer to 七搶一 and 八仙過海 before its replacement (state.own_last_flower)."""
    return (seat, tile) if _is_flower(tile) else None


def _drew(state: TableState, e: ev.Drew) -> TableState:
    st = state.seats[e.seat]
    seats = _seat(state, e.seat, concealed=add_tiles(st.concealed, (e.tile,)), drawn=e.tile,
                  draws_made=st.draws_made + 1)
    assert state.wall is not None
    new = replace(state, seats=seats, known=_know(state.known, (e.tile,)), wall=state.wall.take_head(),
                  phase=Phase.ACT, turn=e.seat, act=ActKind.DRAWN, offer=None, claim_base=None, claim_rank=0,
                  last_flower=_turned_up(e.seat, e.tile))
    return replace(new, last_tile_drawn=_after_draw(new))


def _replacement(state: TableState, e: ev.ReplacementDrew) -> TableState:
    st = state.seats[e.seat]
    seats = _seat(state, e.seat, concealed=add_tiles(st.concealed, (e.tile,)), drawn=e.tile)
    assert state.wall is not None
    new = replace(state, seats=seats, known=_know(state.known, (e.tile,)), wall=state.wall.take_tail(),
                  phase=Phase.ACT, turn=e.seat, offer=None, claim_base=None, claim_rank=0, claim_seat=-1,
                  last_flower=_turned_up(e.seat, e.tile))
    return replace(new, last_tile_drawn=_after_draw(new))


def _discarded(state: TableState, e: ev.Discarded) -> TableState:
    counts, known = _take(state, e.seat, (e.tile,))
    st = state.seats[e.seat]
    seats = _seat(state, e.seat, concealed=counts, discards=st.discards + (e.tile,), barred=False, **_NOTHING_PASSED,
                  drawn=None, discards_made=st.discards_made + 1, ready_now=False)
    return replace(state, seats=seats, known=known, phase=Phase.CLAIM, turn=e.seat, offer=e.tile,
                   claim_base=None, claim_rank=0, claim_seat=-1)


# --- claims and kongs ------------------------------------------------------------------------------

def _claim(state: TableState, seat: int, kind: MeldKind, hand_tiles: tuple[Tile, ...], rank: int) -> TableState:
    base = _window_base(state)
    assert base.offer is not None
    giver = base.turn
    g = base.seats[giver]
    seats = _seat(base, giver, discards=g.discards[:-1])
    base2 = replace(base, seats=seats)
    counts, known = _take(base2, seat, hand_tiles)
    meld = Meld(kind, hand_tiles + (base.offer,), source_of(seat, giver))
    st = base2.seats[seat]
    seats = _seat(base2, seat, concealed=counts, melds=st.melds + (meld,), drawn=None)
    is_kong = kind is MeldKind.KONG
    assert base.wall is not None
    new = replace(base2, seats=seats, known=known, turn=seat, claim_base=base, claim_rank=rank, claim_seat=seat,
                  calls_made=True, phase=Phase.REPLACE if is_kong else Phase.ACT,
                  act=ActKind.DISCARD_KONG if is_kong else ActKind.CLAIMED, kong_kind="kong" if is_kong else "",
                  wall=base.wall.with_kong() if is_kong else base.wall)
    return _release_bar(new, seat, base2.seats[seat], hand_tiles) if is_kong else new


_NOTHING_PASSED: dict[str, Any] = {"passed": (), "passed_out": (), "passed_in": (), "passed_melds": None}
"""A seat's tiles passed face down forgotten, with what its kongs changed since (SeatState's fields)."""


def _release_bar(state: TableState, seat: int, before: SeatState, taken: tuple[Tile, ...]) -> TableState:
    """A kong by ``seat`` (``before`` his seat before it; ``taken`` the tiles it took from his hand): a bar the
    switch releases at a kong goes, with the tiles passed face down; else those tiles are kept with what the kong
    changed in his hand, for the tiles shown at a win to say whether one had won (check_win.passed_shown)."""
    if state.switches.passed_win_released_by_kong:
        if before.barred or before.passed:
            return replace(state, seats=_seat(state, seat, barred=False, **_NOTHING_PASSED))
        return state
    if not before.passed:
        return state
    if any(not t.is_known for t in taken):  # a kong laid face down, its kind unseen: the hand then is not known, and
        # the tiles passed are forgotten, as before kongs were followed (a review: a 槓上開花 after one crashed)
        return replace(state, seats=_seat(state, seat, **_NOTHING_PASSED))
    drawn = (before.drawn,) if before.drawn is not None else ()
    return replace(state, seats=_seat(state, seat, passed_out=before.passed_out + taken,
                                      passed_in=before.passed_in + drawn,
                                      passed_melds=before.melds if before.passed_melds is None else
                                      before.passed_melds))


def _chowed(state: TableState, e: ev.Chowed) -> TableState:
    return _claim(state, e.seat, MeldKind.CHOW, tuple(e.tiles), 1)


def _punged(state: TableState, e: ev.Punged) -> TableState:
    return _claim(state, e.seat, MeldKind.PUNG, (e.tile, e.tile), 2)


def _exposed_kong(state: TableState, e: ev.ExposedKong) -> TableState:
    return _claim(state, e.seat, MeldKind.KONG, (e.tile,) * 3, 2)


def _added_kong(state: TableState, e: ev.AddedKong) -> TableState:
    counts, known = _take(state, e.seat, (e.tile,))
    st = state.seats[e.seat]
    melds = tuple(Meld(MeldKind.ADDKONG, m.tiles + (e.tile,), m.source)
                  if m.kind is MeldKind.PUNG and m.tile == e.tile else m for m in st.melds)
    assert state.wall is not None
    new = replace(state, seats=_seat(state, e.seat, concealed=counts, melds=melds, drawn=None), known=known,
                  phase=Phase.ROB, offer=e.tile, act=ActKind.KONG, kong_kind="addkong", calls_made=True,
                  wall=state.wall.with_kong(), claim_base=None, claim_rank=0)
    return _release_bar(new, e.seat, st, (e.tile,))


def _concealed_kong(state: TableState, e: ev.ConcealedKong) -> TableState:
    st = state.seats[e.seat]
    tile = concealed_kong_kind(st.concealed, e.tile)  # logged face down: the one kind a known hand could kong
    counts, known = _take(state, e.seat, (tile,) * 4)
    meld = Meld(MeldKind.CKONG, (tile,) * 4)
    assert state.wall is not None
    new = replace(state, seats=_seat(state, e.seat, concealed=counts, melds=st.melds + (meld,), drawn=None),
                  known=known, phase=Phase.REPLACE, act=ActKind.KONG, kong_kind="ckong", calls_made=True,
                  wall=state.wall.with_kong())
    return _release_bar(new, e.seat, st, (tile,) * 4)


def _ready(state: TableState, e: ev.DeclaredReady) -> TableState:
    """A declaration made with a discard leaves that discard free; 天聽 before the first draw does not."""
    with_discard = e.seat == state.turn and state.phase in (Phase.ACT, Phase.FLOWERS)
    return replace(state, seats=_seat(state, e.seat, ready=e.kind, ready_now=with_discard))


def _passed(state: TableState, e: ev.PassedWin) -> TableState:
    """過水; a declared-ready player may not pass a win: the tracker flags it for the table (§2.11)."""
    new = replace(state, seats=_seat(state, e.seat, barred=True))
    if state.seats[e.seat].ready is not None:
        new = replace(new, warnings=state.warnings + (msg("ready_passed", **state.who(e.seat)),))
    return new


def _bar_silent_passers(state: TableState, new: TableState, event: ev.SeatEvent) -> TableState:
    """§2.12: the tile on offer is gone (the next draw, or the claimer's discard or replacement) and a
    seat whose hand the log knows could have won on it without claiming: barred, as if it had logged
    :class:`~companion.game.events.PassedWin` (the claimer's own discard ends his bar at once)."""
    w = window(state)
    if w is None or w.offer is None or new.phase is Phase.HAND_OVER:
        return new
    released = state.switches.passed_win_released_by_kong and state.kong_kind == "kong"
    for seat in range(4):
        st = w.seats[seat]
        if seat == w.turn or new.seats[seat].barred or st.dead or st.no_win:
            continue
        if not st.fully_known:  # face down: kept, for the tiles shown at a win to say (check_win.passed_shown)
            if not (state.claim_rank and seat == state.claim_seat):
                new = replace(new, seats=_seat(new, seat, passed=new.seats[seat].passed + (w.offer,)))
            continue
        if state.claim_rank and seat == state.claim_seat and (isinstance(event, ev.Discarded) or released):
            continue
        if completes(st.concealed, st.melds, w.offer):
            new = _passed(new, ev.PassedWin(seat=seat, tile=w.offer))
    return new


def _wrong_count(state: TableState, e: ev.WrongCount) -> TableState:
    """相公: under ``dead_hand`` the seat may not win for the rest of the hand; else only a warning."""
    key = "big_count" if e.big else "small_count"
    warned = replace(state, warnings=state.warnings + (msg(key, **state.who(e.seat)),))
    if state.switches.wrong_count.value == "dead_hand":
        return replace(warned, seats=_seat(state, e.seat, no_win=True))
    return warned


def _hand_known(state: TableState, e: ev.HandKnown) -> TableState:
    return replace(state, seats=_seat(state, e.seat, known=True))


# --- the end of a hand -----------------------------------------------------------------------------

def _reveal(state: TableState, e: ev.Won) -> TableState:
    """The winner's concealed part and face-down kongs become known (an instant win shown with no hand, paid flat,
    leaves his hand as the table knew it)."""
    st = state.seats[e.seat]
    if e.kind.flat_without_hand and not e.concealed and not e.kongs:
        return state
    hand = tuple(e.concealed) + ((e.tile,) if e.kind is ev.WinKind.SELF_DRAW and e.tile is not None else ())
    known = list(state.known)
    for i, k in enumerate(st.concealed[:42]):
        known[i] -= k
    for t in hand:
        known[t] += 1
    kinds = iter(kongs_to_reveal(st, e.kongs))
    melds = []
    for m in st.melds:
        if m.kind is MeldKind.CKONG and m.tile == _UNK:
            kind = next(kinds, _UNK)
            m = Meld(MeldKind.CKONG, (kind,) * 4)
            if kind != _UNK:
                known[kind] += 4
        melds.append(m)
    return replace(state, known=tuple(known),
                   seats=_seat(state, e.seat, concealed=add_tiles(EMPTY, hand), melds=tuple(melds)))


def _lay(state: TableState, seat: int, flower: Tile) -> TableState:
    """``seat`` lays the flower he drew (known to the log already) as an instant win takes it, with no replacement."""
    counts, known = _take(state, seat, (flower,))
    st = state.seats[seat]
    return replace(state, known=known, seats=_seat(state, seat, concealed=counts, flowers=st.flowers + (flower,)))


def _record(window: TableState, e: ev.Won, revealed: SeatState, on_spot: bool = False) -> WinRecord:
    st = window.seats[e.seat]
    kind = e.kind
    first = st.discards_made == 0 and not window.calls_made
    giver: int | None = None
    if kind in (ev.WinKind.DISCARD, ev.WinKind.ROBBED_KONG):
        giver = window.turn
    elif kind is ev.WinKind.SEVEN_ROB_ONE and (offered := seven_rob_target(window, e.seat)) is not None:
        giver = offered[0]
    self_draw = kind is ev.WinKind.SELF_DRAW
    if window.switches.human_win_window is HumanWinWindow.FIRST_GO_AROUND:
        # spec §4.2: a discard of the first go-around (each seat's first, no call yet), whoever wins on it
        human = giver is not None and window.seats[giver].discards_made == 1 and not window.calls_made
    else:  # the traditional reading: a non-dealer who has not discarded yet
        human = e.seat != window.dealer and first
    # 八仙過海 declared on his turn just after a replacement (the eighth flower laid and replaced): the replacement
    # may complete his hand, which is then scored as usual and 8 added (spec §3.1; session.win_input), where the
    # same win entered as a self-draw would be taken (not barred by a passed win, spec §2.12): else 8 flat
    # (declared on the spot, on the eighth flower drawn, he has no replacement: 8 flat)
    on_replacement = self_draw or (kind is ev.WinKind.EIGHT_FLOWERS and window.turn == e.seat and not on_spot
                                   and window.phase is Phase.ACT and own_win_refusal(window, e.seat) is None)
    repl = window.act if on_replacement and window.act in (ActKind.FLOWER, ActKind.KONG, ActKind.DISCARD_KONG) \
        else None
    own = self_draw or repl is not None  # won on his own draw or replacement
    # 八仙過海 at the deal (the phase lasts until the dealer's first discard or kong): the dealer's 17 tiles after the
    # replacements are his dealt hand, which may be 天胡 (spec §3.1, §4.2; as the same win entered as a self-draw is)
    dealt = kind is ev.WinKind.EIGHT_FLOWERS and window.phase is Phase.FLOWERS and window.act is ActKind.DEALT
    return WinRecord(
        seat=e.seat, kind=kind, tile=e.tile, concealed=tuple(e.concealed), melds=revealed.melds,
        flowers=revealed.flowers, discarder=giver, replacement=repl,
        replaced_kong=window.kong_kind if repl is ActKind.KONG else "",
        last_tile=own and window.last_tile_drawn,
        last_discard=kind is ev.WinKind.DISCARD and window.last_tile_drawn,
        heavenly=(own or dealt) and e.seat == window.dealer and first,
        earthly=own and e.seat != window.dealer and first,
        human=kind is ev.WinKind.DISCARD and human,
        ready=st.ready,
        logged=tuple(Tile(i) for i in range(34) for _ in range(st.concealed[i])),
        drawn=st.drawn if own and window.act is not ActKind.DEALT and st.drawn is not None
        and st.drawn.is_known else None,
        passed=st.passed, passed_out=st.passed_out, passed_in=st.passed_in, passed_melds=st.passed_melds,
        face_down=tuple(i for i, m in enumerate(st.melds) if m.kind is MeldKind.CKONG and m.tile == _UNK
                        and i < len(revealed.melds) and revealed.melds[i].kind is MeldKind.CKONG),
    )


def _won(state: TableState, e: ev.Won) -> TableState:
    on_spot = False  # 八仙過海 or 七搶一 on the eighth flower just drawn, laid as it wins: no replacement is drawn
    if e.kind is ev.WinKind.EIGHT_FLOWERS and (last := own_last_flower(state, e.seat)) is not None:
        state, on_spot = _lay(state, e.seat, last), True
    if e.kind is ev.WinKind.SEVEN_ROB_ONE and (target := seven_rob_target(state, e.seat)) is not None and \
            own_last_flower(state, target[0]) is not None:
        state, on_spot = _lay(state, target[0], target[1]), True  # (still on offer, as last_flower: who pays)
    if e.kind not in (ev.WinKind.DISCARD, ev.WinKind.ROBBED_KONG):
        cur = _reveal(state, e)
        rec = _record(state, e, cur.seats[e.seat], on_spot)
        kind = OutcomeKind.WIN if e.kind is ev.WinKind.SELF_DRAW else OutcomeKind.INSTANT_WIN
        out = Outcome(kind, (rec,), (rec,), false_wins=state.false_wins, false_claims=state.false_claims)
        return replace(cur, phase=Phase.HAND_OVER, outcome=out, claim_base=None, claim_rank=0)
    more = state.claim_rank == 3 and state.outcome is not None
    window = state.claim_base if more and state.claim_base is not None else _window_base(state)
    cur = state if more else window
    if e.kind is ev.WinKind.ROBBED_KONG and not (more and state.outcome is not None and state.outcome.claimants):
        cur = _unkong(cur)  # once, by the first robbing win (after a 詐胡 on the kong too)
    cur = _reveal(cur, e)
    rec = _record(window, e, cur.seats[e.seat])
    before = state.outcome.claimants if more and state.outcome is not None else ()
    out = resolve_claimants(before + (rec,), window.turn, state.switches)
    return replace(cur, phase=Phase.HAND_OVER,
                   outcome=replace(out, false_wins=state.false_wins, false_claims=state.false_claims),
                   claim_base=window, claim_rank=3, claim_seat=e.seat)


def corrected_hand(state: TableState, hand: int) -> tuple[HandResult, bool] | None:
    """The finished hand ``hand`` (from 1) of the session, and whether it is the one just over (not yet closed)."""
    if 1 <= hand <= len(state.results):
        return state.results[hand - 1], False
    if state.outcome is not None and hand == len(state.results) + 1:
        return hand_result(state), True
    return None


def win_hand(rec: WinRecord) -> tuple[Tile, ...]:
    """The tiles a winner showed that the table had not seen: his concealed ones and a self-drawn winning tile."""
    return rec.concealed + ((rec.tile,) if rec.kind is ev.WinKind.SELF_DRAW and rec.tile is not None else ())


def shown_kongs(rec: WinRecord) -> tuple[Tile, ...]:
    """The tiles of the winner's concealed kongs that lay face down until he won (four of each kind he named)."""
    return tuple(t for i in rec.face_down if i < len(rec.melds) for t in rec.melds[i].tiles if t != _UNK)


def corrected_melds(rec: WinRecord, kongs: tuple[Tile, ...]) -> tuple[Meld, ...]:
    """The winner's melds with the kinds of his face-down concealed kongs put right (``WinCorrected.kongs``, in the
    order the win named them); as recorded where ``kongs`` is empty. His other melds the table saw: they stay."""
    if not kongs:
        return rec.melds
    melds = list(rec.melds)
    for i, kind in zip(rec.face_down, kongs, strict=False):
        if kind != _UNK:  # (one left unnamed stays so: an old log's, its place kept in the Ledger's form)
            melds[i] = Meld(MeldKind.CKONG, (kind,) * 4)
    return tuple(melds)


def session_view(state: TableState, session: int) -> TableState | None:
    """The table as an earlier session (一將, from 1 as the Ledger numbers them) left it, for a correction of one of
    its wins; None for the session under way (0, or the number after the earlier ones' last)."""
    if session == 0 or session == len(state.past) + 1:
        return None
    p = state.past[session - 1]
    return TableState(phase=Phase.HAND_OVER, switches=p.switches, players=p.players, base=p.base, per_tai=p.per_tai,
                      profile=p.profile, first_dealer=p.first_dealer, results=p.results)


def _win_corrected(state: TableState, e: ev.WinCorrected) -> TableState:
    earlier = session_view(state, e.session)
    if earlier is not None:  # that session's results put right; the table plays on as it was
        fixed = _win_corrected(earlier, replace(e, session=0))
        past = list(state.past)
        past[e.session - 1] = replace(past[e.session - 1], results=fixed.results)
        return replace(state, past=tuple(past))
    found = corrected_hand(state, e.hand)
    assert found is not None
    result, current = found
    out = result.outcome
    rec = next(w for w in out.winners if w.seat == e.seat)
    new = replace(rec, concealed=tuple(e.concealed), tile=e.tile if e.tile is not None else rec.tile, corrected=True,
                  melds=corrected_melds(rec, e.kongs))
    if sorted(shown_kongs(new)) != sorted(shown_kongs(rec)):  # (the Ledger's CSV names them only then)
        new = replace(new, kongs_corrected=True)
    known = list(result.known or EMPTY)
    for t in (*win_hand(rec), *shown_kongs(rec)):
        known[t] -= 1
    for t in (*win_hand(new), *shown_kongs(new)):
        known[t] += 1
    out = replace(out, winners=tuple(new if w is rec else w for w in out.winners),
                  claimants=tuple(new if c == rec else c for c in out.claimants))
    if current:
        return replace(state, outcome=out, known=tuple(known),
                       seats=_seat(state, e.seat, concealed=add_tiles(EMPTY, win_hand(new)), melds=new.melds))
    results = list(state.results)
    results[e.hand - 1] = replace(result, outcome=out, known=tuple(known))
    return replace(state, results=tuple(results))


def _unkong(state: TableState) -> TableState:
    """A robbed added kong: the pung stays a pung and the robbed tile counts as his discard."""
    seat, tile = state.turn, state.offer
    assert tile is not None
    st = state.seats[seat]
    melds = tuple(Meld(MeldKind.PUNG, m.tiles[:3], m.source)
                  if m.kind is MeldKind.ADDKONG and m.tile == tile else m for m in st.melds)
    return replace(state, seats=_seat(state, seat, melds=melds, discards=st.discards + (tile,)))


def _end(state: TableState, kind: OutcomeKind, four_kongs: bool = False) -> TableState:
    return replace(state, phase=Phase.HAND_OVER,
                   outcome=Outcome(kind, false_wins=state.false_wins, false_claims=state.false_claims,
                                   four_kongs=four_kongs),
                   claim_base=None, claim_rank=0)


def split_four_kongs(state: TableState) -> bool:
    """Four kongs split between players: a draw where the ``four_kongs`` item is on (§2.13)."""
    per_seat = [sum(1 for m in st.melds if m.is_kong) for st in state.seats]
    return state.switches.four_kongs and sum(per_seat) >= 4 and max(per_seat) < sum(per_seat)


def _exhaustive(state: TableState, e: ev.ExhaustiveDraw) -> TableState:
    return _end(state, OutcomeKind.DRAW, four_kongs=split_four_kongs(state))


def _declined(state: TableState, e: ev.DeclinedLastTile) -> TableState:
    return _end(state, OutcomeKind.DECLINED)


def _false_win(state: TableState, e: ev.FalseWin) -> TableState:
    fw, fc = state.false_wins + (e.seat,), state.false_claims + (e.claimed_tai,)
    if state.phase is Phase.HAND_OVER:  # a false claim on a tile another seat wins on (or also claimed falsely)
        assert state.outcome is not None
        return replace(state, false_wins=fw, false_claims=fc,
                       outcome=replace(state.outcome, false_wins=fw, false_claims=fc))
    if state.switches.false_win_after.value == "void_hand":
        # the hand is void, but a tile on offer may still be won by another seat (a win on one discard beside
        # the false one): its window stays open as after a declared win; the discarder's 詐胡 is no claim on it
        w = window(state)
        if w is not None and e.seat == w.turn:
            w = None
        base = state if w is None else w
        return replace(base, phase=Phase.HAND_OVER, false_wins=fw, false_claims=fc, claim_base=w,
                       claim_rank=0 if w is None else 3, claim_seat=e.seat,
                       outcome=Outcome(OutcomeKind.FALSE_WIN, offender=e.seat, false_wins=fw, false_claims=fc))
    return replace(state, false_wins=fw, false_claims=fc, seats=_seat(state, e.seat, dead=True))


_HANDLERS: dict[type, Callable[[TableState, Any], TableState]] = {
    ev.Seated: _seated, ev.DealerChosen: _dealer, ev.StakesChanged: _stakes_changed, ev.DiceRolled: _dice, ev.Dealt: _dealt,
    ev.FlowerReplaced: _flower, ev.Drew: _drew, ev.Discarded: _discarded, ev.Chowed: _chowed,
    ev.Punged: _punged, ev.ExposedKong: _exposed_kong, ev.AddedKong: _added_kong,
    ev.ConcealedKong: _concealed_kong, ev.ReplacementDrew: _replacement, ev.DeclaredReady: _ready,
    ev.Won: _won, ev.PassedWin: _passed, ev.ExhaustiveDraw: _exhaustive, ev.DeclinedLastTile: _declined,
    ev.FalseWin: _false_win, ev.WrongCount: _wrong_count, ev.HandKnown: _hand_known,
    ev.WinCorrected: _win_corrected,
}
