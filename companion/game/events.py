"""The events of a table, one frozen dataclass per thing that happens (issue 4, item 1).

Every event names its seat (0-3 in turn order; seat 0 is the East seat of the seat draw), the tiles
where known (``0x`` where not) and its ``source``: ``camera``, ``manual`` or ``inferred`` (implied by an entry,
as the draw before a discard entered at the table); ``simulated`` marks each event of a log ``companion simulate``
wrote, which no game at a table writes. The log is append-only: an undo or a correction appends a
:class:`Retracted` (and the replacement event).

Saved logs are JSON lines; each line carries the schema version ``v``. :func:`from_dict` upgrades
older versions through :data:`UPGRADES` (version -> function returning the next version's dict). Each line also
carries the version of the tracker's rules the event was checked under when it was entered (``rules_version``,
:data:`RULES_VERSION`): a log replays under the rules of its day, and only under those (see
:func:`companion.game.check_win.checked_since`).
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from enum import Enum
from types import UnionType
from typing import Any, Union

from companion.game.switches import Switches
from companion.game.text import Msg, msg
from companion.rules.said import json_said, json_written
from companion.tiles import NotationError, Tile, parse_tiles

__all__ = [
    "SCHEMA_VERSION", "RULES_VERSION", "UPGRADES", "EventError", "EventSource", "ReadyKind", "WinKind", "Event", "SeatEvent",
    "Seated", "DealerChosen", "StakesChanged", "DiceRolled", "Dealt", "FlowerReplaced", "Drew", "Discarded", "Chowed",
    "Punged", "ExposedKong", "AddedKong", "ConcealedKong", "ReplacementDrew", "DeclaredReady", "Won",
    "PassedWin", "ExhaustiveDraw", "DeclinedLastTile", "FalseWin", "WrongCount", "HandKnown", "WinCorrected",
    "Retracted", "FLOWER_SHOWN_NOTE", "SET_ASIDE_NOTE",
    "EVENT_TYPES", "EVENT_HINTS", "to_dict", "from_dict", "as_written",
]

SCHEMA_VERSION = 4

RULES_VERSION = 1
"""The version of the tracker's checks that an event entered now is held to, stamped in the log with the event
(``Event.rules_version``). A check added later that a log kept before may fail is asked of a replayed event only
where its stamp is that check's version or later: bump this when adding one (the rule is written out at
:func:`companion.game.check_win.checked_since`). An event of a log kept before the stamp reads as 0."""


class EventError(ValueError):
    """A saved event that cannot be read: unknown type, bad field, a version from the future.
    ``reason`` says why in both languages."""

    def __init__(self, reason: Msg) -> None:
        self.reason = reason
        super().__init__(str(reason))

    def at_line(self, line: int) -> EventError:
        """The same error, naming the line of the log it was read from."""
        return EventError(msg("ev_line", line=line, zh=self.reason.zh, en=self.reason.en))


class EventSource(Enum):
    CAMERA = "camera"
    MANUAL = "manual"
    INFERRED = "inferred"  # logged because an entry implies it (the draw before a discard entered at the table)
    SIMULATED = "simulated"  # each event of a log bots played (companion simulate): its mark, which a real game's
    # log never carries (simulate --out replaces only a log so marked: a review lost a real game seated with the
    # simulator's player names to it)


class ReadyKind(Enum):
    READY = "ready"  # 報聽
    HEAVENLY = "heavenly"  # 天聽
    EARTHLY = "earthly"  # 地聽

    @property
    def zh(self) -> str:
        return {"ready": "報聽", "heavenly": "天聽", "earthly": "地聽"}[self.value]

    @property
    def en(self) -> str:
        return {"ready": "declared ready", "heavenly": "heavenly ready", "earthly": "earthly ready"}[self.value]


class WinKind(Enum):
    DISCARD = "discard"
    SELF_DRAW = "self_draw"
    ROBBED_KONG = "robbed_kong"
    EIGHT_FLOWERS = "eight_flowers"  # 八仙過海
    SEVEN_ROB_ONE = "seven_rob_one"  # 七搶一
    FOUR_KONGS = "four_kongs"  # 四槓 (where the item is on)

    @property
    def is_instant(self) -> bool:
        """An instant win (spec §3.1): won on no tile, the hand ended at once."""
        return self in (WinKind.EIGHT_FLOWERS, WinKind.SEVEN_ROB_ONE, WinKind.FOUR_KONGS)

    @property
    def flat_without_hand(self) -> bool:
        """An instant win that may be shown with no hand at all, paid flat (七搶一, a 八仙過海 not on the hand it
        completes: ``live_offer.flat_win``); not 四槓, won by the hand its four kongs are part of (spec §4.4)."""
        return self in (WinKind.EIGHT_FLOWERS, WinKind.SEVEN_ROB_ONE)

    @property
    def zh(self) -> str:
        return {"discard": "胡（別家放槍）", "self_draw": "自摸", "robbed_kong": "搶槓", "eight_flowers": "八仙過海",
                "seven_rob_one": "七搶一", "four_kongs": "四槓"}[self.value]

    @property
    def en(self) -> str:
        return {"discard": "win on a discard", "self_draw": "self-drawn win", "robbed_kong": "robbed kong",
                "eight_flowers": "eight flowers", "seven_rob_one": "seven rob one", "four_kongs": "four kongs"}[self.value]

    @property
    def won_en(self) -> str:
        """What a winner did, after his name ("小美 wins on a discard"; the kind's own name read "小美 win on a
        discard": a review)."""
        return {"discard": "wins on a discard", "self_draw": "wins self-drawn", "robbed_kong": "wins robbing a kong",
                "eight_flowers": "wins with eight flowers", "seven_rob_one": "wins seven rob one",
                "four_kongs": "wins with four kongs"}[self.value]


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Base of every event: where it came from, and the version of the rules it was checked under when it was
    entered (:data:`RULES_VERSION` for one entered now; 0 for one of a log kept before events were stamped). The
    stamp says how the event was checked, not what happened: two events alike but for it are equal."""

    source: EventSource = EventSource.MANUAL
    rules_version: int = field(default=RULES_VERSION, compare=False, repr=False)


@dataclass(frozen=True, slots=True)
class SeatEvent(Event):
    """An event done by one seat (0-3 in turn order)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Seated(Event):
    """定位: the four players in turn order from the East seat, the switches and the stakes 底/台."""

    players: tuple[str, ...]
    switches: Switches = field(default_factory=Switches)
    base: int = 30
    per_tai: int = 10
    profile: str = "atawmj_2009"
    rules: str = ""  # a house profile's every value as seated (TOML), kept so that editing its file changes no hand


@dataclass(frozen=True, slots=True)
class DealerChosen(Event):
    """起莊: the first dealer, with the throws that chose him (§2.2)."""

    dealer: int
    dice: tuple[int, ...] = ()
    second_dice: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class StakesChanged(Event):
    """改底台、改規矩: between two hands of a session the table plays on with other stakes 底/台 or other house
    rules (switches; None keeps them as they are), from the next hand on; the hands before keep theirs. The
    seating conventions (who deals first, whose wind is East) stay as seated: changing them means seating again."""

    base: int
    per_tai: int
    switches: Switches | None = None


@dataclass(frozen=True, slots=True)
class DiceRolled(Event):
    """擲骰: the dealer's three dice; they open the wall (§2.4) and start a hand."""

    dice: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Dealt(Event):
    """配牌: each seat's dealt tiles in seat order (16, the dealer 17); ``0x`` where unseen."""

    hands: tuple[tuple[Tile, ...], ...]


@dataclass(frozen=True, slots=True)
class FlowerReplaced(SeatEvent):
    """補花: flowers laid down and their replacements from the tail (a later initial pass is 再補)."""

    flowers: tuple[Tile, ...]
    replacements: tuple[Tile, ...]


@dataclass(frozen=True, slots=True)
class Drew(SeatEvent):
    tile: Tile = Tile.UNKNOWN


@dataclass(frozen=True, slots=True)
class Discarded(SeatEvent):
    tile: Tile


@dataclass(frozen=True, slots=True)
class Chowed(SeatEvent):
    """吃: the claimed ``tile`` with two ``tiles`` from the hand."""

    tiles: tuple[Tile, ...]
    tile: Tile


@dataclass(frozen=True, slots=True)
class Punged(SeatEvent):
    tile: Tile


@dataclass(frozen=True, slots=True)
class ExposedKong(SeatEvent):
    """明槓 on a discard."""

    tile: Tile


@dataclass(frozen=True, slots=True)
class AddedKong(SeatEvent):
    """加槓: the fourth copy added to one's own pung (may be robbed)."""

    tile: Tile


@dataclass(frozen=True, slots=True)
class ConcealedKong(SeatEvent):
    """暗槓; ``0x`` when the camera cannot see the kind."""

    tile: Tile = Tile.UNKNOWN


@dataclass(frozen=True, slots=True)
class ReplacementDrew(SeatEvent):
    """補牌 after a kong, from the tail."""

    tile: Tile = Tile.UNKNOWN


@dataclass(frozen=True, slots=True)
class DeclaredReady(SeatEvent):
    """報聽 / 天聽 / 地聽, made with the seat's next discard (or before the first draw for 天聽)."""

    kind: ReadyKind = ReadyKind.READY


@dataclass(frozen=True, slots=True)
class Won(SeatEvent):
    """胡: the winner shows his concealed tiles (without the winning tile) and the kinds of his
    face-down concealed kongs, in order. ``tile`` is None for an instant win."""

    kind: WinKind
    tile: Tile | None
    concealed: tuple[Tile, ...]
    kongs: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class PassedWin(SeatEvent):
    """過水: the seat could win on the tile on offer and lets it go. A seat whose whole hand the log
    knows is barred without this event when the tile's window closes unclaimed (spec §2.12)."""

    tile: Tile


@dataclass(frozen=True, slots=True)
class ExhaustiveDraw(Event):
    """流局: a draw is due and no tile can be drawn."""


@dataclass(frozen=True, slots=True)
class DeclinedLastTile(SeatEvent):
    """The seat due to draw the last tile declines it: 流局."""


@dataclass(frozen=True, slots=True)
class FalseWin(SeatEvent):
    """詐胡: a declared win (or ready declaration) that is not legal; ``claimed_tai`` is the tai the offender's
    declared hand scores where it has one (a win under ``min_tai``), for the ``claimed_tai`` penalty (§6.6)."""

    claimed_tai: int | None = None


@dataclass(frozen=True, slots=True)
class WrongCount(SeatEvent):
    """相公: the table finds the seat holding too many (``big``, 大相公) or too few tiles (§2.16)."""

    big: bool = True


@dataclass(frozen=True, slots=True)
class HandKnown(SeatEvent):
    """The seat's concealed hand is known to the app (its tiles stay in the private store)."""


@dataclass(frozen=True, slots=True)
class WinCorrected(SeatEvent):
    """改正胡牌: the tiles a winner showed, entered wrong, put right after the hand was recorded (spec §6.7: the
    ledger works that hand's tai and payments out again, and every balance after it). ``hand`` is the hand's
    number in the session; ``tile`` the tile won on, which only a self-draw may correct (a discard is the
    table's). The winner, how he won and the melds the table saw (claimed, or a concealed kong logged by its kind:
    each its own event) stay as recorded. ``session``: an earlier session (一將) at the
    table, from 1 as the Ledger numbers them (0, written only when set: the session under way), so a win found
    wrong once the players sat down again is put right too (a money review). ``kongs``: the kinds of his concealed
    kongs that lay face down until he won, in order, as the win named them (``Won.kongs``: typed, seen by no one
    before, so put right as his concealed tiles are); empty, and written only when set: as recorded (a log kept
    before the field reads so)."""

    hand: int
    concealed: tuple[Tile, ...]
    tile: Tile | None = None
    session: int = 0
    kongs: tuple[Tile, ...] = ()


@dataclass(frozen=True, slots=True)
class Retracted(Event):
    """Undo: withdraws the log's last effective event (by its position ``target``)."""

    target: int
    note: str = ""


FLOWER_SHOWN_NOTE = "the tile drawn face down shown: a flower"
"""The note of the retraction that corrects a draw logged face down (a draw, a kong's or a flower's replacement) once
its tile is shown as the eighth flower, won on the spot before its replacement (spec §4.2, §4.4): the draw is entered
again after it, with the flower named."""

SET_ASIDE_NOTE = "set aside for the draw before it to be corrected: entered again after it"
"""The note of a retraction that takes back a record made after such a draw (a 天聽 declared, a 相公, a 詐胡…: one
the flower stays on offer past, evolve.FLOWER_KEPT_PAST) so that the draw can be corrected (only the log's last event
can be retracted); the record is entered again, as it was, after the corrected draw."""


EVENT_TYPES: dict[str, type[Event]] = {
    c.__name__: c
    for c in (Seated, DealerChosen, StakesChanged, DiceRolled, Dealt, FlowerReplaced, Drew, Discarded, Chowed, Punged,
              ExposedKong, AddedKong, ConcealedKong, ReplacementDrew, DeclaredReady, Won, PassedWin,
              ExhaustiveDraw, DeclinedLastTile, FalseWin, WrongCount, HandKnown, WinCorrected, Retracted)
}

def _v1_human_win(d: dict[str, Any]) -> dict[str, Any]:
    """Version 1 logs were kept when the tracker gave 人胡 to a non-dealer before his own first discard only:
    their sessions keep that reading (switch ``human_win_window``), so their ledgers read as they were kept."""
    sw = d.get("switches")
    if d.get("type") == "Seated" and (sw is None or isinstance(sw, Mapping)):  # (a bad value is the decoder's)
        d = {**d, "switches": {"human_win_window": "before_own_discard", **(sw or {})}}
    return d


def _v2_as_kept(d: dict[str, Any]) -> dict[str, Any]:
    """Version 3 added the rule set's values a seating keeps (``Seated.rules``) and the switch ``eight_flowers``:
    a version 2 event reads as it was (a version before 3 says "written by a newer version" of a log with them,
    where it said "unknown field rules": a review)."""
    return d


def _v3_unstamped(d: dict[str, Any]) -> dict[str, Any]:
    """Version 4 stamped each event with the version of the rules it was checked under (``rules_version``): a
    version 3 event has none, and reads as 0, kept before any (a version 3 reader says "written by a newer version"
    of a stamped log, not "unknown field rules_version")."""
    return {**d, "rules_version": 0} if "rules_version" not in d else d


STAMPED_SINCE = 4
"""The first event schema version that writes ``rules_version`` on every line: a line of it without one, or one of
a version before it with one, was edited."""

UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_human_win, 2: _v2_as_kept,
                                                                   3: _v3_unstamped}
