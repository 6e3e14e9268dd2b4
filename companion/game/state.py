"""The table state the events build (decider pattern): immutable, rebuilt by ``replay``.

Concealed hands are count arrays over the 42 faces plus ``0x`` (index 42): the tracker follows a
table whose concealed tiles it mostly cannot see, so a seat's hand is "these known tiles and n
unknown ones". ``known`` counts every known tile outside the wall, to refuse a fifth copy.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, fields
from enum import Enum
from typing import TYPE_CHECKING, Any, TypeVar

from companion.game.events import ReadyKind, WinKind
from companion.game.switches import SeatWind, Switches
from companion.game.text import Bilingual, Msg, seat_label
from companion.game.wall import Wall
from companion.hand import Meld, MeldKind
from companion.tiles import Tile

__all__ = [
    "SLOTS", "EMPTY", "Phase", "ActKind", "SeatState", "WinRecord", "Outcome", "OutcomeKind",
    "HandResult", "SessionRecord", "TableState", "add_tiles", "take_tiles", "can_take", "tiles_of", "seat_wind_of",
    "next_seat", "offset", "held_flower", "replace", "flower_on_offer", "seven_rob_target", "own_last_flower", "window", "UNK", "new_flower_pass",
    "concealed_kong_kinds", "concealed_kong_kind", "kongs_to_reveal",
]

_T = TypeVar("_T")
_REPLACERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _replacer(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    """A copy of a frozen, slotted dataclass with some fields changed, written out field by field for ``cls``.
    ``dataclasses.replace`` walks the fields' descriptions and calls ``__init__`` at each of the tracker's 4-5
    copies an event, about a third of replaying a log: a 30-hand game's 3161 events replayed in 0.30-0.36 s of CPU
    with it, 0.20-0.29 s with this (a loaded 2-core VM)."""
    if hasattr(cls, "__post_init__") or not all(f.init for f in fields(cls)):  # (none yet)
        return lambda obj, changes: dataclasses.replace(obj, **changes)
    names = [f.name for f in fields(cls)]
    code = ["def replace(obj, changes):", "    new = _new(cls)", "    if changes:", "        get = changes.pop"]
    code += [f"        _set(new, {n!r}, get({n!r}, obj.{n}))" for n in names]
    code += ["        if changes:", "            raise TypeError(f'{cls.__name__} has no field {next(iter(changes))!r}')",
             "    else:"]
    code += [f"        _set(new, {n!r}, obj.{n})" for n in names]
    code += ["    return new"]
    space: dict[str, Any] = {"_new": object.__new__, "_set": object.__setattr__, "cls": cls}
    exec("\n".join(code), space)  # noqa: S102 (the code is made of the class's own field names)
    made: Callable[[Any, dict[str, Any]], Any] = space["replace"]
    return made


def _fast_replace(obj: _T, /, **changes: Any) -> _T:
    """``dataclasses.replace`` for the tracker's records (frozen, slotted, every field set by ``__init__``, none
    checked after it): the same object, made faster."""
    try:
        made = _REPLACERS[type(obj)]
    except KeyError:
        made = _REPLACERS[type(obj)] = _replacer(type(obj))
    new: _T = made(obj, changes)
    return new


if TYPE_CHECKING:  # (mypy checks the fields named against the class)
    from dataclasses import replace
else:
    replace = _fast_replace

SLOTS = 43  # 42 faces + 0x
EMPTY: tuple[int, ...] = (0,) * SLOTS
UNK = int(Tile.UNKNOWN)


class Phase(Bilingual):
    SEATING = ("seating", "等待定位", "waiting for seating")
    DEALER = ("dealer", "等待起莊", "waiting for the first dealer")
    DICE = ("dice", "等待擲骰", "waiting for the dice")
    DEAL = ("deal", "等待配牌", "waiting for the deal")
    FLOWERS = ("flowers", "開局補花", "initial flower replacement")
    ACT = ("act", "等待出牌", "waiting for a discard")
    REPLACE = ("replace", "等待槓後補牌", "waiting for the kong's replacement")
    CLAIM = ("claim", "等待吃碰胡或摸牌", "claim window / next draw")
    ROB = ("rob", "加槓可被搶", "the added kong may be robbed")
    HAND_OVER = ("hand_over", "本局結束", "the hand is over")


class ActKind(Enum):
    """How the acting seat came to hold 17 tiles."""

    DEALT = "dealt"
    DRAWN = "drawn"
    CLAIMED = "claimed"  # after a chow or pung: discard only
    FLOWER = "flower"  # after a flower replacement
    KONG = "kong"  # after the replacement of a concealed or added kong
    DISCARD_KONG = "discard_kong"  # after the replacement of an exposed kong on a discard


class OutcomeKind(Bilingual):
    WIN = ("win", "胡牌", "win")
    MULTI_WIN = ("multi_win", "一炮多響", "several winners")
    INSTANT_WIN = ("instant_win", "特殊胡", "instant win")
    DRAW = ("draw", "流局", "exhaustive draw")
    DECLINED = ("declined", "不摸海底流局", "drawn, the last tile declined")  # (a draw in both: a review)
    FALSE_WIN = ("false_win", "詐胡", "false win")


@dataclass(frozen=True, slots=True)
class SeatState:
    concealed: tuple[int, ...] = EMPTY
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()
    discards: tuple[Tile, ...] = ()  # the river: claimed tiles leave it
    ready: ReadyKind | None = None
    barred: bool = False  # 過水
    # the tiles offered since the seat's last discard (others' discards and added kongs it did not win on) while its
    # hand was face down: its tiles shown at a win say whether one of them had won too (過水, §2.12)
    passed: tuple[Tile, ...] = ()
    # how its hand changed by kongs since it let the first of them go: the tiles the kongs took from it, those drawn
    # into it before each kong (0x where drawn face down), and its melds before the first kong; the hand it let them
    # go with is then the one shown at a win with these put back (a review: the bar was forgotten at every kong)
    passed_out: tuple[Tile, ...] = ()
    passed_in: tuple[Tile, ...] = ()
    passed_melds: tuple[Meld, ...] | None = None
    dead: bool = False  # false win under continue_dead
    no_win: bool = False  # 相公 under wrong_count = dead_hand: plays on, may not win
    known: bool = False  # the seat's hand is in the private store
    drawn: Tile | None = None  # the tile drawn this turn
    ready_now: bool = False  # declared this turn: the declaration's discard is free
    discards_made: int = 0
    draws_made: int = 0

    @property
    def size(self) -> int:
        """Structural count: concealed tiles (a flower awaiting replacement included) + 3 per meld."""
        return sum(self.concealed) + 3 * len(self.melds)

    @property
    def concealed_tiles(self) -> tuple[Tile, ...]:
        return tiles_of(self.concealed)

    @property
    def fully_known(self) -> bool:
        return self.concealed[UNK] == 0


@dataclass(frozen=True, slots=True)
class WinRecord:
    """What the scorer needs of one winner (spec §3.2), in seats; session.py adds the winds."""

    seat: int
    kind: WinKind
    tile: Tile | None
    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...]
    flowers: tuple[Tile, ...]
    discarder: int | None = None
    replacement: ActKind | None = None  # FLOWER, KONG or DISCARD_KONG
    replaced_kong: str = ""  # "ckong" / "addkong" for a KONG replacement
    last_tile: bool = False
    last_discard: bool = False
    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    ready: ReadyKind | None = None
    # what the log knew of his hand before he showed it (a correction must keep it): its known tiles, the
    # self-drawn one included, and that drawn tile where it was known
    logged: tuple[Tile, ...] = ()
    drawn: Tile | None = None
    corrected: bool = False  # his tiles were put right after the hand (WinCorrected)
    # where among ``melds`` the concealed kongs are that lay face down until the win named their kinds (Won.kongs):
    # typed into the win form, seen by no one before, so a correction may put them right (WinCorrected.kongs)
    face_down: tuple[int, ...] = ()
    kongs_corrected: bool = False  # a correction changed the kinds of those kongs (not only his other tiles)
    # the tiles he let go since his last discard, his hand face down, and how kongs changed it since (SeatState's
    # fields of the same names): a correction's tiles must not have won on one either (過水, §2.12)
    passed: tuple[Tile, ...] = ()
    passed_out: tuple[Tile, ...] = ()
    passed_in: tuple[Tile, ...] = ()
    passed_melds: tuple[Meld, ...] | None = None

    @property
    def eight_flowers_on_hand(self) -> bool:
        """八仙過海 declared with his 17 tiles on his turn just after a replacement (the eighth flower's, or a kong's
        with all eight laid) or by the dealer at the deal: scored as the hand they complete, if they complete one,
        with 8 added (spec §3.1; ``session.win_input``), as the same win entered as a self-draw is."""
        return self.kind is WinKind.EIGHT_FLOWERS and (self.replacement is not None or self.heavenly) \
            and len(self.concealed) + 3 * len(self.melds) == 17

    @property
    def tiles_count(self) -> bool:
        """Whether the tiles he showed decide his pay, so the host may put them right (``WinCorrected``): a win on
        a tile, or 八仙過海 on his hand; not another instant win (七搶一, 四槓, a later 八仙過海: paid flat)."""
        return self.tile is not None and not self.kind.is_instant or self.eight_flowers_on_hand


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: OutcomeKind
    winners: tuple[WinRecord, ...] = ()
    claimants: tuple[WinRecord, ...] = ()  # every declared win on the same tile, before multi_win
    offender: int | None = None  # the false-win seat (void_hand)
    false_wins: tuple[int, ...] = ()  # every false win of the hand (continue_dead included)
    false_claims: tuple[int | None, ...] = ()  # the tai each of them claimed, where known (§6.6)
    four_kongs: bool = False  # a draw four kongs split between players made, the wall not spent (§2.13)

    @property
    def three_wins_drawn(self) -> bool:
        """A draw made by three wins on one discard (``multi_win = three_is_draw``, spec §2.9)."""
        return self.kind is OutcomeKind.DRAW and not self.winners and len(self.claimants) >= 3

    @property
    def said(self) -> tuple[str, str]:
        """How the hand ended, in Chinese and English: the kind's words, but a draw that three wins on one discard
        made (``multi_win = three_is_draw``, spec §2.9) is said so, not as the exhaustive draw of an empty wall
        (a rules review), and so is one four kongs split between players made (§2.13)."""
        if self.three_wins_drawn:
            return "流局（三家胡同一張）", "drawn: three wins on one discard"
        if self.four_kongs and self.kind is OutcomeKind.DRAW:  # (said "exhaustive draw": a review)
            return "流局（四槓分屬不同家）", "drawn: four kongs by different players"
        return self.kind.zh, self.kind.en


@dataclass(frozen=True, slots=True)
class HandResult:
    """One finished hand, for the session ledger (spec §6.7)."""

    number: int  # hand number in the session, from 1
    round_wind: int  # 0-3 東南西北
    hand_in_round: int
    dealer: int
    streak: int
    dice_total: int
    seat_winds: tuple[int, ...]
    players: tuple[str, ...]
    outcome: Outcome
    # the stakes and the switches the hand was played with (a table may change them between hands); None: the
    # session's own
    stakes: tuple[int, int] | None = None
    switches: Switches | None = None
    known: tuple[int, ...] | None = None  # the tiles known at the hand's end (each face's count), for corrections


@dataclass(frozen=True, slots=True)
class SessionRecord:
    """A finished (or abandoned) session (一將) kept when the players are seated again."""

    players: tuple[str, ...]
    switches: Switches
    base: int
    per_tai: int
    profile: str
    first_dealer: int
    results: tuple[HandResult, ...]


@dataclass(frozen=True, slots=True)
class TableState:
    phase: Phase = Phase.SEATING
    switches: Switches = field(default_factory=Switches)
    players: tuple[str, ...] = ()
    base: int = 0
    per_tai: int = 0
    profile: str = ""
    first_dealer: int = 0
    dealer: int = 0
    streak: int = 0
    round_wind: int = 0
    hand_in_round: int = 1
    session_over: bool = False
    dice: tuple[int, ...] = ()
    wall: Wall | None = None
    seats: tuple[SeatState, ...] = (SeatState(),) * 4
    known: tuple[int, ...] = EMPTY  # known copies of each face outside the wall
    turn: int = 0  # the acting seat, or the discarder during a claim window
    act: ActKind = ActKind.DEALT
    offer: Tile | None = None  # the discard (CLAIM) or the added kong tile (ROB) on offer
    claim_base: TableState | None = field(default=None, compare=False, repr=False)
    claim_rank: int = 0  # 0 none, 1 chow, 2 pung/kong, 3 win: the claim already made on the offer
    claim_seat: int = -1
    passes: tuple[int, int, tuple[tuple[Tile, ...], ...]] = (0, -1, ((), (), (), ()))
    kong_kind: str = ""  # "ckong", "addkong" or "kong" while a kong waits for its replacement
    false_wins: tuple[int, ...] = ()
    false_claims: tuple[int | None, ...] = ()  # the tai each false win claimed, where known
    deals: int = 0  # hands dealt at this table (which hand a private hand belongs to)
    calls_made: bool = False
    last_tile_drawn: bool = False
    # a flower that has just turned up (for 七搶一, 八仙過海): laid, or drawn in play and not laid yet (the seat lays
    # it at once, §2.6, and it may be won on the spot before its replacement is drawn: see own_last_flower)
    last_flower: tuple[int, Tile] | None = None
    outcome: Outcome | None = None
    results: tuple[HandResult, ...] = ()
    past: tuple[SessionRecord, ...] = ()  # earlier sessions at this table
    # stakes and switches changed after a hand ended, for the next (StakesChanged): applied as the hand is closed,
    # so that the hand just over keeps its own, and its other winners (一炮多響) may still be entered
    next_terms: tuple[int, int, Switches] | None = None
    prev: TableState | None = field(default=None, compare=False, repr=False)
    log_len: int = field(default=0, compare=False)  # events applied, retractions included
    last_index: int = -1  # log position of the last effective event
    warnings: tuple[Msg, ...] = ()  # flags for the table to decide (e.g. a ready player passed a win)

    # --- derived --------------------------------------------------------------------------------

    @property
    def in_hand(self) -> bool:
        return self.phase in (Phase.FLOWERS, Phase.ACT, Phase.REPLACE, Phase.CLAIM, Phase.ROB)

    @property
    def live(self) -> int:
        return self.wall.live if self.wall else 0

    def who(self, seat: int, key: str = "seat") -> dict[str, str]:
        zh, en = seat_label(seat, self.players)
        return {key: zh, f"{key}_en": en}

    def seat_wind(self, seat: int) -> int:
        return seat_wind_of(self, seat)

    def seat(self, seat: int) -> SeatState:
        return self.seats[seat]


def held_flower(state: TableState) -> tuple[int, Tile] | None:
    """A known flower still in a concealed hand that must be replaced before play goes on."""
    seats = range(4) if state.phase is Phase.FLOWERS else (state.turn,)
    for s in seats:
        c = state.seats[s].concealed
        for i in range(34, 42):
            if c[i]:
                return s, Tile(i)
    return None


def flower_on_offer(state: TableState) -> tuple[int, Tile] | None:
    """The flower a holder of seven may rob (七搶一): the one just laid or drawn (``last_flower``), or, when the wall
    is empty (no tiles kept back, ``play_to_end``), a known flower the seat to act drew as the last tile and cannot
    replace."""
    if state.last_flower is not None:
        return state.last_flower
    if state.phase is Phase.ACT and state.wall is not None and state.wall.count == 0:
        return held_flower(state)
    return None


def seven_rob_target(state: TableState, seat: int) -> tuple[int, Tile] | None:
    """The eighth flower ``seat``, holding the other seven laid, may rob now (七搶一), and the seat that revealed it
    (who pays, spec §4.4): the flower another seat just laid (or, as the last tile, holds), or, when ``seat`` has
    just laid his own seventh, the eighth that another seat laid before (a 7 + 1 split dealt, or six and one
    before his seventh came: the eighth turned up with another player all the same). None when he may not."""
    if len(state.seats[seat].flowers) != 7:
        return None
    offered = flower_on_offer(state)
    if offered is not None and offered[0] != seat:
        return offered
    if state.last_flower is None or state.last_flower[0] != seat:
        return None
    mine = set(state.seats[seat].flowers)
    for other in range(4):
        eighth = [f for f in state.seats[other].flowers if f not in mine]
        if other != seat and eighth:
            return other, eighth[0]
    return None


def own_last_flower(state: TableState, seat: int) -> Tile | None:
    """The flower on offer that ``seat`` drew and has not laid yet: laid with his seven it makes his 八仙過海, as
    the holder of seven robs it from him (七搶一; laid as it is robbed).

    The default profile's reading (spec §4.2: 八仙過海 wins when "the player holds all eight flowers"; §4.4: the
    holder of seven "wins on the spot"): the eighth flower wins as it turns up, drawn from the head, as a
    replacement, or as the wall's last tile that nothing can replace; no replacement is drawn for it then (8 flat).
    八仙過海 may still be declared after the replacement, which may complete the hand (that hand and 8 more, §4.2);
    七搶一 too, until the drawer's next step. A flower dealt counts once laid in the initial replacement."""
    offered = flower_on_offer(state)
    if offered is not None and offered[0] == seat and state.seats[seat].concealed[offered[1]] > 0:
        return offered[1]
    return None


