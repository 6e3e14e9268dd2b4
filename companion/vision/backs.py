"""Is a face-down box a tile? A small ONNX network that reads a square around each box the detector found
face down and says whether a real tile lies there.

Half of what a camera over the table sees is backs: the walls, the standing rows of the other players, a
concealed kong's ends. The tile classifier reads faces; a back has none, and on held-out table frames it
called one in five wall tiles and most standing tiles (seen from above: a top edge and a sliver of back) "not
a tile". The detector, for its part, finds backs on bare table: a plain patch of cloth looks much like a
plain back. The square (:func:`companion.vision.orient.square_crops`, :data:`SPAN` times the box's longer
side) shows the box and what lies around it (the wall it belongs to, or only cloth), at the detector's scale;
the network gives the probability that a real tile is there, and a box under the model's ``threshold`` is
dropped. A box that passes is a back (``0x``) without the classifier.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from companion.vision.orient import square_crops
from companion.vision.runtime import model_session, shipped_model

__all__ = ["BackChecker", "BackCheckError", "default_model_path"]

MODEL_NAME = "tile_backs.onnx"


class BackCheckError(ValueError):
    """The back-check model is missing or does not describe itself."""


def default_model_path() -> Path:
    """The model shipped in the package (``companion/models``), else the repository's ``models/``."""
    return shipped_model(MODEL_NAME)


class BackChecker:
    """The ONNX back-check network (one thread pool, spinning off, like the other models)."""

    def __init__(self, path: str | Path | None = None, threads: int = 1, threshold: float | None = None) -> None:
        self.path, self.session = model_session(Path(path) if path is not None else None, default_model_path,
                                                threads, BackCheckError, "back-check model")
        meta = self.session.get_modelmeta().custom_metadata_map
        try:
            self.size = int(meta["input_size"])
            self.span = float(meta["span"])
            norm = json.loads(meta["normalisation"])
            self.mean, self.std = float(norm["mean"]), float(norm["std"])
            self.threshold = float(threshold if threshold is not None else meta["threshold"])
            self.candidates = float(meta["candidates"])
            self.detector_sha256 = meta.get("detector_sha256", "")
        except (KeyError, ValueError, TypeError) as e:
            raise BackCheckError(f"{self.path} lacks back-check metadata ({e})") from e
        self.input_name = self.session.get_inputs()[0].name

    def probabilities(self, image: np.ndarray, obb: np.ndarray) -> np.ndarray:
        """``N``: for each box (in ``image``'s pixels: the detector's input), the probability that a tile lies
        there."""
        if len(obb) == 0:
            return np.zeros(0, np.float32)
        crops = square_crops(image, obb, self.size, self.span)
        blob = (crops.astype(np.float32) - self.mean) / self.std
        (probs,) = self.session.run(None, {self.input_name: np.ascontiguousarray(blob.transpose(0, 3, 1, 2))})
        return np.asarray(probs, np.float32).reshape(-1)

    def keep(self, image: np.ndarray, obb: np.ndarray, face_up: np.ndarray) -> np.ndarray:
        """Bool mask over the boxes: every face-up box, and the face-down ones the network passes."""
        out = np.ones(len(obb), bool)
        rows = np.nonzero(~face_up)[0]
        if len(rows):
            out[rows] = self.probabilities(image, obb[rows]) >= self.threshold
        return out
