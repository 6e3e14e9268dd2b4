"""A live win's hand read from a photo (the Live tab's "拍照讀牌"), against the same photo scored without the table.

    python -m benchmarks.live_photo [--seeds 60] [--hands 2] [--first 0]

Bots play ``--hands`` hands for each of ``--seeds`` seeds (``companion simulate``); at each win of a kind a photo can
fill (on a discard, self-drawn, a robbed kong) the winner's hand, which the bots knew, is rendered as a phone photo
of it laid down (``training.synth.scene_hand.hand_photo``: a face style and a table of the held-out split, tiles
32-90 px wide (narrower where the hand's longest row would not fit in the frame), the camera 0-30 degrees from overhead and turned up to 10 degrees, a random light and
camera finish) and read once.

- **with the table** (:func:`companion.app.live_photo.fill_from_photo`, what the Live tab does): the table gives the
  kind of win, the winds, the dealer, the tile won on and its melds. A fill is *exact* when the form's three fields
  (the tiles in hand, a self-draw's tile, the concealed kongs' kinds) are the truth; *as read* when the photo did not
  read as a win and its tiles were filled in for the player to mend (how many tiles off is counted); *silent wrong*
  when a fill is not the truth and says nothing about it (no doubt, no disagreement): the one outcome a player
  could record without looking.
- **the peer, without the table** (:func:`companion.vision.hand_score.score_photo` with no context, as
  ``companion score PHOTO`` reads a photo): exact when the tiles in hand and the winning tile are the truth.

It prints both tallies, the time per photo (reading included) and the ratio of exact fills, with the table to
without.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.app.live_offer import offer_for  # noqa: E402
from companion.app.live_photo import READABLE_KINDS, HandFill, fill_from_photo  # noqa: E402
from companion.app.photo_model import ReadPhoto  # noqa: E402
from companion.game import events as ev  # noqa: E402
from companion.game.check import replay  # noqa: E402
from companion.game.evolve import hand_result  # noqa: E402
from companion.game.session import win_input  # noqa: E402
from companion.game.simulator import simulate  # noqa: E402
from companion.hand import MeldKind  # noqa: E402
from companion.rules.profiles import load_profile  # noqa: E402
from companion.rules.win import Win  # noqa: E402
from companion.tiles import format_tiles, parse_tiles  # noqa: E402
from companion.vision.hand_score import PhotoHandError, score_photo  # noqa: E402
from companion.vision.read import TileReader  # noqa: E402
from training.synth.faces import sample_style  # noqa: E402
from training.synth.scene import Lighting  # noqa: E402
from training.synth.scene_hand import hand_photo, widest_tile_px  # noqa: E402
from training.synth.scene_layouts import sample_scene_style  # noqa: E402


def wins(seeds: range, hands: int) -> list[tuple[int, list[ev.Event], int]]:
    """(seed, log, index of the win) for every win of the bots' games a photo can fill."""
    out = []
    for seed in seeds:
        log, _ = simulate(seed, hands)
        out += [(seed, log, k) for k, e in enumerate(log) if isinstance(e, ev.Won) and e.kind in READABLE_KINDS]
    return out


def winning_hand(log: list[ev.Event], k: int) -> Win:
    """The hand of the win logged at ``k``, as the scorer takes it (the bots knew every tile of it)."""
    won = log[k]
    assert isinstance(won, ev.Won)
    full = replay(log[:k + 1])
    assert full.outcome is not None
    rec = next(w for w in full.outcome.winners if w.seat == won.seat)
    return win_input(rec, hand_result(full), full.profile)


def photo(log: list[ev.Event], k: int, r: random.Random) -> object:
    """The winner's hand of the win at ``k`` rendered as a phone photo (BGR)."""
    style = sample_scene_style(np.random.default_rng(r.randrange(1 << 30)), sample_style(r, "heldout"), "heldout")
    win = winning_hand(log, k)
    fits = widest_tile_px(win, style.tile, 1280)  # the whole hand in the frame, its longest row included
    frame, _ = hand_photo(win, style, size=(1280, 960), tile_px=min(r.uniform(32, 90), fits),
                          tilt=r.uniform(0, 30), yaw=r.uniform(-10, 10), seed=r.randrange(1 << 30),
                          lighting=Lighting(azimuth=r.uniform(0, 360), elevation=r.uniform(40, 70),
                                            uneven=r.uniform(0.1, 0.3), shadow=0.3))
    return frame


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m benchmarks.live_photo", description=__doc__.split("\n")[0])
    ap.add_argument("--seeds", type=int, default=60, help="bots' games (default 60)")
    ap.add_argument("--first", type=int, default=0, help="the first game's seed (default 0)")
    ap.add_argument("--hands", type=int, default=2, help="hands per game (default 2)")
    args = ap.parse_args(argv)
    reader = TileReader()
    profile = load_profile(None)
    tally: Counter[str] = Counter()
    off: list[int] = []
    took, took_peer = [], []
    cases = wins(range(args.first, args.first + args.seeds), args.hands)
    for n, (seed, log, k) in enumerate(cases):
        won = log[k]
        assert isinstance(won, ev.Won)
        state = replay(log[:k])
        chance = next((c for c in offer_for(state, k).wins if c.seat == won.seat and c.kind is won.kind), None)
        if chance is None:  # a farther seat's win on a discard the nearest has won (截胡): nothing to enter
            continue
        image = photo(log, k, random.Random(seed * 1000 + k))
        start = time.perf_counter()
        dets = reader.read(image, tiled=True)  # type: ignore[arg-type]
        read_s = time.perf_counter() - start
        fill = fill_from_photo(ReadPhoto(f"{seed}-{k}", image, dets), state, chance)  # type: ignore[arg-type]
        took.append(time.perf_counter() - start)
        kongs = sorted(m.tile for m in state.seats[won.seat].melds if m.kind is MeldKind.CKONG)
        # the form asks for the kinds of the concealed kongs the table does not know: these bots' tables know them
        truth = (format_tiles(sorted(won.concealed)),
                 won.tile.code if won.kind is ev.WinKind.SELF_DRAW and won.tile else "",
                 format_tiles(sorted(won.kongs) or [t for t in kongs if not t.is_known]))
        tally["wins"] += 1
        tally["with concealed kongs"] += bool(kongs)
        if not isinstance(fill, HandFill):
            tally["refused"] += 1
        elif (fill.concealed, fill.drawn, fill.kongs) == truth:
            tally["exact"] += 1
        else:
            said = Counter(parse_tiles(fill.concealed))
            real = Counter(won.concealed)
            off.append((said - real).total() + (real - said).total())
            kind = "as read" if any("does not read as a winning hand" in x.en for x in fill.notes) else \
                "wrong, said" if fill.notes else "silent wrong"
            tally[kind] += 1
            if kind == "silent wrong":
                print(f"  silent wrong: seed {seed}, event {k}: {fill.concealed} {fill.drawn} {fill.kongs} "
                      f"against {truth}", file=sys.stderr)
        start = time.perf_counter()
        try:
            alone = score_photo(dets, {}, profile)
            peer_ok = tuple(alone.win.concealed) == tuple(sorted(won.concealed)) and alone.win.win_tile == won.tile
        except PhotoHandError:
            peer_ok = False
        took_peer.append(read_s + time.perf_counter() - start)
        tally["peer exact"] += peer_ok
        if (n + 1) % 10 == 0:
            print(f"  {n + 1} of {len(cases)} photos", file=sys.stderr)
    w = tally["wins"]
    print(f"wins photographed: {w} ({tally['with concealed kongs']} with a concealed kong)")
    print(f"with the table (Live tab):  exact {tally['exact']} ({tally['exact'] / w:.1%}), filled as read "
          f"{tally['as read']} (tiles off: {sorted(off)}), wrong but said {tally['wrong, said']}, "
          f"silent wrong {tally['silent wrong']}, refused {tally['refused']}")
    print(f"without the table (companion score): exact {tally['peer exact']} ({tally['peer exact'] / w:.1%})")
    print(f"exact fills, with / without the table: {tally['exact'] / max(tally['peer exact'], 1):.2f}x")
    print(f"time per photo, reading included: median {statistics.median(took) * 1000:.0f} ms with the table, "
          f"{statistics.median(took_peer) * 1000:.0f} ms without "
          f"({statistics.median(took) / statistics.median(took_peer):.2f}x)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
