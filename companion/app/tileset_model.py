"""The Settings tab's tile sets (牌組): which calibrated set reads the photos, and a new set calibrated from photos of
the printed sheet, as ``companion calibrate sheet`` / ``photo`` / ``use`` / ``none`` / ``delete`` do on the command
line.

Sets are stored where the command line keeps them (:mod:`companion.vision.calibration`), so a set made on either
side is seen on the other. A new set is gathered page by page in a :class:`SheetDraft` (one per server):
each photo is read as ``companion calibrate photo`` reads it, and what it found is shown (empty boxes, unreadable
ones, a tile that looks like another kind, which is left out unless the player says it is right) so the player can
mend the page and photograph it again; the new photo of a page replaces the old one. Saving under the name of a
saved set (asked first) puts the pages' kinds into it and never shrinks it.
No flet here.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import re
import threading
import unicodedata
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from companion.app.words import Words, both_words, ui
from companion.game.service import Subscribers
from companion.tiles import Tile
from companion.vision import calibration
from companion.vision.calibration import CalibrationError, DamagedCalibration, UnreadableCalibration
from companion.vision.classify import TileClassifier
from companion.vision.detect import TileDetector
from companion.vision.image_file import ImageFileError, read_image
from companion.vision.sheet import (
    KINDS,
    CellStatus,
    MarkersNotFound,
    Misplaced,
    Paper,
    SheetReading,
    UnknownPage,
    misplaced,
    other_set,
    read_sheet,
    upside_down,
)
from companion.vision.sheet import sheet_pdf as render_sheet_pdf

__all__ = ["SHEET_PATHS", "SHEET_DPI", "PAPER", "SheetDraft", "SheetFailed", "SheetPage", "TileSetError",
           "ReplaceAsked", "OtherSetAsked", "TileSetRow", "Likeness",
           "read_sheet_photo", "sheet_pdf", "tile_sets", "select_set", "delete_set"]

log = logging.getLogger(__name__)
SHEET_PATHS = {p.value: f"/calibration/sheet-{p.value}.pdf" for p in Paper}
"""Where the server hands out the printable sheet, per paper (``a4``, ``letter``)."""
SHEET_DPI = 300
DRAFT_FILE = "pages-in-progress/pages.npz"
"""The server's :class:`SheetDraft`, under the calibration folder (in a folder of its own: a set is any ``*.npz``
there)."""
DRAFT_FORMAT = 1
PAPER = {"a4": Words("A4", "A4"), "letter": Words("Letter", "US Letter")}


class TileSetError(ValueError):
    """A tile-set action refused, with the reason in both languages."""

    def __init__(self, words: Words) -> None:
        super().__init__(words.en)
        self.words = words


class ReplaceAsked(TileSetError):
    """A set of that name is saved already: replacing it must be asked for, of these pages (:meth:`SheetDraft.save`'s
    ``replace``: the ``version`` asked about)."""

    def __init__(self, words: Words, name: str, version: int) -> None:
        super().__init__(words)
        self.name, self.version = name, version


class OtherSetAsked(TileSetError):
    """The tiles of ``page`` do not look like those of the pages held (another set's page?): it is kept only when the
    player says it is the same set (:meth:`SheetDraft.add`'s ``same_set``)."""

    def __init__(self, words: Words, page: SheetPage) -> None:
        super().__init__(words)
        self.page = page


Likeness = Callable[[Sequence[tuple[Tile, np.ndarray]], Sequence[tuple[Tile, np.ndarray]]], "float | None"]
"""How alike two groups of crops are as tiles of one set (:func:`companion.vision.sheet.set_likeness` with the
server's trained classifier)."""


@functools.lru_cache(maxsize=4)
def sheet_pdf(paper: str) -> bytes:
    """The printable sheet (two pages) as a PDF, as ``companion calibrate sheet OUT.pdf`` writes it."""
    return render_sheet_pdf(paper, SHEET_DPI)


# --- the calibrated sets -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TileSetRow:
    name: str
    kinds: int  # kinds calibrated (43 with the back); 0 for a damaged file
    selected: bool
    problem: Words | None = None  # why the set cannot be used
    damaged: bool = False  # its file is broken, to be deleted (not one that cannot be read now: ``problem`` says why)


@functools.lru_cache(maxsize=64)
def _kinds(path: str, stamp: tuple[int, int]) -> int:
    """(The file's modification time and size in ``stamp``: a set saved again is loaded again.)"""
    return len(set(calibration.load(Path(path).stem).tiles))


def tile_sets() -> tuple[TileSetRow, ...]:
    """Every calibrated set, the selected one marked."""
    current = calibration.selected()
    rows = []
    for name in calibration.list_sets():
        path = calibration.calibration_dir() / f"{name}.npz"
        try:
            st = path.stat()
            rows.append(TileSetRow(name, _kinds(str(path), (st.st_mtime_ns, st.st_size)), name == current))
        except (OSError, CalibrationError) as bad:  # said in a player's words: the file's name, not the server's
            # path, the decoder's error or the command line's advice (a calibration review saw all three on a phone)
            log.warning("tile set %r cannot be used: %s", name, bad)
            rows.append(TileSetRow(name, 0, name == current, set_problem(bad, path.name),
                                   isinstance(bad, DamagedCalibration)))
    return tuple(rows)


def set_problem(bad: Exception, file: str) -> Words:
    """Why the set in ``file`` cannot be used, in a player's words: to be deleted only where the file is broken
    (:class:`~companion.vision.calibration.DamagedCalibration`); else that it cannot be read now, and why (a change
    review: a permission error, a failed look at the file and a tile this version does not know were all called
    damaged, to be deleted)."""
    if isinstance(bad, DamagedCalibration):
        return ui("set_damaged", file=file)
    if isinstance(bad, UnreadableCalibration):
        why, why_en = bad.why_zh, bad.why
    elif isinstance(bad, OSError):
        from companion.rules.profiles import os_error_zh

        why, why_en = os_error_zh(bad), bad.strerror or type(bad).__name__
    else:
        why, why_en = "無法讀取", "it cannot be opened"
    return ui("set_unreadable", file=file, why=why, why_en=why_en)


def selection_gone() -> str | None:
    """The set the player selected when its file is gone (removed outside the app): Settings says so instead of
    only that photos are read without a calibration."""
    return calibration.selection_gone()


def select_set(name: str | None) -> Words:
    """Read photos with the set ``name`` (None: with the trained model alone)."""
    try:
        if name is None:
            calibration.deselect()
            return ui("set_none_used")
        calibration.select(name)
    except (CalibrationError, OSError) as bad:
        raise TileSetError(both_words(str(bad))) from bad
    return ui("set_used", name=name)


def delete_set(name: str) -> Words:
    try:
        calibration.delete(name)
    except (CalibrationError, OSError) as bad:
        raise TileSetError(both_words(str(bad))) from bad
    return ui("set_deleted", name=name)


# --- a new set from photos of the sheet ---------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class SheetPage:
    """One photo of one page of the sheet, as read."""

    photo: str  # the player's file name
    paper: str  # "a4" or "letter"
    number: int
    pages: int
    boxes: int
    found: tuple[str, ...]  # codes of the kinds whose boxes hold a tile
    empty: tuple[str, ...]
    unreadable: tuple[tuple[str, Words], ...]  # (code, why)
    misplaced: tuple[Misplaced, ...]
    samples: tuple[tuple[Tile, np.ndarray], ...] = field(repr=False)
    turned: tuple[str, ...] = ()  # codes of the kinds whose tile lay upside down in its box, turned the right way up

    @property
    def key(self) -> tuple[str, int]:
        return self.paper, self.number

    @property
    def title(self) -> Words:
        paper = PAPER[self.paper]
        return ui("sheet_page", paper=paper.zh, paper_en=paper.en, n=self.number, of=self.pages, photo=self.photo)

    @classmethod
    def of(cls, reading: SheetReading, photo: str, wrong: list[Misplaced], turned: Sequence[Tile] = ()) -> SheetPage:
        page = reading.page
        unreadable = tuple((c.cell.tile.code, both_words(c.reason)) for c in reading.cells
                           if c.status is CellStatus.UNREADABLE)
        return cls(photo, page.paper.value, page.number, page.pages, len(page.cells),
                   tuple(t.code for t in reading.tiles(CellStatus.FOUND)),
                   tuple(t.code for t in reading.tiles(CellStatus.EMPTY)), unreadable, tuple(wrong),
                   tuple(reading.samples()), tuple(t.code for t in turned))


@dataclass(frozen=True)
class SheetFailed:
    photo: str
    why: Words


_COMMAND_EN = re.compile(r" \(`companion calibrate sheet`\)")
_COMMAND_ZH = re.compile(r"（companion calibrate sheet 印出的）")


def read_sheet_photo(path: Path, photo: str, detector: TileDetector | None = None,
                     classifier: TileClassifier | None = None) -> SheetPage | SheetFailed:
    """The page of the sheet in the photo at ``path`` (called ``photo`` to the player), read as
    ``companion calibrate photo`` reads it: its tiles cut from their boxes, and the boxes whose tile the trained
    ``classifier`` takes for another kind."""
    try:
        image = read_image(path, reduce_large=True)  # a 48 MP phone photo at half size
        reading = read_sheet(image, source=photo, detector=detector or TileDetector(threads=2, backs=False))
    except ValueError as bad:  # not an image, no sheet in it, blurred, too small…
        why = both_words(str(bad).replace(str(path), photo))
        if isinstance(bad, ImageFileError):  # the reason alone, without the decoder's own words
            why = Words(bad.zh, bad.en)
        if isinstance(bad, (MarkersNotFound, UnknownPage)):  # the app's sheet is a download, not a command
            why = Words(_COMMAND_ZH.sub("", why.zh), _COMMAND_EN.sub("", why.en))
        return SheetFailed(photo, Words(why.zh, why.en.removeprefix(f"{photo}: ")))  # the page names the photo
    if not reading.samples():  # the page, but no tile on it: not a page to calibrate from (nor to replace one)
        page, paper = reading.page, PAPER[reading.page.paper.value]
        # (the page alone: the words that show the failure name the photo, which a review read twice)
        title = ui("sheet_page_only", paper=paper.zh, paper_en=paper.en, n=page.number, of=page.pages)
        return SheetFailed(photo, ui("sheet_no_tiles", page=title.zh, page_en=title.en))
    classifier = classifier or TileClassifier(threads=2)
    reading, turned = upside_down(reading, classifier)  # a tile laid upside down would teach its face turned
    return SheetPage.of(reading, photo, misplaced(reading.samples(), classifier), turned)


class SheetDraft:
    """The pages read so far for one new set; a page photographed again replaces its earlier photo. Kept by the
    server for every phone (a phone that reloads the page, as one may after opening its camera, finds the pages
    it sent), one action at a time."""

    def __init__(self, path: Path | None = None, likeness: Likeness | None = None) -> None:
        """``path``: the file the pages are kept in, so a server restarted (or crashed) between two pages loses
        none of them (the tiles laid out on the sheet may be back in the game by then); None keeps them in memory
        only. A file that cannot be read is set aside (``.damaged``), never raised: the player starts again.
        ``likeness``: how a page's tiles are compared with those held and with a saved set's (None: not compared)."""
        self.likeness = likeness
        self.pages: dict[tuple[str, int], SheetPage] = {}
        self.kept: set[tuple[tuple[str, int], Tile]] = set()  # doubted boxes the player says are right
        self.version = 0  # one more at each change: a question asked of one version does not hold for the next
        self.path = path
        self._lock = threading.RLock()
        self._listeners = Subscribers("calibration pages")
        if path is not None:
            self._load(path)

    @classmethod
    def stored(cls, likeness: Likeness | None = None) -> SheetDraft:
        """The server's draft, kept beside the saved sets (``companion calibrate``'s folder)."""
        return cls(calibration.calibration_dir() / DRAFT_FILE, likeness)

    def _unlike(self, held: Sequence[tuple[Tile, np.ndarray]], new: Sequence[tuple[Tile, np.ndarray]]) -> bool:
        """``new``'s tiles do not look like ``held``'s: another set's (fewer kinds shared than tell: alike)."""
        if self.likeness is None or not held or not new:
            return False
        return other_set(self.likeness(held, new))

    def subscribe(self, listener: Callable[[], None]) -> Callable[[], None]:
        """``listener`` is told of each change (from the changing phone's thread); returns the call that stops it."""
        return self._listeners.add(listener)

    def _changed(self) -> None:
        self.version += 1
        if self.path is not None:
            self._store(self.path)

    # --- the file ----------------------------------------------------------------------------------------

    def _store(self, path: Path) -> None:
        """The pages and the kept boxes to ``path``, atomically (a crash leaves the old file or the new one). A
        failure to write is logged, not raised: the pages stay in memory and the player can go on."""
        if not self.pages:
            with contextlib.suppress(FileNotFoundError):
                path.unlink()
            return
        arrays: dict[str, np.ndarray] = {}
        pages = []
        for i, p in enumerate(self.shown()):
            pages.append({"photo": p.photo, "paper": p.paper, "number": p.number, "pages": p.pages, "boxes": p.boxes,
                          "found": list(p.found), "empty": list(p.empty),
                          "unreadable": [[code, why.zh, why.en] for code, why in p.unreadable],
                          "misplaced": [[m.tile.code, m.looks_like.code, m.score] for m in p.misplaced],
                          "turned": list(p.turned),
                          "samples": [t.code for t, _ in p.samples]})
            arrays.update({f"crop_{i}_{j}": crop for j, (_, crop) in enumerate(p.samples)})
        kept = sorted([paper, number, tile.code] for (paper, number), tile in self.kept)
        meta = json.dumps({"format": DRAFT_FORMAT, "pages": pages, "kept": kept}, ensure_ascii=False)
        try:
            # at each change, on the tapping phone's turn: uncompressed is ten times quicker (the crops hardly shrink)
            calibration.write_atomic(path, compress=False, meta=np.array(meta), **arrays)
        except OSError as e:
            log.warning("the calibration pages could not be kept in %s (%s): they are kept until the app stops",
                        path, e.strerror or e)

    def _load(self, path: Path) -> None:
        if not path.is_file():
            return
        try:
            with np.load(path, allow_pickle=False) as z:
                meta = json.loads(str(z["meta"]))
                if not isinstance(meta, dict) or meta.get("format") != DRAFT_FORMAT:
                    raise ValueError(f"format {meta.get('format')!r}, not {DRAFT_FORMAT}")
                pages = {}
                for i, d in enumerate(meta["pages"]):
                    samples = tuple((Tile.from_code(c), _crop(z[f"crop_{i}_{j}"])) for j, c in enumerate(d["samples"]))
                    page = SheetPage(str(d["photo"]), _paper(d["paper"]), int(d["number"]), int(d["pages"]),
                                     int(d["boxes"]), tuple(Tile.from_code(c).code for c in d["found"]),
                                     tuple(Tile.from_code(c).code for c in d["empty"]),
                                     tuple((Tile.from_code(c).code, Words(str(zh), str(en)))
                                           for c, zh, en in d["unreadable"]),
                                     tuple(Misplaced(Tile.from_code(t), Tile.from_code(like), float(score))
                                           for t, like, score in d["misplaced"]), samples,
                                     tuple(Tile.from_code(c).code for c in d.get("turned", [])))
                    pages[page.key] = page
                kept = {((_paper(paper), int(number)), Tile.from_code(code)) for paper, number, code in meta["kept"]}
        except (OSError, KeyError, ValueError, TypeError, AttributeError, EOFError, zipfile.BadZipFile) as e:
            aside = path.with_name(path.name + ".damaged")
            with contextlib.suppress(OSError):
                path.replace(aside)
            log.warning("the calibration pages kept in %s could not be read (%s); set aside as %s: photograph "
                        "the pages again", path, e, aside.name)
            return
        self.pages = pages
        self.kept = {k for k in kept if k[0] in pages}

    def add(self, page: SheetPage, same_set: bool = False) -> bool:
        """Keep ``page``; True when it replaces an earlier photo of the same page. A page whose tiles do not look like
        those of the pages held raises :class:`OtherSetAsked` (nothing kept) unless ``same_set`` (a calibration
        review's page of another set just replaced the page, and the set saved was two sets' blend)."""
        if not same_set:
            with self._lock:
                held = [s for p in self.shown() for s in p.samples]
            if self._unlike(held, page.samples):
                raise OtherSetAsked(ui("sheet_other_set", page=page.title.zh, page_en=page.title.en), page)
        with self._lock:
            again = page.key in self.pages
            self.pages[page.key] = page
            self.kept = {k for k in self.kept if k[0] != page.key}  # the new photo is looked at afresh
            self._changed()
        self._listeners.tell()
        return again

    def keep(self, page: SheetPage, tile: Tile) -> bool:
        """The box of ``tile`` on ``page`` holds the right tile after all (the trained model took this set's face
        for another kind, as it may with a set that needs calibrating): it is used. False (nothing done) when that
        photo of the page has been replaced meanwhile: the player said it of a photo no longer there."""
        with self._lock:
            if self.pages.get(page.key) is not page:
                return False
            self.kept.add((page.key, tile))
            self._changed()
        self._listeners.tell()
        return True

    def clear(self) -> None:
        with self._lock:
            self.pages.clear()
            self.kept.clear()
            self._changed()
        self._listeners.tell()

    def shown(self) -> list[SheetPage]:
        with self._lock:
            return [self.pages[k] for k in sorted(self.pages)]

    def doubted(self, page: SheetPage) -> list[Misplaced]:
        """The page's boxes that look like another kind and that the player has not said are right."""
        with self._lock:
            return [m for m in page.misplaced if (page.key, m.tile) not in self.kept]

    def samples(self) -> list[tuple[Tile, np.ndarray]]:
        """Every box's tile but those that look like another kind (they would teach the wrong face) and that the
        player has not kept."""
        out = []
        with self._lock:
            for p in self.shown():
                doubted = {m.tile for m in self.doubted(p)}
                out += [s for s in p.samples if s[0] not in doubted]
        return out

    def missing(self) -> tuple[str, ...]:
        """The kinds no page has given a tile of yet."""
        have = {t for t, _ in self.samples()}
        return tuple(t.code for t in KINDS if t not in have)

    def save(self, name: str, replace: int | None = None) -> Words:
        """Calibrate the set ``name`` from the pages and select it. A set already saved under ``name`` is changed
        only when asked: ``replace`` is the :attr:`version` of the pages the player was asked about
        (:class:`ReplaceAsked` carries it); pages changed since are asked about again. Pages that cover every kind
        the saved set has replace it; pages that do not (one page of two, or a page photographed again) are put into
        it, the saved set's other kinds kept as they were, so a save never shrinks a set (one page had dropped 20-odd
        kinds) and the second page may come another day. A name that differs from a saved one only in case or width
        is refused (on a Mac's or Windows' disk it is the same file)."""
        name = unicodedata.normalize("NFC", name.strip())
        if not name:
            raise TileSetError(ui("set_name_missing"))
        if calibration.reserved_name(name):
            raise TileSetError(ui("set_name_reserved", name=name))
        if not calibration.valid_name(name):
            raise TileSetError(ui("set_name_bad", name=name))
        with self._lock:
            samples = self.samples()
            if not samples:
                raise TileSetError(ui("set_no_pages"))
            kinds = {t for t, _ in samples}
            try:
                # looked at and written as one step (two saves of one new name at once had both said they saved it)
                with calibration.saving():
                    saved = calibration.list_sets()
                    twin = calibration.twin_of(name, saved)
                    if twin is not None:
                        raise TileSetError(ui("set_name_case", name=name, saved=twin))
                    if name in saved:
                        try:
                            old: calibration.Calibration | None = calibration.load(name)
                        except CalibrationError:  # a damaged file: nothing in it to keep
                            old = None
                        kept = [] if old is None else old.others(kinds)
                        if replace != self.version:
                            others = {t for t, _ in kept}
                            if kept and old is not None and self._unlike(list(zip(old.tiles, old.crops, strict=True)),
                                                                         samples):  # another set's pages put into it
                                raise ReplaceAsked(ui("set_add_other", name=name), name, self.version)
                            raise ReplaceAsked(ui("set_add_sure", name=name, n=len(others | kinds), m=len(kinds),
                                                  k=len(others)) if kept else ui("set_replace_sure", name=name),
                                               name, self.version)
                        samples = [*kept, *samples]
                    cal = calibration.Calibration.from_crops(name, samples)
                    calibration.save(cal)
                    calibration.select(name)
            except (CalibrationError, OSError) as bad:
                raise TileSetError(both_words(str(bad))) from bad
            self.clear()
        have = set(cal.tiles)
        lacking = len([t for t in KINDS if t not in have])
        return ui("set_saved_lacking", name=name, kinds=len(have), n=lacking) if lacking else \
            ui("set_saved", name=name, kinds=len(have))


def _paper(value: object) -> str:
    if value not in PAPER:
        raise ValueError(f"paper {value!r}")
    return str(value)


def _crop(a: np.ndarray) -> np.ndarray:
    if a.dtype != np.uint8 or a.ndim != 3 or a.shape[2] != 3:
        raise ValueError(f"a crop of {a.dtype} {a.shape}")
    return a
