"""Holes a player leaves on purpose: does the reader put a tile there?

The detector fills whole-tile holes between backs of a row (``TileDetector._gaps_filled``), since a wall or a
standing hand seldom has one and the detector misses some of their tiles. A player may leave one all the same (a
drawn tile set apart). This takes the middle tile out of each standing row of at least 5 tiles in held-out table
scenes (where that tile shows at least 60%), renders the scene without it, and counts the holes where the reader
gives a box at IoU 0.3 or more with the missing tile's box: with hole filling and without, in the same run.

    python -m benchmarks.row_holes [--scenes 160] [--seed 5]
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
from collections import defaultdict

import numpy as np

from benchmarks.vision import _render_ids
from companion.vision.detect import obb_iou
from companion.vision.read import TileReader
from training.synth.faces import sample_style
from training.synth.scene_geometry import Pose
from training.synth.scene_layouts import Scene, random_scene

MIN_ROW = 5
"""Rows of at least this many standing tiles lose their middle one."""
HIT_IOU = 0.3
"""A box at this IoU with the missing tile's box counts as a tile put in the hole."""


def _render(scene: Scene) -> tuple[np.ndarray, list]:
    frame, labels, _ = _render_ids(scene)
    return frame, labels


def _holes(scene: Scene) -> tuple[Scene, list[np.ndarray]]:
    """The scene without the middle tile of each standing row, and the boxes those tiles had."""
    rows: dict[int, list[int]] = defaultdict(list)
    for k, t in enumerate(scene.layout):
        if t.pose is Pose.STANDING and t.level == 0:
            rows[round(t.rotation / 90) % 4].append(k)
    _, labels = _render(scene)
    shown = {lab.index: lab for lab in labels if lab.visible >= 0.6}
    gone, boxes = set(), []
    for seat, ks in rows.items():
        if len(ks) < MIN_ROW:
            continue
        a = -math.radians(90 * seat)  # along the seat's row
        ks.sort(key=lambda k: math.cos(a) * scene.layout[k].x - math.sin(a) * scene.layout[k].y)
        k = ks[len(ks) // 2]
        if k in shown:
            gone.add(k)
            boxes.append(np.array(shown[k].obb(), np.float32))
    layout = tuple(t for k, t in enumerate(scene.layout) if k not in gone)
    return dataclasses.replace(scene, layout=layout), boxes


def holes_left(reader: TileReader, n: int, seed: int) -> dict[str, int]:
    """Over ``n`` held-out table scenes: the holes made, and those the reader put a box in with hole filling
    on and off (``reader.detector.holes``, restored after)."""
    was = reader.detector.holes
    out = {"scenes": n, "holes": 0, "filled_with_holes_on": 0, "filled_with_holes_off": 0}
    try:
        for i in range(n):
            rng = np.random.default_rng([seed, i])
            scene = random_scene(rng, sample_style(rng, "heldout"), "heldout", "table", (1280, 720), None)
            holed, boxes = _holes(scene)
            if not boxes:
                continue
            frame, _ = _render(holed)
            out["holes"] += len(boxes)
            for on in (True, False):
                reader.detector.holes = on
                d = reader.read(frame)
                out[f"filled_with_holes_{'on' if on else 'off'}"] += sum(
                    any(obb_iou(o, t) >= HIT_IOU for o in d.obb) for t in boxes)
    finally:
        reader.detector.holes = was
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenes", type=int, default=160)
    p.add_argument("--seed", type=int, default=5)
    args = p.parse_args()
    print(json.dumps(holes_left(TileReader(), args.scenes, args.seed), indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
