"""Speed of a full tai score (every split and placement) against two peer scorers (not a test).

- ours: :func:`companion.rules.scoring.score` on random 16-tile wins (5 sets and a pair, some sets
  called, a discard or a self-draw, random winds and flowers), under the default profile; also
  ``score`` + ``settle`` (the whole work the tracker does at a win);
- ``mahjong`` 2.x (PyPI): ``HandCalculator.estimate_hand_value`` on random 14-tile riichi wins drawn the
  same way with 4 sets (its game's size), called sets passed as melds;
- PyMahjongGB (``MahjongGB.MahjongFanCalculator``, C++), the same 14-tile hands in Chinese Official
  notation, when it is importable (it is not a dependency: install it in a throwaway venv and run
  this script there with the repository on ``PYTHONPATH``). A call that raises (GB's ``TypeError`` for
  an invalid or non-winning hand) is timed too and counted.

Each call is timed on its own (thread CPU time and wall time, garbage collector off); the report gives
the medians, the 90th percentile and the ratios (on CPU time), and the issue's target (a full 16-tile score under 100 µs median).
Usage::

    .venv/bin/python benchmarks/scoring.py [--hands 3000] [--seed 1] [--reps 5]
"""

from __future__ import annotations

import argparse
import gc
import os
import platform
import random
import statistics
import sys
from collections.abc import Callable
from functools import partial
from time import perf_counter_ns, thread_time_ns
from typing import Any

from companion.hand import Meld, MeldKind, Source
from companion.rules.profiles import load_profile
from companion.rules.scoring import score
from companion.rules.settlement import Stakes, settle
from companion.rules.win import WINDS, Win, WinType
from companion.tiles import Tile

_SETS = [("pung", k) for k in range(34)] + [("chow", k) for k in range(27) if k % 9 <= 6]


def _tiles(kind: str, k: int) -> list[int]:
    return [k] * 3 if kind == "pung" else [k, k + 1, k + 2]


def random_win(rng: random.Random, sets: int, one_suit: bool = False) -> dict[str, Any]:
    """A random complete hand: its sets (some called), pair, winning tile and context, as plain data.
    ``one_suit``: every set and the pair in 萬 (full flushes: the hands with the most splits)."""
    pool = [s for s in _SETS if s[1] < 9] if one_suit else _SETS
    while True:
        chosen = [rng.choice(pool) for _ in range(sets)]
        pair = rng.randrange(9 if one_suit else 34)
        tiles = [t for kind, k in chosen for t in _tiles(kind, k)] + [pair, pair]
        if max(tiles.count(t) for t in set(tiles)) <= 4:
            break
    called = [c for c in chosen if rng.random() < 0.3]
    for c in called:
        chosen.remove(c)
    concealed = [t for kind, k in chosen for t in _tiles(kind, k)] + [pair, pair]
    win_tile = concealed.pop(rng.randrange(len(concealed)))
    return {"called": called, "concealed": concealed, "win_tile": win_tile, "self_draw": rng.random() < 0.4,
            "seat": rng.randrange(4), "round": rng.randrange(4),
            "flowers": rng.sample(range(8), rng.randrange(3))}


def ours(d: dict[str, Any]) -> Win:
    melds = tuple(Meld(MeldKind.CHOW, tuple(Tile(t) for t in _tiles("chow", k)), Source.LEFT) if kind == "chow"
                  else Meld(MeldKind.PUNG, (Tile(k),) * 3, Source.OPPOSITE) for kind, k in d["called"])
    seat = WINDS[d["seat"]]
    return Win(concealed=tuple(Tile(t) for t in d["concealed"]), win_tile=Tile(d["win_tile"]),
               win_type=WinType.SELF_DRAW if d["self_draw"] else WinType.DISCARD, seat_wind=seat,
               round_wind=WINDS[d["round"]], melds=melds, flowers=tuple(Tile(34 + f) for f in d["flowers"]),
               discarder=None if d["self_draw"] else WINDS[(d["seat"] + 2) % 4])


def riichi_call(d: dict[str, Any]) -> Callable[[], Any]:
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.hand_calculating.hand_config import HandConfig
    from mahjong.meld import Meld as RMeld

    used = [0] * 34

    def ids(kinds: list[int]) -> list[int]:
        out = []
        for k in kinds:
            out.append(k * 4 + used[k])
            used[k] += 1
        return out

    melds = [RMeld(RMeld.CHI if kind == "chow" else RMeld.PON, ids(_tiles(kind, k)), opened=True)
             for kind, k in d["called"]]
    concealed = ids(d["concealed"])
    win = ids([d["win_tile"]])[0]
    tiles = concealed + [win] + [t for m in melds for t in m.tiles]
    config = HandConfig(is_tsumo=d["self_draw"], player_wind=27 + d["seat"], round_wind=27 + d["round"])
    calc = HandCalculator()
    return lambda: calc.estimate_hand_value(tiles, win, melds=melds or None, config=config)


