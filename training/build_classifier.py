"""Build the packaged tile classifier end to end, with honest leave-one-set-out models beside it.

    python -m training.build_classifier DEV_DIR --threads 2 --work WORK_DIR

1. base: train on rendered faces only (no real crops) -> WORK_DIR/base.pt
2. for every physical set S in DEV_DIR: fine-tune the base on real crops of the other sets
   -> WORK_DIR/loso/tile_classifier_minus_S.onnx (scored on S by benchmarks/classifier.py)
3. fine-tune the base on every set with the same recipe -> models/tile_classifier.onnx (the packaged model)
4. quantise every one of those ONNX files to 8 bits in place (``training/quantize.py``; activation ranges
   from rendered faces only), so the LOSO models are scored in the configuration that ships

Each stage is ``training.train_classifier`` with fixed arguments and seeds; see models/README.md.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from training import loso, quantize, train_classifier
from training.real_crops import load_crops

ROOT = Path(__file__).resolve().parent.parent
BASE_STYLES, BASE_STEPS = 500, 6000
BASE = ["--batch", "96", "--lr", "4e-3", "--eval-styles", "30"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dev", type=Path, help="dev-data folder with crops.csv")
    ap.add_argument("--work", type=Path, required=True, help="folder for the base weights and LOSO models")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--out", type=Path, default=ROOT / "models" / "tile_classifier.onnx")
    ap.add_argument("--skip-base", action="store_true", help="reuse WORK/base.pt")
    ap.add_argument("--base-steps", type=int, default=BASE_STEPS, help="training steps of the base")
    ap.add_argument("--base-styles", type=int, default=BASE_STYLES, help="rendered face styles the base trains on")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    cache = args.work / "cache"
    base = args.work / "base.pt"
    if not args.skip_base:
        train_classifier.main([*BASE, "--styles", str(args.base_styles), "--steps", str(args.base_steps), "--threads", str(args.threads), "--bank-cache", str(cache),
                               "--save-ckpt", str(base), "--out", str(args.work / "base.onnx"),
                               "--real", str(args.dev), "--real-frac", "0"])
    loso.main([str(args.dev), "--base", str(base), "--out-dir", str(args.work / "loso"), "--final", str(args.out),
               "--threads", str(args.threads), "--bank-cache", str(cache)])
    sets = sorted({c.set for c in load_crops(args.dev)})
    for f in [*(args.work / "loso" / f"tile_classifier_minus_{s}.onnx" for s in sets), args.out]:
        quantize.quantize(f, f)
    print(f"built {args.out} in {time.monotonic() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
