"""A scripted table for the game tests: deal chosen hands, then play events and expect refusals."""

from __future__ import annotations

from collections import Counter

import pytest

from companion.game import events as ev
from companion.game.check import step
from companion.game.state import Phase, TableState
from companion.game.switches import FirstDealer, Switches
from companion.game.text import IllegalEvent
from companion.tiles import FACES, Tile, parse_tiles

PLAYERS = ("East", "South", "West", "North")


def full_set() -> Counter[Tile]:
    return Counter({t: t.max_copies for t in FACES})


class Table:
    """Seats 0-3, dealer 0 (``east_deals``); unspecified hands are filled from the unused tiles."""

    def __init__(self, hands: dict[int, str], switches: Switches | None = None,
                 dice: tuple[int, ...] = (2, 2, 1), profile: str = "atawmj_2009") -> None:
        dealer = 0
        sw = switches or Switches()
        self.pool = full_set()
        for t in range(34, 42):
            del self.pool[Tile(t)]  # fillers and draws never bring flowers unless asked
        dealt: dict[int, list[Tile]] = {}
        for s, text in hands.items():
            dealt[s] = list(parse_tiles(text, check=False))
            for t in dealt[s]:
                if t.is_flower:
                    continue
                self.pool[t] -= 1
                assert self.pool[t] >= 0, f"too many {t.code} in the scripted hands"
        self.state = TableState()
        self.log: list[ev.Event] = []
        self.do(ev.Seated(players=PLAYERS, switches=_with_east(sw), profile=profile))
        self.do(ev.DealerChosen(dealer=0))
        self.do(ev.DiceRolled(dice=dice))
        for s in range(4):
            want = 17 if s == dealer else 16
            hand = dealt.get(s, [])
            while len(hand) < want:
                hand.append(self.take_filler())
            assert len(hand) == want, f"seat {s}: {len(hand)} tiles scripted, {want} dealt"
            dealt[s] = hand
        self.do(ev.Dealt(hands=tuple(tuple(dealt[s]) for s in range(4))))

    def take_filler(self) -> Tile:
        for t in sorted(self.pool):
            if self.pool[t] > 0:
                self.pool[t] -= 1
                return t
        raise AssertionError("no tiles left")

    def take(self, tile: Tile | str) -> Tile:
        t = parse_tiles(tile)[0] if isinstance(tile, str) else tile
        if not t.is_flower:
            assert self.pool[t] > 0, f"no {t.code} left"
            self.pool[t] -= 1
        return t

    def takes(self, code: str) -> tuple[Tile, ...]:
        """Tiles taken out of the unused pool (for draws and replacements)."""
        return tuple(self.take(x) for x in parse_tiles(code, check=False))

    def do(self, event: ev.Event) -> TableState:
        self.state = step(self.state, event)
        self.log.append(event)
        return self.state

    def refused(self, event: ev.Event, key: str) -> IllegalEvent:
        with pytest.raises(IllegalEvent) as info:
            step(self.state, event)
        assert info.value.reason.key == key, f"refused for {info.value.reason.key}, expected {key}: {info.value}"
        assert info.value.reason.zh and info.value.reason.en
        return info.value

    # --- short cuts -------------------------------------------------------------------------------

    def draw(self, seat: int, tile: Tile | str | None = None) -> TableState:
        t = self.take(tile) if tile is not None else self.take_filler()
        return self.do(ev.Drew(seat=seat, tile=t))

    def discard(self, seat: int, tile: str | Tile) -> TableState:
        t = parse_tiles(tile)[0] if isinstance(tile, str) else tile
        return self.do(ev.Discarded(seat=seat, tile=t))

    def cycle(self, until_live: int) -> None:
        """Every seat draws a filler tile and discards it, until ``until_live`` tiles can be drawn."""
        while self.state.live > until_live:
            assert self.state.phase is Phase.CLAIM
            seat = (self.state.turn + 1) % 4
            t = self.take_filler()
            self.do(ev.Drew(seat=seat, tile=t))
            self.do(ev.Discarded(seat=seat, tile=t))

    def hand(self, seat: int) -> tuple[Tile, ...]:
        return self.state.seats[seat].concealed_tiles


def _with_east(sw: Switches) -> Switches:
    from dataclasses import replace

    return replace(sw, first_dealer=FirstDealer.EAST_DEALS)


def t(code: str) -> Tile:
    return parse_tiles(code)[0]


def tiles(code: str) -> tuple[Tile, ...]:
    return parse_tiles(code, check=False)



def face_down_table(hands: dict[int, str]) -> TableState:
    """Dealer 0 (``east_deals``); each seat's tiles as text, the rest of its hand face down (``0x``), as a camera
    sees the table: the tracker learns a tile only when it is shown."""
    from dataclasses import replace

    state = TableState()
    sw = replace(Switches(), first_dealer=FirstDealer.EAST_DEALS)
    for e in (ev.Seated(players=("甲", "乙", "丙", "丁"), switches=sw), ev.DealerChosen(dealer=0),
              ev.DiceRolled(dice=(2, 2, 1))):
        state = step(state, e)
    dealt = []
    for s in range(4):
        h = list(parse_tiles(hands.get(s, ""), check=False))
        dealt.append(tuple(h + [Tile.UNKNOWN] * ((17 if s == 0 else 16) - len(h))))
    return step(state, ev.Dealt(hands=tuple(dealt)))
