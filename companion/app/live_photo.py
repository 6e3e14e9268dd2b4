"""A live win's hand read from a photo: the win form filled from a phone's picture of the hand laid down.

Plain Python (no flet). At a real table the winner lays the hand down (推倒) and somebody types 16 or 17 tiles into
the win form, the slowest tap of the game. :func:`fill_from_photo` reads a photo of the hand instead: the photo is
read and taken apart as ``companion score`` does (:func:`companion.vision.hand_score.score_photo`: rows, melds,
flowers, doubtful tiles repaired so the hand is a win), with what the table knows and a photo cannot show (the
kind of win, the winds, the dealer, the tile won on) taken from the live game, and the table's own melds used
to tell a concealed kong turned up from an exposed one.

Nothing is recorded here. The form is filled and the player checks it against the hand before recording (the
tracker checks it again then); every doubt of the reading, and every place the photo disagrees with the table
(a meld the table does not know, a tile count the table does not expect), is said in both languages.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from companion.app.live_offer import WinChance
from companion.app.photo_model import PhotoFailed, ReadPhoto, app_words, doubt_note, photo_drawn, unscored
from companion.app.table_model import meld_words
from companion.app.words import Words, ui
from companion.game import events as ev
from companion.game.state import TableState, window
from companion.game.text import WIND_LETTER
from companion.hand import Meld, MeldKind
from companion.rules.profiles import load_profile
from companion.rules.scoring import NotAWin
from companion.rules.win import WinInputError
from companion.tiles import Tile, format_tiles
from companion.vision.hand_photo import lay_out
from companion.vision.hand_score import PhotoHandError, PhotoWin, hand_labels, score_photo
from companion.vision.legend import Entry
from companion.vision.read import Detections

__all__ = ["HandFill", "READABLE_KINDS", "fill_from_photo", "photo_context"]

READABLE_KINDS = (ev.WinKind.DISCARD, ev.WinKind.SELF_DRAW, ev.WinKind.ROBBED_KONG)
"""Wins whose hand a photo fills: a winning shape and a winning tile (the instant wins show no shape)."""

_WIN_TYPE = {ev.WinKind.DISCARD: "discard", ev.WinKind.SELF_DRAW: "self_draw", ev.WinKind.ROBBED_KONG: "rob_kong"}


@dataclass(frozen=True, slots=True)
class HandFill:
    """The win form's fields as the photo reads them, and what the player should look at before recording."""

    name: str
    concealed: str  # the tiles in hand besides the winning tile, in the notation (the form's first field)
    drawn: str  # a self-draw's winning tile ("" when the table knows the tile won on)
    kongs: str  # the kinds of the winner's face-down kongs, one tile each
    image: bytes  # JPEG of the photo with the hand as read drawn on it
    notes: tuple[Words, ...]  # the reading's doubts and every disagreement with the table
    legend: tuple[Entry, ...] = ()  # what the photo's box colours and label marks mean


def photo_context(state: TableState, chance: WinChance) -> dict[str, Any]:
    """What the table knows and a photo cannot show, as ``companion tai`` reads it."""
    w = window(state) if chance.kind in (ev.WinKind.DISCARD, ev.WinKind.ROBBED_KONG) else None
    base = w or state
    wind = lambda seat: WIND_LETTER[base.seat_wind(seat)]  # noqa: E731
    out: dict[str, Any] = {"win_type": _WIN_TYPE[chance.kind], "seat_wind": wind(chance.seat),
                           "round_wind": WIND_LETTER[base.round_wind], "dealer": wind(base.dealer),
                           "streak": base.streak}
    if w is not None:
        out["discarder"] = wind(w.turn)
    return out


