"""Checks of claims (吃 碰 槓 胡), kongs, ready declarations and passed wins (spec §2.9-2.12)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.game import events as ev
from companion.game.check_win import check_won, checked_since
from companion.game.state import (
    ActKind,
    Phase,
    TableState,
    can_take,
    concealed_kong_kind,
    concealed_kong_kinds,
    held_flower,
    next_seat,
    offset,
    window,
)
from companion.game.text import IllegalEvent, msg, own_tile, tile_names
from companion.game.winning import completes, ready_after_discard, waits_of
from companion.hand import HandError, Meld, MeldKind
from companion.tiles import Tile, format_tiles, list_en

__all__ = ["CLAIM_CHECKS", "held_flower", "window"]

_RANK_NAME = {1: ("吃", "chow"), 2: ("碰/槓", "pung/kong"), 3: ("胡", "win")}


def _phase(state: TableState, zh: str, en: str, **evidence: Any) -> IllegalEvent:
    return IllegalEvent(msg("phase", what=zh, what_en=en, phase_zh=state.phase.zh, phase_en=state.phase.en),
                        phase=state.phase.name.lower(), **evidence)


def _claim_window(state: TableState, seat: int, tile: Tile, rank: int, robbing: bool = False) -> TableState:
    w = window(state)
    if w is None or (w.phase is Phase.ROB) != robbing:
        last = _last_discard(state)
        if last is not None:
            raise IllegalEvent(msg("window_closed", tile=last.zh, tile_en=last.said_en), phase=state.phase.name)
        raise IllegalEvent(msg("no_window"), phase=state.phase.name)
    assert w.offer is not None
    if tile != w.offer:
        raise IllegalEvent(msg("wrong_tile", want=w.offer.zh, want_en=w.offer.said_en, got=tile.zh,
                               got_en=tile.said_en))
    if seat == w.turn:
        raise IllegalEvent(own_tile(w.phase is Phase.ROB), seat=seat)
    if seat == state.claim_seat and rank <= state.claim_rank < 3 and state.seats[seat].melds:
        # his own chow, pung or kong of this tile entered again (or one no higher in its place): not outranked by
        # himself ("A's chow outranks chow", a review) but there already, to undo first
        taken = state.seats[seat].melds[-1].kind
        raise IllegalEvent(msg("claimed_again", **state.who(seat), meld=taken.zh, meld_en=taken.en, tile=w.offer.zh,
                               tile_en=w.offer.en), claimed_by=seat)  # "8 Dots", as the refusals beside it say
    if state.claim_rank and (state.claim_rank > rank or (state.claim_rank == rank and rank < 3)):
        zh, en = _RANK_NAME[state.claim_rank]
        mine = _RANK_NAME[rank]
        raise IllegalEvent(msg("outranked", **state.who(state.claim_seat), other=zh, other_en=en, claim=mine[0],
                               claim_en=mine[1]), claimed_by=state.claim_seat)
    if rank < 3 and w.last_tile_drawn:
        raise IllegalEvent(msg("last_discard_claim"), live=w.live)
    st = w.seats[seat]
    if st.dead:
        raise IllegalEvent(msg("dead", **w.who(seat)))
    return w


def _last_discard(state: TableState) -> Tile | None:
    prev = (state.turn - 1) % 4
    river = state.seats[prev].discards
    return river[-1] if river else None


def _frozen(state: TableState, seat: int, zh: str, en: str) -> None:
    if state.seats[seat].ready is not None:
        raise IllegalEvent(msg("frozen", **state.who(seat), what=zh, what_en=en))


def _need(state: TableState, seat: int, tiles: tuple[Tile, ...]) -> None:
    st = state.seats[seat]
    if not can_take(st.concealed, tiles):
        raise IllegalEvent(msg("not_in_hand", **state.who(seat), tiles=tile_names(tiles),
                               tiles_en=list_en(sorted(tiles))), hand=format_tiles(st.concealed_tiles))


def _chowed(state: TableState, e: ev.Chowed) -> None:
    tiles = tuple(e.tiles) + (e.tile,)
    try:  # (first: three 8p are no chow whoever enters them, a chow already entered or not: a review)
        if len(e.tiles) != 2:
            raise HandError("two tiles")
        Meld(MeldKind.CHOW, tiles)
    except HandError:
        raise IllegalEvent(msg("chow_shape", tiles=tile_names(tiles), tiles_en=list_en(sorted(tiles)))) from None
    w = _claim_window(state, e.seat, e.tile, 1)
    if e.seat != next_seat(w.turn):
        raise IllegalEvent(msg("chow_left", **w.who(e.seat), **w.who(w.turn, "discarder")),
                           discarder=w.turn, seat=e.seat)
    _frozen(w, e.seat, "吃", "chow")
    _need(w, e.seat, tuple(e.tiles))


def _punged(state: TableState, e: ev.Punged) -> None:
    w = _claim_window(state, e.seat, e.tile, 2)
    _frozen(w, e.seat, "碰", "pung")
    _need(w, e.seat, (e.tile,) * 2)


def _kong_room(state: TableState) -> None:
    assert state.wall is not None
    if state.last_tile_drawn:
        raise IllegalEvent(msg("last_tile_kong"), live=state.live)
    if state.wall.with_kong().live < 1:  # the last tile not drawn, but the kong's tile kept back leaves none
        raise IllegalEvent(msg("kong_no_room"), live=state.live)


def _exposed_kong(state: TableState, e: ev.ExposedKong) -> None:
    w = _claim_window(state, e.seat, e.tile, 2)
    if not state.switches.kong_from_left and offset(e.seat, w.turn) == 1:
        raise IllegalEvent(msg("kong_left"), discarder=w.turn, seat=e.seat)
    _frozen(w, e.seat, "明槓", "make an exposed kong")
    _kong_room(w)
    _need(w, e.seat, (e.tile,) * 3)


def _own_turn(state: TableState, seat: int, zh: str, en: str) -> None:
    acting = state.phase is Phase.ACT or (state.phase is Phase.FLOWERS and seat == state.dealer)
    if not acting:
        raise _phase(state, zh, en, seat=seat)
    if seat != state.turn:
        raise IllegalEvent(msg("not_turn", **state.who(seat), **state.who(state.turn, "turn")), turn=state.turn)
    if state.act is ActKind.CLAIMED:
        raise IllegalEvent(msg("after_claim"), seat=seat)
    flower = held_flower(state)
    if flower is not None:
        raise IllegalEvent(msg("flower_first", **state.who(flower[0]), tile=flower[1].zh, tile_en=flower[1].code))


def _added_kong(state: TableState, e: ev.AddedKong) -> None:
    _own_turn(state, e.seat, "加槓", "add to a kong")
    st = state.seats[e.seat]
    if st.dead:  # 加槓 is a call (spec §1.3), and a seat playing dead makes none (§2.16); a concealed kong is not one
        raise IllegalEvent(msg("dead", **state.who(e.seat)))
    if not any(m.kind is MeldKind.PUNG and m.tile == e.tile for m in st.melds):
        raise IllegalEvent(msg("no_pung", **state.who(e.seat), tile=e.tile.zh, tile_en=e.tile.said_en))
    _frozen(state, e.seat, "加槓", "add to a kong")
    _kong_room(state)
    _need(state, e.seat, (e.tile,))


def _concealed_kong(state: TableState, e: ev.ConcealedKong) -> None:
    _own_turn(state, e.seat, "暗槓", "make a concealed kong")
    if e.tile.is_flower:
        raise IllegalEvent(msg("not_in_hand", **state.who(e.seat), tiles=e.tile.zh, tiles_en=e.tile.said_en))
    _kong_room(state)
    st = state.seats[e.seat]
    # logged face down by a seat whose hand the log knows: the one kind it could be, else the table is asked which
    # (§2.10; it was refused as "does not hold face-down tile ×4", as if that were a kind: a rules review)
    tile = concealed_kong_kind(st.concealed, e.tile)
    if not tile.is_known and not can_take(st.concealed, (tile,) * 4):
        kinds = concealed_kong_kinds(st.concealed)
        if not kinds:
            raise IllegalEvent(msg("ckong_none", **state.who(e.seat)), hand=format_tiles(st.concealed_tiles))
        raise IllegalEvent(msg("ckong_which", **state.who(e.seat), tiles=tile_names(kinds, "或"),
                               tiles_en=list_en(kinds, "or")), hand=format_tiles(st.concealed_tiles))
    _need(state, e.seat, (tile,) * 4)
    drawn = st.drawn
    if st.ready is not None and drawn is not None and drawn.is_known and tile.is_known and drawn != tile:
        # §2.11: each drawn tile that does not win is discarded at once, so the kong's fourth tile must be the one
        # drawn; four held since the declaration would keep the drawn tile in the frozen hand
        raise IllegalEvent(msg("frozen_kong_held", **state.who(e.seat), tile=tile.zh, tile_en=tile.said_en,
                               drawn=drawn.zh, drawn_en=drawn.said_en))
    if st.ready is not None and st.fully_known and tile.is_known and drawn is not None and drawn.is_known:
        before = list(st.concealed)
        before[drawn] -= 1  # the ready hand before this turn's draw
        after = list(st.concealed)
        after[tile] -= 4
        kong = Meld(MeldKind.CKONG, (tile,) * 4)
        if waits_of(tuple(before), st.melds) != waits_of(tuple(after), st.melds + (kong,)):
            raise IllegalEvent(msg("frozen", **state.who(e.seat), what="改變聽牌的暗槓",
                                   what_en="make a concealed kong that changes the waits"))


def _replacement(state: TableState, e: ev.ReplacementDrew) -> None:
    if state.phase not in (Phase.REPLACE, Phase.ROB) or e.seat != state.turn:
        raise _phase(state, "槓後補牌", "take a kong replacement", seat=e.seat)
    assert state.wall is not None
    if state.wall.count < 1:
        raise IllegalEvent(msg("wall_dead"))


def _ready(state: TableState, e: ev.DeclaredReady) -> None:
    st = state.seats[e.seat]
    kind = e.kind
    if st.ready is not None:
        raise IllegalEvent(msg("ready_twice", **state.who(e.seat)))
    if st.dead and checked_since(1):  # a seat playing dead may not win (§2.16): a declaration of a win to come is not
        raise IllegalEvent(msg("dead_ready", **state.who(e.seat)))  # his to make (a log saved before replays as kept)
    dealer = e.seat == state.dealer
    acting = e.seat == state.turn and (state.phase is Phase.ACT or (state.phase is Phase.FLOWERS and dealer))
    if kind is ev.ReadyKind.READY:
        ok = acting
    elif kind is ev.ReadyKind.HEAVENLY:
        first = not state.calls_made and st.discards_made == 0
        ok = first and (acting if dealer else st.draws_made == 0 and state.in_hand)
    else:
        ok = acting and not dealer and not state.calls_made and st.discards_made == 0
    if not ok:
        raise IllegalEvent(msg("ready_window", kind=kind.zh, kind_en=kind.en), seat=e.seat)
    if st.fully_known:
        ready = ready_after_discard(st.concealed, st.melds) if st.size == 17 \
            else bool(waits_of(st.concealed, st.melds))
        if not ready:
            raise IllegalEvent(msg("not_ready", **state.who(e.seat)), hand=format_tiles(st.concealed_tiles))


def _passed(state: TableState, e: ev.PassedWin) -> None:
    w = window(state)
    if w is None or state.claim_rank >= 3:  # after a chow or a pung a win may still outrank it: a pass counts
        raise IllegalEvent(msg("no_window"), phase=state.phase.name)
    if state.claim_rank and e.seat == state.claim_seat:  # he took the tile: there is nothing left for him to pass
        raise IllegalEvent(msg("no_window"), phase=state.phase.name)
    if w.offer is None:
        raise IllegalEvent(msg("no_window"), phase=state.phase.name)
    if e.tile != w.offer or e.seat == w.turn:
        raise IllegalEvent(own_tile(w.phase is Phase.ROB) if e.seat == w.turn else
                           msg("pass_wrong_tile", want=w.offer.zh, want_en=w.offer.said_en, got=e.tile.zh,
                               got_en=e.tile.said_en))
    st = w.seats[e.seat]
    if st.fully_known and not completes(st.concealed, st.melds, e.tile):
        raise IllegalEvent(msg("not_win_tile", tile=e.tile.zh, tile_en=e.tile.said_en, **w.who(e.seat)))


CLAIM_CHECKS: dict[type, Callable[[TableState, Any], None]] = {
    ev.Chowed: _chowed, ev.Punged: _punged, ev.ExposedKong: _exposed_kong, ev.AddedKong: _added_kong,
    ev.ConcealedKong: _concealed_kong, ev.ReplacementDrew: _replacement, ev.DeclaredReady: _ready,
    ev.PassedWin: _passed, ev.Won: check_won,
}
