"""The check of a declared win (spec §2.9, §2.10, §2.12, §3.1, §4.4)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from companion.game import events as ev
from companion.game.state import (
    UNK,
    ActKind,
    Phase,
    SeatState,
    TableState,
    WinRecord,
    held_flower,
    kongs_to_reveal,
    own_last_flower,
    seven_rob_target,
    window,
)
from companion.game.switches import DiscardKongWin
from companion.game.text import IllegalEvent, msg, own_tile, switch_off, tile_names
from companion.game.winning import completes
from companion.hand import Meld, MeldKind
from companion.tiles import NUM_KINDS, Tile, format_en, format_tiles, format_zh

__all__ = ["check_won", "check_copies", "own_win_refusal", "instant_win_refusal", "replaying", "checked_since",
           "may_win_refusal"]

_REPLAYING: ContextVar[int | None] = ContextVar("companion_replaying", default=None)  # the stamp replayed under


@contextmanager
def replaying(stamp: int = 0) -> Iterator[None]:
    """Events replayed from a stored log, checked under the version of the rules they were entered under
    (``stamp``: the event's ``rules_version``; 0, the default, for a log kept before events were stamped): the
    checks added since are not asked of them (a win shows every face-down concealed kong; a ready declaration's own
    discard keeps the hand ready), so a saved game kept before still opens (a review), its win then listed
    unscored. A log stamped with today's version is checked as an event entered now is (a code review: a log
    written today, edited to seat two look-alike names at stakes over the cap, was imported by ``--from-log``)."""
    token = _REPLAYING.set(stamp)
    try:
        yield
    finally:
        _REPLAYING.reset(token)


def checked_since(version: int) -> bool:
    """Whether the event checked is held to a check the rules brought in at ``version``: an event entered now
    always is; one replayed from a stored log (:func:`replaying`) where it was entered under that version of the
    rules or a later one (its ``rules_version``).

    The rule for the next engineer: a check of an event that a log kept before might fail (a new refusal, a
    tighter limit) is added as ``if checked_since(N) and ...``, where N is
    :data:`companion.game.events.RULES_VERSION` bumped by one for it (bump it in events.py in the same change).
    Logs entered under the versions before then replay as they were kept; every log written from then on is
    checked by it, on import and replay alike. A check that every log ever kept passes needs no version. The
    checks in place when events were first stamped are version 1: a log kept before the stamp (0) is asked none
    of them, as it was before; a log written since is asked all of them. Such a check only refuses: an event it lets
    pass makes the same table under any stamp (:meth:`companion.game.older_rules.OlderRules.step` steps an old event
    that today's rules take once, under them alone)."""
    stamp = _REPLAYING.get()
    return stamp is None or stamp >= version


def check_won(state: TableState, e: ev.Won) -> None:
    kind = e.kind
    if kind in (ev.WinKind.DISCARD, ev.WinKind.ROBBED_KONG):
        w = _window_for_win(state, e)
    else:
        w = state
        _own_win(state, e)
    _may_win(w, e.seat)
    st = w.seats[e.seat]
    _check_reveal(w, e)
    if kind.is_instant:
        return
    blocks = kind is not ev.WinKind.SELF_DRAW or state.switches.passed_win_blocks_self_draw
    if st.barred and blocks:
        raise IllegalEvent(msg("barred", **w.who(e.seat)), seat=e.seat)
    assert e.tile is not None
    counts = [0] * NUM_KINDS
    for t in e.concealed:
        counts[t] += 1
    check_copies(counts, st.melds, e.tile)
    if checked_since(1):  # (a log kept before the check replays as kept)
        check_table_copies(state, e.seat, counts, e.tile, on_offer=kind is not ev.WinKind.SELF_DRAW)
    if not completes(tuple(counts), st.melds, e.tile):
        hand = f"{format_tiles(e.concealed)} + {e.tile.code}"
        # the players read names, not notation, in either language (an English host review read "55z + 4z")
        # (one by one, spaced as elsewhere: run together they read as one long word, a wording review)
        named = f"{format_zh(e.concealed)}，胡{e.tile.zh}"
        raise IllegalEvent(msg("not_complete", **w.who(e.seat), hand=named, hand_en=f"{format_en(e.concealed)} + "
                               f"{e.tile.en}"), hand=hand)
    passed = passed_shown(st, tuple(counts)) if blocks and checked_since(1) else None
    if passed is not None:
        raise IllegalEvent(msg("barred_shown", **w.who(e.seat), tile=passed.zh, tile_en=passed.en), seat=e.seat,
                           passed=passed.code)


def _may_win(state: TableState, seat: int) -> None:
    """A seat playing dead after a 詐胡, or found with a wrong tile count (相公), may not win this hand (§2.16)."""
    st = state.seats[seat]
    if st.dead:
        raise IllegalEvent(msg("dead", **state.who(seat)))
    if st.no_win:
        raise IllegalEvent(msg("no_win", **state.who(seat)))


def may_win_refusal(state: TableState, seat: int) -> IllegalEvent | None:
    """Why ``seat`` may not win at all this hand (playing dead after a 詐胡, a 相公: §2.16), or None."""
    try:
        _may_win(state, seat)
    except IllegalEvent as refused:
        return refused
    return None


def instant_win_refusal(state: TableState, seat: int, kind: ev.WinKind) -> IllegalEvent | None:
    """Why ``seat`` may not declare the instant win ``kind`` (八仙過海, 七搶一, 四槓: spec §3.1, §4.2, §4.4) now,
    whatever tiles he shows: the checks :func:`check_won` makes before the tiles (None when he may try). The Live
    tab offers these wins only where this is None, so a win it offers is one the tracker takes on the tiles."""
    assert kind.is_instant
    try:
        _own_win(state, ev.Won(seat=seat, kind=kind, tile=None, concealed=()))
        _may_win(state, seat)
    except IllegalEvent as refused:
        return refused
    return None


def check_copies(counts: list[int], melds: tuple[Meld, ...], tile: Tile) -> None:
    """The hand shown at a win holds no fifth copy (hands logged unseen show their tiles only now)."""
    shown = list(counts)
    if tile < NUM_KINDS:
        shown[tile] += 1
    for m in melds:
        for t in m.tiles:
            if t < NUM_KINDS:
                shown[t] += 1
    for i, k in enumerate(shown):
        _at_most_a_set(Tile(i), k)


def _at_most_a_set(t: Tile, k: int) -> None:
    """Refuse ``k`` copies of ``t`` where a set holds fewer."""
    if k > t.max_copies:
        raise IllegalEvent(msg("fifth_copy", tile=t.zh, tile_en=f"{t.en} ({t.code})", seen=k, max=t.max_copies),
                           tile=t.code, copies=k)


def check_table_copies(state: TableState, seat: int, counts: list[int], tile: Tile, on_offer: bool) -> None:
    """The hand shown at a win and the copies the table has seen elsewhere (discards, the others' melds, a kong
    just made of the tile on offer) hold no fifth copy: a review won on an honour another seat had just made an
    exposed kong of, with a pair of it shown. ``counts`` are the concealed tiles shown; the tile won on, when it was
    on offer (a discard, a robbed kong), is one of the copies seen."""
    st = state.seats[seat]
    own = list(st.concealed[:NUM_KINDS])  # what the table knew of his hand before he showed it
    shown = list(counts)
    shown[tile] += 1
    for m in st.melds:
        for t in m.tiles:
            if t < NUM_KINDS:
                own[t] += 1
                shown[t] += 1
    for i in range(NUM_KINDS):
        elsewhere = state.known[i] - own[i] - (1 if on_offer and i == tile else 0)
        _at_most_a_set(Tile(i), shown[i] + elsewhere)


def _window_for_win(state: TableState, e: ev.Won) -> TableState:
    w = window(state)
    robbing = e.kind is ev.WinKind.ROBBED_KONG
    if w is None or (w.phase is Phase.ROB) != robbing:
        raise IllegalEvent(msg("win_kind", kind=e.kind.zh, kind_en=e.kind.en), phase=state.phase.name)
    if e.tile != w.offer:
        want = w.offer
        raise IllegalEvent(msg("wrong_tile", want=want.zh if want else "-", want_en=want.said_en if want else "-",
                               got=e.tile.zh if e.tile else "-", got_en=e.tile.said_en if e.tile else "-"))
    if e.seat == w.turn:
        raise IllegalEvent(own_tile(robbing, winning=True), seat=e.seat)
    if state.claim_rank == 3 and state.outcome is not None and \
            any(c.seat == e.seat for c in state.outcome.claimants):
        raise IllegalEvent(msg("win_kind", kind=e.kind.zh, kind_en=e.kind.en), already=e.seat)
    if state.phase is Phase.HAND_OVER and e.seat in state.false_wins:  # his 詐胡 on this tile stands
        raise IllegalEvent(msg("claimed_already", **w.who(e.seat)), seat=e.seat)
    return w


def _own_win(state: TableState, e: ev.Won) -> None:
    acting = state.phase is Phase.ACT or (state.phase is Phase.FLOWERS and e.seat == state.dealer)
    st = state.seats[e.seat]
    if e.kind is ev.WinKind.SEVEN_ROB_ONE:
        if not state.switches.seven_rob_one:
            raise IllegalEvent(switch_off("seven_rob_one"))
        if seven_rob_target(state, e.seat) is None or not state.in_hand:
            raise IllegalEvent(msg("seven_rob"), flowers=len(st.flowers))
        return
    if e.kind is ev.WinKind.FOUR_KONGS:
        if not state.switches.four_kongs:
            raise IllegalEvent(switch_off("four_kongs"))
        kongs = sum(1 for m in st.melds if m.is_kong)
        if kongs != 4 or e.seat != state.turn or state.phase not in (Phase.ACT, Phase.REPLACE, Phase.ROB):
            raise IllegalEvent(msg("four_kongs", **state.who(e.seat)), kongs=kongs, phase=state.phase.name)
        return
    if e.kind is ev.WinKind.EIGHT_FLOWERS:
        if not state.switches.eight_flowers:  # (a house profile scoring it 0: the ledger charged a 詐胡, and
            raise IllegalEvent(switch_off("eight_flowers"))  # passed the deal as after a win: a review)
        if len(st.flowers) + (own_last_flower(state, e.seat) is not None) != 8 or not state.in_hand:
            unlaid = sum(st.concealed[34:42])  # flowers the log knows in his hand, not yet laid
            if state.in_hand and len(st.flowers) + unlaid == 8:  # he holds all eight: the true reason is the order
                raise IllegalEvent(msg("eight_flowers_lay", **state.who(e.seat), n=unlaid), flowers=len(st.flowers))
            raise IllegalEvent(msg("eight_flowers", **state.who(e.seat)), flowers=len(st.flowers))
        return
    if not acting or e.seat != state.turn:
        raise IllegalEvent(msg("win_kind", kind=e.kind.zh, kind_en=e.kind.en), phase=state.phase.name,
                           turn=state.turn)
    barred = own_win_refusal(state, e.seat)
    if barred is not None:
        raise barred
    if e.tile is None or not e.tile.is_known:
        raise IllegalEvent(msg("unknown_tile"))
    drawn = st.drawn
    if state.act is not ActKind.DEALT and drawn is not None and drawn.is_known and drawn != e.tile:
        raise IllegalEvent(msg("wrong_drawn", want=drawn.zh, want_en=drawn.said_en, got=e.tile.zh,
                               got_en=e.tile.said_en))


def passed_shown(st: SeatState | WinRecord, hand: tuple[int, ...]) -> Tile | None:
    """The first tile the seat let go since its last discard, its hand face down then, that the ``hand`` it shows at
    its win (its concealed tiles before the tile won on) would have won on too: 過水 the table could not see until
    the tiles were shown (§2.12). The hand then was the one shown, for a hand changes only by its own draw and
    discard, or by a kong since: its tiles put back and the tile drawn before it taken out (a face-down draw, any one
    of the hand's: barred only where each would have won). The check is asked of wins entered now only
    (:func:`checked_since`): a log kept before it replays as kept."""
    if not st.passed:
        return None
    melds = st.melds if st.passed_melds is None else st.passed_melds
    then = list(hand)
    for t in st.passed_out:
        if not t.is_known:  # (a kong's unseen tiles: no hand to say)
            return None
        then[t] += 1
    unknown = 0
    for t in st.passed_in:
        if not t.is_known:
            unknown += 1
        elif then[t] > 0:
            then[t] -= 1
        else:  # (no such hand: said nothing, as before a kong was followed)
            return None
    if unknown > 1:  # (two tiles drawn face down, then kongs: too many hands it may have been)
        return None
    hands = [tuple(then)] if not unknown else [tuple(then[:d] + [then[d] - 1] + then[d + 1:])
                                               for d in range(NUM_KINDS) if then[d] > 0]
    return next((t for t in st.passed
                 if all(h[t] < t.max_copies and completes(h, melds, t) for h in hands)), None)


def own_win_refusal(state: TableState, seat: int) -> IllegalEvent | None:
    """Why the seat on turn may not win on his own tile now, whatever his tiles (None when he may try).

    The Live tab offers 胡（自摸） only where this is None, so a button it shows is one the tracker takes."""
    if state.act is ActKind.CLAIMED:
        return IllegalEvent(msg("after_claim"), seat=seat)
    if state.act is ActKind.DISCARD_KONG and \
            state.switches.discard_kong_replacement_win is DiscardKongWin.FORBIDDEN:
        return IllegalEvent(msg("dkong_win", **state.who(seat)), seat=seat)
    # before the first discard every seat's flowers are replaced first (§2.6, §2.8.1: 天胡 comes after the
    # initial replacement), as a discard or a kong must wait for them; later, the winner's own
    flower = held_flower(state)
    if flower is not None:
        return IllegalEvent(msg("flower_first", **state.who(flower[0]), tile=flower[1].zh, tile_en=flower[1].code))
    st = state.seats[seat]
    if st.barred and state.switches.passed_win_blocks_self_draw:
        return IllegalEvent(msg("barred", **state.who(seat)), seat=seat)
    return None


def _check_reveal(state: TableState, e: ev.Won) -> None:
    """The shown tiles agree with what the table knows of the hand."""
    st = state.seats[e.seat]
    shown = list(e.concealed)
    if e.kind is ev.WinKind.SELF_DRAW and e.tile is not None:
        shown.append(e.tile)
    flower = next((t for t in shown if t.is_flower), None)
    if flower is not None:  # named, not "no 0x here" (a rules review)
        raise IllegalEvent(msg("flower_shown", tile=flower.zh, tile_en=flower.said_en), concealed=format_tiles(shown))
    if any(not t.is_known for t in shown):
        raise IllegalEvent(msg("unknown_tile"), concealed=format_tiles(shown))
    total = sum(st.concealed[:34]) + st.concealed[UNK]
    if e.kind.flat_without_hand and not shown:  # an instant win paid flat shows no hand (not 四槓) (a review's 七搶一 was asked 16
        total = 0  # tiles that meant nothing, and took any)
    if len(shown) != total:
        raise IllegalEvent(msg("concealed_size", want=total, got=len(shown)), shown=format_tiles(shown))
    counts = [0] * NUM_KINDS
    for t in shown:
        counts[t] += 1
    missing = [Tile(i) for i in range(NUM_KINDS) if st.concealed[i] > counts[i]]
    if missing and total:
        # held and not shown (the reason said the reverse, "does not hold": a review)
        raise IllegalEvent(msg("shown_leaves_out", **state.who(e.seat), tiles=tile_names(missing),
                               tiles_en=format_en(missing)), shown=format_tiles(shown))
    hidden = sum(1 for m in st.melds if m.kind is MeldKind.CKONG and m.tile == Tile.UNKNOWN)
    if any(not t.is_known or t.is_flower for t in e.kongs):
        raise IllegalEvent(msg("unknown_tile"), kongs=format_tiles(e.kongs), hidden_kongs=hidden)
    shown_kongs = kongs_to_reveal(st, e.kongs)  # (one the log knows already, shown again, is no extra)
    if len(shown_kongs) > hidden:
        raise IllegalEvent(msg("kongs_extra", **state.who(e.seat), hidden=hidden, got=len(shown_kongs)),
                           kongs=format_tiles(e.kongs), hidden_kongs=hidden)
    if len(shown_kongs) < hidden and checked_since(1):  # one left face down would leave the win unscorable (an audit)
        raise IllegalEvent(msg("kongs_to_show", **state.who(e.seat), hidden=hidden, got=len(shown_kongs)),
                           kongs=format_tiles(e.kongs), hidden_kongs=hidden)
