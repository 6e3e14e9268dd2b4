"""Simple table bots for the simulator: greedy shape-keeping discards and eager calls.

They play to produce plausible, legal logs, not to play well.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.tiles import NUM_KINDS, Tile

__all__ = ["BotStyle", "choose_discard", "tile_value"]


@dataclass(frozen=True, slots=True)
class BotStyle:
    """Probabilities that shape the logs (all per opportunity)."""

    pung: float = 0.85
    chow: float = 0.55
    kong: float = 0.95
    pass_win: float = 0.08  # 過水
    false_win: float = 0.0015  # per turn
    wrong_count: float = 0.0005  # per turn: the table finds a 相公
    retract: float = 0.01  # a wrong discard entered, retracted and corrected
    decline_last: float = 0.5
    declare_ready: float = 0.35
    contest: float = 0.5  # when a chow and a pung are both wanted, enter the chow first
    rig_eight: float = 0.004  # deal one seat all eight flowers
    rig_seven: float = 0.004  # deal one seat seven flowers and another the eighth
    rig_rob: float = 0.02  # arrange an added kong that a ready player can rob
    hand_known: float = 0.05  # a player enters his hand in the app (HandKnown)


def tile_value(counts: list[int], k: int) -> float:
    """How much a tile helps the hand: copies and suited neighbours."""
    c = counts[k]
    value = 3.0 * (c - 1)
    if k >= 27:
        return value + (0.5 if c >= 2 else 0.0)
    r = k % 9
    for d, w in ((1, 2.0), (2, 1.0)):
        if r + d <= 8 and counts[k + d]:
            value += w
        if r - d >= 0 and counts[k - d]:
            value += w
    if r in (0, 8):
        value -= 0.4
    return value + 0.2


def choose_discard(counts: list[int], rng: random.Random) -> Tile:
    """The least useful tile of a known hand (ties broken at random)."""
    best: list[int] = []
    best_v = float("inf")
    for k in range(NUM_KINDS):
        if counts[k]:
            v = tile_value(counts, k)
            if v < best_v - 1e-9:
                best, best_v = [k], v
            elif abs(v - best_v) <= 1e-9:
                best.append(k)
    return Tile(rng.choice(best))
