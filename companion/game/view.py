"""What each seat may see (public information), unseen copies per kind, and the table printout.

Other seats' concealed tiles never appear here, even when the log knows them (a teaching table):
only their number. Concealed kongs show face down to everyone but their owner.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from companion.game import events as ev
from companion.game.check_win import instant_win_refusal
from companion.game.evolve import finish_hand
from companion.game.state import Phase, TableState, held_flower
from companion.game.text import WIND_EN, WIND_ZH, Msg, msg, seat_label
from companion.game.wall import StackPos
from companion.hand import Meld, MeldKind
from companion.names import in_chinese
from companion.tiles import NUM_KINDS, Tile, format_tiles

__all__ = ["SeatView", "PublicView", "public_view", "seen_on_table", "unseen_counts", "render_table", "evidence_said",
           "phase_said"]


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    wind: int
    dealer: bool
    concealed_count: int
    melds: tuple[Meld, ...]
    flowers: tuple[Tile, ...]
    discards: tuple[Tile, ...]
    ready: str | None
    dead: bool


@dataclass(frozen=True, slots=True)
class PublicView:
    viewer: int | None
    seats: tuple[SeatView, ...]
    own_concealed: tuple[Tile, ...]
    unseen: tuple[int, ...]  # per kind 0-33, from the viewer's side
    wall_count: int
    live: int
    reserve: int
    head: StackPos | None
    tail: StackPos | None
    dealer: int
    streak: int
    round_wind: int
    phase: Phase
    turn: int


def _shown_melds(state: TableState, seat: int, viewer: int | None) -> tuple[Meld, ...]:
    melds = state.seats[seat].melds
    if viewer == seat:
        return melds
    return tuple(Meld(MeldKind.CKONG, (Tile.UNKNOWN,) * 4) if m.kind is MeldKind.CKONG else m for m in melds)


def seen_on_table(state: TableState, seat: int) -> tuple[Tile, ...]:
    """What ``seat`` sees on the table besides his own tiles: every discard, and the others' melds as shown to him
    (their concealed kongs face down, so not counted). The Table tab's waits and My hand's unseen copies both count
    from it (each had kept its own copy of the rule, a code review)."""
    seen = [t for st in state.seats for t in st.discards]
    seen += [t for other, st in enumerate(state.seats) if other != seat
             for m in st.melds if m.kind is not MeldKind.CKONG for t in m.tiles]
    return tuple(seen)


def unseen_counts(state: TableState, viewer: int | None = None,
                  own: tuple[Tile, ...] | None = None) -> tuple[int, ...]:
    """Copies of each kind the viewer has not seen: 4 minus the visible ones minus his own known tiles
    (``own`` from the private store, else what the log knows of his hand)."""
    seen = [0] * NUM_KINDS
    for s, st in enumerate(state.seats):
        for t in st.discards:
            seen[t] += 1
        for m in _shown_melds(state, s, viewer):
            for t in m.tiles:
                if t < NUM_KINDS:
                    seen[t] += 1
    if viewer is not None:
        mine = own if own is not None else state.seats[viewer].concealed_tiles
        for t in mine:
            if t < NUM_KINDS:
                seen[t] += 1
    return tuple(max(0, 4 - k) for k in seen)


def public_view(state: TableState, viewer: int | None = None, own: tuple[Tile, ...] | None = None) -> PublicView:
    names = state.players or tuple(f"seat {i}" for i in range(4))
    seats = tuple(
        SeatView(s, names[s], state.seat_wind(s), s == state.dealer, st.size, _shown_melds(state, s, viewer),
                 st.flowers, st.discards, st.ready.value if st.ready else None, st.dead)
        for s, st in enumerate(state.seats))
    mine: tuple[Tile, ...] = ()
    if viewer is not None:
        mine = own if own is not None else tuple(t for t in state.seats[viewer].concealed_tiles if t.is_known)
    w = state.wall
    return PublicView(viewer, seats, mine, unseen_counts(state, viewer, own), w.count if w else 144,
                      w.live if w else 0, w.reserve if w else 0, w.head_pos() if w else None,
                      w.tail_pos() if w else None, state.dealer, state.streak, state.round_wind, state.phase,
                      state.turn)


def phase_said(state: TableState) -> Msg:
    """What the table waits for: the phase's words, but where the seat to play holds a flower drawn and shown, not
    yet replaced (spec §2.6), no discard is taken: a win on it on the spot where the tracker would take one (the
    eighth: 八仙過海, 七搶一, §4.2, §4.4) or its replacement, or the hand drawn where none is left to replace it."""
    held = held_flower(state) if state.phase is Phase.ACT and state.in_hand else None
    if held is None:
        return Msg(state.phase.code, state.phase.zh, state.phase.en)
    flower = held[1]
    none_left = state.wall is not None and state.wall.count == 0
    kinds = [kind for kind in (ev.WinKind.EIGHT_FLOWERS, ev.WinKind.SEVEN_ROB_ONE)
             if any(instant_win_refusal(state, s, kind) is None for s in range(4))]  # (as the tracker would take)
    key = ("phase_flower_last" if none_left else "phase_flower_spot") if kinds else \
        ("phase_flower_end" if none_left else "phase_flower_held")
    return msg(key, tile=flower.zh, tile_en=flower.en, kinds="／".join(k.zh for k in kinds),
               kinds_en=" or ".join(k.en for k in kinds))


def render_table(state: TableState, lang: str = "both", show_hands: bool = False) -> str:
    """A plain-text table: the hand line, the wall, then each seat (zh, en or both)."""
    lines: list[str] = []

    def say(key: str, **kw: object) -> None:
        m = msg(key, **kw)
        lines.append(m.zh if lang == "zh" else m.en if lang == "en" else f"{m.zh} | {m.en}")

    def pick(zh: str, en: str) -> str:
        return zh if lang == "zh" else en if lang == "en" else f"{zh}/{en}"

    names = state.players or tuple(pick(*seat_label(i)) for i in range(4))
    if state.players and state.phase not in (Phase.SEATING, Phase.DEALER):
        say("hand_line", n=len(state.results) + 1, k=state.hand_in_round, round=WIND_ZH[min(state.round_wind, 3)],
            round_en=WIND_EN[min(state.round_wind, 3)], dealer=names[state.dealer], streak=state.streak)
    if state.wall is not None:
        count, live, reserve = state.wall.said
        say("wall_line", count=count, live=live, reserve=reserve)
    for s, st in enumerate(state.seats if state.wall else ()):
        wind = state.seat_wind(s)
        say("seat_line", wind=WIND_ZH[wind], wind_en=WIND_EN[wind], name=names[s],
            dealer="（莊）" if s == state.dealer else "", dealer_en=" (dealer)" if s == state.dealer else "")
        shown = held_flower(state) if state.phase is Phase.ACT and state.in_hand and s == state.turn else None
        # a flower drawn and not replaced is shown (§2.6): with the flowers, apart from the hidden hand
        tiles = list(st.concealed_tiles)
        if shown is not None and shown[1] in tiles:  # (shown once, after the flowers: a review saw it twice)
            tiles.remove(shown[1])
        hand = format_tiles(tiles) if show_hands else f"[{st.size - (shown is not None)}]"
        held = f" +{shown[1].code}{pick('（剛摸到，未補花）', ' (just drawn, not replaced)')}" if shown is not None else ""
        melds = " ".join(str(m) for m in _shown_melds(state, s, s if show_hands else None))
        tags = "".join(f" {x}" for x in (pick(st.ready.zh, st.ready.en) if st.ready else "",
                                         pick("過水", "barred") if st.barred else "",
                                         pick("陪打", "dead") if st.dead else "",
                                         pick("相公", "no win") if st.no_win else "") if x)
        colon = "：" if lang == "zh" else ":"
        # in Chinese the discards by their names, as the app says a tile (a review read 「打出：1z 3z 5z」); codes
        # in English and in both languages at once
        thrown = "、".join(t.zh for t in st.discards) if lang == "zh" else " ".join(t.code for t in st.discards)
        lines.append(f"    {hand} {melds} {pick('花', 'flowers')}{colon}{format_tiles(st.flowers) or '-'}{held} "
                     f"{pick('打出', 'discards')}{colon}{thrown or '-'}{tags}")
    turn = names[state.turn] if state.players else str(state.turn)
    if state.phase is Phase.HAND_OVER:  # nobody's turn: a bare name after "the hand is over" read as a winner's
        lines.append(f"    {pick(state.phase.zh, state.phase.en)}")
    else:
        waits = phase_said(state)
        lines.append(f"    {pick(waits.zh, waits.en)}; {pick('輪到' + in_chinese(turn, '到'), f'turn: {turn}')}")
    for w in state.warnings:
        lines.append(f"    ! {pick(w.zh, w.en)}")
    out = state.outcome
    if out is not None:
        # what each winner did ("wins on a discard"; the kind's name read "East0 win on a discard": a review)
        # (in Chinese with its full-width colon and 、: 「胡牌: 老王 自摸」 read half-width, a settlement review)
        # (a name spaced from the Chinese as the app spaces it: 「老王自摸」, 「North3 搶槓」)
        who = ("、" if lang == "zh" else ", ").join(
            in_chinese(names[w.seat], "", w.kind.zh) + w.kind.zh if lang == "zh"
            else f"{names[w.seat]} {pick(w.kind.zh, w.kind.won_en)}" for w in out.winners)
        lines.append(f"    {pick(*out.said)}{('：' if lang == 'zh' else ': ') + who if who else ''}")
    if state.phase is Phase.HAND_OVER and state.players:
        # who deals next, or that the session (一將) is over (spec §2.14, §6.7), as the CSV and the JSON say it (a
        # rules review: the text of a whole session ended on "the hand is over")
        done = finish_hand(state)
        said = msg("session_over_line") if done.session_over else \
            msg("next_deal_line", dealer=names[done.dealer], streak=done.streak, round=WIND_ZH[done.round_wind],
                round_en=WIND_EN[done.round_wind])
        lines.append(f"    {pick(said.zh, said.en)}")
    return "\n".join(lines)


_SEAT_KEYS = {"seat": ("座位", "seat"), "turn": ("輪到", "turn"), "due": ("輪到", "due"), "discarder": ("放槍", "discarder"),
              "already": ("已經是", "already"), "waiting": ("等", "waiting for")}
_COUNT_KEYS = {"live": ("牌牆剩 {} 張", "{} tiles left in the wall"), "wall": ("牌牆 {} 張", "wall of {} tiles"),
               "hand": ("第 {} 把", "hand {}")}
_SAID_ELSEWHERE = {"event", "line", "at"}  # (the message that carries the evidence names them already)


def evidence_said(evidence: tuple[tuple[str, str], ...], players: tuple[str, ...] = (),
                  reason: Msg | None = None) -> tuple[str, str]:
    """A refusal's evidence (:attr:`IllegalEvent.evidence`) in words, Chinese and English: the phase by its name,
    a seat by its player, a tile by its name; what has no words here keeps its ``name=value`` in both (a review: a
    Chinese refusal ended "（phase=act, seat=0）"). What the ``reason`` says already (the phase, the player) is left
    out."""
    said = dict(evidence)
    zh: list[str] = []
    en: list[str] = []
    for item_zh, item_en, words in _evidence_items(evidence, said, players):
        if reason is None or words is None or words not in reason.zh:
            zh.append(item_zh)
            en.append(item_en)
    return "，".join(zh), ", ".join(en)


def _evidence_items(evidence: tuple[tuple[str, str], ...], said: dict[str, str],
                    players: tuple[str, ...]) -> Iterator[tuple[str, str, str | None]]:
    """Each item of the evidence said (Chinese, English, the Chinese words naming its value, if any)."""
    for key, value in evidence:
        if key in _SAID_ELSEWHERE or (key.endswith("_en") and key.removesuffix("_en") in said):
            continue
        value_en = said.get(f"{key}_en", value)
        if key == "phase" and value.upper() in Phase.__members__:
            phase = Phase[value.upper()]
            yield f"階段：{phase.zh}", f"phase: {phase.en}", phase.zh
        elif key in _SEAT_KEYS and value.lstrip("-").isdigit():
            name_zh, name_en = seat_label(int(value), players)
            yield f"{_SEAT_KEYS[key][0]}：{name_zh}", f"{_SEAT_KEYS[key][1]}: {name_en}", name_zh
        elif key in _COUNT_KEYS and value.isdigit():
            yield _COUNT_KEYS[key][0].format(value), _COUNT_KEYS[key][1].format(value), None
        elif key == "tile" and (tile := _one_tile(value)) is not None:
            yield f"牌：{tile.zh}", f"tile: {value}", tile.zh
        elif key == "stakes":
            yield f"底／台：{value}", f"stakes: {value}", None
        elif key == "players" and (names := _names(value)) is not None:
            yield f"玩家：{'、'.join(names)}", f"players: {', '.join(names)}", None
        else:
            yield f"{key}={value}", f"{key}={value_en}", None


def _names(value: str) -> tuple[str, ...] | None:
    """The players' names of an evidence value (it holds the tuple as Python writes it)."""
    import ast

    try:
        names = ast.literal_eval(value)
    except (ValueError, SyntaxError):
        return None
    return tuple(names) if isinstance(names, tuple | list) and all(isinstance(n, str) for n in names) else None


def _one_tile(code: str) -> Tile | None:
    try:
        return Tile.from_code(code)
    except ValueError:
        return None
