"""The Table view's model: a game's event log replayed step by step, and what the table shows at each step.

Plain Python, no flet: :class:`GameReplay` checks the whole log on load (an illegal event is refused with its
line and reason, as ``companion replay`` does) and keeps the state after every event; :meth:`GameReplay.frame`
turns one of them into a :class:`TableFrame`: the hand line, the wall, each seat (tiles, melds, flowers,
discards, waits with the copies that seat has not seen, the best discards when it holds a drawn hand) and, at
the end of a hand, the itemised tai and who pays whom.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from importlib import resources

from companion.app.house_rules import stakes_changed
from companion.app.ledger_model import dealer_parts, hand_payment, marked_items, meld_codes, next_deal_words
from companion.app.wall_model import WallPicture, wall_picture
from companion.app.words import Words, shanten_words, ui, unbroken
from companion.english import all_four, the_tile
from companion.game import events as ev
from companion.game.evolve import seated_rules
from companion.game.older_rules import OlderRules, refused_at
from companion.game.service import read_jsonl, read_log_or_table
from companion.game.session import dealer_takes_part, ledger_of
from companion.game.state import OutcomeKind, Phase, TableState, held_flower, window
from companion.game.switches import SeatWind
from companion.game.text import EVENT_ZH, WIND_EN, WIND_ZH, IllegalEvent, msg
from companion.game.view import phase_said, seen_on_table
from companion.hand import Hand, HandError, Meld, MeldKind
from companion.names import in_chinese
from companion.rules.efficiency import DRAGONS, discard_options
from companion.rules.profiles import ProfileError, load_profile
from companion.rules.scoring import Score
from companion.rules.shanten import shanten
from companion.rules.waits import structural_waits, wait_counts, wait_shapes
from companion.tiles import Tile, format_en, list_en

__all__ = ["GameReplay", "TableFrame", "SeatPanel", "MeldPic", "WaitPic", "Advice", "ScoreLine", "HandEnd",
           "LogError", "table_frame", "DEMO_SEED", "DEMO_HANDS", "demo_log_path", "describe", "meld_words", "meld_codes", "wind_words",
           "standing_events"]

DEMO_SEED = 60
DEMO_HANDS = 4
"""The bundled demo log is ``companion simulate --seed 60 --hands 4``, its seating unmarked (``"source": "manual"``,
not ``"simulated"``: a copy a player keeps, or plays on from, is a game ``simulate --out`` never replaces, as a
review's ``cp`` of it was replaced); a test keeps it current."""

ADVICE_SHOWN = 3
RECENT_SHOWN = 8


def demo_log_path() -> resources.abc.Traversable:
    return resources.files("companion") / "assets" / "demo" / "game.jsonl"


class LogError(ValueError):
    """A log the table cannot replay: unreadable, empty, or holding an illegal event (named, both languages)."""

    def __init__(self, words: Words) -> None:
        self.words = words
        super().__init__(f"{words.en} / {words.zh}")


@dataclass(frozen=True, slots=True)
class MeldPic:
    tiles: tuple[str, ...]  # tile codes left to right; "0x" is a face-down tile
    label: Words  # the meld's kind and who gave the tile


@dataclass(frozen=True, slots=True)
class WaitPic:
    tile: str
    unseen: int
    shapes: Words


@dataclass(frozen=True, slots=True)
class Advice:
    tile: str
    reason: Words


@dataclass(frozen=True, slots=True)
class SeatPanel:
    seat: int
    name: str
    wind: Words
    dealer: bool
    streak: int
    to_act: bool
    concealed: tuple[str, ...]  # codes; empty when hidden
    hidden: int  # how many concealed tiles are not shown
    drawn: str | None  # the tile just drawn, shown apart
    melds: tuple[MeldPic, ...]
    flowers: tuple[str, ...]
    discards: tuple[str, ...]
    tags: tuple[Words, ...]
    waits: tuple[WaitPic, ...]
    wait_note: Words | None  # not ready, or the single wait
    advice: tuple[Advice, ...]
    # a flower the seat to play has just drawn and shown, not yet replaced (the eighth may be won on the spot, spec
    # §4.2, §4.4): shown after his flowers, out of the hand (§2.6: a flower is never kept hidden)
    flower_held: str | None = None


@dataclass(frozen=True, slots=True)
class ScoreLine:
    player: str
    kind: Words
    items: tuple[tuple[Words, int], ...]
    hand_tai: int
    capped_tai: int
    dealer_tai: int
    unscored: Words | None  # why the line could not be scored
    house: tuple[Words, ...] = ()  # what the house-rule marks mean, and the items other tables would add
    dealer_why: Words | None = None  # what the dealer's tai are made of (莊家 1、連N拉N), where the streak adds some
    # the winner's tiles as pictures: concealed, melds, the tile won on ("" where none): a phone's card shows
    # them, as the laptop's seat cards do (a player review)
    hand: tuple[tuple[str, ...], tuple[tuple[str, ...], ...], str] = ((), (), "")
    penalty: bool = False  # a 詐胡's line: its tai are the penalty's, not a hand's (a review read 這手牌 8 台)
    flowers: tuple[str, ...] = ()  # the winner's flowers, pictured after his hand: items such as 正花 come from them
    shared: int | None = None  # a 詐胡's limit payment, split among the other three (``WinLine.shared``)
    unpaid: bool = False  # a 詐胡 its rules do not penalise (``WinLine.unpaid``)


@dataclass(frozen=True, slots=True)
class HandEnd:
    outcome: Words
    lines: tuple[ScoreLine, ...]
    transfers: tuple[Words, ...]
    balances: tuple[tuple[str, int], ...]
    next_deal: Words


@dataclass(frozen=True, slots=True)
class TableFrame:
    index: int  # events applied (0 = the empty table)
    total: int
    caption: Words  # the event that led here
    hand_line: Words | None
    wall_line: Words | None
    phase: Words
    seats: tuple[SeatPanel, ...]
    recent: tuple[Words, ...]  # the latest events, newest first
    end: HandEnd | None
    wall: WallPicture | None = None  # the wall seen from above, the dealer at the bottom
    warnings: tuple[Words, ...] = ()  # what the tracker flagged in this hand for the table to decide (§2.6, §2.16)


class GameReplay:
    """A checked event log and the state after each of its events."""

    def __init__(self, events: Sequence[tuple[int, ev.Event]], name: str = "", stored: bool = False) -> None:
        """``events`` with their lines (``stored``: a table file's, numbered from 1, said by their stored number)."""
        if not events:
            raise LogError(Words(f"{name}：紀錄是空的，沒有事件可重播", f"{name}: no events to replay (the log is empty)"))
        self.name = name
        self.events = [e for _, e in events]
        self.states = [TableState()]
        older = OlderRules(stored)
        for line, e in events:
            try:
                self.states.append(older.step(self.states[-1], e, line))
            except IllegalEvent as err:
                why = refused_at(line, type(e).__name__, err.reason, stored)
                raise LogError(Words(f"{name}：{why.zh}", f"{name}: {why.en}")) from err
        # the events this version refuses, let in under the older rules of a log kept before, as `companion replay`
        # says them (the Table tab and `companion app LOG` took them without a word)
        said = older.said()
        self.older: Words | None = Words(said.zh, said.en) if said is not None else None
        self.captions = [Words("空桌", "An empty table")]
        self.captions += [describe(e, s, after=a) for e, s, a in zip(self.events, self.states[:-1], self.states[1:],
                                                                      strict=True)]
        # with the hands hidden a draw does not name its tile
        self.captions_hidden = [Words("空桌", "An empty table")]
        self.captions_hidden += [describe(e, s, show=False, after=a)
                                 for e, s, a in zip(self.events, self.states[:-1], self.states[1:], strict=True)]

    @classmethod
    def of_table(cls, events: Sequence[ev.Event], name: str) -> GameReplay:
        """A live table's log (``events``: all of them, as stored, retractions too) to step through on the Table tab:
        the taps taken back left out, each event said by its stored number, as the Live tab and `companion replay`
        say it. (Numbered by its place among the events that stand, the 過水 win of an old log with a discard taken
        back before it was "line 8" there, a line no file has, where the Live tab and replay said "stored event #9":
        a change review.)"""
        return cls(standing_events(events), name, stored=True)

    @classmethod
    def from_lines(cls, lines: Iterable[bytes | str], name: str) -> GameReplay:
        try:
            events, _private = read_jsonl(lines)
        except ev.EventError as bad:
            raise LogError(Words(f"{name}：{bad.reason.zh}", f"{name}: {bad.reason.en}")) from bad
        return cls(events, name)

    @classmethod
    def from_file(cls, path: str) -> GameReplay:
        """A log file, or a live game's table file (``OSError`` when it cannot be opened), its events said by their
        stored number as `companion replay` says them. Read once, and known to be a table file from that read: a
        pipe (``cat table.sqlite | companion app /dev/stdin``) is empty when opened again, so its events were said
        by a "line" no file has (a change review)."""
        try:
            events, _private, stored = read_log_or_table(path)
        except ev.EventError as bad:
            raise LogError(Words(f"{path}：{bad.reason.zh}", f"{path}: {bad.reason.en}")) from bad
        return cls(events, path, stored)

    @classmethod
    def demo(cls) -> GameReplay:
        return cls.from_lines(demo_log_path().read_bytes().splitlines(), "game.jsonl")

    def __len__(self) -> int:
        return len(self.states)

    def hand_starts(self) -> list[int]:
        """The step of each hand's deal (the frame right after its ``Dealt``)."""
        return [i + 1 for i, e in enumerate(self.events) if isinstance(e, ev.Dealt)]

    def hand_ends(self) -> list[int]:
        """The step each hand ends (its win, or the draw that ends it)."""
        return [i for i, s in enumerate(self.states) if s.phase is Phase.HAND_OVER
                and self.states[i - 1].phase is not Phase.HAND_OVER]

    def next_stop(self, index: int, forward: bool) -> int:
        """The next (or previous) hand start or hand end from ``index``, else the last (first) step."""
        stops = sorted(set(self.hand_starts()) | set(self.hand_ends()))
        if forward:
            return next((s for s in stops if s > index), len(self.states) - 1)
        return next((s for s in reversed(stops) if s < index), 0)

    def frame(self, index: int, show_hands: bool = True) -> TableFrame:
        if not 0 <= index < len(self.states):
            raise IndexError(f"step {index} is outside 0-{len(self.states) - 1}")
        captions = self.captions if show_hands else self.captions_hidden
        recent = tuple(captions[i] for i in range(index, max(-1, index - RECENT_SHOWN), -1))
        return table_frame(self.states[index], captions[index], recent, index, len(self.states) - 1, show_hands)


def standing_events(events: Sequence[ev.Event]) -> list[tuple[int, ev.Event]]:
    """The events of a table's log that stand, each with its stored number from 1 (as
    :func:`companion.game.service.read_log` numbers a table file's): each retraction takes back the event before it
    that still stands, as :func:`companion.app.live_model.effective_events` leaves them."""
    out: list[tuple[int, ev.Event]] = []
    for n, e in enumerate(events, 1):
        if isinstance(e, ev.Retracted):
            if out:
                out.pop()
        else:
            out.append((n, e))
    return out


def table_frame(state: TableState, caption: Words, recent: tuple[Words, ...], index: int, total: int,
                show_hands: bool | None) -> TableFrame:
    """What the table shows in ``state`` (a replay's step, or a live table's present). ``show_hands`` None shows
    the hands the table knows whole (a live table's winner, once he shows them) and hides the others."""
    names = state.players or tuple(f"{i + 1}" for i in range(4))
    hand_line = wall_line = None
    if state.players and state.phase not in (Phase.SEATING, Phase.DEALER):
        r = min(state.round_wind, 3)
        hand_line = ui("hand_line", n=len(state.results) + 1, k=state.hand_in_round, round=WIND_ZH[r],
                       round_en=WIND_EN[r], dealer=unbroken(names[state.dealer]), streak=state.streak)
    picture = None
    if state.wall is not None:
        w = state.wall
        count, live, reserve = w.said
        wall_line = ui("wall_line", count=count, live=live, reserve=reserve)
        owners = []
        for s in range(4):
            wind = state.seat_wind(s)
            zh = names[s] if names[s] == f"{WIND_ZH[wind]}家" else f"{WIND_ZH[wind]}家 {names[s]}"  # not 西家 西家
            owners.append(Words(zh, f"{names[s]} ({WIND_EN[wind]})"))
        picture = wall_picture(w, state.dealer, owners, over=state.phase is Phase.HAND_OVER)
    shown = [state.seats[s].fully_known if show_hands is None else show_hands for s in range(4)]
    won = _won_on_discard(state)
    seats = tuple(_seat(state, s, names, shown[s], won) for s in range(4)) if state.wall is not None else ()
    waits = phase_said(state)  # (a flower drawn and not replaced: a win on it or the replacement, no discard)
    phase = Words(waits.zh, waits.en)
    if state.phase is Phase.CLAIM and state.live <= 0:  # 河底: the last discard, no draw after it (a flower owed at
        # 0 takes the count below it, spec §2.7)
        phase = ui("phase_last_discard")
    warnings = tuple(Words(w.zh, w.en) for w in state.warnings)
    return TableFrame(index, total, caption, hand_line, wall_line, phase, seats,
                      recent, _hand_end(state), picture, warnings)


def _won_on_discard(state: TableState) -> tuple[dict[int, Tile], int | None]:
    """At the end of a hand won on a discard (or a robbed kong): each such winner's winning tile, and the seat
    whose river it leaves (the table state keeps it there, where every winner of a 一炮多響 takes it from)."""
    out = state.outcome
    if state.phase is not Phase.HAND_OVER or out is None:
        return {}, None
    taken = {r.seat: r.tile for r in out.winners
             if r.kind in (ev.WinKind.DISCARD, ev.WinKind.ROBBED_KONG) and r.tile is not None}
    givers = {r.discarder for r in out.winners if r.seat in taken}
    return taken, next(iter(givers)) if len(givers) == 1 else None


def _seat(state: TableState, seat: int, names: tuple[str, ...], show: bool,
          won: tuple[dict[int, Tile], int | None]) -> SeatPanel:
    """``won``: :func:`_won_on_discard` of ``state``."""
    st = state.seats[seat]
    wind = state.seat_wind(seat)
    concealed = tuple(st.concealed_tiles)
    drawn = st.drawn if st.drawn is not None and st.drawn in concealed and st.drawn.is_known else None
    if seat != state.turn:  # a replacement of the opening pass is in his hand, no tile drawn on his turn (a review
        drawn = None  # saw one apart while other seats acted, until his first draw)
    rest = list(concealed)
    held = held_flower(state) if state.phase is Phase.ACT and state.in_hand and seat == state.turn else None
    if held is not None:  # the flower drawn and shown: in the flower row, apart from the hand
        if drawn == held[1]:
            drawn = None
        if held[1] in concealed:
            rest.remove(held[1])
            concealed = tuple(rest)
    if drawn is not None:
        rest.remove(drawn)
    taken, giver = won
    river = st.discards
    if seat == giver and river and river[-1] in taken.values():
        river = river[:-1]  # the winning tile is in the winner's hand now
    if seat in taken and drawn is None:
        drawn = taken[seat]  # shown apart, as a tile drawn would be
    tags = tuple(t for t in (Words(st.ready.zh, st.ready.en) if st.ready else None,
                             Words("過水", "barred (passed a win)") if st.barred else None,
                             Words("陪打", "dead hand") if st.dead else None,
                             Words("相公", "no win (wrong count)") if st.no_win else None) if t is not None)
    melds = tuple(_meld(m, show) for m in st.melds)
    waits: tuple[WaitPic, ...] = ()
    note: Words | None = None
    advice: tuple[Advice, ...] = ()
    known = all(t.is_known and not t.is_flower for t in concealed) and len(concealed) + 3 * len(st.melds) in (16, 17)
    if show and known and state.phase is not Phase.HAND_OVER:
        waits, note, advice = _help(Hand(concealed, st.melds, st.flowers, stage_free=True), state, seat)
    to_act = state.turn == seat and state.phase in (Phase.ACT, Phase.REPLACE)
    return SeatPanel(seat, names[seat], Words(WIND_ZH[wind], WIND_EN[wind]), seat == state.dealer,
                     state.streak if seat == state.dealer else 0, to_act,
                     tuple(t.code for t in sorted(rest)) if show else (), 0 if show else len(concealed),
                     drawn.code if show and drawn is not None else None, melds, tuple(t.code for t in st.flowers),
                     tuple(t.code for t in river), tags, waits, note, advice,
                     flower_held=held[1].code if held is not None else None)


def wind_words(wind: Tile) -> Words:
    """A wind tile (1z-4z, as a ``Win`` holds seat, round and dealer) by name: 東 / East."""
    i = wind - Tile.Z1
    return Words(WIND_ZH[i], WIND_EN[i])


def _meld(m: Meld, show: bool) -> MeldPic:
    tiles = meld_codes(m, show)
    source = {"L": ("上家", "from the left"), "O": ("對家", "from across"), "R": ("下家", "from the right")}
    zh, en = meld_words(m.kind).zh, meld_words(m.kind).en
    if m.source is not None:
        szh, sen = source[m.source.value]
        zh, en = f"{zh}（{szh}）", f"{en} ({sen})"
    return MeldPic(tiles, Words(zh, en))


_MELD_EN = {MeldKind.CHOW: "chow", MeldKind.PUNG: "pung", MeldKind.KONG: "exposed kong",
            MeldKind.ADDKONG: "added kong", MeldKind.CKONG: "concealed kong"}


def meld_words(kind: MeldKind) -> Words:
    """A meld kind's name for people (the notation's ``ckong`` is a concealed kong)."""
    return Words(kind.zh, _MELD_EN[kind])


def _help(hand: Hand, state: TableState, seat: int) -> tuple[tuple[WaitPic, ...], Words | None, tuple[Advice, ...]]:
    """Waits (between turns) or the best discards (holding a drawn hand), from what ``seat`` sees."""
    visible = seen_on_table(state, seat)
    try:
        if hand.structural_count == 3 * hand.sets + 1:
            waiting = Hand(hand.concealed, hand.melds, hand.flowers)
            found = wait_counts(waiting, visible)
            if not found:
                gone = structural_waits(waiting)
                if gone:
                    names_zh, names_en = all_four([t.zh for t in gone], [t.said_en for t in gone])
                    return (), ui("all_own", tiles=names_zh, tiles_en=names_en), ()
                return (), ui("not_ready", **shanten_words(shanten(waiting))), ()
            pics = tuple(WaitPic(t.code, n, Words("／".join(s.zh for s in wait_shapes(waiting, t)),
                                                  "/".join(s.en for s in wait_shapes(waiting, t))))
                         for t, n in found)
            return pics, ui("single_wait") if len(pics) == 1 else None, ()
        # the winds whose pung scores for this seat (its own, the round's) are kept longer than a guest wind at a tie
        winds = {Tile.from_code(f"{state.seat_wind(seat) + 1}z"), Tile.from_code(f"{state.round_wind + 1}z")}
        options = discard_options(Hand(hand.concealed, hand.melds, hand.flowers), visible, {*DRAGONS, *winds})
    except HandError:
        return (), None, ()
    return (), None, tuple(Advice(o.discard.code, Words(o.reason_zh, o.reason_en)) for o in options[:ADVICE_SHOWN])


def _hand_of(sc: Score | None) -> tuple[tuple[str, ...], tuple[tuple[str, ...], ...], str]:
    if sc is None:
        return (), (), ""
    win = sc.win
    return (tuple(t.code for t in sorted(win.concealed)), tuple(meld_codes(m) for m in win.melds),
            win.win_tile.code if win.win_tile is not None else "")


def _hand_end(state: TableState) -> HandEnd | None:
    out = state.outcome
    if out is None or state.phase is not Phase.HAND_OVER or not state.players:
        return None
    ledger = ledger_of(state)
    entry = ledger.entries[-1]
    lines = []
    names = state.players
    dealer_in = dealer_takes_part(entry.result)  # dealer tai count only where the dealer wins or pays
    parts = dealer_parts(entry.rules, entry.result.streak)  # (the hand's, the same for each line)
    for line in entry.lines:
        kind = next((k for k in ev.WinKind if k.value == line.kind), None)
        words = Words(kind.zh, kind.en) if kind is not None else ui("false_win")
        items, house = (marked_items(line.score) if line.score is not None
                        else (tuple((Words(zh, en), tai) for zh, en, tai in line.items), ()))
        lines.append(ScoreLine(line.player, words, items, line.hand_tai, line.capped_tai,
                               line.dealer_tai if line.player in dealer_in or kind is None else 0,  # a false win:
                               # its offender pays every other player, so the dealer always takes part
                               _split(line.unscored) if line.unscored else None, house,
                               parts, _hand_of(line.score), penalty=kind is None,
                               flowers=tuple(f.code for f in sorted(line.score.win.flowers)) if line.score else (),
                               shared=line.shared, unpaid=line.unpaid))
    at = ledger.stakes_of(entry)
    transfers = tuple(hand_payment(t, at.base, at.per_tai, entry.lines) for t in entry.transfers)
    nxt = next_deal_words(names, entry.next)
    who = "、".join(_said(names[w.seat], w.kind.zh) for w in out.winners)
    who_en = ", ".join(f"{names[w.seat]} {w.kind.won_en}" for w in out.winners)
    # "阿明自摸", "Bob 自摸": said after "本局結束：", so no second colon nor brackets in brackets (a player review); a hand
    # nobody won says how it ended
    outcome = Words(who, who_en) if who else Words(*out.said)
    return HandEnd(outcome, tuple(lines), transfers, entry.balances, nxt)


def _split(text: str) -> Words:
    """A ``中文 / English`` line of the ledger as its two halves."""
    zh, sep, en = text.partition(" / ")
    return Words(zh, en) if sep else Words(text, text)


def _names(tiles: Iterable[Tile]) -> str:
    """A few tiles by their English names ("4 Characters and 6 Characters"), where a line names them in words."""
    return list_en(tiles)


def _tiles(tiles: Iterable[Tile]) -> Words:
    """Tiles by name in either language; a hand in English grouped by suit ("1 2 3 Characters, 2 White dragons"):
    an English host review read a corrected hand as "1m 2m 3m … 5z 5z"."""
    ts = list(tiles)
    return Words(" ".join(t.zh for t in ts), format_en(ts))  # spaced, as every other message (a review read
    # 「一萬一萬一萬四萬五萬…」 in a win's correction)


def describe(e: ev.Event, before: TableState, show: bool = True, after: TableState | None = None) -> Words:
    """One line about an event, in both languages (``before`` is the table it was applied to, ``after`` the table it
    made, where known); without ``show`` a draw does not name its tile (the hands are hidden)."""
    said = _describe(e, before, show, after)
    more = _another_win(e, before, after) or _over_claim(e, before)
    return said if more is None else Words(said.zh + more.zh, said.en + more.en)


def _another_win(e: ev.Event, before: TableState, after: TableState | None) -> Words | None:
    """What a second win on one discard did to the first (a review read two wins on one tile in the latest plays,
    one of them replaced, and nothing said which): both win (一炮多響), the nearer replaces the other (截胡), the
    farther does not count, or three on one tile end it drawn."""
    if not isinstance(e, ev.Won) or after is None or after.outcome is None or before.outcome is None \
            or not before.outcome.claimants or before.claim_rank != 3:
        return None
    names = before.players or tuple(f"{i + 1}" for i in range(4))
    was = [w.seat for w in before.outcome.winners]
    now = [w.seat for w in after.outcome.winners]
    gone = Words("、".join(names[s] for s in was if s not in now), ", ".join(names[s] for s in was if s not in now))
    if after.outcome.kind is OutcomeKind.DRAW:
        return ui("another_win_draw")
    if e.seat not in now:
        return ui("another_win_farther", nearer=names[now[0]] if now else "")
    if gone.zh:
        return ui("another_win_nearer", other=gone.zh, other_en=gone.en)
    return ui("another_win_both")


def _over_claim(e: ev.Event, before: TableState) -> Words | None:
    """What a pung or kong claimed over a chow of the same discard, or a win over a chow, pung or kong of it, did to
    that claim (§2.9: it outranks it, and the claim no longer counts): said as a win over a win is (a review read
    both claims in the latest plays, nothing said)."""
    if not isinstance(e, ev.Won | ev.Punged | ev.ExposedKong):
        return None
    rank = 2 if not isinstance(e, ev.Won) else 3 if e.kind is ev.WinKind.DISCARD else 0
    if not 0 < before.claim_rank < rank or before.claim_seat == e.seat or not 0 <= before.claim_seat < 4:
        return None
    names = before.players or tuple(f"{i + 1}" for i in range(4))
    other = names[before.claim_seat]
    if rank == 2:
        return ui("claim_pung_over_chow" if isinstance(e, ev.Punged) else "claim_kong_over_chow", other=other)
    melds = before.seats[before.claim_seat].melds
    taken = melds[-1].kind if melds else MeldKind.CHOW
    return ui("win_over_chow" if before.claim_rank == 1 else "win_over_pung" if taken is MeldKind.PUNG
              else "win_over_kong", other=other)


def _carried_names(text: str) -> Words | None:
    """The names the rules a log kept at seating (``Seated.rules``, TOML) give, each where it gives one; None where
    it gives neither or cannot be read as TOML."""
    try:
        data = tomllib.loads(text.removeprefix("\ufeff"))
    except (tomllib.TOMLDecodeError, ValueError):
        return None
    zh, en = data.get("name_zh"), data.get("name_en")
    zh, en = (zh.strip() if isinstance(zh, str) else ""), (en.strip() if isinstance(en, str) else "")
    if not zh and not en:
        return None
    return Words(zh or en, en or zh)


def _not_here(e: ev.Seated) -> Words:
    """The rule set of a seating this install cannot read, said so: by the names the log carries with its rules,
    else by its id, quoted."""
    names = (_carried_names(e.rules) if e.rules else None) or Words(e.profile, e.profile)
    return ui("table_rules_not_here", name=names.zh, name_en=names.en)


def _said(name: str, rest: str) -> str:
    """``name`` and the Chinese ``rest`` that follows it, as a Chinese sentence writes a name: a space after a Latin
    name alone (「Bob 打九萬」, 「小美打九萬」), as the app's words and the game's refusals space one."""
    return in_chinese(name, after=rest) + rest


def _describe(e: ev.Event, before: TableState, show: bool, after: TableState | None) -> Words:
    names = before.players or tuple(f"{i + 1}" for i in range(4))
    who = names[e.seat] if isinstance(e, ev.SeatEvent) and 0 <= e.seat < 4 else ""
    if isinstance(e, ev.Seated):
        try:
            prof = load_profile(seated_rules(e))
            rules = Words(prof.name_zh, prof.name_en)
        except ProfileError:  # a log from elsewhere, with rules this install cannot read (a review: its bare id)
            rules = _not_here(e)
        return Words(f"入座：{'、'.join(e.players)}（底 {e.base}／台 {e.per_tai}，{rules.zh}）",
                     f"Seated: {', '.join(e.players)} (stakes {e.base} + {e.per_tai} a tai, {rules.en})")
    if isinstance(e, ev.WinCorrected):
        shown = _tiles(e.concealed)
        won = f" + {e.tile.zh}" if e.tile is not None else ""
        won_en = f" + {e.tile.en}" if e.tile is not None else ""
        named_kongs = tuple(t for t in e.kongs if t.is_known)  # (0x: one an old log left unnamed, still so)
        kongs = _tiles(named_kongs)  # the kinds of the kongs face down until the win, where put right
        named = msg("fix_kongs_said", tiles=kongs.zh, tiles_en=kongs.en) if named_kongs else None
        kinds = Words(named.zh, named.en) if named is not None else Words("", "")
        return Words(f"改正第 {e.hand} 把{in_chinese(who, '把', '攤')}攤開的牌：{shown.zh}{won}{kinds.zh}",
                     f"{who}'s tiles shown in hand {e.hand} corrected: {shown.en}{won_en}{kinds.en}")
    if isinstance(e, ev.StakesChanged):
        return stakes_changed(before, e)
    if isinstance(e, ev.DealerChosen):
        dealer = names[e.dealer] if 0 <= e.dealer < 4 else str(e.dealer)
        said = Words(f"擲骰定莊：{_said(dealer, '做莊')}", f"Dice for the first dealer: {dealer} deals")
        if before.switches.seat_wind is SeatWind.DEALER_EAST and 0 < e.dealer < 4:
            # the winds move with the deal (§2.15): the chairs named 東南西北 at the seating are no longer the seat
            # winds, and a review found the seat cards' winds changed with nothing on screen saying why
            order = [(e.dealer + k) % 4 for k in range(4)]
            said = Words(said.zh + "；門風跟莊走：" + "、".join(f"{names[s]} {WIND_ZH[k]}" for k, s in enumerate(order)),
                         said.en + "; the seat winds go with the deal: "
                         + ", ".join(f"{names[s]} {WIND_EN[k]}" for k, s in enumerate(order)))
        return said
    if isinstance(e, ev.DiceRolled):
        return Words(f"莊家擲骰 {'+'.join(map(str, e.dice))} = {sum(e.dice)}，開門",
                     f"The dealer throws {'+'.join(map(str, e.dice))} = {sum(e.dice)}: the wall is broken there")
    if isinstance(e, ev.Dealt):
        return Words("配牌：每家 16 張（莊家 17 張）", "The deal: 16 tiles each (the dealer 17)")
    if isinstance(e, ev.FlowerReplaced):
        f = _tiles(e.flowers)
        said = Words(_said(who, f"補花 {f.zh}，補 {len(e.replacements)} 張"), f"{who} sets aside {_names(e.flowers)} and draws "
                                                                          f"{len(e.replacements)} from the back")
        last = e.replacements[-1] if e.replacements else Tile.UNKNOWN
        if last.is_known and last.is_flower:  # a flower is shown as it is drawn (§2.6): named
            said = Words(f"{said.zh}，補到 {last.zh}", f"{said.en}: {last.en}")
        return said
    if isinstance(e, ev.Drew):
        # a flower is shown as it is drawn (§2.6): named with the hands hidden too (the eighth, on offer to a win)
        t = Words(e.tile.zh, the_tile(e.tile)) if (show or e.tile.is_flower) and e.tile.is_known \
            else Words("一張牌", "a tile")
        return Words(_said(who, f"摸{t.zh}"), f"{who} draws {t.en}")
    if isinstance(e, ev.Discarded):
        return Words(_said(who, f"打{e.tile.zh}"), f"{who} discards {the_tile(e.tile)}")
    if isinstance(e, ev.Chowed):
        return Words(_said(who, f"吃{e.tile.zh}（{_tiles(e.tiles).zh}）"), f"{who} chows {the_tile(e.tile)} "
                                                                    f"(with {_names(e.tiles)})")
    if isinstance(e, ev.Punged):
        return Words(_said(who, f"碰{e.tile.zh}"), f"{who} pungs {the_tile(e.tile)}")
    if isinstance(e, ev.ExposedKong):
        return Words(_said(who, f"明槓{e.tile.zh}"), f"{who} kongs {the_tile(e.tile)} from the discard")
    if isinstance(e, ev.AddedKong):
        return Words(_said(who, f"加槓{e.tile.zh}"), f"{who} adds {the_tile(e.tile)} to a pung")
    if isinstance(e, ev.ConcealedKong):
        return Words(_said(who, "暗槓"), f"{who} declares a concealed kong")
    if isinstance(e, ev.ReplacementDrew):
        if e.tile.is_known and (show or e.tile.is_flower):
            return Words(_said(who, f"槓後補牌：{e.tile.zh}"), f"{who} draws the kong's replacement: {the_tile(e.tile)}")
        return Words(_said(who, "槓後補牌"), f"{who} draws the kong's replacement")
    if isinstance(e, ev.DeclaredReady):
        return Words(_said(who, f"{e.kind.zh}"), f"{who}: {e.kind.en}")
    if isinstance(e, ev.Won) and e.kind is ev.WinKind.DISCARD and e.tile is not None:
        w = window(before)
        if w is not None and 0 <= w.turn < 4:
            return Words(_said(who, f"胡{e.tile.zh}（{_said(names[w.turn], '放槍')}）"),
                         f"{who} wins on {the_tile(e.tile)}, discarded by {names[w.turn]}")
    if isinstance(e, ev.Won):
        tile = Words(f" {e.tile.zh}", f" on {the_tile(e.tile)}") if e.tile is not None else Words("", "")
        return Words(_said(who, f"胡牌：{e.kind.zh}{tile.zh}"), f"{who} wins: {e.kind.en}{tile.en}")
    if isinstance(e, ev.PassedWin):
        return Words(_said(who, f"放過可胡的{e.tile.zh}（過水）"), f"{who} passes a win on {the_tile(e.tile)}")
    if isinstance(e, ev.ExhaustiveDraw):
        ended = after.outcome if after is not None else None
        if ended is not None and ended.four_kongs:  # four kongs split, the wall not spent (§2.13): said as the hand's
            return Words(*ended.said)  # outcome says it (the caption said the wall ran out: a code review)
        return Words("流局：牌摸完了，沒有人胡", "Exhaustive draw: the wall ran out, nobody won")
    if isinstance(e, ev.DeclinedLastTile):
        return Words(_said(who, "不摸海底"), f"{who} declines the last tile")
    if isinstance(e, ev.FalseWin):
        return Words(_said(who, "詐胡"), f"{who}: false win")
    if isinstance(e, ev.WrongCount):
        return Words(_said(who, "相公（張數不對）"), f"{who}: wrong tile count")
    if isinstance(e, ev.HandKnown):
        return Words(_said(who, "的手牌已知"), f"{who}'s hand is known")
    kind = type(e).__name__
    return Words(EVENT_ZH.get(kind, kind), kind)