def concealed_kong_kinds(counts: tuple[int, ...]) -> tuple[Tile, ...]:
    """The kinds a concealed kong of this hand could be: four copies of one kind among its known tiles and the ones
    the log does not know (each kind held at least once; fewer than four unknown tiles, or any kind would do)."""
    unknown = counts[UNK]
    return tuple(Tile(i) for i in range(34) if counts[i] and counts[i] + unknown >= 4)


def concealed_kong_kind(counts: tuple[int, ...], tile: Tile) -> Tile:
    """The kind of a concealed kong logged as ``tile`` from this hand: as logged; or, logged face down (``0x``,
    spec §2.10: the camera may not see its kind) from a hand the log knows all but three tiles of at most, the one
    kind it could be (§2.10 "kind unknown" is kept where the tiles are face down, four of them or more). 0x where
    it cannot be told (:func:`concealed_kong_kinds` names the choices)."""
    if tile.is_known or counts[UNK] >= 4:
        return tile
    kinds = concealed_kong_kinds(counts)
    return kinds[0] if len(kinds) == 1 else tile


def kongs_to_reveal(st: SeatState, kongs: Iterable[Tile]) -> tuple[Tile, ...]:
    """The kinds a win shows of the seat's face-down kongs, less those that name a concealed kong whose kind the log
    knows already (one logged face down by a known hand, its kind inferred: :func:`concealed_kong_kind`)."""
    known: Counter[Tile] = Counter(m.tile for m in st.melds if m.kind is MeldKind.CKONG and m.tile != Tile.UNKNOWN)
    out = []
    for t in kongs:
        if known[t] > 0:
            known[t] -= 1
        else:
            out.append(t)
    return tuple(out)


