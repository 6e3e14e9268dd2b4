"""Bots play complete legal hands from a seed and produce the event log (the tracker's test bed).

Every event goes through :func:`companion.game.check.step`; a refused event is a violation and
stops the run (``strict``) or is counted. The physical wall is a seeded shuffle; the log is fully
open (every tile known), as a teaching table would be.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

from companion.game import events as ev
from companion.game.bots import BotStyle, choose_discard
from companion.game.check import four_kongs_due, step
from companion.game.evolve import finish_hand
from companion.game.rigs import RobScript, rig_flowers, rig_rob
from companion.game.sim_claims import ClaimWindowBot, SimStats
from companion.game.state import ActKind, Phase, TableState, own_last_flower, seven_rob_target
from companion.game.switches import DiscardKongWin, Switches
from companion.game.text import IllegalEvent
from companion.game.wall import DEAL_TILES, count_seat
from companion.game.winning import completes, waits_of
from companion.hand import MeldKind
from companion.tiles import FACES, Tile

__all__ = ["Simulator", "SimStats", "simulate", "PLAYERS"]

PLAYERS = ("阿明", "小美", "老王", "Lin")
_ALL = tuple(t for t in FACES for _ in range(t.max_copies))


class Simulator(ClaimWindowBot):
    """Plays hands with bots; ``run(hands)`` yields every accepted event in order."""

    def __init__(self, seed: int, switches: Switches | None = None, style: BotStyle | None = None,
                 players: tuple[str, ...] = PLAYERS, strict: bool = True) -> None:
        self.rng = random.Random(seed)
        self.switches = switches or Switches()
        self.style = style or BotStyle()
        self.players = players
        self.strict = strict
        self.state = TableState()
        self.stats = SimStats()
        self.wall: list[Tile] = []
        self.script: RobScript | None = None
        self._tried: tuple[TableState, ev.Event, TableState] | None = None
        self._out: list[ev.Event] = []

    # --- plumbing ---------------------------------------------------------------------------------

    def emit(self, event: ev.Event) -> None:
        tried = self._tried
        self._tried = None
        try:
            if tried is not None and tried[0] is self.state and tried[1] is event:
                self.state = tried[2]  # already checked by legal()
            else:
                self.state = step(self.state, event)
        except IllegalEvent as e:
            self.stats.violations.append(f"{event}: {e}")
            if self.strict:
                raise
            return
        self.stats.events[type(event).__name__] += 1
        # each event the bots played marked so, as the seating is (a replay read "#1 定莊（手動） DealerChosen
        # (manual)": entered by hand); checked as played, the mark being nothing the rules look at
        self._out.append(event if event.source is ev.EventSource.SIMULATED
                         else dataclasses.replace(event, source=ev.EventSource.SIMULATED))

    def legal(self, event: ev.Event) -> bool:
        try:
            new = step(self.state, event)
        except IllegalEvent:
            return False
        self._tried = (self.state, event, new)
        return True

    def head_tile(self) -> Tile:
        assert self.state.wall is not None
        return self.wall[self.state.wall.head_index()]

    def tail_tile(self, k: int = 0) -> Tile:
        assert self.state.wall is not None
        return self.wall[self.state.wall.tail_index(k)]

    def counts(self, seat: int) -> list[int]:
        return list(self.state.seats[seat].concealed[:34])

    # --- the session ------------------------------------------------------------------------------

    def run(self, hands: int) -> Iterator[ev.Event]:
        for _ in range(hands):
            self.play_hand()
            yield from self._out
            self._out.clear()

    def _start_if_needed(self) -> None:
        s = self.state
        if s.phase is Phase.SEATING or (s.phase is Phase.HAND_OVER and finish_hand(s).session_over):
            names = list(self.players)
            self.rng.shuffle(names)
            self.emit(ev.Seated(players=tuple(names), switches=self.switches, source=ev.EventSource.SIMULATED))
            d1 = tuple(self.rng.randint(1, 6) for _ in range(3))
            d2 = tuple(self.rng.randint(1, 6) for _ in range(3))
            first = count_seat(0, sum(d1))  # East throws (spec §2.2)
            dealer = {"two_throws": count_seat(first, sum(d2)), "one_throw": first, "east_deals": 0}[
                self.switches.first_dealer.value]
            self.emit(ev.DealerChosen(dealer=dealer, dice=d1, second_dice=d2))
            self.stats.details["sessions"] += 1

    def begin_hand(self) -> None:
        """Seat a new session when due, roll the dice, deal and run the initial flower passes."""
        self._start_if_needed()
        self.emit(ev.DiceRolled(dice=tuple(self.rng.randint(1, 6) for _ in range(3))))
        self._deal()
        self._initial_flowers()
        if self.rng.random() < self.style.hand_known and self.state.phase is Phase.FLOWERS:
            self.emit(ev.HandKnown(seat=self.rng.randrange(4)))

    def play_hand(self) -> None:
        self.begin_hand()
        guard = 0
        while self.state.phase is not Phase.HAND_OVER:
            guard += 1
            if guard > 2000:
                raise RuntimeError("simulator loop did not end a hand")
            self.tick()
        self._count_hand()

    def _count_hand(self) -> None:
        self.stats.hands += 1
        out = self.state.outcome
        assert out is not None
        self.stats.details[f"outcome:{out.kind.name.lower()}"] += 1
        if out.winners:
            self.stats.wins += 1
            for w in out.winners:
                self.stats.details[f"win:{w.kind.value}"] += 1
        if len(out.claimants) > 1:
            self.stats.details["several claimants"] += 1

    def _deal(self) -> None:
        tiles = list(_ALL)
        self.rng.shuffle(tiles)
        self.wall = tiles
        dealer = self.state.dealer
        order = [(dealer + r) % 4 for r in range(4)]
        positions: dict[int, list[int]] = {s: [] for s in range(4)}
        for rnd in range(4):
            for k, s in enumerate(order):
                positions[s].extend(range(rnd * 16 + k * 4, rnd * 16 + k * 4 + 4))
        positions[dealer].append(64)
        self._rig(positions)
        hands = tuple(tuple(self.wall[i] for i in positions[s]) for s in range(4))
        self.emit(ev.Dealt(hands=hands))
        assert self.state.wall is not None and self.state.wall.head == DEAL_TILES

    def _rig(self, positions: dict[int, list[int]]) -> None:
        r = self.rng.random()
        style = self.style
        self.script = None
        if r < style.rig_eight + style.rig_seven:
            seven = r >= style.rig_eight
            rig_flowers(self.wall, positions, self.rng.randrange(4), seven)
            self.stats.details["rigged seven flowers" if seven else "rigged eight flowers"] += 1
        elif r < style.rig_eight + style.rig_seven + style.rig_rob:
            self.script = rig_rob(self.wall, positions, self.state.dealer, self.rng)
            self.stats.details["rigged robbed kong"] += 1

    def _initial_flowers(self) -> None:
        dealer = self.state.dealer
        while True:
            any_done = False
            for off in range(4):
                seat = (dealer + off) % 4
                flowers = tuple(Tile(i) for i in range(34, 42) if self.state.seats[seat].concealed[i])
                if not flowers:
                    continue
                reps = tuple(self.tail_tile(k) for k in range(len(flowers)))
                self.emit(ev.FlowerReplaced(seat=seat, flowers=flowers, replacements=reps))
                any_done = True
                if self.state.passes[0] >= 1:
                    self.stats.details["再補"] += 1
                if self._instant(seat):
                    return
            if not any_done:
                return

    # --- instant wins -----------------------------------------------------------------------------

    def _instant(self, seat: int) -> bool:
        """八仙過海 for ``seat``, or 七搶一 by the holder of seven after ``seat`` laid the eighth."""
        s = self.state
        if len(s.seats[seat].flowers) == 8:
            e = ev.Won(seat=seat, kind=ev.WinKind.EIGHT_FLOWERS, tile=None, concealed=s.seats[seat].concealed_tiles)
            if self.legal(e):  # not for a seat playing dead or 相公
                self.emit(e)
                return True
        return self._seven_rob_one(seat)

    def _on_the_spot(self, seat: int) -> bool:
        """A win on the eighth flower ``seat`` has just drawn, before its replacement (spec §4.2, §4.4; the tracker's
        ``own_last_flower``): 七搶一 by the holder of the other seven; his own 八仙過海 unless his hand is ready, when he
        takes the replacement, which may complete it (that hand's tai and 8 more: :meth:`_instant`). No dice are
        thrown for it, so the games after it are dealt as before."""
        s = self.state
        if own_last_flower(s, seat) is None:
            return False
        st = s.seats[seat]
        if len(st.flowers) != 7:
            return self._seven_rob_one(seat)
        if waits_of(tuple(st.concealed[:34]), st.melds):
            return False
        e = ev.Won(seat=seat, kind=ev.WinKind.EIGHT_FLOWERS, tile=None,
                   concealed=tuple(t for t in st.concealed_tiles if not t.is_flower))
        if not self.legal(e):
            return False
        self.emit(e)
        self.stats.details["eight flowers on the spot"] += 1
        return True

    def _seven_rob_one(self, seat: int) -> bool:
        """七搶一 by the holder of seven on the eighth flower ``seat`` laid or, as the last tile, holds, or by
        ``seat`` on his seventh laid where another laid the eighth before."""
        s = self.state
        for other in range(4):
            if seven_rob_target(s, other) is not None:
                e = ev.Won(seat=other, kind=ev.WinKind.SEVEN_ROB_ONE, tile=None,
                           concealed=s.seats[other].concealed_tiles)
                if self.legal(e):
                    self.emit(e)
                    return True
        return False

    # --- one step of play -------------------------------------------------------------------------

    def tick(self) -> None:
        """One decision of play (a draw, a discard, a claim window …)."""
        s = self.state
        if s.switches.four_kongs and self._four_kongs():
            return
        if s.phase in (Phase.ACT, Phase.FLOWERS):
            self._act(s.turn)
        elif s.phase is Phase.REPLACE:
            self.emit(ev.ReplacementDrew(seat=s.turn, tile=self.tail_tile()))
        elif s.phase is Phase.ROB:
            if not self._offer_wins(ev.WinKind.ROBBED_KONG):
                self.emit(ev.ReplacementDrew(seat=s.turn, tile=self.tail_tile()))
        elif s.phase is Phase.CLAIM:
            self._claim_window()

    def _four_kongs(self) -> bool:
        """四槓 where the item is on: the fourth kong wins, or draws when the kongs are split; an added kong
        that would make four is offered to the robbers first."""
        s = self.state
        due = four_kongs_due(s)
        if due is None:
            return False
        if s.phase is Phase.ROB and self._offer_wins(ev.WinKind.ROBBED_KONG):
            return True
        what, seat = due
        if what == "win":
            assert seat is not None
            self.emit(ev.Won(seat=seat, kind=ev.WinKind.FOUR_KONGS, tile=None,
                             concealed=s.seats[seat].concealed_tiles))
        else:
            self.emit(ev.ExhaustiveDraw())
            self.stats.details["four kongs split"] += 1
        return True

    def _act(self, seat: int) -> None:
        s = self.state
        st = s.seats[seat]
        flowers = [Tile(i) for i in range(34, 42) if st.concealed[i]]
        if flowers:
            if s.wall is not None and s.wall.count == 0:  # the last tile was a flower: nothing to replace it
                eight = ev.Won(seat=seat, kind=ev.WinKind.EIGHT_FLOWERS, tile=None,
                               concealed=tuple(x for x in st.concealed_tiles if not x.is_flower))
                if len(st.flowers) == 7 and self.legal(eight):
                    self.emit(eight)
                elif not self._seven_rob_one(seat):
                    self.emit(ev.ExhaustiveDraw())
                return
            if self._on_the_spot(seat):
                return
            self.emit(ev.FlowerReplaced(seat=seat, flowers=(flowers[0],), replacements=(self.tail_tile(),)))
            self._instant(seat)
            return
        if not st.dead and self.rng.random() < self.style.false_win:  # a dead seat declares nothing (§2.16)
            self.emit(ev.FalseWin(seat=seat))
            return
        if self.rng.random() < self.style.wrong_count:
            self.emit(ev.WrongCount(seat=self.rng.randrange(4), big=self.rng.random() < 0.5))
        if s.act is not ActKind.CLAIMED and self._try_self_draw(seat):
            return
        if s.act is not ActKind.CLAIMED and self._try_kongs(seat):
            return
        self._discard(seat)

    def _try_self_draw(self, seat: int) -> bool:
        s = self.state
        st = s.seats[seat]
        if st.no_win or st.dead or not completes(st.concealed, st.melds):
            return False
        if st.barred and s.switches.passed_win_blocks_self_draw:
            return False
        if s.act is ActKind.DISCARD_KONG and s.switches.discard_kong_replacement_win is DiscardKongWin.FORBIDDEN:
            return False
        tile = st.drawn if st.drawn is not None and s.act is not ActKind.DEALT else st.concealed_tiles[-1]
        rest = list(st.concealed_tiles)
        rest.remove(tile)
        self.emit(ev.Won(seat=seat, kind=ev.WinKind.SELF_DRAW, tile=tile, concealed=tuple(rest)))
        return True

    def _try_kongs(self, seat: int) -> bool:
        st = self.state.seats[seat]
        if self.rng.random() >= self.style.kong or self.holds(seat):
            return False
        for k in range(34):
            if st.concealed[k] == 4:
                e: ev.Event = ev.ConcealedKong(seat=seat, tile=Tile(k))
                if self.legal(e):
                    self.emit(e)
                    return True
        for m in st.melds:
            if m.kind is MeldKind.PUNG and st.concealed[m.tile]:
                e = ev.AddedKong(seat=seat, tile=m.tile)
                if self.legal(e):
                    self.emit(e)
                    return True
        return False

    def _discard(self, seat: int) -> None:
        s = self.state
        st = s.seats[seat]
        counts = self.counts(seat)
        sc = self.script
        if st.ready is not None and not st.ready_now and st.drawn is not None and s.act is not ActKind.CLAIMED:
            tile = st.drawn
        elif self.holds(seat) and sc is not None and st.drawn is not None and s.act is not ActKind.CLAIMED:
            tile = st.drawn
            if sc.passed:  # the tile let pass, he declares (§2.11) with this discard and robs the kong declared
                ready = ev.DeclaredReady(seat=seat, kind=ev.ReadyKind.READY)
                if self.legal(ready):
                    self.emit(ready)
                    sc.declared = True
                    self.stats.details["ready:ready"] += 1
        elif sc is not None and seat not in (sc.konger, sc.robber) and not sc.punged and st.concealed[sc.tile]:
            tile = sc.tile
        elif sc is not None and seat == sc.konger and sc.punged and st.concealed[sc.tile]:
            counts[sc.tile] = 0  # keep the fourth copy for the added kong
            tile = choose_discard(counts, self.rng) if any(counts) else sc.tile
        else:
            tile = choose_discard(counts, self.rng)
            if st.ready is None and self.rng.random() < self.style.declare_ready:
                tile = self._maybe_declare(seat, tile)
        if self.rng.random() < self.style.retract:
            wrong = [Tile(k) for k in range(34) if counts[k] and k != tile]
            e = ev.Discarded(seat=seat, tile=self.rng.choice(wrong)) if wrong else None
            if e is not None and self.legal(e):
                self.emit(e)
                self.emit(ev.Retracted(target=self.state.last_index, note="wrong tile entered"))
        self.emit(ev.Discarded(seat=seat, tile=tile))

    def _maybe_declare(self, seat: int, tile: Tile) -> Tile:
        st = self.state.seats[seat]
        c = list(st.concealed)
        c[tile] -= 1
        if not waits_of(tuple(c), st.melds):
            return tile
        for kind in (ev.ReadyKind.HEAVENLY, ev.ReadyKind.EARTHLY, ev.ReadyKind.READY):
            e = ev.DeclaredReady(seat=seat, kind=kind)
            if self.legal(e):
                self.emit(e)
                self.stats.details[f"ready:{kind.value}"] += 1
                break
        return tile

def simulate(seed: int, hands: int, switches: Switches | None = None) -> tuple[list[ev.Event], SimStats]:
    """Play ``hands`` hands and return the log and the statistics."""
    sim = Simulator(seed, switches)
    log = list(sim.run(hands))
    return log, sim.stats
