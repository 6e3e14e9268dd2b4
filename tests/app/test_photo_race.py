"""The Score tab's reading of a photo, which lands after a while (the bundled photo's first reading loads the reader):
a hand the player sent meanwhile, or a photo he picked since, is his newer word, and the reading's result, landing
later, does not replace it; a photo picked after a hand was sent replaces it. The worker runs when the test says."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion.app.photo_model import (
    PhotoContext,
    PhotoFailed,
    PhotoPanel,
    ReadPhoto,
    score_picked,
    score_typed_hand,
)
from companion.app.view_photo import PhotoSource, PhotoTab
from companion.app.words import ui
from companion.tiles import Tile
from tests.app.test_photo_picks import _row_photo
from tests.app.test_tabs_beside_a_live_table import _Host

HAND = "1112345678999m123p5m"
# the bundled photo's situation, which is not the player's hand's (放槍 by North, seat South, a streak of 1)
DEMO_CONTEXT = {**PhotoContext().as_context(), "win_type": "discard", "discarder": "N", "seat_wind": "S",
                "streak": 1}


class _Page(_Host):
    """A page whose worker runs when the test says, and which keeps what each drawing showed."""

    def __init__(self) -> None:
        super().__init__()
        self.pending: list[Callable[[], None]] = []
        self.page.run_thread = self.pending.append
        self.drawn: list[tuple[Any, str | None]] = []  # (the card shown, the hand field) at each drawing
        self.tab: PhotoTab | None = None

    def render(self) -> None:
        if self.tab is not None:
            self.drawn.append((self.tab.shown, self.tab.typed_field.value))

    def run_all(self) -> None:
        while self.pending:
            self.pending.pop(0)()


def _tab() -> tuple[PhotoTab, _Page, ReadPhoto]:
    demo = _row_photo("123m456m789p234s678s55m")
    page = _Page()
    photo = dataclasses.replace(_row_photo("123m456m789p234s678s55m"), name="mine.jpg")
    tab = PhotoTab(page, PhotoSource(demo=lambda: (demo, DEMO_CONTEXT), read_file=lambda *_: photo,
                                     upload_dir=None))
    page.tab = tab
    return tab, page, photo


def _hand_shown(tab: PhotoTab) -> None:
    expected = score_typed_hand(HAND, PhotoContext().as_context())
    assert isinstance(expected, PhotoPanel) and isinstance(tab.shown, PhotoPanel)
    assert tab.shown.total == expected.total and tab.shown.concealed == expected.concealed
    assert tab.typed == HAND and tab.typed_field.value == HAND and tab.busy is None
    assert tab.read is None and not tab.demo and tab.context == PhotoContext()  # not the bundled photo's situation


def test_a_hand_sent_while_the_bundled_photo_is_read_is_not_replaced_by_the_photos_score() -> None:
    """The tab opens and reads the bundled photo; the player types a hand and sends it (Enter) before the reading is
    done. The reading, landing later, showed the photo's score and emptied the field (the hand, scored after it,
    was lost whenever Enter came as the reading landed); now it lands unshown, and the hand is scored."""
    tab, page, _ = _tab()
    tab.open()
    assert tab.busy is not None and len(page.pending) == 1  # still reading
    tab.typed_field.value = HAND  # typed, then Enter
    tab.score_typed()
    page.drawn.clear()
    page.run_all()  # the reading lands, after the hand was sent
    assert all(field == HAND for _, field in page.drawn), page.drawn  # the field never emptied
    assert not any(isinstance(shown, PhotoPanel) and shown.name == "row.jpg" for shown, _ in page.drawn)
    _hand_shown(tab)


def test_a_hand_typed_while_the_bundled_photo_is_read_is_kept_in_its_field() -> None:
    """Typed while the bundled photo is read and sent once it is shown: the reading emptied the field as it
    landed, so Enter sent what was left (nothing, or the keys typed after it); the field keeps it now."""
    tab, page, _ = _tab()
    tab.open()
    tab.typed_field.value = HAND  # typed, not yet sent
    page.run_all()  # the reading lands: the bundled photo is shown, scored with its own situation
    assert tab.demo and isinstance(tab.shown, PhotoPanel) and tab.shown.name == "row.jpg"
    assert tab.typed_field.value == HAND
    tab.score_typed()  # Enter
    page.run_all()
    _hand_shown(tab)


def test_the_bundled_photo_asked_for_again_empties_the_field_of_the_hand_scored_before() -> None:
    """(A review saw a scored hand stay in the field under the bundled photo's score.)"""
    tab, page, _ = _tab()
    tab.score_typed(HAND)
    page.run_all()
    _hand_shown(tab)
    tab.use_demo()
    page.run_all()
    assert tab.demo and tab.typed is None and tab.typed_field.value == ""
    assert isinstance(tab.shown, PhotoPanel) and tab.shown.name == "row.jpg"


def test_a_photo_picked_before_a_hand_was_sent_does_not_replace_it(tmp_path: Path) -> None:
    """Picked, then a hand typed and sent while the photo is sent: the photo, arriving later, replaced the hand
    (the hand waiting was dropped); the hand is the newer word now, and is scored."""
    tab, page, _ = _tab()
    tab._sending(ui("photo_sending", name="mine.jpg"))  # the player picked a photo: it is being sent
    tab.score_typed(HAND)  # Enter, while it is sent
    tab._received(tmp_path / "mine.jpg", "mine.jpg")  # it arrives and is read
    page.run_all()
    _hand_shown(tab)


def test_a_photo_picked_after_a_hand_was_sent_replaces_it(tmp_path: Path) -> None:
    tab, page, photo = _tab()
    tab.score_typed(HAND)
    page.run_all()
    _hand_shown(tab)
    tab._sending(ui("photo_sending", name="mine.jpg"))
    tab._received(tmp_path / "mine.jpg", "mine.jpg")
    page.run_all()
    expected = score_picked(photo, {}, PhotoContext().as_context())
    assert isinstance(expected, PhotoPanel) and isinstance(tab.shown, PhotoPanel)
    assert tab.shown.name == "mine.jpg" and tab.shown.total == expected.total
    assert tab.typed is None and tab.typed_field.value == "" and tab.read is photo and tab.busy is None


def test_a_hand_sent_while_a_photo_is_sent_is_scored_when_the_send_fails() -> None:
    """Picked, then a hand typed and sent (Enter) while the photo is sent, and the send fails: the hand waited unscored
    (the page no longer busy) until the next change of the form scored it and wrote it back into the field the player
    had emptied meanwhile; it is scored as the send ends now, and the refusal does not replace it."""
    tab, page, _ = _tab()
    tab._sending(ui("photo_sending", name="mine.jpg"))
    tab.typed_field.value = HAND
    tab.score_typed()  # Enter, while it is sent
    tab._sending(None)  # the send failed
    tab._refused("mine.jpg", ui("photo_send_failed", name="mine.jpg"))
    page.run_all()
    _hand_shown(tab)
    assert tab.typed_waiting is None and tab._picked is None
    tab.typed_field.value = ""  # the player empties the field and changes the stakes: the field stays empty
    tab.set_context(stakes="50/20")
    page.run_all()
    assert tab.typed_field.value == "" and tab.typed_waiting is None


def test_a_photo_whose_send_fails_says_so_when_no_hand_was_sent_meanwhile() -> None:
    tab, page, _ = _tab()
    tab._sending(ui("photo_sending", name="mine.jpg"))
    tab._sending(None)
    tab._refused("mine.jpg", ui("photo_send_failed", name="mine.jpg"))
    page.run_all()
    assert isinstance(tab.shown, PhotoFailed) and tab.shown.reason == ui("photo_send_failed", name="mine.jpg")
    assert tab.busy is None and tab._picked is None


def test_undo_my_corrections_takes_the_added_tiles_back_too() -> None:
    """A change review: 「全部照原本讀的」 ("everything as first read") kept the tiles the player had added, and a
    photo mended by an added tile alone showed neither the total nor the button."""
    from tests.app.test_tabs_beside_a_live_table import _texts

    tab, page, _ = _tab()
    tab.use_demo()
    page.run_all()
    tab.adding = True
    tab.add_tile("6f")
    page.run_all()
    assert tab.added == [Tile.F6] and ui("photo_fix_reset").en in _texts(tab.build())
    tab.undo_picks()
    page.run_all()
    assert tab.added == [] and not tab.adding


def test_a_tile_the_photo_already_holds_enough_of_is_not_added() -> None:
    """A change review: adding a 5m to a hand whose photo holds four 5m (or a flower it shows) was scored and refused
    pointing at "tiles 1, 2" of a row, one of them the player's own addition with no cell to tap; the addition is
    refused at once, saying why, and the palette stays open for another."""
    from tests.app.test_tabs_beside_a_live_table import _texts

    tab, page, _ = _tab()
    tab.use_demo()
    page.run_all()
    assert isinstance(tab.read, ReadPhoto)
    tab.start_adding()
    tab.add_tile("5m")  # the photo's 456m and 55m, and one more
    page.run_all()
    tab.start_adding()
    tab.add_tile("5m")  # a fifth
    page.run_all()
    assert tab.added == [Tile.M5] and tab.adding
    assert tab.add_refused == ui("photo_add_too_many", have=4, tile="五萬", tile_en="5 Characters", limit=4)
    assert tab.add_refused.en in _texts(tab.build())
