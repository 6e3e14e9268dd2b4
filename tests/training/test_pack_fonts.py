"""Fonts packed for another training machine render the same faces."""

from __future__ import annotations

import shutil
from pathlib import Path

from training import pack_fonts
from training.synth import fonts

DROID = "truetype/droid/DroidSansFallbackFull.ttf"


def _installed(file: str) -> Path:
    return next(root for root in fonts._ROOTS if (root / file).exists())


def test_drawn_text_has_every_character_a_face_carries() -> None:
    text = pack_fonts.drawn_text()
    for c in "一九伍萬東南西北中發春夏秋冬梅蘭菊竹福祿壽貴1234ENSW":
        assert c in text


def test_a_font_file_that_renders_otherwise_is_told_apart(tmp_path: Path) -> None:
    root = _installed(DROID)
    (tmp_path / DROID).parent.mkdir(parents=True)
    shutil.copy(root / DROID, tmp_path / DROID)
    assert pack_fonts.same_masks(root, tmp_path, DROID, "萬東發1")
    shutil.copy(_installed("truetype/arphic/ukai.ttc") / "truetype/arphic/ukai.ttc", tmp_path / DROID)
    assert not pack_fonts.same_masks(root, tmp_path, DROID, "萬東發1")
    assert fonts._ROOTS[0] != tmp_path  # the renderer's own font folders are put back
