"""Fine-tune the synthetic-only orientation network with real crops, once per left-out physical set and once
with all sets, so its score on the dev photos is measured on sets it never saw.

    python -m training.loso_orient DEV_DIR --base BASE.pt --out-dir DIR [--final models/tile_orient.onnx]

writes ``DIR/tile_orient_minus_<set>.onnx`` for every set in DEV_DIR (``benchmarks.vision --orient-loso-dir
DIR`` reads each dev photo with the one that left its set out). Every run uses the same recipe.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from training import train_orient
from training.loso import leave_each_out
from training.real_crops import load_crops

RECIPE = ["--steps", "1000", "--lr", "1.5e-3", "--real-frac", "0.35"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dev", type=Path)
    ap.add_argument("--base", type=Path, required=True, help="synthetic-only weights (train_orient --save-ckpt)")
    ap.add_argument("--out-dir", type=Path, required=True)
    ap.add_argument("--final", type=Path, help="also fine-tune on every set and write this model")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--only", nargs="*", help="left-out sets to run (default: all)")
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--widths", help="the base's --widths, when not the default")
    args = ap.parse_args(argv)
    sets = sorted({c.set for c in load_crops(args.dev)})
    common = [*RECIPE, "--init", str(args.base), "--real", str(args.dev), "--threads", str(args.threads)]
    if args.quiet:
        common.append("--quiet")
    if args.widths:
        common += ["--widths", args.widths]
    leave_each_out(train_orient.main, common, args.only or sets, args.out_dir, "tile_orient", args.final)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
