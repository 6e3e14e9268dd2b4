"""The Live tab's win form filled from a photo of the flowers alone: the table says how the hand was won (a
self-draw here), so the photo's eight flowers are no 八仙過海 to score, and there is no hand to fill; it said so
before a photo of all eight alone was scored as 八仙過海 on the Score tab, and it still does (a change review)."""

from __future__ import annotations

from pathlib import Path

from companion.app.live_photo import fill_from_photo
from companion.app.photo_model import PhotoFailed
from companion.app.words import ui
from tests.app.test_live_photo import at_a_win, chance_of
from tests.app.test_photo_picks import _row_photo


def test_a_photo_of_the_flowers_alone_fills_no_live_win(tmp_path: Path) -> None:
    game, won, _ = at_a_win(tmp_path, 9)
    try:
        assert won.kind.value == "self_draw"
        got = fill_from_photo(_row_photo("12345678f"), game.state, chance_of(game, won))
        assert isinstance(got, PhotoFailed)
        assert got.reason == ui("live_photo_flowers_alone", name="row.jpg")
        # what the photo shows and what to do, once: not "cannot be scored" (the Score tab scores it), one colon
        assert got.reason.en == "row.jpg shows only flowers: photograph the whole hand laid face up with them to " \
                                "fill the form"
        assert "無法計算" not in got.reason.zh and got.reason.zh.count("：") == 0 and "row.jpg" in got.reason.zh
        assert "Eight flowers" not in got.reason.en and got.image is not None  # the photo as read, to compare
    finally:
        game.close()
