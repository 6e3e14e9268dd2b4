"""The Settings tab's tile sets: a new set calibrated from synthetic phone photos of the printed sheet, as a player
would make it in the app; which set reads the photos; the sheet handed out by the server."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import pytest

from companion.app.tileset_model import (
    ReplaceAsked,
    SheetDraft,
    SheetFailed,
    SheetPage,
    TileSetError,
    delete_set,
    read_sheet_photo,
    select_set,
    selection_gone,
    tile_sets,
)
from companion.app.words import ui
from companion.tiles import Tile
from companion.vision import calibration
from companion.vision.classify import TileClassifier
from companion.vision.detect import TileDetector
from companion.vision.sheet import KINDS, Paper, layout, render_sheet
from tests.app.test_app_command import _get
from tests.vision.test_sheet import DPI, fill, photo


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


@pytest.fixture(scope="module")
def models() -> tuple[TileDetector, TileClassifier]:
    return TileDetector(threads=1, backs=False), TileClassifier(threads=1)


@pytest.fixture(scope="module")
def page_photos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Photos of the A4 pages filled but for 3m and 7z, a retake of page 1, and a Letter page 1 with a 9p in the
    1m box, as files a phone would send."""
    folder = tmp_path_factory.mktemp("sheet-photos")
    rng = np.random.default_rng(20261203)
    out = {}
    a4 = render_sheet(Paper.A4, DPI)
    for page, img in zip(layout(Paper.A4), a4, strict=True):
        for take in ("", "-again"):
            out[f"a4-{page.number}{take}"] = folder / f"a4-{page.number}{take}.jpg"
            cv2.imwrite(str(out[f"a4-{page.number}{take}"]), photo(fill(img, page, rng)[0], rng)[0])
    letter = layout(Paper.LETTER)[0]
    filled, _ = fill(render_sheet(Paper.LETTER, DPI)[0], letter, rng, empty=(), wrong={"1m": "9p"})
    out["letter-wrong"] = folder / "letter-wrong.jpg"
    cv2.imwrite(str(out["letter-wrong"]), photo(filled, rng)[0])
    turned, _ = fill(render_sheet(Paper.LETTER, DPI)[0], letter, rng, empty=(), turned=TURNED)
    out["letter-turned"] = folder / "letter-turned.jpg"
    cv2.imwrite(str(out["letter-turned"]), photo(turned, rng)[0])
    return out


TURNED = ("1m", "3m", "7m", "6p", "1s", "3s")


def _read(path: Path, models: tuple[TileDetector, TileClassifier]) -> SheetPage:
    got = read_sheet_photo(path, path.name, *models)
    assert isinstance(got, SheetPage), got
    return got


def test_a_set_made_from_two_page_photos_is_saved_selected_and_listed(
        page_photos: dict[str, Path], models: tuple[TileDetector, TileClassifier]) -> None:
    draft = SheetDraft()
    assert not draft.add(_read(page_photos["a4-2"], models))  # pages in any order
    first = _read(page_photos["a4-1"], models)
    assert not draft.add(first)
    assert (first.paper, first.number, first.pages) == ("a4", 1, 2) and first.photo == "a4-1.jpg"
    assert first.title.en == "A4 page 1 of 2 (a4-1.jpg)" and "第 1／2 頁" in first.title.zh
    assert first.misplaced == () and first.unreadable == () and first.turned == ()
    assert set(first.empty) | set(draft.pages["a4", 2].empty) == {"3m", "7z"}
    assert draft.missing() == ("3m", "7z")
    # the same page photographed again replaces the first photo: its crops are not counted twice
    assert draft.add(_read(page_photos["a4-1-again"], models))
    assert len(draft.samples()) == len(KINDS) - 2
    said = draft.save(" 阿嬤的牌 ")  # a name in Chinese, the spaces around it dropped
    assert said.en == (f"Saved “阿嬤的牌” ({len(KINDS) - 2} kinds): photos are read with it from now on. 2 kinds are "
                       "still missing: photograph the page they are on and save it under the same name to add them")
    assert calibration.selected() == "阿嬤的牌" and draft.pages == {}
    assert set(calibration.load("阿嬤的牌").tiles) == set(KINDS) - {Tile.M3, Tile.Z7}
    assert [(r.name, r.kinds, r.selected, r.problem) for r in tile_sets()] == [("阿嬤的牌", len(KINDS) - 2, True, None)]


