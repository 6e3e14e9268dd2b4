"""Measure the packaged tile classifier: held-out synthetic styles, real crops leave-one-set-out, flowers,
calibration to a set (on photo-like views and on the sets' other physical copies, ``training/dev_copies.json``),
non-tile rejection and speed for 72 crops.

    python benchmarks/classifier.py DEV_DATA_DIR [--model M.onnx] [--loso-dir DIR] [--flower-loso-dir DIR]
                                    [--threads 2]

DEV_DATA_DIR holds crops.csv (the developer split of real crops). A model whose metadata says it trained on
real crops is only scored on a set through a model trained without that set: pass ``--loso-dir`` with
``tile_classifier_minus_<set>.onnx`` files (``training/loso.py`` writes them) and ``--flower-loso-dir`` with
``tile_flower_minus_<set>.onnx`` (the flowers' second look, ``training/train_flower.py --build``); without
it the real-crop rows are read without the second look. Crops are scored against the tile they show: the
labels of crops.csv, with the known wrong ones corrected (``training/dev_errata.json``; ``--as-labelled``:
the csv's labels as they are).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.tiles import Tile  # noqa: E402
from companion.vision.calibration import Calibration, big_enough  # noqa: E402
from companion.vision.classify import NOT_A_TILE, TileClassifier, default_model_path  # noqa: E402
from training.classifier_data import negative, render_bank  # noqa: E402
from training.real_augment import augment_real  # noqa: E402
from training.real_crops import ERRATA, RealCrop, load_copies, load_crops  # noqa: E402

READ_AGAIN = [True]
"""Whether unsure crops are read again (``TileClassifier(reread=...)``); ``--no-reread`` measures the model alone."""


def trained_sets(clf: TileClassifier) -> list[str]:
    meta = clf.session.get_modelmeta().custom_metadata_map
    return list(json.loads(meta.get("training", "{}")).get("real_sets_used", []))


def heldout_synthetic(clf: TileClassifier, styles: int, seed: int) -> dict[str, float]:
    bank = render_bank(styles, "heldout", seed, progress=False)
    r = np.random.default_rng(seed + 1)
    crops, labels = [], []
    from training.classifier_data import augment

    for i in range(len(bank)):
        crops.append(augment(bank.images[i], bank.boxes[i], r))
        labels.append(int(bank.labels[i]))
    y = np.array(labels)
    pred = clf.probabilities(crops).argmax(1)
    fl = (y >= 34) & (y < 42)
    # crops at least 48 px high: the 0.6-2.2x sizes the measure had before low-resolution crops (18-36 px
    # wide, as in a table frame; companion/vision/augment.LOW_RES) joined the augmentation
    full = np.array([c.shape[0] >= 48 for c in crops])
    return {"heldout_synthetic_top1": float((pred == y).mean()),
            "heldout_synthetic_flowers_top1": float((pred[fl] == y[fl]).mean()), "heldout_synthetic_n": len(y),
            "heldout_synthetic_full_size_top1": float((pred[full] == y[full]).mean()),
            "heldout_synthetic_low_res_top1": float((pred[~full] == y[~full]).mean()) if (~full).any() else float("nan"),
            "heldout_synthetic_low_res_n": int((~full).sum())}


def real_scores(models: dict[str, TileClassifier], crops: list[RealCrop]) -> dict[str, float]:
    by_set: dict[str, list[RealCrop]] = defaultdict(list)
    for c in crops:
        by_set[c.set].append(c)
    right, flowers, wrong = [], [], []
    out: dict[str, float] = {}
    for s, items in sorted(by_set.items()):
        preds = models[s].classify([c.image for c in items])
        ok = [p.tile == c.tile for p, c in zip(preds, items, strict=True)]
        right += ok
        flowers += [k for k, c in zip(ok, items, strict=True) if c.tile.is_flower]
        wrong += [f"{c.file}:{c.tile}->{p.label}" for k, p, c in zip(ok, preds, items, strict=True) if not k]
        out[f"real_set_{s}"] = float(np.mean(ok))
    print("misread:", " ".join(wrong))
    return {"real_loso_top1": float(np.mean(right)), "real_loso_flowers_top1": float(np.mean(flowers)),
            "real_n": len(right), "real_flowers_n": len(flowers)} | out


def _accuracy(clf: TileClassifier, crops: list[np.ndarray], tiles: list[Tile]) -> list[bool]:
    return [p.tile == t for p, t in zip(clf.classify(crops), tiles, strict=True)]


def calibration_scores(models: dict[str, TileClassifier], crops: list[RealCrop], seed: int,
                       views: int = 3) -> dict[str, float]:
    """Calibration on each set, scored with the set's left-out model, three ways:

    - ``rephoto``: calibrate with the set's crops as photographed, score independent photo-like views
      (augment_real: another photograph or a table camera, 0.3-2.2x the input size, glare, blur, JPEG) of
      the same crops (a harsher, simulated measure; the real other copies are :func:`copies_scores`);
    - ``rephoto_degraded``: the same, but the calibration crop is itself such a view (redrawn until it is
      ``big_enough``, as ``companion calibrate`` refuses smaller ones);
    - ``strict``: calibrate with the first crop of each kind, score the set's other labelled crops of
      calibrated kinds (only a handful exist in crops.csv);
    - ``partial``: calibrate with every other crop of the set, score the crop whose kind then has no
      prototype (does a partial calibration hurt kinds it lacks?).
    """
    r = np.random.default_rng(seed)
    by_set: dict[str, list[RealCrop]] = defaultdict(list)
    for c in crops:
        by_set[c.set].append(c)
    out: dict[str, list[bool]] = defaultdict(list)
    for s, items in sorted(by_set.items()):
        base = models[s]
        tiles = [c.tile for c in items]
        calibrated = _like(base, calibration=Calibration.from_crops(f"set{s}", [(c.tile, c.image) for c in items]))
        degraded = _like(base, calibration=Calibration.from_crops(
            f"set{s}", [(c.tile, _calibration_view(c.image, r)) for c in items]))
        for _ in range(views):
            view = [augment_real(c.image, r) for c in items]
            out["rephoto"] += _accuracy(calibrated, view, tiles)
            out["rephoto_degraded"] += _accuracy(degraded, view, tiles)
            out["rephoto_uncalibrated"] += _accuracy(base, view, tiles)
        first: dict[Tile, RealCrop] = {}
        for c in items:
            first.setdefault(c.tile, c)
        rest = [c for c in items if first[c.tile] is not c]
        if rest:
            strict = _like(base, calibration=Calibration.from_crops(
                f"set{s}", [(t, c.image) for t, c in first.items()]))
            out["strict"] += _accuracy(strict, [c.image for c in rest], [c.tile for c in rest])
        for i, c in enumerate(items[:12]):  # a sample per set keeps this quick
            others = [(o.tile, o.image) for j, o in enumerate(items) if j != i and o.tile != c.tile]
            part = _like(base, calibration=Calibration.from_crops(f"set{s}", others))
            out["partial"] += _accuracy(part, [c.image], [c.tile])
            out["partial_uncalibrated"] += _accuracy(base, [c.image], [c.tile])
    res: dict[str, float] = {}
    for k, v in out.items():
        res[f"calibration_{k}_top1"] = float(np.mean(v))
        res[f"calibration_{k}_n"] = len(v)
    return res


def copies_scores(models: dict[str, TileClassifier], crops: list[RealCrop], copies: list[RealCrop]
                  ) -> dict[str, float]:
    """Issue 5's calibration target on real other copies: each set calibrated with its crops (one per kind,
    as photographed), read on the other physical copies of those kinds in the same photos
    (``training/dev_copies.json``; :func:`training.real_crops.load_copies` leaves out the very tiles the crops
    were cut from), with the set's left-out model; and the same copies uncalibrated."""
    by_set: dict[str, list[RealCrop]] = defaultdict(list)
    for c in crops:
        by_set[c.set].append(c)
    cal: list[bool] = []
    uncal: list[bool] = []
    wrong: list[str] = []
    for s in sorted({c.set for c in copies}):
        items = by_set[s]
        if not items:
            raise ValueError(f"copies of set {s} to score, but no crop of set {s} to calibrate with")
        kinds = {c.tile for c in items}
        mine = [c for c in copies if c.set == s and c.tile in kinds]
        calibrated = _like(models[s], calibration=Calibration.from_crops(f"set{s}", [(c.tile, c.image) for c in items]))
        for name, clf, out in (("calibrated", calibrated, cal), ("uncalibrated", models[s], uncal)):
            preds = clf.classify([c.image for c in mine])
            out += [p.tile == c.tile for p, c in zip(preds, mine, strict=True)]
            wrong += [f"{name}:{c.file}:{c.tile}->{p.label}" for p, c in zip(preds, mine, strict=True) if p.tile != c.tile]
    print("copies misread:", " ".join(wrong))
    if not cal:
        raise ValueError("no copy of a calibrated kind to score")
    return {"calibration_copies_top1": float(np.mean(cal)), "calibration_copies_n": len(cal),
            "calibration_copies_uncalibrated_top1": float(np.mean(uncal))}


