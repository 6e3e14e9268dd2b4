"""Write the product's tile pictures: one clean PNG per face and the back into companion/assets/tiles/.

    python -m training.render_faces            # (re)write the pictures
    python -m training.render_faces --check    # exit 1 if the committed pictures are not current

Files are named by notation (``5m.png``, ``0x.png``), drawn in ``CLEAN_STYLE`` at ``ASSET_SIZE``.
The app only reads these files; nothing renders faces at run time.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from PIL import Image

from companion.tiles import FACES, Tile
from training.synth.faces import CLEAN_STYLE, render_face

ASSET_DIR = Path(__file__).resolve().parent.parent / "companion" / "assets" / "tiles"
ASSET_SIZE = (120, 160)
TOLERANCE = 3.0
"""Largest mean absolute pixel difference that still counts as current (font rasterisers differ a little)."""

ALL_TILES: tuple[Tile, ...] = (*FACES, Tile.UNKNOWN)


def render(tile: Tile) -> Image.Image:
    return render_face(tile, CLEAN_STYLE, ASSET_SIZE)


def stale(folder: Path = ASSET_DIR) -> list[str]:
    """Names of pictures that are missing or differ from a fresh rendering."""
    out = []
    for tile in ALL_TILES:
        path = folder / f"{tile.code}.png"
        if not path.exists():
            out.append(f"{path.name} (missing)")
            continue
        old = np.asarray(Image.open(path).convert("RGBA"), dtype=np.float32)
        new = np.asarray(render(tile), dtype=np.float32)
        if old.shape != new.shape or float(np.abs(old - new).mean()) > TOLERANCE:
            out.append(path.name)
    return out


def write(folder: Path = ASSET_DIR) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for tile in ALL_TILES:
        render(tile).save(folder / f"{tile.code}.png", optimize=True)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only check that the pictures are current")
    ap.add_argument("--out", type=Path, default=ASSET_DIR)
    args = ap.parse_args(argv)
    if args.check:
        bad = stale(args.out)
        for name in bad:
            print(f"stale: {name}", file=sys.stderr)
        return 1 if bad else 0
    write(args.out)
    print(f"wrote {len(ALL_TILES)} pictures to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
