"""Propose labels for the tiles of the dev photos that ``photo_boxes.json`` leaves unlabelled, for a person to check.

    python -m training.dev_copies DEV_DATA_DIR OUT_DIR

Five dev photos (3, 4, 7, 9, 11) each show a whole tile set in a grid, but only about 40 of their ~144 tiles
are labelled. The others are the "other crops of the set" that a calibration must be measured on. This
script finds every face-up tile the reader sees that overlaps no labelled box, matches the grey picture
against each labelled box of the same photo (normalised cross-correlation, ``cv2.matchTemplate``, within 12%
of the box), snaps the box to the best match and proposes that label. Proposals below :data:`MIN_MATCH` are
left out: they match no labelled tile (seasons, flowers and jokers of which no copy is labelled).

Copies that are the very tiles crops.csv's crops were cut from are tagged with the crop's file
(:func:`crop_sources`) and left out of every score. It writes ``OUT_DIR/proposed.json`` (the same layout as ``training/dev_copies.json``) and one montage per
photo (``OUT_DIR/check_<photo>.png``: each labelled tile, red, followed by the copies proposed for it, with
their index and match score) to look at. The template match is not a reader: on the small tiles of photo 3
it took 4p for 5p and back, so every proposal is checked by eye before it goes into
``training/dev_copies.json``, where a corrected entry carries a note.
"""

from __future__ import annotations

import argparse
import csv
import json
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np

from companion.vision.read import TileReader
from training.real_crops import errata, iou_xyxy

PHOTOS = ("photos/3.png", "photos/4.jpg", "photos/7.jpg", "photos/9.jpg", "photos/11.jpg")
MIN_MATCH = 0.75
"""Lowest normalised cross-correlation with a labelled tile for a proposal to be kept."""
SAME_TILE = 0.85
"""Lowest correlation at which a crop of crops.csv is taken to be cut from a copy (:func:`crop_sources`): the
same tile matches at 0.96-0.999 (0.88 at photo 3's 40 px tiles, upscaled six times in the crop); another copy
of the kind at 0.74 or less. Set low on purpose: a copy wrongly left out costs a test tile, one wrongly kept
would score a calibration on its own picture."""


def _match(grey: np.ndarray, box: Sequence[float], margin: int, template: np.ndarray) -> tuple[float, tuple[int, int]]:
    """Best normalised cross-correlation of ``template`` within ``box`` grown by ``margin`` px in ``grey``, and
    where (the template's top left, in image pixels); ``(-1, (0, 0))`` when the region is smaller than it."""
    x0, y0 = max(0, int(box[0]) - margin), max(0, int(box[1]) - margin)
    region = grey[y0 : int(box[3]) + margin, x0 : int(box[2]) + margin]
    if region.shape[0] < template.shape[0] or region.shape[1] < template.shape[1]:
        return -1.0, (0, 0)
    _, top, _, (px, py) = cv2.minMaxLoc(cv2.matchTemplate(region, template, cv2.TM_CCOEFF_NORMED))
    return float(top), (x0 + px, y0 + py)


def labelled_boxes(dev: Path, photo: str) -> list[dict]:
    """The labelled boxes of ``photo``, with the known wrong labels corrected (``dev_errata.json``)."""
    table = json.loads((dev / "photo_boxes.json").read_text(encoding="utf-8"))
    if photo not in table:
        raise ValueError(f"{dev / 'photo_boxes.json'} has no boxes for {photo}")
    boxes = [dict(b) for b in table[photo]]
    for e in errata("photo_boxes"):
        for b in boxes:
            if e["photo"] == photo and b["xyxy"] == e["xyxy"]:
                b["tile"] = e["shows"]
    return boxes