"""Schema upgrades: ``UPGRADES[n]`` turns a version-n event dict into a version n+1 dict."""


# --- codec ----------------------------------------------------------------------------------------

def _encode(tp: Any, value: Any) -> Any:
    if value is None:
        return None
    if tp is Tile or isinstance(value, Tile):
        return value.code
    if isinstance(value, Switches):
        return value.to_mapping()
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple):
        args = typing.get_args(tp)
        inner = args[0] if args else Any
        if inner is Tile:
            return "".join(t.code for t in value)  # keeps the order, unlike format_tiles
        return [_encode(inner, v) for v in value]
    return value


def as_written(value: Any, at_most: int = 80) -> str:
    """``value`` as a log's JSON writes it (``true``, ``null``, ``"1"``), where Python's spelling (``True``,
    ``None``, ``'1'``) is not what the file holds (a review); cut short where longer than ``at_most``. A whole line
    said back; a single value is said by :func:`json_said` (both one spelling: :func:`json_written`)."""
    return json_written(value, at_most)


def _big(n: int) -> str:
    """A whole number from a log said briefly (a version of 4000 digits was said whole, twice)."""
    return str(n) if n < 10**12 else f"{str(n)[:12]}…"


def _bad_field(where: str, zh: str, en: str) -> EventError:
    """A log field whose value cannot be read, said in each language."""
    return EventError(msg("ev_bad_field", where=where, detail=zh, detail_en=en))


