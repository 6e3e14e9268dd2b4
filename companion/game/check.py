"""``check(state, event)``: raise :class:`IllegalEvent` (reason in zh/en + evidence) unless the rules
allow the event now. ``step`` checks, evolves and checks the result; ``replay`` folds a log.

Claims, kongs, wins and ready declarations are checked in :mod:`companion.game.check_claims`.
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Iterable
from dataclasses import fields
from typing import Any

from companion.english import the_tile
from companion.game import events as ev
from companion.game.check_claims import CLAIM_CHECKS, held_flower
from companion.game.check_win import check_copies, checked_since, passed_shown, replaying
from companion.game.evolve import (
    corrected_hand,
    corrected_melds,
    evolve,
    finish_hand,
    hand_result,
    seated_rules,
    session_view,
    shown_kongs,
    split_four_kongs,
    win_hand,
)
from companion.game.rotation import resolve_claimants
from companion.game.session import table_profile, win_input
from companion.game.state import (
    ActKind,
    Phase,
    TableState,
    can_take,
    new_flower_pass,
    next_seat,
    offset,
    replace,
    window,
)
from companion.game.switches import FirstDealer, Switches
from companion.game.text import IllegalEvent, msg, own_tile, switch_off, tile_names
from companion.game.wall import DEAL_TILES, count_seat
from companion.game.winning import completes, waits_of
from companion.names import shown_name
from companion.rules.profiles import ProfileError, check_caps, load_profile
from companion.rules.said import json_said
from companion.rules.scoring import FalseWin, NotAWin, score
from companion.rules.settlement import STAKE_MAX
from companion.rules.win import WinInputError
from companion.tiles import NUM_KINDS, Tile, format_en, format_tiles, format_zh, list_en

__all__ = ["check", "step", "stored_step", "replay", "replaying", "IllegalEvent", "phase_error", "split_four_kongs", "four_kongs_due"]


def check(state: TableState, event: ev.Event) -> None:
    """Raise :class:`IllegalEvent` when ``event`` may not happen in ``state``."""
    step(state, event)


def step(state: TableState, event: ev.Event) -> TableState:
    """Check ``event``, apply it and check what it leaves (no fifth copy, structural counts)."""
    seat = event.seat if isinstance(event, ev.SeatEvent) else 0
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < 4:  # (True passed as seat 1: a review)
        said, said_zh = json_said(seat)  # (as _check_tile_fields says a value: it said 2.5 two ways, a review)
        raise IllegalEvent(msg("no_seat") if seat is None else msg("bad_seat", seat=said_zh, seat_en=said), seat=said)
    checker = _CHECKS.get(type(event))
    if checker is None:
        raise IllegalEvent(msg("unknown_event", name=type(event).__name__), event=type(event).__name__)
    _check_tile_fields(event)
    _check_four_kongs_due(state, event)
    checker(state, event)
    new = evolve(state, event)
    _check_result(new, event)
    if isinstance(event, ev.Won):
        new = _check_min_tai(new, event)
    return new


def _check_tile_fields(event: ev.Event) -> None:
    """Every tile the event names is one of the 43 (a number out of range, text or bytes given through the
    Python API is refused naming the field, where it failed deep in the state's counts)."""
    for field, hint in _TILE_FIELDS.get(type(event), ()):
        bad = _bad_tile(hint, getattr(event, field))
        if bad is not None:
            name = f"{type(event).__name__}.{field}"
            said, said_zh = json_said(bad)  # (it said Python's '5m': a review)
            raise IllegalEvent(msg("bad_tile", field=name, value=said_zh, value_en=said), field=name, value=said)


def _bad_tile(hint: Any, value: Any) -> Any:
    """The first value under a ``Tile`` type hint (alone, optional or in nested tuples) that is not a tile."""
    args = typing.get_args(hint)
    if hint is Tile or (Tile in args and typing.get_origin(hint) is not tuple):  # Tile or Tile | None
        if value is None and type(None) in args:
            return None
        ok = isinstance(value, Tile)  # a plain number passed this check and failed later on a tile's name
        return None if ok else value
    if typing.get_origin(hint) is tuple and args:
        if not isinstance(value, tuple | list):
            return value if _mentions_tile(hint) else None
        for v in value:
            bad = _bad_tile(args[0], v)
            if bad is not None:
                return bad
    return None


def _mentions_tile(hint: Any) -> bool:
    return hint is Tile or any(_mentions_tile(a) for a in typing.get_args(hint))


_TILE_FIELDS: dict[type, tuple[tuple[str, Any], ...]] = {
    cls: tuple((f.name, ev.EVENT_HINTS[cls][f.name]) for f in fields(cls) if _mentions_tile(ev.EVENT_HINTS[cls][f.name]))
    for cls in ev.EVENT_TYPES.values()}
"""Each event type's fields that name tiles, with their types (checked on every step)."""


def _check_min_tai(state: TableState, e: ev.Won) -> TableState:
    """A declared win scoring under the profile's ``min_tai`` is no win but 詐胡 (spec §6.4). Alone it is refused,
    so that the table records the false win (the hand is then replayed or played on dead, §2.14) instead of a
    win that would move the deal on. Beside another seat's claim on the same tile it is kept as that 詐胡 with
    the tai it claimed, and the other claims are resolved without it (so it neither wins under ``nearest`` nor
    keeps the deal for a dealer), whichever was logged first."""
    prof = table_profile(load_profile(state.profile or None), state.switches)  # as this table plays it
    need = prof.switch("min_tai")
    if not need or state.outcome is None:
        return state
    out = state.outcome
    rec = next((c for c in out.claimants if c.seat == e.seat), None)
    if rec is None:
        return state
    try:
        score(win_input(rec, hand_result(state), prof), prof)
    except FalseWin as bad:
        if bad.claimed is None or bad.claimed.hand_tai >= need:
            return state  # refused by the profile for another reason: the ledger's to report
        tai = bad.claimed.hand_tai
        others = tuple(c for c in out.claimants if c.seat != e.seat)
        if not others:
            raise IllegalEvent(msg("below_min", **state.who(e.seat), tai=tai, need=need, profile=prof.name_zh,
                                   profile_en=prof.name_en),
                               seat=e.seat, claimed_tai=tai) from None
        # beside another claim on the same tile: this one is 詐胡 and the others are resolved without it
        fw, fc = state.false_wins + (e.seat,), state.false_claims + (tai,)
        assert rec.discarder is not None
        rest = resolve_claimants(others, rec.discarder, state.switches)
        return replace(state, outcome=replace(rest, false_wins=fw, false_claims=fc), false_wins=fw,
                       false_claims=fc)
    except (NotAWin, WinInputError):
        return state  # not this check's question: the ledger reports a hand it cannot score
    return state


def stored_step(state: TableState, event: ev.Event) -> TableState:
    """:func:`step` for an event replayed from a stored log, kept under the rules of its day (its
    ``rules_version``): the checks added since are not asked of it, every other one is
    (:func:`companion.game.check_win.checked_since`)."""
    with replaying(event.rules_version):
        return step(state, event)


def replay(events: Iterable[ev.Event], state: TableState | None = None) -> TableState:
    """Fold a log into its state; an illegal event raises :class:`IllegalEvent` naming its position."""
    s = state or TableState()
    for i, e in enumerate(events):
        try:
            s = stored_step(s, e)
        except IllegalEvent as err:
            err.evidence = (("event", f"#{i} {type(e).__name__}"),) + err.evidence
            err.args = (f"event #{i} ({type(e).__name__}): {err.args[0]}",)
            raise
    return s


def phase_error(state: TableState, what_zh: str, what_en: str, **evidence: Any) -> IllegalEvent:
    return IllegalEvent(msg("phase", what=what_zh, what_en=what_en, phase_zh=state.phase.zh,
                            phase_en=state.phase.en), phase=state.phase.name.lower(), **evidence)


_MAX = tuple(Tile(i).max_copies for i in range(42))


def _no_fifth_copy(known: Iterable[int]) -> None:
    """Each face seen (counts by face) at most as often as the set holds it."""
    for i, (k, most) in enumerate(zip(known, _MAX, strict=False)):
        if k > most:
            t = Tile(i)
            raise IllegalEvent(msg("fifth_copy", tile=t.zh, tile_en=f"{t.en} ({t.code})", seen=k, max=t.max_copies),
                               tile=t.code, copies=k)


def _check_result(new: TableState, event: ev.Event) -> None:
    _no_fifth_copy(new.known)
    if new.phase in (Phase.ACT, Phase.CLAIM, Phase.REPLACE, Phase.ROB):
        for s, st in enumerate(new.seats):
            want = 17 if new.phase is Phase.ACT and s == new.turn else 16
            if st.size != want:
                raise IllegalEvent(msg("count", **new.who(s), got=st.size, want=want), seat=s)


# --- session ---------------------------------------------------------------------------------------

NAME_MAX = 24
"""The most characters a player's name shows (a table's names are short: 阿東, Mary, 老王)."""


def _check_stakes(base: object, per_tai: object) -> None:
    if not isinstance(base, int) or not isinstance(per_tai, int) or isinstance(base, bool) or \
            isinstance(per_tai, bool) or base < 0 or per_tai < 0:
        raise IllegalEvent(msg("stakes", base=base, per_tai=per_tai), stakes=f"{base}/{per_tai}")
    if checked_since(1) and max(base, per_tai) > STAKE_MAX:  # (a log kept before replays as kept)
        raise IllegalEvent(msg("stakes_big", base=base, per_tai=per_tai, most=f"{STAKE_MAX:,}"),
                           stakes=f"{base}/{per_tai}")


def visible_name(name: str) -> str:
    """A player's name as it shows (:func:`companion.names.shown_name`, the one folding of every name a player
    gives): its compatibility forms folded (NFKC), the characters that show nothing (zero-width spaces and joiners,
    variation selectors, fillers) taken out, runs of white space one space, none at the ends. Its case is kept:
    "lin" and "Lin" are two players' names as a table writes them."""
    return shown_name(name)


def _seated(state: TableState, e: ev.Seated) -> None:
    if state.in_hand:
        raise phase_error(state, "定位", "seat the players")
    names = tuple(e.players)
    unfit = len(names) != 4 or len(set(names)) != 4 or any(not isinstance(n, str) or not n.strip() for n in names)
    if not unfit and checked_since(1):  # a name must show, and two names must look different (a review seated a
        # zero-width space, and two names apart only by one); a log kept before replays as kept
        shown = [visible_name(n) for n in names]
        unfit = not all(shown) or len(set(shown)) != 4
        long = next((n for n in shown if len(n) > NAME_MAX), None)
        if not unfit and long is not None:  # (a review's 300-character name filled a phone's screen)
            raise IllegalEvent(msg("name_long", name=long[:NAME_MAX] + "…", most=NAME_MAX), name=long)
    if unfit:
        said = [visible_name(n) if isinstance(n, str) else str(n) for n in names]
        raise IllegalEvent(msg("players", names="、".join(n or "（空白）" for n in said),
                               names_en=", ".join(n or "(blank)" for n in said)), players=names)
    _check_stakes(e.base, e.per_tai)
    try:
        # the ledger scores every hand under it: the rule set as the table keeps it, else by its id
        prof = load_profile(seated_rules(e))
        if checked_since(1):  # (a log kept before, under a cap now refused, replays as kept: a review)
            check_caps(prof)
    except ProfileError as bad:
        raise IllegalEvent(msg("profile", name=e.profile, why=bad.zh or str(bad), why_en=str(bad)),
                           profile=e.profile) from None


def _win_corrected(state: TableState, e: ev.WinCorrected) -> None:
    """A winner's shown tiles put right (spec §6.7): only a winner's whose tiles decide his pay, of a hand the
    session finished, with as many tiles as he showed, a complete hand with his melds (but 八仙過海's, which is paid
    8 flat if it is not one), no fifth copy of a tile the table saw, and a win still; in the session under way or
    an earlier one at the table (``session``)."""
    if type(e.session) is not int or not 0 <= e.session <= len(state.past) + 1:
        raise IllegalEvent(msg("fix_no_session", session=e.session, n=len(state.past) + 1), session=e.session)
    earlier = session_view(state, e.session)
    if earlier is not None:
        state = earlier
    found = corrected_hand(state, e.hand) if state.players and type(e.hand) is int else None
    if found is None:
        raise IllegalEvent(msg("fix_no_hand", hand=e.hand), hand=e.hand)
    result, _ = found
    rec = next((w for w in result.outcome.winners if w.seat == e.seat), None)
    if rec is None:
        raise IllegalEvent(msg("fix_not_winner", **state.who(e.seat), hand=e.hand), hand=e.hand, seat=e.seat)
    if not rec.tiles_count:
        raise IllegalEvent(msg("fix_instant", hand=e.hand, kind=rec.kind.zh, kind_en=rec.kind.en), hand=e.hand)
    if rec.tile is None:  # 八仙過海 on his hand: won on no tile
        if e.tile is not None:
            raise IllegalEvent(msg("fix_no_tile", hand=e.hand, kind=rec.kind.zh, kind_en=rec.kind.en),
                               tile=e.tile.code)
    elif e.tile is not None and e.tile != rec.tile and rec.kind is not ev.WinKind.SELF_DRAW:
        raise IllegalEvent(msg("fix_discard_tile", hand=e.hand, tile=rec.tile.zh, tile_en=rec.tile.said_en),
                           tile=e.tile.code)
    tile = e.tile if e.tile is not None else rec.tile
    won = (tile,) if tile is not None else ()
    # (a kong's kind may stay unknown where the win left it so: an old log's, kept in its place; not one it named)
    unnamed = {i for i in rec.face_down if i < len(rec.melds) and not rec.melds[i].tile.is_known}
    if any(not t.is_known or t.is_flower for t in (*e.concealed, *won)) or any(t.is_flower for t in e.kongs) \
            or any(not k.is_known and i not in unnamed for i, k in zip(rec.face_down, e.kongs, strict=False)):
        raise IllegalEvent(msg("fix_unknown"), concealed=format_tiles(e.concealed), kongs=format_tiles(e.kongs))
    if len(e.concealed) != len(rec.concealed):
        raise IllegalEvent(msg("fix_size", **state.who(e.seat), hand=e.hand, want=len(rec.concealed),
                               got=len(e.concealed)), concealed=format_tiles(e.concealed))
    if e.kongs and len(e.kongs) != len(rec.face_down):  # only those the win named: the table saw the others
        raise IllegalEvent(msg("fix_kongs_size", **state.who(e.seat), hand=e.hand, want=len(rec.face_down),
                               got=len(e.kongs)), kongs=format_tiles(e.kongs))
    new = replace(rec, concealed=tuple(e.concealed), tile=tile, melds=corrected_melds(rec, tuple(e.kongs)))
    if sorted(e.concealed) == sorted(rec.concealed) and tile == rec.tile \
            and sorted(shown_kongs(new)) == sorted(shown_kongs(rec)):
        raise IllegalEvent(msg("fix_same"), hand=e.hand)
    if rec.drawn is not None and tile is not None and tile != rec.drawn:  # the log saw the tile he drew
        raise IllegalEvent(msg("wrong_drawn", want=rec.drawn.zh, want_en=rec.drawn.said_en, got=tile.zh,
                               got_en=tile.said_en))
    missing = list(rec.logged)  # and every tile of his hand it saw must be among those he shows
    for t in (*e.concealed, *(won if rec.kind is ev.WinKind.SELF_DRAW else ())):
        if t in missing:
            missing.remove(t)
    if missing:
        raise IllegalEvent(msg("shown_leaves_out", **state.who(e.seat), tiles=tile_names(missing),
                               tiles_en=format_en(missing)), missing=format_tiles(missing))
    shown = [0] * NUM_KINDS
    for t in e.concealed:
        shown[t] += 1
    check_copies(shown, new.melds, tile if tile is not None else Tile.UNKNOWN)  # no fifth copy in his own hand
    seen = list(result.known or (0,) * NUM_KINDS)  # nor beside what the table saw (his melds included)
    for t in (*win_hand(rec), *shown_kongs(rec)):
        seen[t] -= 1
    for t in (*win_hand(new), *shown_kongs(new)):
        seen[t] += 1
    _no_fifth_copy(seen)
    if tile is not None and not completes(tuple(shown), new.melds, tile):
        hand = f"{format_tiles(e.concealed)} + {tile.code}"
        waits = waits_of(tuple(shown), new.melds)  # what it does wait on, as `companion tai` says (a review)
        said = msg("fix_waits", tiles=tile_names(waits), tiles_en=list_en(waits, "or")) if waits else \
            msg("fix_no_waits")
        # by name, as the win entered at the table says it (an English host review read the notation here)
        named = f"{format_zh(e.concealed)}，胡{tile.zh}"
        raise IllegalEvent(msg("not_complete", **state.who(e.seat), hand=f"{named}{said.zh}",
                               hand_en=f"{format_en(e.concealed)} + {tile.en}{said.en}"), hand=hand)
    switches = result.switches if result.switches is not None else state.switches
    blocks = rec.kind is not ev.WinKind.SELF_DRAW or switches.passed_win_blocks_self_draw
    passed = passed_shown(new, tuple(shown)) if blocks and checked_since(1) else None
    if passed is not None:  # as the win entered with these tiles would have been (a review: a 詐胡 made a paid win)
        raise IllegalEvent(msg("barred_shown", **state.who(e.seat), tile=passed.zh, tile_en=passed.en),
                           seat=e.seat, passed=passed.code)
    rules = load_profile(state.profile or None)
    prof = table_profile(rules, switches)
    need = prof.switch("min_tai")
    try:
        score(win_input(new, result, prof), prof)
    except FalseWin as bad:
        tai = bad.claimed.hand_tai if bad.claimed is not None else 0
        if need and tai < need:
            raise IllegalEvent(msg("fix_below_min", **state.who(e.seat), tai=tai, need=need), hand=e.hand) from None
    except (NotAWin, WinInputError):  # the ledger says why it cannot score it, as for the hand as first entered
        pass


_SEATING_ONLY = {"first_dealer": ("起莊方式", "how the first dealer is chosen"),
                 "seat_wind": ("門風的算法", "how the seat winds go")}


def _stakes_changed(state: TableState, e: ev.StakesChanged) -> None:
    ahead = state  # the table as the next hand will be dealt: after the hand just over, with a change made since
    if state.phase is Phase.HAND_OVER:
        ahead = finish_hand(state)
        if ahead.session_over:
            raise IllegalEvent(msg("session_over"), results=len(state.results) + 1)
    elif state.phase not in (Phase.DICE, Phase.DEALER) or state.session_over:  # (before the first dealer too: a review)
        raise phase_error(state, "改底台或規矩（兩把之間）", "change the stakes or house rules (between hands)")
    _check_stakes(e.base, e.per_tai)
    if e.switches is not None and not isinstance(e.switches, Switches):
        raise IllegalEvent(msg("bad_switches", value=e.switches), switches=e.switches)
    was = ahead.switches.to_mapping()
    now = e.switches.to_mapping() if e.switches is not None else was
    for name, (zh, en) in _SEATING_ONLY.items():
        if was[name] != now[name]:
            raise IllegalEvent(msg("terms_seating", rule=zh, rule_en=en), **{name: now[name]})
    if (e.base, e.per_tai) == (ahead.base, ahead.per_tai) and was == now:
        raise IllegalEvent(msg("terms_same", base=e.base, per_tai=e.per_tai), stakes=f"{e.base}/{e.per_tai}")


def _dice_ok(dice: tuple[int, ...], n: int = 3) -> bool:
    return len(dice) == n and all(isinstance(d, int) and 1 <= d <= 6 for d in dice)


def _dealer(state: TableState, e: ev.DealerChosen) -> None:
    if state.phase is not Phase.DEALER:
        raise phase_error(state, "起莊", "choose the first dealer")
    method = state.switches.first_dealer
    for name, thrown in (("dice", e.dice), ("second_dice", e.second_dice)):  # what the method does not use
        if tuple(thrown) and not _dice_ok(tuple(thrown)):  # may be left out, but not be impossible dice
            raise IllegalEvent(msg("dice", dice=thrown), **{name: thrown})
    if method is FirstDealer.EAST_DEALS:
        expected = 0
    else:
        if not _dice_ok(e.dice):
            raise IllegalEvent(msg("dice", dice=e.dice), dice=e.dice)
        expected = count_seat(0, sum(e.dice))
        if method is FirstDealer.TWO_THROWS:
            if not _dice_ok(e.second_dice):
                raise IllegalEvent(msg("dice", dice=e.second_dice), second_dice=e.second_dice)
            expected = count_seat(expected, sum(e.second_dice))
    if e.dealer != expected:
        raise IllegalEvent(msg("dealer_mismatch", **state.who(expected, "expected"), **state.who(e.dealer, "got")),
                           method=method.value, dice=e.dice, second_dice=e.second_dice)


def _dice(state: TableState, e: ev.DiceRolled) -> None:
    if state.phase is Phase.HAND_OVER:
        if finish_hand(state).session_over:
            raise IllegalEvent(msg("session_over"), results=len(state.results) + 1)
    elif state.phase is not Phase.DICE:
        raise phase_error(state, "擲骰", "roll the dice")
    if not _dice_ok(tuple(e.dice)):
        raise IllegalEvent(msg("dice", dice=e.dice), dice=e.dice)


def _dealt(state: TableState, e: ev.Dealt) -> None:
    if state.phase is not Phase.DEAL:
        raise phase_error(state, "配牌", "deal")
    if len(e.hands) != 4:
        raise IllegalEvent(msg("deal_hands", got=len(e.hands)), hands=len(e.hands))
    for s, h in enumerate(e.hands):
        want = 17 if s == state.dealer else 16
        if len(h) != want:
            raise IllegalEvent(msg("deal_size", **state.who(s), want=want, got=len(h)), seat=s)
    assert sum(len(h) for h in e.hands) == DEAL_TILES


# --- flowers, draws, discards ----------------------------------------------------------------------

def _flower(state: TableState, e: ev.FlowerReplaced) -> None:
    if len(e.flowers) != len(e.replacements) or not e.flowers:
        raise IllegalEvent(msg("flower_count", n=len(e.flowers), m=len(e.replacements)))
    for f in e.flowers:
        if not f.is_flower:
            raise IllegalEvent(msg("not_flower", tile=f.zh, tile_en=f.said_en), tile=f.code)
    twice = next((f for f in e.flowers if e.flowers.count(f) > 1), None)
    if twice is not None:  # (a review was told "does not hold 33f")
        raise IllegalEvent(msg("fifth_copy", tile=twice.zh, tile_en=f"{twice.en} ({twice.code})",
                               seen=e.flowers.count(twice), max=twice.max_copies), tile=twice.code)
    st = state.seats[e.seat]
    if state.phase is Phase.FLOWERS:
        _flower_order(state, e)
    elif state.phase is not Phase.ACT or e.seat != state.turn:
        raise phase_error(state, "補花", "replace a flower", seat=e.seat, turn=state.turn)
    elif state.act is ActKind.CLAIMED and checked_since(1):  # §2.8.5: he discards without drawing (a pung outranking
        # his chow would also take his replacement back off the table: two reviews); a log kept before replays
        raise IllegalEvent(msg("flower_after_claim", **state.who(e.seat)), seat=e.seat)
    if not can_take(st.concealed, e.flowers):
        raise IllegalEvent(msg("not_in_hand", **state.who(e.seat), tiles=tile_names(e.flowers),
                               tiles_en=list_en(sorted(e.flowers))), hand=format_tiles(st.concealed_tiles))
    assert state.wall is not None
    if state.wall.count < len(e.replacements):
        raise IllegalEvent(msg("wall_dead"), wall=state.wall.count)


def _flower_order(state: TableState, e: ev.FlowerReplaced) -> None:
    """§2.6: the dealer first, then counter-clockwise; a new pass (再補) only after this one is done."""
    _, pos, _held = state.passes
    off = offset(e.seat, state.dealer)
    if new_flower_pass(state, e.seat, e.flowers):
        for later in range(pos + 1, 4):
            s = (state.dealer + later) % 4
            if any(state.seats[s].concealed[34:42]):
                raise IllegalEvent(msg("held_back", **state.who(s)), seat=e.seat, waiting=s)
        before = range(off)
    else:
        before = range(pos + 1, off)
    for k in before:
        s = (state.dealer + k) % 4
        if any(state.seats[s].concealed[34:42]):
            raise IllegalEvent(msg("flower_order", **state.who(s), **state.who(e.seat, "other")), seat=e.seat,
                               first=s)


def _drew(state: TableState, e: ev.Drew) -> None:
    if state.phase is not Phase.CLAIM:
        raise phase_error(state, "摸牌", "draw", seat=e.seat)
    due = next_seat(state.turn)
    if e.seat != due:
        raise IllegalEvent(msg("not_turn", **state.who(e.seat), **state.who(due, "turn")), due=due, seat=e.seat)
    if state.live < 1:
        raise IllegalEvent(msg("wall_empty", live=state.live), live=state.live)


def _discarded(state: TableState, e: ev.Discarded) -> None:
    acting = state.phase is Phase.ACT or (state.phase is Phase.FLOWERS and e.seat == state.dealer)
    if state.phase is Phase.FLOWERS and not acting:  # the dealer discards first, once the flowers are replaced: said
        flower = held_flower(state)  # so, by name (a review read "phase=flowers")
        if flower is not None:
            raise IllegalEvent(msg("flower_first", **state.who(flower[0]), tile=flower[1].zh, tile_en=flower[1].code))
        raise IllegalEvent(msg("not_turn", **state.who(e.seat), **state.who(state.dealer, "turn")),
                           turn=state.dealer, seat=e.seat)
    if not acting:
        raise phase_error(state, "打牌", "discard", seat=e.seat)
    if e.seat != state.turn:
        raise IllegalEvent(msg("not_turn", **state.who(e.seat), **state.who(state.turn, "turn")),
                           turn=state.turn, seat=e.seat)
    if e.tile.is_flower:
        raise IllegalEvent(msg("flower_discard", tile=e.tile.zh, tile_en=e.tile.said_en), tile=e.tile.code)
    if not e.tile.is_known:
        raise IllegalEvent(msg("unknown_tile"), tile=e.tile.code)
    st = state.seats[e.seat]
    flower = held_flower(state)
    if flower is not None:
        raise IllegalEvent(msg("flower_first", **state.who(flower[0]), tile=flower[1].zh, tile_en=flower[1].code))
    if not can_take(st.concealed, (e.tile,)):
        raise IllegalEvent(msg("not_in_hand", **state.who(e.seat), tiles=e.tile.zh, tiles_en=e.tile.said_en),
                           hand=format_tiles(st.concealed_tiles))
    if st.ready is not None and not st.ready_now and st.drawn is not None and st.drawn.is_known \
            and e.tile != st.drawn:
        raise IllegalEvent(msg("frozen_discard", **state.who(e.seat), tile=st.drawn.zh, tile_en=st.drawn.said_en),
                           drawn=st.drawn.code, discard=e.tile.code)
    if st.ready is not None and st.ready_now and st.fully_known and checked_since(1):  # it must keep the declaration true
        left = list(st.concealed)
        left[e.tile] -= 1
        if not waits_of(tuple(left), st.melds):
            raise IllegalEvent(msg("ready_discard", **state.who(e.seat), tile=e.tile.zh,
                                   tile_en=the_tile(e.tile, e.tile.said_en)),
                               hand=format_tiles(st.concealed_tiles), discard=e.tile.code)


# --- ends ------------------------------------------------------------------------------------------

def _drew_unseen(state: TableState) -> bool:
    """Whether the seat to act drew a tile the log does not know (``0x``)."""
    drawn = state.seats[state.turn].drawn
    return drawn is not None and not drawn.is_known


def four_kongs_due(state: TableState) -> tuple[str, int | None] | None:
    """The 四槓 ending the hand owes now where the item is on (§2.13, §4.4): ``("win", seat)`` when the seat
    to act has just made his fourth kong (and may win), ``("draw", None)`` when four kongs are split between
    players. While the kong's tile may still be won (a discard kong outranked by a win, an added kong robbed)
    those wins come first; the ending closes that window."""
    if not state.switches.four_kongs or not state.in_hand:
        return None
    st = state.seats[state.turn]
    if state.phase in (Phase.ACT, Phase.REPLACE, Phase.ROB) and sum(1 for m in st.melds if m.is_kong) == 4 \
            and not st.dead and not st.no_win:  # a seat that may not win plays on (§2.16)
        return "win", state.turn
    if split_four_kongs(state):
        return "draw", None
    return None


# what a table may still log while a four-kongs ending is owed: a false win, a count error, a private hand
# known to the app, an undo
_ASIDE = (ev.FalseWin, ev.WrongCount, ev.HandKnown, ev.WinCorrected, ev.Retracted)


def _check_four_kongs_due(state: TableState, e: ev.Event) -> None:
    due = four_kongs_due(state)
    if due is None or isinstance(e, _ASIDE):
        return
    if window(state) is not None and (isinstance(e, ev.PassedWin) or (
            isinstance(e, ev.Won) and e.kind in (ev.WinKind.DISCARD, ev.WinKind.ROBBED_KONG))):
        return  # the tile the fourth kong was made with (a discard, an added kong) can still be won or passed
    what, seat = due
    if what == "win":
        assert seat is not None
        if isinstance(e, ev.Won) and e.kind is ev.WinKind.FOUR_KONGS and e.seat == seat:
            return
        raise IllegalEvent(msg("four_kongs_win_due", **state.who(seat)), seat=seat, event=type(e).__name__)
    if not isinstance(e, ev.ExhaustiveDraw):
        raise IllegalEvent(msg("four_kongs_draw_due"), event=type(e).__name__)


def _exhaustive(state: TableState, e: ev.ExhaustiveDraw) -> None:
    if state.in_hand and split_four_kongs(state):
        return
    if state.phase is Phase.ACT and state.wall is not None and state.wall.count == 0 and (
            held_flower(state) or _drew_unseen(state)):
        return  # the last tile was a flower (or logged unseen: the table saw it) and none is left to replace it
    if state.phase is not Phase.CLAIM:
        raise phase_error(state, "流局", "declare a draw")
    if state.live > 0:
        raise IllegalEvent(msg("no_draw_due", live=state.live), live=state.live)


def _declined(state: TableState, e: ev.DeclinedLastTile) -> None:
    if not state.switches.may_decline_last_tile:
        raise IllegalEvent(switch_off("may_decline_last_tile"))
    if state.phase is not Phase.CLAIM or e.seat != next_seat(state.turn):
        raise IllegalEvent(msg("decline"), live=state.live, seat=e.seat, due=next_seat(state.turn))
    if state.live < 1:  # drawn already: the wall is out (a review was told "not the last tile (0 can still be drawn)")
        raise IllegalEvent(msg("decline_late"), live=state.live, seat=e.seat)
    if state.live != 1:  # the seat due, but not for the last tile (a rules review was told he was not due)
        raise IllegalEvent(msg("decline_early", live=state.live), live=state.live, seat=e.seat)


def _false_win(state: TableState, e: ev.FalseWin) -> None:
    claimed = e.claimed_tai
    if claimed is not None and (isinstance(claimed, bool) or not isinstance(claimed, int) or claimed < 0):
        said, said_zh = json_said(claimed)  # (it said Python's True and '3': a review)
        raise IllegalEvent(msg("claimed_tai", tai=said_zh, tai_en=said), claimed_tai=said)
    open_window = state.phase is Phase.HAND_OVER and state.claim_rank == 3 and state.outcome is not None
    if not state.in_hand and not open_window:
        raise phase_error(state, "詐胡", "record a false win")
    if open_window:  # beside a win (or a false win) on the tile on offer: a claim on it that proved false
        assert state.outcome is not None
        if e.seat in state.false_wins or any(c.seat == e.seat for c in state.outcome.claimants):
            raise IllegalEvent(msg("claimed_already", **state.who(e.seat)), seat=e.seat)
        w = window(state)
        if w is not None and e.seat == w.turn:
            raise IllegalEvent(own_tile(w.phase is Phase.ROB, winning=True), seat=e.seat)  # (a false win: a win)
    if state.seats[e.seat].dead:
        raise IllegalEvent(msg("dead_already", **state.who(e.seat)))


def _wrong_count(state: TableState, e: ev.WrongCount) -> None:
    if not state.in_hand:
        raise phase_error(state, "記錄相公", "record a wrong tile count")


def _hand_known(state: TableState, e: ev.HandKnown) -> None:
    if not state.in_hand:
        raise phase_error(state, "記錄手牌", "mark a hand as known")


def _retracted(state: TableState, e: ev.Retracted) -> None:
    if state.prev is None or state.last_index < 0:  # (a seating alone was "no event": a review)
        raise IllegalEvent(msg("retract_seating" if state.last_index == 0 else "retract_none"))
    if e.target != state.last_index:
        raise IllegalEvent(msg("retract", last=state.last_index, target=e.target))


_CHECKS: dict[type, Callable[[TableState, Any], None]] = {
    ev.Seated: _seated, ev.DealerChosen: _dealer, ev.StakesChanged: _stakes_changed, ev.WinCorrected: _win_corrected,
    ev.DiceRolled: _dice, ev.Dealt: _dealt,
    ev.FlowerReplaced: _flower, ev.Drew: _drew, ev.Discarded: _discarded, ev.ExhaustiveDraw: _exhaustive,
    ev.DeclinedLastTile: _declined, ev.FalseWin: _false_win, ev.WrongCount: _wrong_count,
    ev.HandKnown: _hand_known,
    ev.Retracted: _retracted, **CLAIM_CHECKS,
}
