"""Labelled real tile crops (the developer split's ``crops.csv``), grouped by physical tile set.

The folder is always passed in by the caller; nothing here knows where the data lives.
A set is a source photo's stem before any ``-`` (``2-1.jpg`` ... ``2-5.jpg`` are one set, ``2``).
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.tiles import Tile

__all__ = ["RealCrop", "CopyEntry", "load_crops", "split_left_out", "load_copies", "copy_entries", "set_of", "crop_errata", "errata", "ERRATA",
           "COPIES", "iou_xyxy"]

ERRATA = Path(__file__).with_name("dev_errata.json")
"""Known wrong labels of the dev data (``crops``: rows of crops.csv whose label is not the tile shown)."""


@dataclass(frozen=True, slots=True)
class RealCrop:
    file: str
    tile: Tile
    set: str
    image: np.ndarray  # BGR


def iou_xyxy(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Intersection over union of two axis-aligned boxes ``(x0, y0, x1, y1)`` (0 when both are empty)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return float(inter / union) if union > 0 else 0.0


def set_of(source_photo: str) -> str:
    return Path(source_photo).stem.split("-")[0]


def errata(section: str, path: Path = ERRATA) -> list[dict]:
    """The entries of ``section`` (``crops`` or ``photo_boxes``) of the errata file ``path``: each names what
    it corrects, the label there (``labelled``) and the tile shown (``shows``). An entry without those or with
    a tile outside the notation, or whose two tiles are the same, is an error naming the file and the entry."""
    out = []
    for i, e in enumerate(json.loads(Path(path).read_text(encoding="utf-8"))[section]):
        try:
            same = Tile.from_code(e["labelled"]) == Tile.from_code(e["shows"])
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{path}: {section} erratum {i}: {err!r}") from err
        if same:
            raise ValueError(f"{path}: {section} erratum {i}: the label and the tile shown are the same")
        out.append(e)
    return out


def crop_errata(path: Path = ERRATA) -> dict[str, tuple[str, str]]:
    """``file -> (label in crops.csv, tile the crop shows)`` from the ``crops`` of ``path`` (:func:`errata`)."""
    try:
        return {str(e["file"]): (str(e["labelled"]), str(e["shows"])) for e in errata("crops", path)}
    except KeyError as err:
        raise ValueError(f"{path}: a crops erratum lacks {err}") from err


def load_crops(folder: Path, errata: Path | None = ERRATA) -> list[RealCrop]:
    """Every labelled crop in ``folder/crops.csv`` with its image, labelled with the tile it shows where
    ``errata`` (:func:`crop_errata`; ``None``: as the csv says) corrects the csv. An erratum whose label is not
    the csv's (the data changed under it) is an error naming the file."""
    table = Path(folder) / "crops.csv"
    if not table.exists():
        raise FileNotFoundError(f"{table} not found: pass the dev-data folder that holds crops.csv")
    fixes = crop_errata(errata) if errata is not None else {}
    out = []
    with table.open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            img = cv2.imread(str(Path(folder) / row["file"]), cv2.IMREAD_COLOR)
            if img is None:
                raise ValueError(f"cannot read {row['file']} in {folder}")
            tile = row["tile"]
            if row["file"] in fixes:
                labelled, tile = fixes[row["file"]]
                if labelled != row["tile"]:
                    raise ValueError(f"{table}: {row['file']} is labelled {row['tile']}, the erratum corrects "
                                     f"{labelled}")
            out.append(RealCrop(row["file"], Tile.from_code(tile), set_of(row["source_photo"]), img))
    return out


COPIES = Path(__file__).with_name("dev_copies.json")
"""Other physical copies in the dev photos (tiles ``photo_boxes.json`` leaves unlabelled), labelled by
``training/dev_copies.py`` and checked by eye."""


@dataclass(frozen=True, slots=True)
class CopyEntry:
    photo: str
    xyxy: tuple[int, int, int, int]
    tile: Tile
    crop: str | None  # the crops.csv file cut from this very tile, if any (then left out of scores)
    number: int  # 1-based position in the file, for messages


def split_left_out(crops: Sequence[RealCrop], leave_out: str, source: object) -> tuple[list[RealCrop], list[RealCrop]]:
    """``(kept, left out)``: the crops of every set but ``leave_out``, and that set's. A ``leave_out`` that names
    no set of ``crops`` is a ValueError listing the sets (a typo would otherwise train on every set, and the
    model's metadata would say one was left out); ``""`` leaves none out."""
    sets = sorted({c.set for c in crops}, key=lambda x: (len(x), x))
    if leave_out and leave_out not in sets:
        raise ValueError(f"--leave-out {leave_out}: {source} has no set {leave_out!r} (its sets: {', '.join(sets)})")
    return [c for c in crops if c.set != leave_out], [c for c in crops if c.set == leave_out]


def copy_entries(path: Path = COPIES, crops_too: bool = False) -> list[CopyEntry]:
    """The entries of the copies file ``path``, checked: a photo, an ``xyxy`` box of four integers with
    ``x0 < x1`` and ``y0 < y1``, a tile. Entries that are the very tile a crop of crops.csv was cut from
    (``"crop"``) are left out unless ``crops_too``: a calibration made from the crops must not be scored on
    them. A malformed entry is an error naming its number."""
    try:
        entries = json.loads(Path(path).read_text(encoding="utf-8"))["copies"]
    except (OSError, ValueError, KeyError, TypeError) as err:
        raise ValueError(f"{path}: not a copies file ({err})") from err
    out = []
    for i, e in enumerate(entries):
        what = f"{path}: copy {i + 1}"
        try:
            x0, y0, x1, y1 = (int(v) for v in e["xyxy"])
            entry = CopyEntry(str(e["photo"]), (x0, y0, x1, y1), Tile.from_code(str(e["tile"])),
                              str(e["crop"]) if e.get("crop") is not None else None, i + 1)
        except (KeyError, TypeError, ValueError, AttributeError) as err:
            raise ValueError(f"{what} is not a photo, an xyxy box and a tile: {err}") from err
        if not (0 <= x0 < x1 and 0 <= y0 < y1):
            raise ValueError(f"{what}: box {[x0, y0, x1, y1]} is empty or negative")
        if crops_too or entry.crop is None:
            out.append(entry)
    return out


def load_copies(folder: Path, path: Path = COPIES, crops_too: bool = False) -> list[RealCrop]:
    """The copies of :func:`copy_entries`, cut from the photos of the dev-data ``folder`` at their boxes.
    ``file`` is ``<photo>#<x0>,<y0>``; ``set`` is the photo's set (:func:`set_of`). A box outside its photo or
    a photo that cannot be read is an error naming the entry."""
    photos: dict[str, np.ndarray] = {}
    out = []
    for e in copy_entries(path, crops_too):
        if e.photo not in photos:
            img = cv2.imread(str(Path(folder) / e.photo), cv2.IMREAD_COLOR)
            if img is None:
                raise ValueError(f"{path}: copy {e.number}: cannot read {e.photo} in {folder}")
            photos[e.photo] = img
        h, w = photos[e.photo].shape[:2]
        x0, y0, x1, y1 = e.xyxy
        if x1 > w or y1 > h:
            raise ValueError(f"{path}: copy {e.number}: box {list(e.xyxy)} is not inside {e.photo} ({w}x{h})")
        out.append(RealCrop(f"{e.photo}#{x0},{y0}", e.tile, set_of(e.photo), photos[e.photo][y0:y1, x0:x1].copy()))
    return out
