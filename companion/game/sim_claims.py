"""The simulator's claim-window decisions: wins (or 過水), pungs and kongs, chows, the next draw."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from companion.game import events as ev
from companion.game.bots import BotStyle
from companion.game.rigs import RobScript
from companion.game.state import TableState, next_seat
from companion.game.winning import completes
from companion.tiles import Tile

__all__ = ["ClaimWindowBot", "SimStats"]


@dataclass
class SimStats:
    hands: int = 0
    wins: int = 0
    events: Counter[str] = field(default_factory=Counter)
    details: Counter[str] = field(default_factory=Counter)
    violations: list[str] = field(default_factory=list)


class ClaimWindowBot:
    """Mixed into :class:`companion.game.simulator.Simulator`."""

    state: TableState
    rng: random.Random
    style: BotStyle
    script: RobScript | None
    stats: SimStats
    emit: Callable[[ev.Event], None]
    legal: Callable[[ev.Event], bool]
    head_tile: Callable[[], Tile]

    def _offer_wins(self, kind: ev.WinKind) -> bool:
        """Every seat that can win on the tile on offer wins (or passes it up: 過水), but a seat that declared
        ready never passes (spec §2.11: "a declared player may not pass a win"; a newcomer review found the rob
        script's 天聽 robber, and the random pass, doing so).

        What passing means here (§2.9, §2.12): a seat that could win on the discard, or on the added kong's tile
        (robbing it is a win on it), and does not claim it. A declared seat therefore always claims; where several
        claim one tile (multi_win ``nearest``) the farther claimant is outranked (截胡), which is no pass of his."""
        s = self.state
        giver, tile = s.turn, s.offer
        assert tile is not None
        won = False
        for off in (1, 2, 3):
            seat = (giver + off) % 4
            st = self.state.seats[seat]
            if st.dead or st.no_win or not completes(st.concealed, st.melds, tile):
                continue
            if st.barred:
                self.stats.details["過水 bar held"] += 1
                continue
            declared = st.ready is not None
            sc = self.script
            scripted = sc is not None and seat == sc.robber and tile == sc.tile
            if scripted and sc is not None and kind is ev.WinKind.DISCARD and not sc.passed and not declared:
                sc.passed = True  # (the robber holds his ready hand undeclared until he has let it pass: holds())
                self.emit(ev.PassedWin(seat=seat, tile=tile))
                continue
            # (the draw is made for a declared seat too, so that the other seeds' logs stay as they were)
            if not won and not scripted and self.rng.random() < self.style.pass_win and not declared:
                self.emit(ev.PassedWin(seat=seat, tile=tile))
                continue
            self.emit(ev.Won(seat=seat, kind=kind, tile=tile, concealed=st.concealed_tiles))
            won = True
        return won

    def holds(self, seat: int) -> bool:
        """Whether ``seat`` is the rob script's robber keeping his ready hand as dealt, undeclared: he lets the
        script's tile pass once (which a declared player may not do, §2.11), so he declares only after that, and
        until he does he plays as frozen (discards what he draws, calls nothing, no kong)."""
        sc = self.script
        return sc is not None and seat == sc.robber and self.state.seats[seat].ready is None

    def _claim_window(self) -> None:
        s = self.state
        if self._offer_wins(ev.WinKind.DISCARD):
            return
        d, tile = s.turn, s.offer
        assert tile is not None
        pung: ev.Event | None = None
        sc = self.script
        if sc is not None and tile == sc.tile and not sc.punged:
            sc.punged = True
            e = ev.Punged(seat=sc.konger, tile=tile)
            if self.legal(e):
                self.emit(e)
                return
        for off in (1, 2, 3):
            seat = (d + off) % 4
            st = s.seats[seat]
            if st.ready is not None or st.dead or self.holds(seat):
                continue
            if st.concealed[tile] == 3 and self.rng.random() < self.style.kong:
                pung = ev.ExposedKong(seat=seat, tile=tile)
            elif st.concealed[tile] >= 2 and self.rng.random() < self.style.pung:
                pung = ev.Punged(seat=seat, tile=tile)
            if pung is not None:
                if self.legal(pung):
                    break
                pung = None
        chow = self._chow_option(next_seat(d), tile)
        if chow is not None and (pung is None or self.rng.random() < self.style.contest):
            self.emit(chow)
            if pung is not None:
                self.stats.details["pung outranks chow"] += 1
        if pung is not None:
            self.emit(pung)
            return
        if chow is not None:
            return
        self._next_draw(next_seat(d))

    def _chow_option(self, seat: int, tile: Tile) -> ev.Event | None:
        st = self.state.seats[seat]
        if not tile.is_suited or st.ready is not None or st.dead or self.holds(seat) \
                or self.rng.random() >= self.style.chow:
            return None
        r = tile.rank
        for lo in (r - 2, r - 1, r):
            if lo < 1 or lo + 2 > 9:
                continue
            others = [Tile(tile - r + x) for x in (lo, lo + 1, lo + 2) if x != r]
            if all(st.concealed[t] for t in others) and not any(st.concealed[t] >= 3 for t in others):
                e = ev.Chowed(seat=seat, tiles=tuple(others), tile=tile)
                if self.legal(e):
                    return e
        return None

    def _next_draw(self, seat: int) -> None:
        s = self.state
        if s.live <= 0:
            self.emit(ev.ExhaustiveDraw())
        elif s.live == 1 and s.switches.may_decline_last_tile and self.rng.random() < self.style.decline_last:
            self.emit(ev.DeclinedLastTile(seat=seat))
        else:
            self.emit(ev.Drew(seat=seat, tile=self.head_tile()))