def fill_from_photo(read: ReadPhoto | PhotoFailed, state: TableState, chance: WinChance) -> HandFill | PhotoFailed:
    """The win form for ``chance`` filled from the photo ``read``; :class:`PhotoFailed` (with the reason in both
    languages, and the photo as read where there is one) when no reading of it is a winning hand that fits."""
    if isinstance(read, PhotoFailed):
        return read
    if chance.kind not in READABLE_KINDS:
        return PhotoFailed(read.name, ui("live_photo_kind", kind=chance.kind.zh, kind_en=chance.kind.en))
    name, image, dets = read.name, read.image, read.dets
    seat = (window(state) or state).seats[chance.seat] if chance.kind is not ev.WinKind.SELF_DRAW \
        else state.seats[chance.seat]
    context = photo_context(state, chance)
    profile = load_profile(state.profile or None)
    named = Tile.from_code(chance.tile) if chance.tile else None
    try:
        # the table recorded the kind of win: the photo's eight flowers beside 16 tiles are no 八仙過海 (a review)
        found = score_photo(dets, context, profile, win_tile=named, kind_recorded=True)
        said = _kongs_said(found, seat.melds)
        if said:  # the table says which of the photo's face-up kongs were added, or concealed and turned up
            found = score_photo(dets, context, profile, win_tile=named, kongs=said, kind_recorded=True)
    except PhotoHandError as bad:  # the tiles read still fill the form, for the player to mend
        shown = {Tile(int(k)) for k in dets.kind}
        why = ui("live_photo_no_tile", tile=named.zh, tile_en=named.said_en) if named is not None \
            and named not in shown else app_words(bad, live=True)
        return _as_read(read, seat.melds, named, chance, why)
    except (WinInputError, NotAWin) as bad:
        return unscored(read, bad)
    if not found.win.concealed and not found.win.melds:  # the flowers alone, scored as 八仙過海 on the Score tab: the
        # table says how this hand was won, and there is no hand to fill (a change review)
        # (said plainly: "cannot be scored" was untrue of a photo the Score tab scores, and two colons: a change review)
        return PhotoFailed(name, ui("live_photo_flowers_alone", name=name), *photo_drawn(image, dets))
    win = found.win
    # the kinds the form asks for: the photo's concealed kongs the table holds face down (not one it knows)
    known = Counter(m.tile for m in seat.melds if m.kind is MeldKind.CKONG and m.tile.is_known)
    hidden = list((Counter(m.tile for m in win.melds if m.kind is MeldKind.CKONG) - known).elements())
    # the reading's doubts, less the command line's hints (``--win-tile``…: the form is where they are said here);
    # a way out each in the form's words (rows taken as called only for lying apart: a review found it dropped)
    notes = [doubt_note(d, live=True) for d in found.doubts if "--" not in d.en]
    tile_drawn = ""
    if chance.tile is None and win.win_tile is not None:
        tile_drawn = win.win_tile.code
        if not found.marked:  # no tile set apart: the one that scores most was taken
            notes.append(ui("live_photo_drawn_guess", tile=win.win_tile.zh, tile_en=win.win_tile.said_en))
    notes += _disagreements(win.melds, seat.melds, len(win.flowers), len(seat.flowers), len(win.concealed), chance)
    picture, legend = photo_drawn(image, dets, hand_labels(dets, found))
    return HandFill(name, format_tiles(sorted(win.concealed)), tile_drawn, format_tiles(sorted(hidden)), picture,
                    tuple(notes), legend)


