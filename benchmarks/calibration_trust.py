"""How close to a calibrated class's fitted weight a crop must come before a partial calibration may read it
over the trained head's pick of a kind the calibration lacks (``companion.vision.calibration.TRUST``).

    python benchmarks/calibration_trust.py [--styles 30] [--seed 4242] [--share 0.75] [--model M.onnx]

Measured on rendered faces only, so the choice never looks at the real crops it is later scored on
(benchmarks/classifier.py). Each held-out style (fonts, palettes, designs the classifier never trained on)
stands for a player's set: it is calibrated with one photo-like crop of a random ``--share`` of its kinds
(as a set photographed in part), then three other photo-like crops of every kind are read. For each
threshold T the table gives the accuracy on the calibrated kinds and on the kinds the calibration lacks when
crops whose best cosine to a calibrated weight reaches T are read over every class (T = 1.01: never, the
calibrated classes only re-share the head's probability among themselves). The lowest T that costs the
lacking kinds nothing is the one to beat; the shipped value keeps a step of margin above it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.tiles import Tile  # noqa: E402
from companion.vision.calibration import (  # noqa: E402
    FITTED,
    TRUST,
    Calibration,
    big_enough,
    blend_logits,
    calibrated_probs,
    nearest_weight,
)
from companion.vision.classify import TileClassifier, default_model_path  # noqa: E402
from training.classifier_data import augment, render_bank  # noqa: E402

THRESHOLDS = (0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95, 1.01)
KINDS = 43


def _photo(bank_image: np.ndarray, box: np.ndarray, r: np.random.Generator) -> np.ndarray:
    while True:  # a calibration crop as `companion calibrate` accepts it
        crop = augment(bank_image, box, r)
        if big_enough(crop):
            return crop


def measure(model: Path, styles: int, seed: int, share: float, tests: int = 3) -> dict[str, np.ndarray]:
    """Per read crop: whether its kind is calibrated, its best cosine to a calibrated weight, the class each
    threshold of :data:`THRESHOLDS` reads (``pred``: crops x thresholds) and whether that is right (``right``),
    and the class the blended logits over every class give (``blended``)."""
    bank = render_bank(styles, "heldout", seed, progress=False)
    r = np.random.default_rng(seed + 1)
    calibrated, best, right, preds, blended = [], [], [], [], []
    for st in range(styles):
        idx = np.arange(st * KINDS, (st + 1) * KINDS)
        kinds = r.permutation(KINDS)[: round(KINDS * share)]
        cal = [(Tile(int(bank.labels[idx[k]])), _photo(bank.images[idx[k]], bank.boxes[idx[k]], r)) for k in kinds]
        clf = TileClassifier(model, calibration=Calibration.from_crops(f"style{st}", cal), flower_look=False,
                             reread=False)
        weights = clf.calibrated_weights
        if weights is None or clf.info.logit_scale <= 0:
            raise SystemExit(f"{model}: a cosine-head classifier is needed")
        classes, protos = weights
        crops = [augment(bank.images[i], bank.boxes[i], r) for i in idx for _ in range(tests)]
        y = np.repeat(bank.labels[idx], tests)
        logits, emb = clf.run(crops)
        pred = np.stack([calibrated_probs(logits, emb, classes, protos, clf.info.logit_scale, FITTED,
                                          trust=t).argmax(1) for t in THRESHOLDS], axis=1)
        preds.append(pred)
        right.append(pred == y[:, None])
        blended.append(blend_logits(logits, emb, classes, protos, clf.info.logit_scale, FITTED).argmax(1))
        calibrated.append(np.isin(y, classes))
        best.append(nearest_weight(emb, protos))
    return {"calibrated": np.concatenate(calibrated), "best": np.concatenate(best), "right": np.concatenate(right),
            "pred": np.concatenate(preds), "blended": np.concatenate(blended)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, default=default_model_path())
    ap.add_argument("--styles", type=int, default=30)
    ap.add_argument("--seed", type=int, default=4242, help="not the classifier benchmark's held-out seed (777)")
    ap.add_argument("--share", type=float, default=0.75, help="share of each style's kinds calibrated")
    args = ap.parse_args()
    m = measure(args.model, args.styles, args.seed, args.share)
    cal = m["calibrated"]
    print(f"{args.styles} held-out styles (seed {args.seed}), {cal.sum()} crops of calibrated kinds, "
          f"{(~cal).sum()} of lacking kinds; shipped TRUST = {TRUST}")
    print(f"{'T':>5} {'calibrated':>11} {'lacking':>8} {'trusted':>8}")
    for j, t in enumerate(THRESHOLDS):
        ok = m["right"][:, j]
        print(f"{t:5.2f} {ok[cal].mean():11.4f} {ok[~cal].mean():8.4f} {np.mean(m['best'] >= t):8.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
