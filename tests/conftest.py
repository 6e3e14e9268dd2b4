import os
from pathlib import Path

import cv2
import numpy as np
from hypothesis import HealthCheck, settings

# Deterministic and deadline-free: a loaded CI machine must not make a property test flaky.
settings.register_profile(
    "ci", deadline=None, derandomize=True, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def write_dev_crops(folder: Path, rows: list[tuple[str, str]]) -> Path:
    """A dev-data folder in ``folder`` with one plain crop per ``(tile, source photo)`` row and its crops.csv."""
    (folder / "crops").mkdir(parents=True, exist_ok=True)
    lines = ["file,tile,source_photo"]
    for i, (tile, photo) in enumerate(rows):
        cv2.imwrite(str(folder / "crops" / f"{i}.jpg"), np.full((40, 30, 3), 200, np.uint8))
        lines.append(f"crops/{i}.jpg,{tile},{photo}")
    (folder / "crops.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder
