"""Labelled real tile crops (the developer split's ``crops.csv``), grouped by physical tile set.

The folder is always passed in by the caller; nothing here knows where the data lives.
A set is a source photo's stem before any ``-`` (``2-1.jpg`` ... ``2-5.jpg`` are one set, ``2``).
"""

from __future__ import annotations

import csv
import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.tiles import Tile

__all__ = ["RealCrop", "load_crops", "load_copies", "set_of", "crop_errata", "errata", "ERRATA", "COPIES"]

ERRATA = Path(__file__).with_name("dev_errata.json")
"""Known wrong labels of the dev data (``crops``: rows of crops.csv whose label is not the tile shown)."""


@dataclass(frozen=True, slots=True)
class RealCrop:
    file: str
    tile: Tile
    set: str
    image: np.ndarray  # BGR


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


def load_copies(folder: Path, path: Path = COPIES) -> list[RealCrop]:
    """The copies listed in ``path``, cut from the photos of the dev-data ``folder`` at their boxes. ``file`` is
    ``<photo>#<x0>,<y0>``; ``set`` is the photo's set (:func:`set_of`). A box outside its photo, an unknown
    tile or a photo that cannot be read is an error naming the entry."""
    try:
        entries = json.loads(Path(path).read_text(encoding="utf-8"))["copies"]
    except (OSError, ValueError, KeyError) as err:
        raise ValueError(f"{path}: not a copies file ({err})") from err
    photos: dict[str, np.ndarray] = {}
    out = []
    for i, e in enumerate(entries):
        what = f"{path}: copy {i + 1}"
        try:
            photo, (x0, y0, x1, y1), code = str(e["photo"]), (int(v) for v in e["xyxy"]), str(e["tile"])
            tile = Tile.from_code(code)
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"{what} is not a photo, an xyxy box and a tile: {err}") from err
        if photo not in photos:
            img = cv2.imread(str(Path(folder) / photo), cv2.IMREAD_COLOR)
            if img is None:
                raise ValueError(f"{what}: cannot read {photo} in {folder}")
            photos[photo] = img
        h, w = photos[photo].shape[:2]
        if not (0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h):
            raise ValueError(f"{what}: box {[x0, y0, x1, y1]} is not inside {photo} ({w}x{h})")
        out.append(RealCrop(f"{photo}#{x0},{y0}", tile, set_of(photo), photos[photo][y0:y1, x0:x1].copy()))
    return out
