"""Render the bundled demo photo of a laid-down winning hand (``companion demo`` scores it; no camera needed).

    python -m training.render_demo_hand        # writes companion/assets/demo/win_hand.jpg and win_hand.json

The hand, its context and the scene are fixed here (a face style of the held-out split, which no model trained
on, on green felt, the camera 12 degrees from overhead, seed 20261203). ``win_hand.json`` is the hand as
``companion tai`` takes it: the truth the demo photo is scored against in ``tests/vision/test_hand_score.py``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

import cv2

from companion.rules.win import Win
from training.synth.faces import sample_style
from training.synth.scene import Finish, Lighting, SceneStyle
from training.synth.scene_geometry import TileSize
from training.synth.scene_hand import hand_photo

OUT = Path(__file__).resolve().parent.parent / "companion" / "assets" / "demo"
SEED = 20261203
HAND = {"concealed": "345m67p234s22z", "win_tile": "8p", "win_type": "discard", "discarder": "N",
        "seat_wind": "S", "round_wind": "E", "dealer": "E", "streak": 1,
        "melds": ["pung:777z@O", "chow:123m@L"], "flowers": "2f6f"}
"""South wins on North's discard: a pung of 中 and a chow called, 2f and 6f (South's own flowers)."""


def render(out: Path = OUT) -> tuple[Path, Path]:
    win = Win.from_dict(HAND)
    style = SceneStyle(sample_style(random.Random(SEED), "heldout"), TileSize(27.0, 36.0, 20.0, 0.45), "felt",
                       (0.12, 0.36, 0.16), Finish(blur=0.4, noise=0.01))
    frame, _ = hand_photo(win, style, size=(1280, 960), tile_px=70.0, tilt=12.0, yaw=4.0, seed=SEED,
                          lighting=Lighting(azimuth=30.0, elevation=55.0, uneven=0.25, shadow=0.3))
    out.mkdir(parents=True, exist_ok=True)
    photo, truth = out / "win_hand.jpg", out / "win_hand.json"
    cv2.imwrite(str(photo), frame, [cv2.IMWRITE_JPEG_QUALITY, 88])
    truth.write_text(json.dumps(HAND, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return photo, truth


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m training.render_demo_hand", description=__doc__.split("\n")[0])
    p.add_argument("--out", type=Path, default=OUT, help="folder to write into (default: the package's assets)")
    args = p.parse_args(argv)
    for f in render(args.out):
        print(f"wrote {f} ({f.stat().st_size} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