def propose(dev: Path, photo: str, reader: TileReader) -> list[dict]:
    img = cv2.imread(str(dev / photo), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"cannot read {dev / photo}")
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    labelled = labelled_boxes(dev, photo)
    anchors = np.array([b["xyxy"] for b in labelled], float)
    w = float(np.median(anchors[:, 2] - anchors[:, 0]))
    h = float(np.median(anchors[:, 3] - anchors[:, 1]))
    templates = [grey[int(a[1]) + 4 : int(a[3]) - 4, int(a[0]) + 4 : int(a[2]) - 4] for a in anchors]
    found = reader.read(img)
    rows = []
    for (cx, cy, *_), up in zip(found.obb.tolist(), found.face_up.tolist(), strict=True):
        if not up:
            continue
        found_box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        scores = [_match(grey, found_box, int(0.12 * w), t) for t in templates]
        best = int(np.argmax([score for score, _ in scores]))
        top, (px, py) = scores[best]
        if top < MIN_MATCH:
            continue
        a = anchors[best]
        bx, by = px - 4, py - 4  # the template is the labelled box less 4 px each side
        box = [max(0, int(bx)), max(0, int(by)), min(img.shape[1], int(bx + a[2] - a[0])),
               min(img.shape[0], int(by + a[3] - a[1]))]
        rows.append({"photo": photo, "xyxy": box,
                     "tile": labelled[best]["tile"], "match": round(top, 3)})
    keep: list[dict] = []
    for r in sorted(rows, key=lambda r: -r["match"]):
        if not any(iou_xyxy(r["xyxy"], a) > 0.3 for a in anchors) and not any(
                iou_xyxy(r["xyxy"], k["xyxy"]) > 0.3 for k in keep):
            keep.append(r)
    return sorted(keep, key=lambda r: (r["xyxy"][1] // 20, r["xyxy"][0]))


def crop_sources(dev: Path, photo: str, rows: list[dict], labelled: list[dict]) -> None:
    """Tag (``"crop": file``) each copy in ``rows`` that is the very tile a crop of crops.csv was cut from.

    crops.csv's crops of a photo were not all cut at its labelled boxes: many show another copy of the kind
    (same ink flaws, normalised cross-correlation about 0.99 there against 0.83-0.98 at the labelled box).
    A calibration made from the crops would then be scored on its own pictures. Each crop, resized to each
    box of the photo (labelled boxes and copies, 6% trimmed, searched within 6%), goes to the box it
    matches best; a copy that wins a crop at :data:`SAME_TILE` or better is tagged, and scores leave it out
    (:func:`training.real_crops.load_copies`)."""
    img = cv2.imread(str(dev / photo), cv2.IMREAD_GRAYSCALE)
    if img is None:
        raise ValueError(f"cannot read {dev / photo}")
    boxes = [(r, r["xyxy"]) for r in rows] + [(None, b["xyxy"]) for b in labelled]
    with (dev / "crops.csv").open(newline="", encoding="utf-8") as f:
        mine = [row for row in csv.DictReader(f) if f"photos/{row['source_photo']}" == photo]
    for row in mine:
        crop = cv2.imread(str(dev / row["file"]), cv2.IMREAD_GRAYSCALE)
        if crop is None:
            raise ValueError(f"cannot read {dev / row['file']}")
        best, owner = -1.0, None
        for r, (x0, y0, x1, y1) in boxes:
            m = max(2, int(0.06 * (x1 - x0)))
            template = cv2.resize(crop, (x1 - x0, y1 - y0), interpolation=cv2.INTER_AREA)[m:-m, m:-m]
            v, _ = _match(img, (x0, y0, x1, y1), m, template)
            if v > best:
                best, owner = v, r
        if owner is not None and best >= SAME_TILE:
            owner["crop"] = row["file"]


def montage(dev: Path, photo: str, rows: list[dict]) -> np.ndarray:
    img = cv2.imread(str(dev / photo), cv2.IMREAD_COLOR)
    if img is None:
        raise ValueError(f"cannot read {dev / photo}")

    def cut(box: list[int], text: str, colour: tuple[int, int, int]) -> np.ndarray:
        x0, y0, x1, y1 = (max(0, int(v)) for v in box)
        c = cv2.resize(img[y0:y1, x0:x1], (120, 160), interpolation=cv2.INTER_CUBIC)
        c = cv2.copyMakeBorder(c, 0, 18, 0, 3, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(c, text, (2, 173), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1)
        return c

    by_tile: dict[str, list[tuple[int, dict]]] = defaultdict(list)
    for i, r in enumerate(rows):
        by_tile[r["tile"]].append((i, r))
    lines = [[cut(b["xyxy"], f"label {b['tile']}", (0, 0, 255))]
             + [cut(r["xyxy"], f"{i} {r['match']:.2f}", (0, 0, 0)) for i, r in by_tile[b["tile"]]]
             for b in labelled_boxes(dev, photo)]
    if not lines:
        raise ValueError(f"{photo} has no labelled boxes to show")
    width = max(len(line) for line in lines)
    blank = np.full_like(lines[0][0], 255)
    return np.vstack([np.hstack(line + [blank] * (width - len(line))) for line in lines])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dev", type=Path, help="dev-data folder (photos/, photo_boxes.json)")
    ap.add_argument("out", type=Path, help="folder for proposed.json and the montages to check")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    reader = TileReader()
    copies = []
    for photo in PHOTOS:
        rows = propose(args.dev, photo, reader)
        crop_sources(args.dev, photo, rows, labelled_boxes(args.dev, photo))
        copies += rows
        name = Path(photo).stem
        cv2.imwrite(str(args.out / f"check_{name}.png"), montage(args.dev, photo, rows))
        print(f"{photo}: {len(rows)} copies proposed, {sum('crop' in r for r in rows)} of them crops of crops.csv")
    (args.out / "proposed.json").write_text(json.dumps({"copies": copies}, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