def new_flower_pass(state: TableState, seat: int, flowers: Iterable[Tile]) -> bool:
    """During the initial replacement (§2.6): does this seat's replacement start the next pass (再補)?
    It does when the seat comes earlier in turn order than the last to replace, or is that seat again
    and lays a flower it received during this pass (such flowers are held back until the pass ends)."""
    _number, pos, held = state.passes
    off = offset(seat, state.dealer)
    return off < pos or (off == pos and any(f in held[seat] for f in flowers))


def window(state: TableState) -> TableState | None:
    """The state in which the tile on offer was offered (a discard or an added kong), or None.

    After a claim that a higher one may still outrank, that is the state before the claim, keeping
    what the table recorded since (a 相公, a false win played dead, a hand made known, a 天聽, a pass
    (過水), the flags): an outranking claim withdraws the claim, not those records."""
    if state.phase in (Phase.CLAIM, Phase.ROB) and state.claim_rank == 0:
        return state
    base = state.claim_base
    if not state.claim_rank or base is None:
        return None
    if state.phase is Phase.HAND_OVER:
        return base
    claimer = state.claim_seat
    seats = tuple(replace(b, known=c.known, no_win=c.no_win, dead=c.dead, ready=b.ready if s == claimer else c.ready,
                          barred=b.barred if s == claimer else c.barred)  # a pass logged since the claim
                  for s, (b, c) in enumerate(zip(base.seats, state.seats, strict=True)))
    # the tiles the claimer showed from his hand are back in it, and known there: the table saw them (a review: a win
    # outranking a kong of 5m forgot its three, and a correction of that win then showed three more)
    shown = _shown_by_claim(base, state.seats[claimer], claimer) if 0 <= claimer < 4 else ()
    known = base.known
    if shown:
        counts = list(seats[claimer].concealed)
        for t in shown:
            counts[t] += 1
            counts[UNK] -= 1
        seats = tuple(replace(st, concealed=tuple(counts)) if s == claimer else st for s, st in enumerate(seats))
        known = add_tiles(known, shown)
    return replace(base, seats=seats, known=known, false_wins=state.false_wins, false_claims=state.false_claims,
                   warnings=state.warnings)