def _as_read(read: ReadPhoto, melds: tuple[Meld, ...], named: Tile | None, chance: WinChance,
             why: Words) -> HandFill | PhotoFailed:
    """The form filled with the tiles as read, when no reading of the photo is a winning hand (a tile missed or
    misread, or only the hand photographed): every face-up tile read but the flowers, less the table's own melds
    when the photo holds more than the hand, and less the winning tile where it lies apart (a lone tile at an end
    of a row, as a winner sets it) or the photo holds more than the hand. The player mends the rest."""
    dets = read.dets
    kinds = [Tile(int(k)) for k in dets.kind]
    tiles = Counter(t for t in kinds if t.is_known and not t.is_flower)
    if not tiles:
        return PhotoFailed(read.name, ui("photo_failed", name=read.name, why=why.zh, why_en=why.en),
                           *photo_drawn(read.image, dets))
    if tiles.total() > chance.shown + 1:  # more than the hand and the tile won on: the melds were laid out too
        for m in melds:
            tiles -= Counter(t for t in m.tiles if t.is_known)
    apart = [kinds[i] for i in _set_apart(dets) if kinds[i].is_known and not kinds[i].is_flower]
    drawn = ""
    if named is not None and tiles[named] and (named in apart or tiles.total() > chance.shown):
        tiles[named] -= 1  # the tile won on is in the photo
    elif named is None and len(apart) == 1 and tiles[apart[0]]:
        drawn = apart[0].code  # a self-draw: the tile set apart is the one drawn
        tiles[apart[0]] -= 1
    concealed = sorted(tiles.elements())
    notes = [ui("live_photo_as_read", why=why.zh, why_en=why.en)]
    if named is None and not drawn and len(concealed) == chance.shown + 1:  # the tile drawn is among them
        notes.append(ui("live_photo_move_drawn"))
    elif len(concealed) != chance.shown:
        notes.append(ui("live_photo_count", got=len(concealed), n=chance.shown))
    picture, legend = photo_drawn(read.image, dets)
    return HandFill(read.name, format_tiles(concealed), drawn, "", picture, tuple(notes), legend)


def _set_apart(dets: Detections) -> list[int]:
    """Tiles lying alone at an end of a row of several groups: where a winner sets the winning tile."""
    return [g.tiles[0] for row in lay_out(dets).rows if len(row) > 1 for g in (row[0], row[-1]) if len(g) == 1]


def _kongs_said(found: PhotoWin, table: tuple[Meld, ...]) -> dict[Tile, MeldKind]:
    """The kind of each face-up kong of the photo as the table knows it: an exposed or added kong the table
    recorded keeps its kind; any other is one of the winner's face-down kongs, turned up to show its kind."""
    known = {m.tile: m.kind for m in table if m.kind.is_kong and m.tile.is_known}
    return {m.tile: known.get(m.tile, MeldKind.CKONG) for m in found.win.melds if m.kind is MeldKind.KONG}


def _disagreements(photo: tuple[Meld, ...], table: tuple[Meld, ...], photo_flowers: int, table_flowers: int,
                   concealed: int, chance: WinChance) -> list[Words]:
    """Where the photo and the table differ: the melds (a face-down kong of the table matches any concealed kong
    of the photo), the flowers (when the photo shows any: they are often left out of it), the tiles in hand."""
    notes = []
    called = lambda melds: Counter((m.kind, m.tiles) for m in melds if m.kind is not MeldKind.CKONG)  # noqa: E731
    photo_ck = Counter(m.tile for m in photo if m.kind is MeldKind.CKONG)
    table_ck = [m.tile for m in table if m.kind is MeldKind.CKONG]
    known_ck = Counter(t for t in table_ck if t.is_known)
    if called(photo) != called(table) or photo_ck.total() != len(table_ck) or known_ck - photo_ck:
        notes.append(ui("live_photo_melds", photo=_melds(photo).zh, photo_en=_melds(photo).en,
                        table=_melds(table).zh, table_en=_melds(table).en))
    if photo_flowers and photo_flowers != table_flowers:
        notes.append(ui("live_photo_flowers", photo=photo_flowers, table=table_flowers))
    if concealed != chance.shown:
        notes.append(ui("live_photo_count", got=concealed, n=chance.shown))
    return notes


def _melds(melds: tuple[Meld, ...]) -> Words:
    if not melds:
        return Words("沒有", "none")
    zh = "、".join(f"{m.kind.zh}{''.join(t.zh if t.is_known else '？' for t in m.tiles[:1])}" if m.kind is not
                  MeldKind.CHOW else f"{m.kind.zh}{''.join(t.zh for t in m.tiles)}" for m in melds)
    en = ", ".join(f"{meld_words(m.kind).en} {format_tiles(m.tiles)}" for m in melds)
    return Words(zh, en)