def _got(where: str, zh: str, en: str, value: Any) -> EventError:
    """A log field whose value is not the kind wanted, the value said as :func:`json_said` says it everywhere (this
    said ``got 2.5`` where the seat check said ``got 2.5 (a number with a point…)``: a review)."""
    said, said_zh = json_said(value, whole=True)
    return _bad_field(where, f"{zh}收到 {said_zh}", f"{en}got {said}")


def _decode(tp: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(tp)
    if origin in (Union, UnionType):
        if value is None:
            return None
        tp = next(a for a in typing.get_args(tp) if a is not type(None))
        origin = typing.get_origin(tp)
    if tp is Tile:
        if not isinstance(value, str):
            raise _got(where, "應為一張牌的代碼，", "expected a tile code, ", value)
        return Tile.from_code(value)
    if tp is Switches:
        if not isinstance(value, Mapping):
            raise _got(where, "應為規則開關的對照，", "expected a map of switches, ", value)
        try:
            return Switches.from_mapping(value, strict=True, stored=True)  # (as the table played: a streak_cap
            # an earlier version took over today's bound opens, where it refused the whole saved game)
        except ValueError as e:
            raise _bad_field(where, f"規則開關有誤：{getattr(e, 'zh', '') or e}", str(e)) from None
    if isinstance(tp, type) and issubclass(tp, Enum):
        try:
            return tp(value)
        except ValueError:
            allowed = ", ".join(str(m.value) for m in tp)
            raise _got(where, f"應為 {allowed} 之一，", f"expected one of {allowed}, ", value) from None
    if origin is tuple:
        inner = typing.get_args(tp)[0]
        if inner is Tile:
            if not isinstance(value, str):
                raise _got(where, "應為以文字寫的牌，", "expected tiles as text, ", value)
            return parse_tiles(value, check=False)
        if not isinstance(value, list):
            raise _got(where, "應為清單，", "expected a list, ", value)
        return tuple(_decode(inner, v, where) for v in value)
    if tp is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise _got(where, "應為整數，", "expected an integer, ", value)
    if tp is str and not isinstance(value, str):
        raise _got(where, "應為文字，", "expected text, ", value)
    return value


_HINTS: dict[type[Event], dict[str, Any]] = {c: typing.get_type_hints(c) for c in EVENT_TYPES.values()}
EVENT_HINTS = _HINTS
"""Each event type's resolved field types (for checks that look at every tile an event names)."""


def to_dict(event: Event) -> dict[str, Any]:
    """``{"v": 1, "type": "Discarded", "seat": 0, "tile": "5m", "source": "manual"}``."""
    hints = _HINTS[type(event)]
    out: dict[str, Any] = {"v": SCHEMA_VERSION, "type": type(event).__name__}
    for f in fields(event):
        value = getattr(event, f.name)
        if (type(event).__name__, f.name) in _LEFT_OUT_EMPTY and not value:
            continue
        out[f.name] = _encode(hints[f.name], value)
    return out


_LEFT_OUT_EMPTY = {("Seated", "rules"), ("WinCorrected", "session"), ("WinCorrected", "kongs")}
"""Fields written only where they hold something: a built-in rule set is named, not kept (every log would carry an
empty field)."""


def from_dict(data: Mapping[str, Any]) -> Event:
    """Read one saved event, upgrading older schema versions; :class:`EventError` names the problem."""
    if not isinstance(data, Mapping):
        raise EventError(msg("ev_not_object", data=as_written(data, 200)))
    d = dict(data)
    version = d.pop("v", None)
    if version is None:
        raise EventError(msg("ev_no_version", data=as_written(data, 200)))
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:  # "2", 2.0, true: said as such
        said, said_zh = json_said(version)  # (as every field's value is said: "got true" beside "got true (a yes/no)")
        raise EventError(msg("ev_bad_version", version=said_zh, version_en=said))
    if version > SCHEMA_VERSION:  # (a version of 4000 digits was said whole, twice)
        raise EventError(msg("ev_future", version=_big(version), current=SCHEMA_VERSION))
    written, early = version, version < STAMPED_SINCE and "rules_version" in d  # (none wrote one: edited)
    while version < SCHEMA_VERSION:
        d = UPGRADES[version](d)
        version += 1
    name = d.pop("type", None)
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        raise EventError(msg("ev_unknown_type", name=as_written(name, 40), data=as_written(data, 200)))
    if early:
        raise EventError(msg("ev_stamp_early", name=name, version=written, stamp=as_written(d["rules_version"])))
    if written >= STAMPED_SINCE and "rules_version" not in d:  # (written on every line: one without it was edited)
        raise EventError(msg("ev_no_stamp", name=name, version=written))
    stamp = d.get("rules_version", 0)
    if type(stamp) is int and stamp < 0:  # (one not a whole number is the decoder's to say)
        raise _bad_field(f"{name}.rules_version", f"應為 0 或更大的整數，收到 {stamp}", f"expected 0 or more, got {stamp}")
    if type(stamp) is int and stamp > RULES_VERSION:  # (as a schema version from the future is refused)
        raise EventError(msg("ev_stamp_future", name=name, stamp=_big(stamp), current=RULES_VERSION))
    hints = _HINTS[cls]
    known = {f.name for f in fields(cls)}
    extra = sorted(set(d) - known)
    if extra:
        raise EventError(msg("ev_unknown_fields", name=name, extra=", ".join(extra)))
    missing = [f.name for f in fields(cls) if f.name not in d and f.default is MISSING
               and f.default_factory is MISSING]
    if missing:
        raise EventError(msg("ev_missing_fields", name=name, missing=", ".join(missing)))
    shown = as_written(dict(data), 200)  # (as the line wrote it: it said Python's {'tile': '10m'}, a review)
    try:
        kwargs = {k: _decode(hints[k], v, f"{name}.{k}") for k, v in d.items()}
        return cls(**kwargs)
    except EventError:
        raise
    except NotationError as e:
        raise _bad_field(name, f"牌的寫法有誤：{getattr(e, 'zh', '') or e}（{shown}）", f"{e} in {shown}") from None
    except (ValueError, TypeError, StopIteration) as e:
        raise _bad_field(name, f"寫法有誤（{shown}）", f"{e} in {shown}") from None
