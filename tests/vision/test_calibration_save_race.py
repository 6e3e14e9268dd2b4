"""Two saves of one new set name at once: one saves it, the other is told it is saved already (a calibration review:
two `calibrate photo race …` at once both printed calibrated “race”, one silently replacing the other, past --replace
and the "never fewer kinds" guard)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from companion.app.tileset_model import ReplaceAsked, SheetDraft, SheetPage
from companion.commands import calibrate
from companion.tiles import Tile
from companion.vision import calibration

PICTURES = Path(__file__).parents[2] / "companion" / "assets" / "tiles"


@pytest.fixture(autouse=True)
def slow_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Building a set takes a while (as fitting it on a loaded laptop does): both saves look before either writes."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    build = calibration.Calibration.from_crops.__func__  # type: ignore[attr-defined]

    def slowly(cls: type, name: str, samples: list) -> calibration.Calibration:
        time.sleep(0.4)
        return build(cls, name, samples)  # type: ignore[no-any-return]

    monkeypatch.setattr(calibration.Calibration, "from_crops", classmethod(slowly))


def _samples(codes: tuple[str, ...]) -> list[tuple[Tile, np.ndarray]]:
    return [(Tile.from_code(c), cv2.imread(str(PICTURES / f"{c}.png"))) for c in codes]


def _at_once(*saves: object) -> list[BaseException | None]:
    out: list[BaseException | None] = [None] * len(saves)

    def run(i: int) -> None:
        try:
            saves[i]()  # type: ignore[operator]
        except BaseException as e:  # noqa: BLE001  (kept to be looked at)
            out[i] = e

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(saves))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def test_two_command_line_saves_of_one_new_name_at_once_save_it_once(capsys: pytest.CaptureFixture[str]) -> None:
    big, small = _samples(("1m", "2m", "3m", "5p")), _samples(("9s",))
    errors = _at_once(lambda: calibrate._save("race", big, False), lambda: calibrate._save("race", small, False))
    refused = [e for e in errors if e is not None]
    assert len(refused) == 1  # told of the set the other saved: by its guard against fewer kinds, or to --replace
    assert "the saved set “race” has" in str(refused[0]) or "a set named “race” is saved already" in str(refused[0])
    assert capsys.readouterr().out.count("calibrated “race”") == 1
    kinds = set(calibration.load("race").tiles)
    assert kinds in ({t for t, _ in big}, {t for t, _ in small})
    assert not list(calibration.calibration_dir().glob("*.lock"))  # the lock goes with the save


def _page(codes: tuple[str, ...]) -> SheetPage:
    samples = tuple(_samples(codes))
    return SheetPage("p.jpg", "a4", 1, 2, 22, codes, (), (), (), samples)


def test_two_app_saves_of_one_new_name_at_once_save_it_once() -> None:
    one, two = SheetDraft(), SheetDraft()  # (the server's draft and another server's on the same folder)
    one.add(_page(("1m", "2m", "3m")))
    two.add(_page(("5p",)))
    errors = _at_once(lambda: one.save("race"), lambda: two.save("race"))
    asked = [e for e in errors if e is not None]
    assert len(asked) == 1 and isinstance(asked[0], ReplaceAsked)  # the second is asked, as for a set saved before