def test_a_tile_in_the_wrong_box_is_pointed_at(page_photos: dict[str, Path],
                                                models: tuple[TileDetector, TileClassifier]) -> None:
    page = _read(page_photos["letter-wrong"], models)
    assert page.empty == () and len(page.found) == page.boxes == len(layout(Paper.LETTER)[0].cells)
    assert [(m.tile, m.looks_like) for m in page.misplaced] == [(Tile.M1, Tile.P9)]
    draft = SheetDraft()
    draft.add(page)  # the doubted box is left out of the set, and said to be missing
    assert Tile.M1 not in {t for t, _ in draft.samples()} and "1m" in draft.missing()
    assert len(draft.samples()) == page.boxes - 1 and draft.doubted(page) == list(page.misplaced)
    assert draft.keep(page, Tile.M1)  # the player says it is right (a set whose 一萬 the model takes for 九筒)
    assert draft.doubted(page) == [] and "1m" not in draft.missing() and len(draft.samples()) == page.boxes
    again = dataclasses.replace(page)
    draft.add(again)  # the page photographed again is looked at afresh
    assert draft.doubted(again) == list(page.misplaced)
    assert not draft.keep(page, Tile.M1) and draft.doubted(again)  # said of the photo replaced: nothing done


def test_tiles_laid_upside_down_are_turned_the_right_way_up_and_said(
        page_photos: dict[str, Path], models: tuple[TileDetector, TileClassifier]) -> None:
    """A calibration review laid a page's tiles upside down: taken unsaid, the set learnt their faces turned, and its
    other copies were read right 51 times in 68 (68 without calibration)."""
    page = _read(page_photos["letter-turned"], models)
    assert set(page.turned) == set(TURNED) and page.misplaced == ()
    crops = dict(page.samples)
    got = models[1].classify([crops[Tile.from_code(c)] for c in TURNED])
    assert [p.tile.code if p.tile else None for p in got] == list(TURNED)  # kept the right way up
    draft = SheetDraft.stored()
    draft.add(page)
    assert SheetDraft.stored().pages[page.key].turned == page.turned  # kept across a restart
    assert "turned the right way up" in ui("sheet_turned").en and "轉正" in ui("sheet_turned").zh


def _same_pages(a: SheetDraft, b: SheetDraft) -> None:
    assert sorted(a.pages) == sorted(b.pages) and a.kept == b.kept
    for key, page in a.pages.items():
        other = b.pages[key]
        named = [f.name for f in dataclasses.fields(SheetPage) if f.name != "samples"]
        assert [getattr(page, n) for n in named] == [getattr(other, n) for n in named]
        assert [t for t, _ in page.samples] == [t for t, _ in other.samples]
        assert all(np.array_equal(x, y) for (_, x), (_, y) in zip(page.samples, other.samples, strict=True))


def test_the_pages_read_survive_the_server_stopping_between_two_photos(
        page_photos: dict[str, Path], models: tuple[TileDetector, TileClassifier]) -> None:
    """The tiles laid out on the sheet may be back in the game when the laptop serving the table restarts: the
    pages already read come back, with the boxes the player said are right, and the set is saved from them."""
    draft = SheetDraft.stored()
    assert draft.path is not None and draft.path.parent.parent == calibration.calibration_dir()
    wrong = _read(page_photos["letter-wrong"], models)
    draft.add(wrong)
    draft.keep(wrong, Tile.M1)
    draft.add(_read(page_photos["a4-2"], models))
    assert calibration.list_sets() == []  # the pages in progress are no saved set
    again = SheetDraft.stored()  # the server started again
    _same_pages(draft, again)
    assert again.doubted(again.pages["letter", 1]) == [] and again.missing() == draft.missing()
    # the page photographed again after the restart replaces the kept one, and is kept in its turn
    again.add(_read(page_photos["a4-2-again"], models))
    third = SheetDraft.stored()
    _same_pages(again, third)
    assert third.pages["a4", 2].photo == "a4-2-again.jpg"
    said = third.save("home")
    assert "home" in said.en and calibration.list_sets() == ["home"]
    assert not draft.path.exists() and SheetDraft.stored().pages == {}  # saved: the pages in progress are gone
    again.add(wrong)
    again.clear()  # Start over forgets them too
    assert not draft.path.exists()


