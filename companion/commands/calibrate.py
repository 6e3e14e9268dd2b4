"""``companion calibrate``: teach the classifier one physical tile set (校正牌組).

    companion calibrate add NAME CROP…     # crops named by tile (5m.jpg, 0x.png) or given as 5m=photo.jpg,
                                           # or folders of such files; plants by their printed number
    companion calibrate list               # known sets, the selected one marked with *
    companion calibrate use NAME           # select the set used by `companion classify`
    companion calibrate delete NAME

A crop is one upright tile face. One crop per kind (43 with the back) is enough; more are averaged.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from companion.tiles import Tile

_IMAGE_EXT = {".jpg", ".jpeg", ".png", ".bmp", ".webp"}


def register(sub: Any) -> None:
    p = sub.add_parser("calibrate", help="calibrate to your tile set / 校正牌組",
                       description="Calibrate the tile classifier to one physical tile set (校正牌組).")
    ops = p.add_subparsers(dest="op", metavar="OP", required=True)
    a = ops.add_parser("add", help="create or replace a calibrated set from crops")
    a.add_argument("name")
    a.add_argument("crops", nargs="+", help="5m.jpg, 5m=photo.jpg or a folder of such files")
    a.add_argument("--no-select", action="store_true", help="do not make it the selected set")
    ops.add_parser("list", help="list calibrated sets")
    u = ops.add_parser("use", help="select a calibrated set")
    u.add_argument("name")
    d = ops.add_parser("delete", help="delete a calibrated set")
    d.add_argument("name")
    p.set_defaults(func=run)


def _labelled(items: list[str]) -> list[tuple[Tile, Path]]:
    """``(tile, file)`` from ``code=path``, files named by code, and folders of such files."""
    out: list[tuple[Tile, Path]] = []
    for item in items:
        if "=" in item:
            code, _, path = item.partition("=")
            out.append((Tile.from_code(code.strip()), Path(path)))
            continue
        p = Path(item)
        files = sorted(f for f in p.iterdir() if f.suffix.lower() in _IMAGE_EXT) if p.is_dir() else [p]
        for f in files:
            code = f.stem.split("_")[0]
            try:
                out.append((Tile.from_code(code), f))
            except ValueError as e:
                raise ValueError(f"{f}: name the file by its tile (5m.jpg, 0x.png) or pass 5m={f}") from e
    return out


def _add(args: argparse.Namespace) -> int:
    from companion.vision import calibration
    from companion.vision.image_file import read_image

    samples: list[tuple[Tile, np.ndarray]] = []
    failed = 0
    for tile, f in _labelled(args.crops):
        try:
            samples.append((tile, read_image(f)))
        except ValueError as e:
            failed += 1
            print(f"companion calibrate: {e}", file=sys.stderr)
    cal = calibration.Calibration.from_crops(args.name, samples)
    path = calibration.save(cal)
    if not args.no_select:
        calibration.select(args.name)
    missing = [t.code for t in (*(Tile(i) for i in range(42)), Tile.UNKNOWN) if t not in set(cal.tiles)]
    print(f"calibrated {args.name!r}: {len(samples)} crops of {len(set(cal.tiles))} kinds -> {path}")
    if missing:
        print(f"kinds without a crop (the trained model decides alone / 未校正): {' '.join(missing)}")
    return 1 if failed else 0


def run(args: argparse.Namespace) -> int:
    from companion.vision import calibration

    try:
        if args.op == "add":
            return _add(args)
        if args.op == "list":
            cur = calibration.selected()
            for name in calibration.list_sets():
                print(("* " if name == cur else "  ") + name)
        elif args.op == "use":
            calibration.select(args.name)
        else:
            calibration.delete(args.name)
    except ValueError as e:
        print(f"companion calibrate: {e}", file=sys.stderr)
        return 2
    return 0
