"""Measure the calibration sheet on synthetic phone photos of filled pages (the scene renderer's 20 mm thick
tiles on the printed page, camera tilted and turned, held-out face styles): how many boxes read right
(found / empty), how well each crop lies on its tile, time per photo, and whether the calibration built
from the two pages helps the classifier on other pictures of the same set (every kind on a felt table).

    python benchmarks/calibration_sheet.py [--sets 8] [--distance 300]

The photos are drawn by the same helpers as ``tests/vision/test_sheet.py``; no data folder is needed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "vision")]

import test_sheet as helpers  # noqa: E402

from companion.tiles import Tile  # noqa: E402
from companion.vision.calibration import Calibration  # noqa: E402
from companion.vision.classify import TileClassifier  # noqa: E402
from companion.vision.detect import TileDetector  # noqa: E402
from companion.vision.read import upright_crops  # noqa: E402
from companion.vision.sheet import CellStatus, Paper, SheetError, read_sheet  # noqa: E402
from training.synth import faces, scene  # noqa: E402


def table_crops(style: object, seed: int) -> tuple[list[np.ndarray], list[Tile]]:
    """Every kind once on a felt table, seen from 600-800 mm, cut at its true face."""
    crops: list[np.ndarray] = []
    truth: list[Tile] = []
    for v in range(2):
        rng = np.random.default_rng(seed * 10 + v)
        tiles = [scene.PlacedTile(Tile(i), ((i % 11) - 5) * 32.0, ((i // 11) - 2) * 44.0, 0, float(rng.uniform(-6, 6)),
                                  scene.Pose.FACE_DOWN if i == 42 else scene.Pose.FACE_UP) for i in range(43)]
        cam = scene.Camera(distance=float(rng.uniform(600, 800)), tilt=float(rng.uniform(5, 30)), focal=1100.0)
        frame, labels = scene.render_table(tiles, cam, scene.SceneStyle(style, finish=scene.Finish(0.8, 0, 0.01, 85)),
                                           scene.Lighting(uneven=0.2), (), seed=seed + v)
        for lab in labels:
            if lab.visible >= 0.9:
                crops += upright_crops(frame, np.array([lab.obb()], np.float32))
                truth.append(tiles[lab.index].kind if lab.face_up else Tile.UNKNOWN)
    return crops, truth


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sets", type=int, default=8)
    ap.add_argument("--distance", type=float, default=300.0, help="camera height above the sheet, mm")
    args = ap.parse_args()
    detector, plain = TileDetector(threads=1, backs=False), TileClassifier(threads=1)
    clean = faces.CLEAN_STYLE
    cells = wrong = errors = 0
    ious: list[float] = []
    times: list[float] = []
    right = {"plain": 0, "calibrated": 0}
    total = 0
    for s in range(args.sets):
        style = faces.sample_style(random.Random(700 + s), "heldout") if s % 4 else clean
        faces.CLEAN_STYLE = style  # the test helper draws its tiles in faces.CLEAN_STYLE
        paper = Paper.A4 if s % 2 else Paper.LETTER
        samples = []
        for n in (1, 2):
            with pytest.MonkeyPatch.context() as mp:
                frame, quads = helpers.scene_photo(paper, n, 300 + 2 * s + n, mp, distance=args.distance)
            t = time.perf_counter()
            try:
                reading = read_sheet(frame, detector=detector)
            except SheetError as e:
                errors += 1
                print(f"set {s} page {n}: {e}")
                continue
            times.append(time.perf_counter() - t)
            samples += reading.samples()
            for c in reading.cells:
                cells += 1
                want = CellStatus.EMPTY if c.cell.tile.code in helpers.EMPTY else CellStatus.FOUND
                wrong += c.status is not want
                if c.status is want and c.quad is not None:
                    ious.append(helpers._iou(c.quad, quads[c.cell.tile.code]))
        faces.CLEAN_STYLE = clean
        crops, truth = table_crops(style, 900 + s)
        calibrated = TileClassifier(threads=1, calibration=Calibration.from_crops("bench", samples))
        for name, clf in (("plain", plain), ("calibrated", calibrated)):
            right[name] += sum(p.tile == t for p, t in zip(clf.classify(crops), truth, strict=True))
        total += len(truth)
    print(f"{2 * args.sets} photos at {args.distance:.0f} mm: {errors} refused; {cells} boxes, {wrong} read wrong "
          f"(found/empty); crop IoU with the true face: min {min(ious):.2f}, 5th pct "
          f"{np.percentile(ious, 5):.2f}, median {np.median(ious):.2f}; read_sheet {statistics.median(times):.3f} s "
          f"per 900x1200 photo (median)")
    print(f"classifier on {total} table crops of the same sets: plain {right['plain'] / total:.1%}, calibrated "
          f"from the sheet {right['calibrated'] / total:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
