"""Calibration to one physical tile set: a few crops of each kind, stored per set in the user's data folder.

A :class:`Calibration` keeps the crops themselves (small, ``uint8`` BGR), not model features, so it stays
valid when the packaged model changes. The classifier embeds them once into class prototypes and blends
the cosine similarity to those prototypes with its trained head (:func:`blend`). Which plant carries the
printed 3 or 4 differs between sets; calibrating by printed number settles it for that set.

Sets live in ``<data>/calibration/<name>.npz`` where ``<data>`` is ``$COMPANION_DATA_DIR``, else
``%APPDATA%\\companion`` on Windows, else ``$XDG_DATA_HOME/companion`` (``~/.local/share/companion``);
``current.txt`` there names the selected set.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.tiles import Tile
from companion.vision.preprocess import INPUT_SIZE, as_bgr

__all__ = ["Calibration", "CalibrationError", "blend", "calibration_dir", "save", "load", "list_sets",
           "select", "selected", "delete", "STORE_SIZE", "WEIGHT", "TEMPERATURE"]

STORE_SIZE = (INPUT_SIZE[0] * 2, INPUT_SIZE[1] * 2)
WEIGHT = 0.7
"""Share of the prototype vote in the blended score."""
TEMPERATURE = 0.05
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$")


class CalibrationError(ValueError):
    """A calibration that cannot be built, found or read; the message names it."""


@dataclass(frozen=True, slots=True, eq=False)
class Calibration:
    name: str
    tiles: tuple[Tile, ...]
    crops: np.ndarray  # K x H x W x 3 uint8 BGR, one row per entry of ``tiles``

    @classmethod
    def from_crops(cls, name: str, samples: Sequence[tuple[Tile, np.ndarray]]) -> Calibration:
        """A calibration from ``(tile, BGR crop)`` pairs; several crops of a kind are averaged."""
        _check_name(name)
        if not samples:
            raise CalibrationError(f"calibration {name!r}: no crops given")
        tiles = tuple(t for t, _ in samples)
        crops = np.stack([cv2.resize(as_bgr(c), STORE_SIZE, interpolation=cv2.INTER_AREA) for _, c in samples])
        return cls(name, tiles, crops)

    def prototypes(self, class_names: Sequence[str], embeddings: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(class indices K, unit prototypes K x D)`` from the embeddings of ``self.crops``."""
        index = {n: i for i, n in enumerate(class_names)}
        classes = sorted({index[t.code] for t in self.tiles})
        protos = []
        for c in classes:
            rows = [i for i, t in enumerate(self.tiles) if index[t.code] == c]
            v = embeddings[rows].mean(axis=0)
            protos.append(v / (np.linalg.norm(v) + 1e-8))
        return np.asarray(classes, np.int64), np.stack(protos).astype(np.float32)


def blend(probs: np.ndarray, emb: np.ndarray, classes: np.ndarray, protos: np.ndarray,
          weight: float = WEIGHT, temperature: float = TEMPERATURE) -> np.ndarray:
    """Re-share the head's probability *within* the calibrated classes: there the score becomes
    ``(1 - weight) * head + weight * mass * softmax(cosine / temperature)``, where ``mass`` is the head's total
    probability on calibrated classes; classes without a prototype keep the head's score. A partial
    calibration therefore cannot pull a crop of an uncalibrated kind onto a calibrated one."""
    sims = emb @ protos.T / temperature
    q = np.exp(sims - sims.max(axis=1, keepdims=True))
    q /= q.sum(axis=1, keepdims=True)
    out = probs.copy()
    mass = probs[:, classes].sum(axis=1, keepdims=True)
    out[:, classes] = (1 - weight) * probs[:, classes] + weight * mass * q
    return out


# --- storage ---------------------------------------------------------------------------------------------


def calibration_dir() -> Path:
    env = os.environ.get("COMPANION_DATA_DIR")
    if env:
        base = Path(env)
    elif sys.platform == "win32" and os.environ.get("APPDATA"):
        base = Path(os.environ["APPDATA"]) / "companion"
    else:
        base = Path(os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share") / "companion"
    return base / "calibration"


def _check_name(name: str) -> None:
    if not _NAME.match(name):
        raise CalibrationError(f"tile-set name {name!r}: use up to 64 letters, digits, '_' or '-'")


def _path(name: str) -> Path:
    _check_name(name)
    return calibration_dir() / f"{name}.npz"


def save(cal: Calibration) -> Path:
    p = _path(cal.name)
    p.parent.mkdir(parents=True, exist_ok=True)
    with p.open("wb") as f:
        np.savez_compressed(f, tiles=np.array([t.code for t in cal.tiles]), crops=cal.crops)
    return p


def load(name: str) -> Calibration:
    p = _path(name)
    if not p.is_file():
        raise CalibrationError(f"no calibration named {name!r} (known: {', '.join(list_sets()) or 'none'})")
    try:
        with np.load(p, allow_pickle=False) as z:
            tiles = tuple(Tile.from_code(str(c)) for c in z["tiles"])
            crops = z["crops"]
    except (OSError, KeyError, ValueError) as e:
        raise CalibrationError(f"calibration {name!r} at {p} is damaged: {e}") from e
    if crops.dtype != np.uint8 or crops.ndim != 4 or len(crops) != len(tiles):
        raise CalibrationError(f"calibration {name!r} at {p} is damaged: crops {crops.shape}")
    return Calibration(name, tiles, crops)


def list_sets() -> list[str]:
    d = calibration_dir()
    return sorted(p.stem for p in d.glob("*.npz")) if d.is_dir() else []


def select(name: str) -> None:
    """Make ``name`` the calibration used by default."""
    load(name)
    (calibration_dir() / "current.txt").write_text(name + "\n", encoding="utf-8")


def selected() -> str | None:
    p = calibration_dir() / "current.txt"
    if not p.is_file():
        return None
    name = p.read_text(encoding="utf-8").strip()
    return name if name in list_sets() else None


def chosen(name: str | None = None, enabled: bool = True) -> Calibration | None:
    """The calibration a command should use: ``name`` if given, else the selected one; none if disabled."""
    if not enabled:
        return None
    name = name or selected()
    return load(name) if name else None


def delete(name: str) -> None:
    p = _path(name)
    if not p.is_file():
        raise CalibrationError(f"no calibration named {name!r}")
    p.unlink()
    if selected() is None:
        (calibration_dir() / "current.txt").unlink(missing_ok=True)