_GB_NAMES = [f"W{i + 1}" for i in range(9)] + [f"B{i + 1}" for i in range(9)] + \
    [f"T{i + 1}" for i in range(9)] + ["F1", "F2", "F3", "F4", "J1", "J2", "J3"]


def gb_call(d: dict[str, Any], calculator: Any) -> Callable[[], Any]:
    packs = tuple(("CHI", _GB_NAMES[k + 1], 1) if kind == "chow" else ("PENG", _GB_NAMES[k], 2)
                  for kind, k in d["called"])
    hand = tuple(_GB_NAMES[t] for t in d["concealed"])
    args = {"pack": packs, "hand": hand, "winTile": _GB_NAMES[d["win_tile"]], "flowerCount": len(d["flowers"]),
            "isSelfDrawn": d["self_draw"], "is4thTile": False, "isAboutKong": False, "isWallLast": False,
            "seatWind": d["seat"], "prevalentWind": d["round"]}

    def call() -> Any:
        try:
            return calculator(**args)
        except TypeError:  # an invalid or non-winning hand for GB
            return None

    return call


REPS = 5


def _score_and_settle(w: Win, stakes: Stakes) -> Any:
    return settle(score(w), w, stakes)


def timed(calls: list[Callable[[], Any]]) -> tuple[list[float], list[float]]:
    """(wall µs, CPU µs of this thread) per call, from the repetition with the lowest CPU median (the
    least disturbed one). CPU time leaves out the time the thread waited for a core."""
    runs = [_timed_once(calls) for _ in range(REPS)]
    return min(runs, key=lambda r: statistics.median(r[1]))


def _timed_once(calls: list[Callable[[], Any]]) -> tuple[list[float], list[float]]:
    wall, cpu = [], []
    gc.disable()
    try:
        for call in calls:
            c0 = thread_time_ns()
            t0 = perf_counter_ns()
            call()
            t1 = perf_counter_ns()
            c1 = thread_time_ns()
            wall.append((t1 - t0) / 1000)
            cpu.append((c1 - c0) / 1000)
    finally:
        gc.enable()
    return wall, cpu


def summary(name: str, times: tuple[list[float], list[float]]) -> float:
    wall, cpu = times
    med = statistics.median(cpu)
    print(f"  {name:<44} CPU median {med:7.1f} µs  p90 {statistics.quantiles(cpu, n=10)[-1]:7.1f} µs | "
          f"wall median {statistics.median(wall):7.1f} µs  ({len(cpu)} calls)")
    return med


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--reps", type=int, default=5, help="repetitions; the least disturbed one is reported")
    args = ap.parse_args(argv)
    global REPS
    REPS = args.reps
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, load {load:.1f}; "
          f"{args.hands} hands, seed {args.seed}, best of {args.reps} repetitions")
    load_profile(None)  # read once, as in use
    rng = random.Random(args.seed)
    wins16 = [ours(random_win(rng, 5)) for _ in range(args.hands)]
    for w in wins16[:50]:  # warm-up
        score(w)
    stakes = Stakes(30, 10)
    med = summary("ours: score(), 16 tiles, all splits", timed([partial(score, w) for w in wins16]))
    summary("ours: score() + settle()", timed([partial(_score_and_settle, w, stakes) for w in wins16]))
    splits = [score(w).interpretations for w in wins16]
    print(f"    interpretations per hand: mean {statistics.mean(splits):.2f}, max {max(splits)}")
    flushes = [ours(random_win(rng, 5, one_suit=True)) for _ in range(args.hands)]
    summary("ours: score(), 16-tile full flushes", timed([partial(score, w) for w in flushes]))
    splits = [score(w).interpretations for w in flushes]
    print(f"    interpretations per hand: mean {statistics.mean(splits):.2f}, max {max(splits)}")
    rng = random.Random(args.seed + 1)
    hands14 = [random_win(rng, 4) for _ in range(args.hands)]
    results = {}
    try:
        calls = [riichi_call(d) for d in hands14]
        results["mahjong"] = summary("mahjong HandCalculator, 14 tiles", timed(calls))
    except ImportError:
        print("  mahjong: not installed")
    try:
        from MahjongGB import MahjongFanCalculator

        calls = [gb_call(d, MahjongFanCalculator) for d in hands14]
        rejected = sum(c() is None for c in calls)
        results["PyMahjongGB"] = summary("PyMahjongGB MahjongFanCalculator, 14 tiles", timed(calls))
        print(f"    GB raised on {rejected} of {len(calls)} hands")
    except ImportError:
        print("  PyMahjongGB: not importable here (optional)")
    for name, other in results.items():
        print(f"  ratio ours / {name}: {med / other:.2f}")
    print(f"  target: median < 100 µs for a full 16-tile score -> {'met' if med < 100 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
