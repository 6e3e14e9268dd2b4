"""Labelled real tile crops (the developer split's ``crops.csv``), grouped by physical tile set.

The folder is always passed in by the caller; nothing here knows where the data lives.
A set is a source photo's stem before any ``-`` (``2-1.jpg`` ... ``2-5.jpg`` are one set, ``2``).
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.tiles import Tile

__all__ = ["RealCrop", "load_crops", "set_of"]


@dataclass(frozen=True, slots=True)
class RealCrop:
    file: str
    tile: Tile
    set: str
    image: np.ndarray  # BGR


def set_of(source_photo: str) -> str:
    return Path(source_photo).stem.split("-")[0]


def load_crops(folder: Path) -> list[RealCrop]:
    """Every labelled crop in ``folder/crops.csv`` with its image."""
    table = Path(folder) / "crops.csv"
    if not table.exists():
        raise FileNotFoundError(f"{table} not found: pass the dev-data folder that holds crops.csv")
    out = []
    with table.open(newline="", encoding="utf-8") as f:
        for row in csv.DictReader(f):
            img = cv2.imread(str(Path(folder) / row["file"]), cv2.IMREAD_COLOR)
            if img is None:
                raise ValueError(f"cannot read {row['file']} in {folder}")
            out.append(RealCrop(row["file"], Tile.from_code(row["tile"]), set_of(row["source_photo"]), img))
    return out
