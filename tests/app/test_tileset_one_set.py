"""Settings' tile sets, a calibration review: a page of another set is not taken unsaid (nor put into a saved set), and
a damaged set is said in a player's words, on the Settings tab and beside a photo read without it."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

import tests.vision.test_sheet as sheet_photos
from companion.app.tileset_model import (
    OtherSetAsked,
    ReplaceAsked,
    SheetDraft,
    SheetPage,
    TileSetError,
    read_sheet_photo,
    tile_sets,
)
from companion.app.view_settings import SettingsTab, TileSetSource
from companion.app.words import ui
from companion.tiles import Tile
from companion.vision import calibration
from companion.vision.classify import TileClassifier
from companion.vision.detect import TileDetector
from companion.vision.sheet import Paper, layout, render_sheet, set_likeness
from tests.app.test_tabs_beside_a_live_table import _Host, _idents, _texts
from tests.vision.test_sheet_one_set import _other_set

PICTURES = Path(__file__).parents[2] / "companion" / "assets" / "tiles"


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture(scope="module")
def models() -> tuple[TileDetector, TileClassifier]:
    return TileDetector(threads=1, backs=False), TileClassifier(threads=1)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory, models: tuple[TileDetector, TileClassifier]
          ) -> dict[str, SheetPage]:
    """A4 page 1 of our set (twice) and of another set, page 2 of ours, as read."""
    folder = tmp_path_factory.mktemp("one-set")
    rng = np.random.default_rng(11)
    out = {}
    sheets = render_sheet(Paper.A4, sheet_photos.DPI)
    for key, number, picture in (("ours-1", 1, sheet_photos._picture), ("ours-1-again", 1, sheet_photos._picture),
                                 ("ours-2", 2, sheet_photos._picture), ("theirs-1", 1, _other_set)):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(sheet_photos, "_picture", picture)
            filled, _ = sheet_photos.fill(sheets[number - 1], layout(Paper.A4)[number - 1], rng, empty=())
        path = folder / f"{key}.jpg"
        cv2.imwrite(str(path), sheet_photos.photo(filled, rng)[0])
        got = read_sheet_photo(path, path.name, *models)
        assert isinstance(got, SheetPage), got
        out[key] = got
    return out


def test_a_page_of_another_set_is_asked_about_not_taken(pages: dict[str, SheetPage],
                                                        models: tuple[TileDetector, TileClassifier]) -> None:
    draft = SheetDraft(likeness=lambda a, b: set_likeness(a, b, models[1]))
    assert not draft.add(pages["ours-1"]) and not draft.add(pages["ours-2"])  # no kind shared: nothing to tell
    assert draft.add(pages["ours-1-again"])  # our page photographed again replaces the first photo
    version = draft.version
    with pytest.raises(OtherSetAsked) as asked:
        draft.add(pages["theirs-1"])
    assert asked.value.page is pages["theirs-1"] and draft.version == version  # nothing kept, nothing replaced
    assert draft.pages["a4", 1] is pages["ours-1-again"]
    words = asked.value.words
    assert "theirs-1.jpg" in words.en and "do not look like those of the pages already here" in words.en
    assert "theirs-1.jpg" in words.zh and "不像同一副" in words.zh
    assert draft.add(pages["theirs-1"], same_set=True)  # the player says it is the same set
    assert draft.pages["a4", 1] is pages["theirs-1"]


def test_another_sets_pages_put_into_a_saved_set_are_asked_about(pages: dict[str, SheetPage],
                                                                 models: tuple[TileDetector, TileClassifier]) -> None:
    likeness = lambda a, b: set_likeness(a, b, models[1])  # noqa: E731
    ours = SheetDraft(likeness=likeness)
    ours.add(pages["ours-1"])
    ours.add(pages["ours-2"])
    ours.save("home")
    kept = calibration.load("home")
    theirs = SheetDraft(likeness=likeness)
    theirs.add(pages["theirs-1"])
    with pytest.raises(ReplaceAsked) as asked:
        theirs.save("home")
    assert asked.value.words == ui("set_add_other", name="home")
    assert np.array_equal(calibration.load("home").crops, kept.crops)
    theirs.save("home", replace=asked.value.version)  # asked, and tapped again: put in as the player says
    assert not np.array_equal(calibration.load("home").crops, kept.crops)
    again = SheetDraft(likeness=likeness)  # our own page again is asked about as before, as one set
    again.add(pages["ours-1-again"])
    calibration.save(kept)
    with pytest.raises(ReplaceAsked) as same:
        again.save("home")
    assert same.value.words.en.startswith("A set called “home” is saved already: tap Save and use again to put")


def test_a_damaged_set_is_said_in_a_players_words_and_beside_a_photo_read_without_it(data_dir: Path) -> None:
    from companion.app.photo_model import ReadPhoto, demo_photo
    from companion.app.server import PhotoReader

    crops = [(t, cv2.imread(str(PICTURES / f"{t.code}.png"))) for t in (Tile.M1, Tile.P5, Tile.Z5)]
    path = calibration.save(calibration.Calibration.from_crops("home", crops))
    calibration.select("home")
    (path.parent / "broken.npz").write_bytes(path.read_bytes()[:200])  # `head -c 200 home.npz > broken.npz`
    (path.parent / "current.txt").write_text("broken\n", encoding="utf-8")  # selected before it was damaged
    row = next(r for r in tile_sets() if r.name == "broken")
    assert row.problem is not None and row.selected
    for said in (row.problem.en, row.problem.zh):
        assert "broken.npz" in said and str(data_dir) not in said and "/" not in said
        assert "BadZip" not in said and "companion" not in said and "--no-calibration" not in said
    assert row.problem == ui("set_damaged", file="broken.npz")
    reader = PhotoReader()
    photo, _ = demo_photo()
    read = reader.read_file(photo, "hand.jpg")
    assert isinstance(read, ReadPhoto) and read.tile_set is None and read.set_damaged == "broken"
    (path.parent / "current.txt").write_text("home\n", encoding="utf-8")
    reader.follow_selection()
    read = reader.read_file(photo, "hand.jpg")
    assert isinstance(read, ReadPhoto) and read.tile_set == "home" and read.set_damaged is None


def test_a_reserved_name_is_refused_without_speaking_of_commands() -> None:
    with pytest.raises(TileSetError) as refused:
        SheetDraft().save("none")
    assert "command" not in refused.value.words.en and "指令" not in refused.value.words.zh
    assert "“none” means no calibration" in refused.value.words.en


def _tab(draft: SheetDraft, got: SheetPage | None = None) -> SettingsTab:
    source = TileSetSource(lambda path, name: got, lambda: None, None, {}, draft)  # type: ignore[arg-type,return-value]
    return SettingsTab(_Host(), source)  # type: ignore[arg-type]


def test_the_settings_tab_asks_about_a_page_of_another_set_and_takes_it_when_told(
        pages: dict[str, SheetPage], models: tuple[TileDetector, TileClassifier], tmp_path: Path) -> None:
    draft = SheetDraft(likeness=lambda a, b: set_likeness(a, b, models[1]))
    draft.add(pages["ours-1"])
    tab = _tab(draft, pages["theirs-1"])
    tab._received(tmp_path / "theirs-1.jpg", "theirs-1.jpg")
    shown = tab.build()
    said = " ".join(_texts(shown))
    assert "A4 page 1 of 2 (theirs-1.jpg): its tiles do not look like those of the pages already here" in said
    assert ui("set_shared_pages").en in said  # one draft for every phone: said so
    same = next(c for c in _idents(shown) if c.identifier == "set-same-set")
    assert same.content.content == ui("sheet_same_set").en and draft.pages["a4", 1] is pages["ours-1"]
    tab.same_set()
    assert draft.pages["a4", 1] is pages["theirs-1"] and tab.failed is None
    assert "set-same-set" not in [c.identifier for c in _idents(tab.build())]


def test_the_settings_tab_says_the_selected_set_is_damaged(data_dir: Path) -> None:
    crops = [(t, cv2.imread(str(PICTURES / f"{t.code}.png"))) for t in (Tile.M1, Tile.P5)]
    path = calibration.save(calibration.Calibration.from_crops("home", crops))
    (path.parent / "broken.npz").write_bytes(path.read_bytes()[:200])
    (path.parent / "current.txt").write_text("broken\n", encoding="utf-8")
    said = _texts(_tab(SheetDraft()).build())
    assert ui("set_current_damaged", name="broken").en in said and ui("set_current_none").en not in said
    assert ui("set_damaged", file="broken.npz").en in said
