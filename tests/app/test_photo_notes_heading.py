"""The heading over a scored photo's notes said 可能讀錯的地方 / "Possible misreads" over notes most of which are no
misread: the winning tile not set apart and the one taken, a face-up kong taken as exposed or added, a row taken as
called for lying apart, all eight flowers taken as 八仙過海 (a review read a misread into each). The notes are what
to check, and the heading says so."""

from __future__ import annotations

from typing import Any

from companion.app.photo_model import PhotoContext, PhotoPanel, score_picked
from companion.app.view_photo import PhotoSource, PhotoTab
from companion.app.words import ui
from tests.app.test_photo_picks import _row_photo
from tests.app.test_tabs_beside_a_live_table import _Host, _texts


def test_the_notes_of_a_photo_are_headed_as_what_to_check_not_as_misreads() -> None:
    read = _row_photo("123m456m789p234s678s55m")  # read surely, none set apart: a note on the tile won on
    got = score_picked(read, {}, PhotoContext().as_context())
    assert isinstance(got, PhotoPanel) and got.notes
    first = got.notes[0]  # (the blank test photo's own quality warnings follow it)
    assert first.en.startswith("The winning tile is not set apart") and "misread" not in first.en  # no misread
    heading = ui("photo_doubts")
    assert "misread" not in heading.en.lower() and "讀錯" not in heading.zh
    assert heading.zh == "請檢查" and heading.en == "Please check"
    # and the tab heads the card's notes with it: the photo shown, its card drawn (a change review: only the word's
    # name was looked for in the view's source)
    tab = PhotoTab(_Host(), PhotoSource(demo=lambda: (read, PhotoContext().as_context()), read_file=_unused,
                                        upload_dir=None))
    tab.open()  # the bundled photo: here the one read above, scored at once
    assert isinstance(tab.shown, PhotoPanel) and tab.shown.notes == got.notes
    shown = _texts(tab.build())
    assert shown.count(heading.en) == 1 and "• " + first.en in shown and "Possible misreads" not in shown


def _unused(*_: object) -> Any:
    raise AssertionError("no photo file is read here")