def _calibration_view(image: np.ndarray, r: np.random.Generator) -> np.ndarray:
    while True:
        v = augment_real(image, r)
        if big_enough(v):
            return v


def _like(clf: TileClassifier, calibration: Calibration) -> TileClassifier:
    """The same models as ``clf`` (main and flower second look), with a calibration."""
    flower = clf.flower.path if clf.flower is not None else None
    return TileClassifier(clf.path, calibration=calibration, flower_model=flower, flower_look=flower is not None,
                          reread=clf.reread)


def rejection(clf: TileClassifier, crops: list[RealCrop], seed: int) -> dict[str, float]:
    r = np.random.default_rng(seed)
    neg = clf.classify([negative(r) for _ in range(300)])
    real = clf.classify([c.image for c in crops])
    return {"negatives_rejected": float(np.mean([p.label == NOT_A_TILE for p in neg])),
            "real_tiles_rejected": float(np.mean([p.label == NOT_A_TILE for p in real]))}


def speed(model: Path, crops: list[RealCrop], threads: int, repeats: int = 30) -> float:
    clf = TileClassifier(model, threads=threads, reread=READ_AGAIN[0])
    batch = [crops[i % len(crops)].image for i in range(72)]
    clf.classify(batch)
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        clf.classify(batch)
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dev", type=Path, help="dev-data folder with crops.csv")
    ap.add_argument("--model", type=Path, default=default_model_path())
    ap.add_argument("--flower-model", type=Path, help="the flower model beside --model (default: the packaged one)")
    ap.add_argument("--loso-dir", type=Path, help="folder of tile_classifier_minus_<set>.onnx")
    ap.add_argument("--flower-loso-dir", type=Path, help="folder of tile_flower_minus_<set>.onnx")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--styles", type=int, default=40, help="held-out synthetic styles")
    ap.add_argument("--seed", type=int, default=777)
    ap.add_argument("--no-reread", action="store_true", help="do not read unsure crops again (the model alone)")
    ap.add_argument("--as-labelled", action="store_true",
                    help="score the crops against crops.csv's labels, without the known corrections")
    args = ap.parse_args(argv)
    # checked before any work: a bad argument must not cost the run's minutes
    if args.threads < 1 or args.styles < 1:
        ap.error(f"--threads and --styles must be at least 1, got {args.threads} and {args.styles}")
    if not (args.dev / "crops.csv").is_file():
        ap.error(f"{args.dev}: no crops.csv there (the dev-data folder holds crops.csv and crops/)")
    if args.flower_loso_dir and not args.loso_dir:
        ap.error("--flower-loso-dir goes with --loso-dir (the left-out flower models beside the classifier's)")
    crops = load_crops(args.dev, errata=None if args.as_labelled else ERRATA)
    if args.no_reread:
        READ_AGAIN[0] = False
    try:
        clf = TileClassifier(args.model, threads=args.threads, reread=READ_AGAIN[0], flower_model=args.flower_model)
        used = trained_sets(clf)
        models = {}
        for s in sorted({c.set for c in crops}):
            if s in used:
                if not args.loso_dir:
                    sys.exit(f"the model trained on real set {s}: pass --loso-dir for an honest score")
                flower = args.flower_loso_dir / f"tile_flower_minus_{s}.onnx" if args.flower_loso_dir else None
                models[s] = TileClassifier(args.loso_dir / f"tile_classifier_minus_{s}.onnx", threads=args.threads,
                                           flower_model=flower, flower_look=flower is not None, reread=READ_AGAIN[0])
            else:
                models[s] = clf
    except ValueError as e:  # a model file missing or not one: named, without a traceback
        ap.error(str(e))
    res: dict[str, float] = {"model": str(args.model), "training_commit": clf.info.training_commit}  # type: ignore[dict-item]
    res |= heldout_synthetic(clf, args.styles, args.seed)
    res |= real_scores(models, crops)
    res |= calibration_scores(models, crops, args.seed)
    res |= copies_scores(models, crops, load_copies(args.dev))
    res |= rejection(clf, crops, args.seed)
    for t in (1, 2):
        res[f"ms_72_crops_{t}_threads"] = round(speed(args.model, crops, t), 2)
    for k, v in res.items():
        print(f"{k:34s} {v:.4f}" if isinstance(v, float) else f"{k:34s} {v}")
    print(json.dumps(res))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
