"""Stacked walls for rare situations the simulator must still produce often enough to test:
八仙過海, 七搶一 and a robbed kong. A rig only arranges the shuffled wall (and, for the robbed kong,
scripts a few bot choices); every event still goes through the tracker's check."""

from __future__ import annotations

import random
from dataclasses import dataclass

from companion.game.wall import DEAL_TILES
from companion.tiles import Tile

__all__ = ["RobScript", "rig_flowers", "rig_rob"]


@dataclass
class RobScript:
    """Seat ``discarder`` throws ``tile``; ``robber`` (ready on the deal, waiting on it, not yet declared: a
    declared player may not pass a win, spec §2.11) lets it pass, then declares; ``konger`` pungs it with three in
    hand and later adds the fourth, which ``robber`` robs."""

    konger: int
    robber: int
    discarder: int
    tile: Tile
    declared: bool = False
    passed: bool = False
    punged: bool = False


def _place(wall: list[Tile], locked: set[int], index: int, tile: Tile) -> None:
    """Put a copy of ``tile`` at ``index``, taking it from any position not already arranged."""
    if wall[index] == tile and index not in locked:
        locked.add(index)
        return
    j = next(i for i, t in enumerate(wall) if t == tile and i not in locked and i != index)
    wall[index], wall[j] = wall[j], wall[index]
    locked.add(index)


def rig_flowers(wall: list[Tile], positions: dict[int, list[int]], seat: int, seven: bool) -> None:
    """Deal ``seat`` all eight flowers, or seven and put the eighth on the head for an early draw."""
    spots = positions[seat][:8]
    if seven:
        spots = spots[:7] + [DEAL_TILES + 2]
    locked: set[int] = set()
    for spot, f in zip(spots, range(34, 42), strict=True):
        _place(wall, locked, spot, Tile(f))


def rig_rob(wall: list[Tile], positions: dict[int, list[int]], dealer: int, rng: random.Random) -> RobScript:
    """Arrange a robbed added kong (spec §2.10): the robber waits on a closed chow wait."""
    others = [(dealer + k) % 4 for k in (1, 2, 3)]
    rng.shuffle(others)
    robber, discarder, konger = others[0], others[1], rng.choice([others[2], dealer])
    tile = Tile(rng.randrange(3) * 9 + rng.randrange(1, 8))  # ranks 2-8 of a suit
    avail = [4] * 34
    avail[tile] = 0
    hand = [Tile(tile - 1), Tile(tile + 1)]
    avail[tile - 1] -= 1
    avail[tile + 1] -= 1
    while len(hand) < 14:
        k = rng.randrange(34)
        chow = k < 27 and k % 9 <= 6 and all(avail[k + d] > 0 for d in range(3)) and not k <= tile <= k + 2
        if rng.random() < 0.5 and chow:
            group = [k, k + 1, k + 2]
        elif avail[k] >= 3 and k != tile:
            group = [k, k, k]
        else:
            continue
        for g in group:
            avail[g] -= 1
        hand += [Tile(g) for g in group]
    pair = rng.choice([k for k in range(34) if avail[k] >= 2])
    hand += [Tile(pair), Tile(pair)]
    locked: set[int] = set()
    for spot, t in zip(positions[robber], hand, strict=True):
        _place(wall, locked, spot, t)
    for spot in positions[konger][:3]:
        _place(wall, locked, spot, tile)
    _place(wall, locked, DEAL_TILES + (discarder - dealer) % 4 - 1, tile)  # the discarder's first draw
    return RobScript(konger, robber, discarder, tile)