def test_pages_kept_in_a_damaged_file_are_set_aside_never_raised(
        page_photos: dict[str, Path], models: tuple[TileDetector, TileClassifier],
        caplog: pytest.LogCaptureFixture) -> None:
    draft = SheetDraft.stored()
    draft.add(_read(page_photos["a4-1"], models))
    assert draft.path is not None
    good = draft.path.read_bytes()
    for damage in (good[: len(good) // 2], b"not a zip file"):
        draft.path.write_bytes(damage)
        with caplog.at_level("WARNING"):
            assert SheetDraft.stored().pages == {}
        assert "could not be read" in caplog.text and "photograph the pages again" in caplog.text
        aside = draft.path.with_name(draft.path.name + ".damaged")
        assert aside.read_bytes() == damage and not draft.path.exists()
        caplog.clear()
    # a file of pages that names a paper or a tile the app does not know is damaged too
    draft.add(_read(page_photos["a4-2"], models))
    with np.load(draft.path) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["meta"] = np.array(str(arrays["meta"]).replace('"a4"', '"a5"'))
    calibration.write_atomic(draft.path, **arrays)
    assert SheetDraft.stored().pages == {}
    calibration.write_atomic(draft.path, meta=np.array("[1]"))  # not even an object: the server still starts
    assert SheetDraft.stored().pages == {}


def test_pages_that_cannot_be_written_stay_with_the_server(
        page_photos: dict[str, Path], models: tuple[TileDetector, TileClassifier], tmp_path: Path,
        caplog: pytest.LogCaptureFixture) -> None:
    blocked = tmp_path / "a-file"
    blocked.write_text("")  # the draft's folder would have to be made inside a file
    draft = SheetDraft(blocked / "pages.npz")
    with caplog.at_level("WARNING"):
        draft.add(_read(page_photos["a4-1"], models))
    assert "could not be kept" in caplog.text and len(draft.pages) == 1 and draft.missing()


def test_a_page_with_no_tile_on_it_is_refused_and_replaces_nothing(tmp_path: Path,
                                                                   models: tuple[TileDetector, TileClassifier]) -> None:
    rng = np.random.default_rng(3)
    blank = tmp_path / "blank.jpg"
    cv2.imwrite(str(blank), photo(render_sheet(Paper.A4, DPI)[0], rng)[0])  # the printed page, no tile laid on it
    got = read_sheet_photo(blank, "blank.jpg", *models)
    assert isinstance(got, SheetFailed)
    # the page alone: the words that show it name the photo (a review read the name twice)
    assert got.photo == "blank.jpg" and "blank.jpg" not in got.why.en + got.why.zh
    assert got.why.en == "A4 page 1 of 2: not one tile found. Put a tile in each box and photograph it again (this " \
                         "photo is not used)"


def test_a_photo_without_the_sheet_is_refused_naming_it_in_both_languages(tmp_path: Path) -> None:
    plain = tmp_path / "upload-1234.jpg"
    cv2.imwrite(str(plain), np.full((600, 800, 3), 120, np.uint8))
    got = read_sheet_photo(plain, "IMG_0042.jpg")
    assert isinstance(got, SheetFailed) and got.photo == "IMG_0042.jpg"
    assert got.why.en.startswith("no corner markers") and "upload-1234" not in got.why.en
    assert "校正表" in got.why.zh and " / " not in got.why.zh
    assert "companion" not in got.why.en + got.why.zh  # a phone has no command line: the sheet is a download
    (tmp_path / "notes.jpg").write_bytes(b"not an image")
    bad = read_sheet_photo(tmp_path / "notes.jpg", "notes.jpg")
    assert isinstance(bad, SheetFailed) and bad.photo == "notes.jpg" and bad.why.zh != bad.why.en


def test_saving_is_refused_with_the_reason_and_never_shrinks_a_saved_set_but_fills_it(
        page_photos: dict[str, Path], models: tuple[TileDetector, TileClassifier]) -> None:
    draft = SheetDraft()
    with pytest.raises(TileSetError) as no_pages:
        draft.save("home")
    assert no_pages.value.words.zh == "還沒有讀到任何一頁校正表"
    draft.add(_read(page_photos["a4-1"], models))
    draft.add(_read(page_photos["a4-2"], models))
    with pytest.raises(TileSetError) as unnamed:
        draft.save("   ")
    assert unnamed.value.words.en == "Give the set a name"
    with pytest.raises(TileSetError) as slash:
        draft.save("home/garage")
    assert slash.value.words.zh == "牌組名稱「home/garage」不能用：最多 64 個字，只能有文字、數字、空格、_、- 或 ( )，開頭要是文字或數字"
    with pytest.raises(TileSetError) as reserved:  # the command line's "read without a set"
        draft.save("None")
    assert reserved.value.words == ui("set_name_reserved", name="None")
    draft.save("home")
    saved = (calibration.calibration_dir() / "home.npz").read_bytes()
    home = calibration.load("home")
    one_page = SheetDraft()
    one_page.add(_read(page_photos["a4-1"], models))
    page1 = {t for t, _ in one_page.samples()}
    with pytest.raises(ReplaceAsked) as into:  # one page under a saved set's name: put into it, asked first
        one_page.save("home")
    assert into.value.words.en == (
        f"A set called “home” is saved already: tap Save and use again to put these photos' {len(page1)} kinds into "
        f"it (its other {len(set(home.tiles) - page1)} kinds stay as they are, {len(home.tiles)} in all), else give "
        "another name")
    assert (calibration.calibration_dir() / "home.npz").read_bytes() == saved and len(one_page.pages) == 1
    with pytest.raises(TileSetError) as twin:  # the same file on a Mac's or Windows' disk
        one_page.save("HOME")
    assert twin.value.words.en.startswith("A set called “home” is saved already")
    one_page.save("garage")  # under another name it is a set of its own
    assert calibration.selected() == "garage"
    one_page.add(_read(page_photos["a4-1"], models))
    with pytest.raises(ReplaceAsked) as into:
        one_page.save("home")
    said = one_page.save("home", replace=into.value.version)
    after = calibration.load("home")
    assert sorted(after.tiles) == sorted(home.tiles) and said.en.startswith(f"Saved “home” ({len(home.tiles)} kinds)")
    old, new = dict(zip(home.tiles, home.crops, strict=True)), dict(zip(after.tiles, after.crops, strict=True))
    assert all(np.array_equal(new[t], old[t]) for t in set(home.tiles) - page1)  # the other page's, as saved
    # a damaged file under the name is no set to lose: replaced
    (calibration.calibration_dir() / "home.npz").write_bytes(b"garbage")
    assert [r.problem is not None for r in tile_sets()] == [False, True]
    draft.add(_read(page_photos["a4-1"], models))
    draft.add(_read(page_photos["a4-2"], models))
    with pytest.raises(ReplaceAsked) as asked:  # a set of that name is there: replacing it is asked for
        draft.save("home")
    assert asked.value.words.en.startswith("A set called “home” is saved already: tap Save and use again")
    draft.add(_read(page_photos["a4-2"], models))  # the pages changed after the question: asked again
    with pytest.raises(ReplaceAsked) as again:
        draft.save("home", replace=asked.value.version)
    assert again.value.version > asked.value.version
    draft.save("home", replace=again.value.version)
    assert [(r.name, r.selected, r.problem) for r in tile_sets()] == [("garage", False, None), ("home", True, None)]


def test_a_set_saved_from_one_page_says_what_it_lacks_and_the_other_page_later_completes_it(
        page_photos: dict[str, Path], models: tuple[TileDetector, TileClassifier]) -> None:
    """A review: a save with one page read said nothing of the other, and the other page alone could not be saved
    into the set later (it would have shrunk it)."""
    first = SheetDraft()
    first.add(_read(page_photos["a4-1"], models))
    page1 = {t for t, _ in first.samples()}
    said = first.save("home")
    lacking = len(KINDS) - len(page1)
    assert said.en == (f"Saved “home” ({len(page1)} kinds): photos are read with it from now on. {lacking} kinds are "
                       "still missing: photograph the page they are on and save it under the same name to add them")
    assert f"還缺 {lacking} 種" in said.zh
    second = SheetDraft()
    second.add(_read(page_photos["a4-2"], models))
    page2 = {t for t, _ in second.samples()}
    with pytest.raises(ReplaceAsked) as into:
        second.save("home")
    assert f"put these photos' {len(page2)} kinds into it (its other {len(page1 - page2)} kinds" in into.value.words.en
    done = second.save("home", replace=into.value.version)
    assert set(calibration.load("home").tiles) == page1 | page2
    assert done.en.startswith(f"Saved “home” ({len(page1 | page2)} kinds)")


def test_a_selection_file_that_cannot_be_read_selects_nothing_and_stops_nothing(data_dir: Path) -> None:
    crop = cv2.imread(str(Path(__file__).parents[2] / "companion" / "assets" / "tiles" / "5p.png"))
    calibration.save(calibration.Calibration.from_crops("home", [(Tile.P5, crop)]))
    (calibration.calibration_dir() / "current.txt").write_bytes("家裡".encode("big5"))  # not UTF-8
    assert calibration.selected() is None
    assert [(r.name, r.selected) for r in tile_sets()] == [("home", False)]
    assert select_set("home").en == "Photos are now read with “home”" and calibration.selected() == "home"


def test_using_no_set_another_or_deleting_one(data_dir: Path) -> None:
    crop = cv2.imread(str(Path(__file__).parents[2] / "companion" / "assets" / "tiles" / "5p.png"))
    for name in ("club", "home"):
        calibration.save(calibration.Calibration.from_crops(name, [(Tile.P5, crop)]))
    assert select_set("club").en == "Photos are now read with “club”" and calibration.selected() == "club"
    assert select_set(None).zh == "之後讀照片不用校正" and calibration.selected() is None
    with pytest.raises(TileSetError) as gone:
        select_set("garden")
    assert "garden" in gone.value.words.en and "找不到" in gone.value.words.zh
    select_set("home")
    assert delete_set("home").en == "Deleted “home”" and calibration.selected() is None
    assert [r.name for r in tile_sets()] == ["club"]
    with pytest.raises(TileSetError):
        delete_set("home")


def test_a_selected_set_removed_behind_the_apps_back_is_said_to_be_gone(data_dir: Path) -> None:
    crop = cv2.imread(str(Path(__file__).parents[2] / "companion" / "assets" / "tiles" / "5p.png"))
    for name in ("club", "home"):
        calibration.save(calibration.Calibration.from_crops(name, [(Tile.P5, crop)]))
    select_set("home")
    assert selection_gone() is None
    (calibration.calibration_dir() / "home.npz").unlink()  # another program, or a person, removed it
    assert calibration.selected() is None and selection_gone() == "home"
    assert [(r.name, r.selected) for r in tile_sets()] == [("club", False)]
    assert "home" in ui("set_current_gone", name="home").en and "home" in ui("set_current_gone", name="home").zh
    select_set("club")  # choosing another mends it
    assert selection_gone() is None and calibration.selected() == "club"
    delete_set("club")  # a set deleted by the app is deselected: nothing is gone
    assert selection_gone() is None and calibration.selected() is None
    (calibration.calibration_dir() / "current.txt").write_text("../not a name\n", encoding="utf-8")
    assert selection_gone() is None  # a foreign line is no set's name


def test_the_app_reads_a_players_photo_with_the_selected_set_and_follows_a_change(data_dir: Path) -> None:
    from companion.app.photo_model import ReadPhoto, demo_photo
    from companion.app.server import PhotoReader

    reader = PhotoReader()
    path, _ = demo_photo()
    plain = reader.read_file(path, "hand.jpg")
    assert isinstance(plain, ReadPhoto) and plain.tile_set is None
    tiles = sorted(Tile.from_code(c) for c in ("1m", "5p", "9s", "1z", "5z", "0x"))
    pictures = Path(__file__).parents[2] / "companion" / "assets" / "tiles"
    calibration.save(calibration.Calibration.from_crops(
        "home", [(t, cv2.imread(str(pictures / f"{t.code}.png"))) for t in tiles]))
    calibration.select("home")
    reader.follow_selection()
    read = reader.read_file(path, "hand.jpg")
    assert isinstance(read, ReadPhoto) and read.tile_set == "home"
    assert reader._tiles()[0].classifier.calibration is not None
    assert reader._tiles()[0].classifier.calibration.name == "home"  # type: ignore[union-attr]
    demo, _ = reader.demo()  # the bundled photo is of the product's own faces: no player's set
    assert isinstance(demo, ReadPhoto) and demo.tile_set is None
    (calibration.calibration_dir() / "home.npz").write_bytes(b"garbage")  # damaged meanwhile: read plain
    again = reader.read_file(path, "hand.jpg")
    assert isinstance(again, ReadPhoto) and again.tile_set is None


def test_the_bundled_photo_is_read_while_a_new_set_is_fitted(data_dir: Path, monkeypatch: Any) -> None:
    """A set's fit took minutes on a loaded laptop, and held the lock every photo is read under: the bundled photo
    (and the sheet's pages) waited on it on every phone (a flakiness hunt). They are read meanwhile; a player's photo
    waits for the set it is to be read with."""
    import threading

    from companion.app import server
    from companion.app.photo_model import ReadPhoto, demo_photo

    tiles = sorted(Tile.from_code(c) for c in ("1m", "5p", "9s", "1z", "5z", "0x"))
    pictures = Path(__file__).parents[2] / "companion" / "assets" / "tiles"
    calibration.save(calibration.Calibration.from_crops(
        "home", [(t, cv2.imread(str(pictures / f"{t.code}.png"))) for t in tiles]))
    calibration.select("home")
    fitting, go_on = threading.Event(), threading.Event()
    load = calibration.load

    def slow_load(name: str) -> calibration.Calibration:
        fitting.set()
        assert go_on.wait(120)
        return load(name)

    monkeypatch.setattr(server.calibration, "load", slow_load)
    reader = server.PhotoReader()
    fit = threading.Thread(target=reader.follow_selection)
    fit.start()
    try:
        assert fitting.wait(120)
        demo, _ = reader.demo()  # while the fit waits
        assert fit.is_alive(), "the fit ended before the bundled photo was read: the test proves nothing"
        assert isinstance(demo, ReadPhoto) and demo.tile_set is None
        got: list[object] = []
        player = threading.Thread(target=lambda: got.append(reader.read_file(demo_photo()[0], "hand.jpg")))
        player.start()
        player.join(1.0)
        assert player.is_alive() and not got  # a player's photo waits for the set
    finally:
        go_on.set()
        fit.join(120)
    player.join(120)
    assert isinstance(got[0], ReadPhoto) and got[0].tile_set == "home"


def test_the_server_hands_out_the_printable_sheet_per_paper() -> None:
    from companion.app.server import SheetDownload
    from companion.app.tileset_model import SHEET_PATHS

    passed: list[str] = []

    async def flet(scope: dict[str, Any], receive: Any, send: Any) -> None:
        passed.append(scope["path"])
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    app = SheetDownload(flet)
    for paper in ("a4", "letter"):
        status, body = _get(app, SHEET_PATHS[paper])
        assert status == 200 and body.startswith(b"%PDF") and body.count(b"/Type /Page\n") == 2, body[:400]
    _get(app, "/calibration/sheet-a5.pdf")
    assert passed == ["/calibration/sheet-a5.pdf"]

