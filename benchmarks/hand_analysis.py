"""Speed of the hand analysis against PyPI ``mahjong`` (a benchmark, not a test).

Every repetition draws fresh hands from its own seed, so nothing is timed twice on the same hand:

- ours: waits of 16-tile ready hands (5 sets), exact shanten of 17-tile hands dealt from a shuffled
  wall; for a like-for-like view also 13-tile waits and 14-tile shanten with 4 sets; and shanten of
  17-tile hands with one called set, whose group is computed by the exact programme (memoised per
  group key and limits, never per hand);
- ``mahjong`` 2.x: 13-tile waits (add each of the 34 kinds below four copies and call
  ``Agari.is_agari``) and regular 14-tile shanten (``Shanten.calculate_shanten`` without seven
  pairs and thirteen orphans, which our game does not have).

Each call is timed on its own (``perf_counter_ns``, garbage collector off); the report gives the
median and 90th percentile over all calls, the ratios, the issue's targets, and a cross-check of our
4-set answers against ``mahjong`` on the same hands. Usage::

    .venv/bin/python benchmarks/hand_analysis.py [--reps 7] [--hands 2000] [--seed 1]
"""

from __future__ import annotations

import argparse
import gc
import platform
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from time import perf_counter_ns
from typing import Any

from companion.hand import Hand, Meld, MeldKind, Source
from companion.rules.shanten import shanten
from companion.rules.waits import waits
from companion.tiles import Tile

_SETS = [[k] * 3 for k in range(34)] + [[k, k + 1, k + 2] for k in range(27) if k % 9 <= 6]


def ready_hand(rng: random.Random, sets: int) -> list[int]:
    """A complete hand of ``sets`` sets and a pair (at most four copies), less one random tile."""
    while True:
        tiles = [t for _ in range(sets) for t in rng.choice(_SETS)]
        pair = rng.randrange(34)
        tiles += [pair, pair]
        if max(tiles.count(k) for k in set(tiles)) <= 4:
            tiles.pop(rng.randrange(len(tiles)))
            return tiles


def melded_hand(rng: random.Random) -> Hand:
    """17 structural tiles dealt from a wall: one called pung or chow and 14 concealed tiles."""
    wall = [k for k in range(34) for _ in range(4)]
    rng.shuffle(wall)
    if rng.random() < 0.5:
        k = rng.randrange(34)
        meld = Meld(MeldKind.PUNG, (Tile(k),) * 3, Source.OPPOSITE)
    else:
        k = rng.choice([k for k in range(27) if k % 9 <= 6])
        meld = Meld(MeldKind.CHOW, (Tile(k), Tile(k + 1), Tile(k + 2)), Source.LEFT)
    for t in meld.tiles:
        wall.remove(t)
    return Hand(tuple(map(Tile, wall[:14])), (meld,))


def dealt_hand(rng: random.Random, size: int) -> list[int]:
    """``size`` tiles from a shuffled wall of 136."""
    return rng.sample([k for k in range(34) for _ in range(4)], size)


def counts_of(tiles: Sequence[int]) -> list[int]:
    counts = [0] * 34
    for t in tiles:
        counts[t] += 1
    return counts


def timed(fn: Callable[[Any], object], items: Sequence[Any]) -> list[float]:
    """Microseconds per call."""
    out = []
    gc.disable()
    try:
        for x in items:
            t0 = perf_counter_ns()
            fn(x)
            out.append((perf_counter_ns() - t0) / 1000)
    finally:
        gc.enable()
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="hand analysis speed vs PyPI mahjong")
    ap.add_argument("--reps", type=int, default=7)
    ap.add_argument("--hands", type=int, default=2000, help="fresh hands per repetition and measurement")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    try:
        from mahjong.agari import Agari
        from mahjong.shanten import Shanten
    except ImportError:
        print("PyPI mahjong is needed for the comparison: pip install mahjong", file=sys.stderr)
        return 2

    def mj_waits(counts: list[int]) -> list[int]:
        found = []
        for k in range(34):
            if counts[k] < 4:
                counts[k] += 1
                if Agari.is_agari(counts):
                    found.append(k)
                counts[k] -= 1
        return found

    def mj_shanten(counts: list[int]) -> int:
        return Shanten.calculate_shanten(counts, use_chiitoitsu=False, use_kokushi=False)

    # first use loads the tables; that cost is reported apart
    t0 = perf_counter_ns()
    waits(Hand.parse("45m345p678p123s999s55z"))
    shanten(Hand.parse("45m345p678p123s999s55z7z"))
    load_ms = (perf_counter_ns() - t0) / 1e6

    times: dict[str, list[float]] = {}
    mismatches = checked = 0
    for rep in range(args.reps):
        bad, n = repetition(random.Random(args.seed * 1000 + rep), args.hands, times, mj_waits, mj_shanten)
        mismatches += bad
        checked += n

    report(times, args, load_ms, checked, mismatches)
    return 0


