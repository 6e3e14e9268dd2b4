import atexit
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, settings

from companion.game import text

# Deterministic and deadline-free: a loaded CI machine must not make a property test flaky.
settings.register_profile(
    "ci", deadline=None, derandomize=True, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile("dev", deadline=None, max_examples=100)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

# Calibrated tile sets live in the user's data folder: the tests (and the app servers they start) get their own,
# so neither a developer's selected set nor a test's leftovers change a reading.
_DATA = tempfile.mkdtemp(prefix="companion-test-data-")
os.environ["COMPANION_DATA_DIR"] = _DATA
atexit.register(shutil.rmtree, _DATA, True)
# The commands' language comes from --lang, else COMPANION_LANG: the tests expect the defaults, whatever the shell set.
os.environ.pop("COMPANION_LANG", None)


_LENIENT_FILL = text._Fill.__missing__


@pytest.fixture(autouse=True)
def _every_message_field_given(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A table message with a field left unfilled fails the test that made it: the product leaves ``{why}`` in the
    text rather than fail a refusal, and a review found one said so ("規則設定 x 無法載入：{why}"). The misses are
    noted and asserted after the test, so a message made where the product catches every error, or on another
    thread, still counts (messages made in a subprocess, the CLI's tests that run one, are not seen)."""
    missed: list[str] = []

    def noting(fill: text._Fill, key: str) -> str:
        base = key.removesuffix("_en")
        if base == key or base not in fill:  # only {x_en} may fall back to {x}
            missed.append(key)
        return _LENIENT_FILL(fill, key)

    monkeypatch.setattr(text._Fill, "__missing__", noting)
    yield
    assert not missed, f"table messages made with fields left unfilled: {sorted(set(missed))}"


def write_dev_crops(folder: Path, rows: list[tuple[str, str]]) -> Path:
    """A dev-data folder in ``folder`` with one plain crop per ``(tile, source photo)`` row and its crops.csv."""
    (folder / "crops").mkdir(parents=True, exist_ok=True)
    lines = ["file,tile,source_photo"]
    for i, (tile, photo) in enumerate(rows):
        cv2.imwrite(str(folder / "crops" / f"{i}.jpg"), np.full((40, 30, 3), 200, np.uint8))
        lines.append(f"crops/{i}.jpg,{tile},{photo}")
    (folder / "crops.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder
