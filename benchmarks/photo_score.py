"""Photo scoring (``companion score``) on real tile faces: random winning hands composed from the dev crops of one
physical set, laid down as a winner lays them, read and scored by models that never saw that set.

    python -m benchmarks.photo_score DEV --loso-dir CLS_LOSO [--flower-loso-dir FLOWER_LOSO] [--hands 20]

The hands are self-drawn, with 0-3 chows and pungs (no kongs among the real faces, which hold no backs; some in the
rendered hands) and 0-3 flowers, the winning tile set apart: what the benchmark measures is reading and repairing,
not the kinds of win. For every set S of the dev data (``DEV/crops.csv`` and the other copies of ``training/dev_copies.json``): ``--hands``
random winning hands (``--seed``) drawn from the kinds S has a picture of, each tile pasted from a real picture of
that kind (a kind's pictures are reused when the hand holds more copies than S has pictures), 90 px wide, on a
felt-green background: the concealed row, the winning tile a tile's width apart, the melds in a row in front
(straight, as at a Taiwanese table; ``--sideways`` turns each claimed tile across the row), the flowers beside them. The photo is read by
``tile_classifier_minus_S.onnx`` (and ``tile_flower_minus_S.onnx``) as ``companion score`` reads it, then scored.
A hand counts as scored right when its tiles, melds, flowers, winning tile and hand tai are the truth's (meld
sources are not read). It prints, per set and in all: hands scored right, hands refused (no legal reading),
hands scored wrong (and of them those whose doubts named a repair or an unsure tile), tiles read right as the reader
read them, and the repairs made (right / wrong); and the same
hands scored with repairs off (:data:`companion.vision.hand_search.MAX_CHANGES` 0) as the peer, and by the reader
without its second look at boxes that look like part of a tile (:mod:`companion.vision.sideways`), and without its look
at tiles standing the other way up from their row (``TileReader(way_up=False)``); ``--upside-down`` turns every photo
a half turn, as one taken from across the table; ``--quarter`` turns every photo a quarter, as one taken from the
winner's side (clockwise and counter-clockwise in turn); ``--tilt DEG`` turns every photo DEG degrees more (the
hand's felt filling the corners; clockwise and counter-clockwise in turn), as one taken askew or from a corner. A
run with any of the three adds the peer without the reader's look at turned photos (``TileReader(straighten=False)``).
``--synthetic N``
adds N hands rendered with face styles and tables of the held-out split, read by the shipped models.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sys
from collections import Counter, defaultdict
from pathlib import Path

import cv2
import numpy as np

from companion.hand import Meld, MeldKind, Source
from companion.rules.profiles import Profile, load_profile
from companion.rules.scoring import NotAWin, score
from companion.rules.win import Win
from companion.tiles import Tile
from companion.vision import hand_search
from companion.vision.hand_score import PhotoHandError, score_photo
from companion.vision.read import Detections, TileReader
from training.real_crops import RealCrop, load_copies, load_crops
from training.synth.faces import sample_style
from training.synth.scene_hand import hand_photo
from training.synth.scene_layouts import sample_lighting, sample_scene_style

TILE_W, TILE_H, GAP = 90, 120, 3
FELT = (40, 110, 30)


def random_win(rng: random.Random, kinds: list[Tile], kongs: float = 0.0) -> Win | None:
    """A random self-drawn winning hand of ``kinds`` only (None when the draw fails), 0-3 melds, 0-3 flowers;
    each pung laid out becomes a kong (exposed or concealed, at even odds) with probability ``kongs`` where the
    fourth copy is free."""
    have = set(kinds)
    suited = [t for t in have if t.is_suited and t.rank <= 7 and Tile(t + 1) in have and Tile(t + 2) in have]
    plain = [t for t in have if not t.is_flower]
    counts: Counter[Tile] = Counter()
    sets: list[list[Tile]] = []
    for _ in range(200):
        if len(sets) == 5:
            break
        g = ([t, Tile(t + 1), Tile(t + 2)] if suited and rng.random() < 0.55 and (t := rng.choice(suited))
             else [rng.choice(plain)] * 3)
        if all(counts[x] + g.count(x) <= 4 for x in g):
            counts.update(g)
            sets.append(g)
    pairs = [t for t in plain if counts[t] <= 2]
    if len(sets) < 5 or not pairs:
        return None
    pair = rng.choice(pairs)
    n_melds = rng.randint(0, 3)
    counts[pair] += 2
    melds = []
    for g in sets[:n_melds]:
        if kongs > 0 and g[0] == g[1] and counts[g[0]] < 4 and rng.random() < kongs:
            counts[g[0]] += 1
            melds.append(Meld(rng.choice([MeldKind.KONG, MeldKind.CKONG]), (g[0],) * 4))
        else:
            melds.append(Meld(MeldKind.CHOW if g[0] != g[1] else MeldKind.PUNG, tuple(g)))
    concealed = [t for g in sets[n_melds:] for t in g] + [pair, pair]
    win_tile = rng.choice(concealed)
    concealed.remove(win_tile)
    flowers = [t for t in have if t.is_flower]
    return Win(tuple(concealed), win_tile, "self_draw", melds=tuple(melds),  # type: ignore[arg-type]
               flowers=tuple(rng.sample(flowers, min(len(flowers), rng.randint(0, 3)))))


def compose(win: Win, pictures: dict[Tile, list[np.ndarray]], rng: random.Random,
            boxes: list[tuple[Tile, bool, tuple[int, int, int, int]]] | None = None, sideways: bool = False) -> np.ndarray:
    """The hand laid down (see the module's text) as a BGR photo; ``boxes`` (if given) gets each tile's kind,
    whether it lies sideways, and its box."""
    rows: list[list[list[tuple[Tile, bool]]]] = [[[(t, False) for t in win.concealed], [(win.win_tile, False)]]]  # type: ignore[list-item]
    front = [[(t, sideways and k == (0 if m.kind is MeldKind.CHOW else 1)) for k, t in enumerate(m.tiles)]
             for m in win.melds]
    front += [[(t, False) for t in win.flowers]] if win.flowers else []
    if front:
        rows.append(front)
    width = 60 + max(sum(sum((TILE_H if s else TILE_W) + GAP for _, s in g) + TILE_W for g in row) for row in rows)
    img = np.zeros((60 + len(rows) * (TILE_H + 50), width, 3), np.uint8)
    img[:] = FELT
    img = np.clip(img + np.random.default_rng(rng.randrange(2**31)).normal(0, 6, img.shape), 0, 255).astype(np.uint8)
    y = 30
    for row in rows:
        x = 30
        for group in row:
            for tile, sideways in group:
                pic = cv2.resize(rng.choice(pictures[tile]), (TILE_W, TILE_H), interpolation=cv2.INTER_AREA)
                if sideways:
                    pic = cv2.rotate(pic, cv2.ROTATE_90_COUNTERCLOCKWISE)
                h, w = pic.shape[:2]
                img[y + TILE_H - h:y + TILE_H, x:x + w] = pic
                if boxes is not None:
                    boxes.append((tile, sideways, (x, y + TILE_H - h, x + w, y + TILE_H)))
                x += w + GAP
            x += TILE_W
        y += TILE_H + 50
    return img


def _same(got: Win, truth: Win) -> bool:
    def melds(w: Win) -> list[str]:
        return sorted(str(m) for m in w.melds)

    return (got.concealed, got.win_tile, got.flowers, melds(got)) == (truth.concealed, truth.win_tile, truth.flowers,
                                                                      melds(truth))


def _as_taken(img: np.ndarray, upside_down: bool, quarter: bool = False, k: int = 0, tilt: float = 0.0) -> np.ndarray:
    """The photo as the camera took it: a half turn from across the table; a quarter from the winner's side, the
    ``k``-th hand (from 1) clockwise where ``k`` is odd (from his left), counter-clockwise where even (a half turn
    too where ``upside_down``); then ``tilt`` degrees more, the same way round, on a canvas that holds the whole
    photo, its corners the felt."""
    if quarter:
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE if k % 2 else cv2.ROTATE_90_COUNTERCLOCKWISE)
    if upside_down:
        img = cv2.rotate(img, cv2.ROTATE_180)
    if tilt:
        h, w = img.shape[:2]
        m = cv2.getRotationMatrix2D(((w - 1) / 2, (h - 1) / 2), -tilt if k % 2 else tilt, 1.0)
        c, s = abs(m[0, 0]), abs(m[0, 1])
        nw, nh = int(np.ceil(h * s + w * c)), int(np.ceil(h * c + w * s))
        m[0, 2] += (nw - w) / 2
        m[1, 2] += (nh - h) / 2
        img = cv2.warpAffine(img, m, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                             borderValue=FELT)
    return img


def run_set(s: str, pictures: dict[Tile, list[np.ndarray]], reader: TileReader, hands: int, seed: int,
            changes: int, sideways: bool = False, upside_down: bool = False, quarter: bool = False,
            tilt: float = 0.0) -> dict[str, int]:
    profile = load_profile(None)
    rng = random.Random(f"{seed}-{s}")
    tally: dict[str, int] = defaultdict(int)
    hand_search.MAX_CHANGES = changes
    made = 0
    while made < hands:
        truth = random_win(rng, sorted(pictures))
        if truth is None:
            continue
        made += 1
        photo = _as_taken(compose(truth, pictures, rng, sideways=sideways), upside_down, quarter, made, tilt)
        dets = reader.read(photo, tiled=True)
        tally_hand(tally, dets, truth, profile)
    tally["hands"] = made
    return dict(tally)


def tally_hand(tally: dict[str, int], dets: Detections, truth: Win, profile: Profile) -> None:
    """Score one photo's reading and count how it went against ``truth``."""
    won = () if truth.win_tile is None else (truth.win_tile,)  # (all_tiles leaves the winning tile out)
    truth_kinds = Counter((*truth.all_tiles(), *won))
    tally["tiles"] += sum(truth_kinds.values())
    tally["tiles_read_right"] += sum((Counter(dets.tiles()) & truth_kinds).values())
    try:
        got = score_photo(dets, {}, profile)
    except (PhotoHandError, NotAWin):
        tally["refused"] += 1
        return
    right = _same(got.win, truth) and got.score.hand_tai == score(truth, profile).hand_tai
    tally["right" if right else "wrong"] += 1
    if not right:  # a wrong score the reader warned of (a repair or an unsure tile named) or not
        warned = any("unsure" in d.en or d.en.startswith(("read ", "also a win")) for d in got.doubts)
        tally["wrong_warned" if warned else "wrong_unwarned"] += 1
    for r in got.repairs:
        tally["repairs"] += 1
        tally["repairs_to_a_true_kind"] += r.taken in truth_kinds


def synthetic(reader: TileReader, hands: int, seed: int, changes: int, sideways: bool = False,
              upside_down: bool = False, quarter: bool = False, tilt: float = 0.0) -> dict[str, int]:
    """``hands`` random winning hands rendered by :func:`training.synth.scene_hand.hand_photo` with face styles
    and tables of the held-out split (1600x1200, tiles 45-72 px wide so that the hand's row of 17 stays in the
frame, the camera 0-20 degrees from overhead, random light),
    read by the shipped models; about a third of their pungs laid out are kongs (exposed, or concealed with the
    two end tiles face down). ``sideways``: each meld but a concealed kong is given a player who supplied its
    claimed tile (a chow the left one, others any), and that tile is laid across the row; a hand is scored
    right on its melds' tiles, as sources are not read."""
    profile = load_profile(None)
    rng = random.Random(f"{seed}-synthetic")
    kinds = [t for t in Tile if t.is_known]
    tally: dict[str, int] = defaultdict(int)
    hand_search.MAX_CHANGES = changes
    made = 0
    while made < hands:
        truth = random_win(rng, kinds, kongs=0.35)
        if truth is None:
            continue
        made += 1
        laid = dataclasses.replace(truth, melds=tuple(
            m if m.kind is MeldKind.CKONG else dataclasses.replace(m, source=Source.LEFT if m.kind is MeldKind.CHOW
                                                                   else rng.choice(list(Source)))
            for m in truth.melds)) if sideways else truth
        nrng = np.random.default_rng(rng.randrange(2**31))
        style = sample_scene_style(nrng, sample_style(nrng, "heldout"), "heldout")
        frame, _ = hand_photo(laid, style, size=(1600, 1200), tile_px=float(nrng.uniform(45, 72)),
                              tilt=float(nrng.uniform(0, 20)), yaw=float(nrng.normal(0, 5)),
                              seed=int(nrng.integers(2**31)), lighting=sample_lighting(nrng), sideways=sideways)
        tally_hand(tally, reader.read(_as_taken(frame, upside_down, quarter, made, tilt), tiled=True), truth, profile)
    tally["hands"] = made
    return dict(tally)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m benchmarks.photo_score", description=__doc__.split("\n")[0])
    p.add_argument("dev", type=Path, help="the dev-data folder (crops.csv, photos/)")
    p.add_argument("--loso-dir", type=Path, required=True, help="tile_classifier_minus_<set>.onnx of each set")
    p.add_argument("--flower-loso-dir", type=Path, help="tile_flower_minus_<set>.onnx of each set")
    p.add_argument("--hands", type=int, default=20, help="hands per set (default 20)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--sideways", action="store_true", help="turn each meld's claimed tile across the row")
    p.add_argument("--synthetic", type=int, default=0, help="also this many rendered hands of held-out styles")
    p.add_argument("--upside-down", action="store_true",
                   help="turn each photo a half turn (taken from across the table)")
    p.add_argument("--quarter", action="store_true", help="turn each photo a quarter (taken from the winner's side)")
    p.add_argument("--tilt", type=float, default=0.0,
                   help="turn each photo this many degrees more (taken askew), each way in turn (default 0)")
    args = p.parse_args(argv)
    by_set: dict[str, dict[Tile, list[np.ndarray]]] = defaultdict(lambda: defaultdict(list))
    crops: list[RealCrop] = [*load_crops(args.dev), *load_copies(args.dev)]
    for c in crops:
        by_set[c.set][c.tile].append(c.image)
    # the peers, in the same run: repairs off; the reader without its second look at boxes that look like part of
    # a tile (companion.vision.sideways: a claimed tile across the row, a lone tile boxed as halves); and without its
    # look at tiles standing the other way up from their row
    variants = [("repairs", 3, (True, True, True)), ("no_repairs", 0, (True, True, True)),
                ("no_sideways_look", 3, (False, True, True)), ("no_way_up_look", 3, (True, False, True))]
    if args.quarter or args.upside_down or args.tilt:  # and without its look at a photo whose faces lie turned
        variants.append(("no_straightening", 3, (True, True, False)))
    out: dict[str, dict[str, dict[str, int]]] = {name: {} for name, _, _ in variants}
    turn = (args.upside_down, args.quarter, args.tilt)
    for s in sorted(by_set, key=lambda x: int(x)):
        flower = args.flower_loso_dir / f"tile_flower_minus_{s}.onnx" if args.flower_loso_dir else None
        readers = {look: TileReader(classifier=args.loso_dir / f"tile_classifier_minus_{s}.onnx", flower_model=flower,
                                    sideways=look[0], way_up=look[1], straighten=look[2])
                   for look in {v[2] for v in variants}}
        for name, changes, look in variants:
            out[name][s] = run_set(s, by_set[s], readers[look], args.hands, args.seed, changes, args.sideways, *turn)
            print(f"set {s} ({len(by_set[s])} kinds) {name}: {out[name][s]}", file=sys.stderr)
    for name in out:
        total: Counter[str] = Counter()
        for t in out[name].values():
            total.update(t)
        out[name]["all"] = dict(total)
    if args.synthetic:
        shipped = {look: TileReader(sideways=look[0], way_up=look[1], straighten=look[2])
                   for look in {v[2] for v in variants}}
        for name, changes, look in variants:
            out[name]["synthetic_heldout"] = synthetic(shipped[look], args.synthetic, args.seed, changes, args.sideways,
                                                       *turn)
            print(f"synthetic {name}: {out[name]['synthetic_heldout']}", file=sys.stderr)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