def repetition(
    rng: random.Random,
    n: int,
    times: dict[str, list[float]],
    mj_waits: Callable[[list[int]], list[int]],
    mj_shanten: Callable[[list[int]], int],
) -> tuple[int, int]:
    """Time every measurement on ``n`` fresh hands each; returns (disagreements, hands cross-checked)."""
    w16 = [Hand(tuple(map(Tile, ready_hand(rng, 5)))) for _ in range(n)]
    r13 = [ready_hand(rng, 4) for _ in range(n)]
    s17 = [Hand(tuple(map(Tile, dealt_hand(rng, 17)))) for _ in range(n)]
    d14 = [dealt_hand(rng, 14) for _ in range(n)]
    m17 = [melded_hand(rng) for _ in range(n)]
    w13 = [Hand(tuple(map(Tile, t)), sets=4) for t in r13]
    s14 = [Hand(tuple(map(Tile, t)), sets=4) for t in d14]
    c13 = [counts_of(t) for t in r13]
    c14 = [counts_of(t) for t in d14]
    for name, fn, items in (
        ("ours    waits   16 tiles (5 sets)", waits, w16),
        ("ours    shanten 17 tiles (5 sets)", shanten, s17),
        ("ours    waits   13 tiles (4 sets)", waits, w13),
        ("ours    shanten 14 tiles (4 sets)", shanten, s14),
        ("ours    shanten 17 tiles, one meld", shanten, m17),
        ("mahjong waits   13 tiles", mj_waits, c13),
        ("mahjong shanten 14 tiles", mj_shanten, c14),
    ):
        times.setdefault(name, []).extend(timed(fn, items))
    bad = 0
    for hand, counts in zip(w13, c13, strict=True):
        ref = [k for k in mj_waits(counts) if not _only_seven_pairs(counts, k, mj_shanten)]
        bad += [int(t) for t in waits(hand)] != ref
    for hand, counts in zip(s14, c14, strict=True):
        bad += shanten(hand) != mj_shanten(counts)
    return bad, 2 * n


def _only_seven_pairs(counts: list[int], extra: int, regular_shanten: Callable[[list[int]], int]) -> bool:
    """``mahjong`` also accepts seven pairs, no win here: drop a wait that wins only that way."""
    c = list(counts)
    c[extra] += 1
    return sorted(x for x in c if x) == [2] * 7 and regular_shanten(c) != -1


def report(times: dict[str, list[float]], args: argparse.Namespace, load_ms: float, checked: int, bad: int) -> None:
    med = {k: statistics.median(v) for k, v in times.items()}
    print(f"hand analysis: {args.reps} repetitions x {args.hands} fresh hands per line, seed {args.seed}; "
          f"Python {platform.python_version()} on {platform.machine()}")
    print(f"first use (table loading): {load_ms:.0f} ms")
    print(f"{'':36s}{'median us':>10s}{'p90 us':>10s}")
    for name, v in times.items():
        p90 = statistics.quantiles(v, n=10)[-1]
        print(f"{name:36s}{med[name]:10.2f}{p90:10.2f}")
    w_ratio = med["mahjong waits   13 tiles"] / med["ours    waits   16 tiles (5 sets)"]
    s_ratio = med["mahjong shanten 14 tiles"] / med["ours    shanten 17 tiles (5 sets)"]
    print(f"ratio mahjong 13-tile waits / our 16-tile waits:     {w_ratio:6.1f}x")
    print(f"ratio mahjong 14-tile shanten / our 17-tile shanten: {s_ratio:6.1f}x")
    w16 = med["ours    waits   16 tiles (5 sets)"]
    s17 = med["ours    shanten 17 tiles (5 sets)"]
    print(f"targets: 16-tile waits < 10 us: {'met' if w16 < 10 else 'MISSED'} ({w16:.2f}); "
          f">= 15x mahjong: {'met' if w_ratio >= 15 else 'MISSED'} ({w_ratio:.1f}x); "
          f"17-tile shanten < 30 us: {'met' if s17 < 30 else 'MISSED'} ({s17:.2f})")
    print(f"cross-check vs mahjong (4 sets, 13-tile waits and 14-tile shanten): {checked} hands, "
          f"{bad} disagreements")


if __name__ == "__main__":
    raise SystemExit(main())
