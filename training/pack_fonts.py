"""Pack the renderer's fonts for a training machine that lacks the Debian font packages (a GPU machine).

    python -m training.pack_fonts OUT.tar.xz      # needs fontTools: pip install fonttools (any environment)
    tar xJf OUT.tar.xz -C /usr/share/fonts        # on the other machine, then train as usual

The CJK collections are 4-27 MB each; cut down to the characters the faces draw they are a few hundred kB.
A cut font is kept only if every glyph mask the renderer makes from it (each character, plain and with the
extra stroke) is pixel for pixel the installed font's; otherwise (TrueType hinting that the cut changes, as
in the AR PL fonts) the whole file goes in. So faces rendered there are the faces rendered here.
"""

from __future__ import annotations

import argparse
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np

from training.synth import draw, fonts

__all__ = ["drawn_text", "same_masks", "main"]

ROOT = Path(__file__).resolve().parent.parent
STROKES = (0, 2, 4)


def drawn_text() -> str:
    """Every character a face can carry: the non-ASCII ones in the renderer's and the tiles' source, and
    printable ASCII (corner indices, flower numbers)."""
    chars = {chr(c) for c in range(32, 127)}
    for path in [*sorted((ROOT / "training" / "synth").glob("*.py")), ROOT / "companion" / "tiles.py"]:
        chars |= {c for c in path.read_text(encoding="utf-8") if ord(c) > 127}
    return "".join(sorted(chars))


def _specs(file: str) -> list[fonts.FontSpec]:
    return [s for s in (*fonts.TRAIN_FONTS, *fonts.HELDOUT_FONTS, fonts.LATIN_FONT) if s.file == file]


def _masks(root: Path, specs: list[fonts.FontSpec], text: str) -> dict[tuple[str, str, int], np.ndarray]:
    saved = fonts._ROOTS
    fonts._ROOTS = (root,)
    fonts.load.cache_clear()
    draw.glyph_mask.cache_clear()
    try:
        return {(s.name, c, k): np.asarray(draw.glyph_mask(s, c, k)) for s in specs for c in text.strip() for k in STROKES}
    finally:
        fonts._ROOTS = saved
        fonts.load.cache_clear()
        draw.glyph_mask.cache_clear()


def same_masks(installed: Path, candidate: Path, file: str, text: str) -> bool:
    """Whether every glyph mask of ``file``'s faces drawn from ``candidate`` equals the one from ``installed``."""
    a, b = (_masks(root, _specs(file), text) for root in (installed, candidate))
    return all(a[k].shape == b[k].shape and np.array_equal(a[k], b[k]) for k in a)


def _subset(src: Path, dst: Path, text: str) -> None:
    try:
        from fontTools import subset
        from fontTools.ttLib import TTCollection, TTFont
    except ImportError:
        raise SystemExit("error: training.pack_fonts needs fontTools: pip install fonttools") from None
    opts = subset.Options()
    opts.layout_features, opts.name_IDs, opts.hinting, opts.notdef_outline = ["*"], ["*"], True, True
    dst.parent.mkdir(parents=True, exist_ok=True)

    def cut(font: TTFont) -> None:
        s = subset.Subsetter(opts)
        s.populate(text=text)
        s.subset(font)

    if src.suffix == ".ttc":
        col = TTCollection(str(src))
        for font in col.fonts:
            cut(font)
        col.save(str(dst))
    else:
        font = TTFont(str(src))
        cut(font)
        font.save(str(dst))


def pack(out: Path, subsetter: Callable[[Path, Path, str], None] = _subset, say: Callable[[str], None] = print) -> None:
    """Write ``out`` (tar.xz, paths relative to a font folder) with every font file the renderer uses."""
    if missing := fonts.missing_fonts():
        raise SystemExit(f"error: fonts not installed here: {', '.join(missing)}")
    text = drawn_text()
    files = sorted({s.file for s in (*fonts.TRAIN_FONTS, *fonts.HELDOUT_FONTS, fonts.LATIN_FONT)})
    with tempfile.TemporaryDirectory() as tmp:
        stage = Path(tmp)
        for file in files:
            src = next(root / file for root in fonts._ROOTS if (root / file).exists())
            subsetter(src, stage / file, text)
            if not same_masks(src.parents[len(Path(file).parts) - 1], stage, file, text):
                (stage / file).write_bytes(src.read_bytes())
                say(f"{file}: whole file ({src.stat().st_size} bytes; the cut renders differently)")
            else:
                say(f"{file}: {src.stat().st_size} -> {(stage / file).stat().st_size} bytes")
        out.parent.mkdir(parents=True, exist_ok=True)
        with tarfile.open(out, "w:xz") as tar:
            for file in files:
                tar.add(stage / file, arcname=file)
    say(f"{out}: {out.stat().st_size} bytes")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path, help="the archive to write (.tar.xz)")
    pack(ap.parse_args(argv).out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
