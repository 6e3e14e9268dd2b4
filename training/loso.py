"""Fine-tune a synthetic-only base model with real crops, once per left-out physical set and once with all
sets, so every real-crop score is measured on a set the scored model never saw.

    python -m training.loso DEV_DIR --base BASE.pt --out-dir DIR [--threads 2]

writes ``DIR/tile_classifier_minus_<set>.onnx`` for every set in DEV_DIR and, with ``--final OUT.onnx``,
the model fine-tuned on all sets. Every run uses the same recipe (steps, learning rate, real share, seed).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence
from pathlib import Path

from training import train_classifier
from training.real_crops import load_crops

RECIPE = ["--steps", "400", "--batch", "96", "--lr", "1.5e-3", "--real-frac", "0.35", "--styles", "150",
          "--eval-styles", "10"]


def leave_each_out(train: Callable[[list[str]], int], common: list[str], sets: Sequence[str], out_dir: Path,
                   stem: str, final: Path | None) -> None:
    """Run ``train`` (a training script's ``main``) with ``common`` once per set in ``sets`` left out, writing
    ``out_dir/<stem>_minus_<set>.onnx``, and, with ``final``, once with every set into ``final``."""
    for s in sets:
        train([*common, "--leave-out", s, "--out", str(out_dir / f"{stem}_minus_{s}.onnx")])
    if final:
        train([*common, "--out", str(final)])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dev", type=Path)
    ap.add_argument("--base", type=Path, required=True, help="synthetic-only weights (--save-ckpt)")
    ap.add_argument("--out-dir", type=Path, required=True)
    ap.add_argument("--final", type=Path, help="also fine-tune on every set and write this model")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--seed", type=int, default=20261130)
    ap.add_argument("--bank-cache", type=Path)
    ap.add_argument("--only", nargs="*", help="left-out sets to run (default: all)")
    ap.add_argument("--styles", type=int, help="rendered styles beside the real crops (default: the recipe's)")
    ap.add_argument("--wise", type=float, help="keep this share of the way from the base to each fine-tune (WiSE-FT)")
    args = ap.parse_args(argv)
    sets = sorted({c.set for c in load_crops(args.dev)})
    recipe = list(RECIPE)
    if args.styles is not None:
        recipe[recipe.index("--styles") + 1] = str(args.styles)
    common = [*recipe, "--init", str(args.base), "--real", str(args.dev), "--threads", str(args.threads),
              "--seed", str(args.seed)]
    if args.bank_cache:
        common += ["--bank-cache", str(args.bank_cache)]
    if args.wise is not None:
        common += ["--wise", str(args.wise)]
    leave_each_out(train_classifier.main, common, args.only or sets, args.out_dir, "tile_classifier", args.final)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
