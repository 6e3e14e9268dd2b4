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

from concurrent.futures import Executor
from pathlib import Path

import numpy as np

from companion.vision.orient import SquareModel
from companion.vision.runtime import shared_chunks, shipped_model

__all__ = ["BackChecker", "BackCheckError", "default_model_path"]

MODEL_NAME = "tile_backs.onnx"
CHUNK = 16
"""With a helper thread (:meth:`BackChecker.probabilities`), the squares are read in chunks of this many."""


class BackCheckError(ValueError):
    """The back-check model is missing or does not describe itself; the message names the file and says it in
    English and Traditional Chinese (``English / 中文``)."""


def default_model_path() -> Path:
    """The model shipped in the package (``companion/models``), else the repository's ``models/``."""
    return shipped_model(MODEL_NAME)


class BackChecker(SquareModel):
    """The ONNX back-check network."""

    error = BackCheckError
    what = "back-check model"
    what_zh = "牌背檢查模型"

    def __init__(self, path: str | Path | None = None, threads: int = 1, threshold: float | None = None) -> None:
        super().__init__(path, threads, default_model_path)
        try:
            self.threshold = float(threshold if threshold is not None else self.meta["threshold"])
            self.candidates = float(self.meta["candidates"])
        except (KeyError, ValueError) as e:
            raise BackCheckError(f"{self.path} lacks back-check metadata ({e}) / "
                                 f"{self.path.name} 缺少牌背檢查模型的中繼資料（{e}）") from e
        self.detector_sha256 = self.meta.get("detector_sha256", "")

    def probabilities(self, image: np.ndarray, obb: np.ndarray, helper: Executor | None = None) -> np.ndarray:
        """``N``: for each box (in ``image``'s pixels: the detector's input, or the image itself at full
        resolution, as the reader asks about some boxes again: each square is cut to its box's size), the
        probability that a tile lies there. ``helper``: a thread that reads chunks of the boxes (:data:`CHUNK`)
        too once it has nothing else to do (:func:`companion.vision.runtime.shared_chunks`; the network's
        session on one thread, each run on the thread that calls it)."""
        return shared_chunks(lambda a, b: self._run(image, obb[a:b], 1).reshape(-1), len(obb), CHUNK, helper)

    def keep(self, image: np.ndarray, obb: np.ndarray, face_up: np.ndarray) -> np.ndarray:
        """Bool mask over the boxes: every face-up box, and the face-down ones the network passes."""
        out = np.ones(len(obb), bool)
        rows = np.nonzero(~face_up)[0]
        if len(rows):
            out[rows] = self.probabilities(image, obb[rows]) >= self.threshold
        return out