def _shown_by_claim(base: TableState, now: SeatState, claimer: int) -> list[Tile]:
    """The tiles the claim made on ``base``'s offer showed from the claimer's unknown ones (his concealed tiles in
    ``base``); ``now`` is his seat after it."""
    before = base.seats[claimer]
    if base.offer is None or len(now.melds) <= len(before.melds):
        return []
    hand = list(now.melds[len(before.melds)].tiles)
    if base.offer not in hand:
        return []
    hand.remove(base.offer)
    return take_tiles(before.concealed, hand)[1]


def seat_wind_of(state: TableState, seat: int) -> int:
    """0-3 (東南西北) under the ``seat_wind`` switch (§2.15)."""
    conv = state.switches.seat_wind
    if conv is SeatWind.FIXED_SEATS:
        return seat % 4
    if conv is SeatWind.KAIMEN and state.wall is not None:
        return (seat - state.wall.owner) % 4
    return (seat - state.dealer) % 4


def next_seat(seat: int) -> int:
    """下家."""
    return (seat + 1) % 4


def offset(seat: int, start: int) -> int:
    """How many seats after ``start`` in turn order (0-3)."""
    return (seat - start) % 4


def tiles_of(counts: tuple[int, ...]) -> tuple[Tile, ...]:
    return tuple(Tile(i) for i, k in enumerate(counts) for _ in range(k))


def add_tiles(counts: tuple[int, ...], tiles: Iterable[Tile]) -> tuple[int, ...]:
    c = list(counts)
    for t in tiles:
        c[t] += 1
    return tuple(c)


def can_take(counts: tuple[int, ...], tiles: Iterable[Tile]) -> bool:
    """The tiles are in the hand, known ones matched first and the rest from unknown tiles."""
    c = list(counts)
    for t in tiles:
        if t != UNK and c[t] > 0:
            c[t] -= 1
        elif c[UNK] > 0:
            c[UNK] -= 1
        else:
            return False
    return True


def take_tiles(counts: tuple[int, ...], tiles: Iterable[Tile]) -> tuple[tuple[int, ...], list[Tile]]:
    """Remove tiles (known copies first, then unknown ones); returns the new counts and the tiles that
    became known by coming out of the unknown part. Assumes :func:`can_take`."""
    c = list(counts)
    revealed: list[Tile] = []
    for t in tiles:
        if t != UNK and c[t] > 0:
            c[t] -= 1
        else:
            c[UNK] -= 1
            if t != UNK:
                revealed.append(t)
    return tuple(c), revealed
