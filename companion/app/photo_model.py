"""The Score-a-photo view's model: a photo of a laid-down winning hand read, scored and settled.

Plain Python (no flet): :func:`read_photo_file` reads a photo (the bundled one, or one a phone uploaded) once, as
``companion score`` does; :func:`score_read_photo` scores it with a :class:`PhotoContext` (fast, so the player can
change the context and see the score again) and turns the result into a :class:`PhotoPanel` the view draws: the photo with the hand marked on it, the tiles as read
(concealed, melds, flowers, the winning tile), what was assumed or doubted, the tai item by item and who pays
whom. A photo that cannot be scored gives :class:`PhotoFailed` with the reason in both languages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from companion.app.hand_model import kong_typed_as_four
from companion.app.ledger_model import dealer_parts, marked_items
from companion.app.table_model import MeldPic, meld_codes, meld_words, wind_words
from companion.app.words import Words, both_words, ui
from companion.hand import Hand, HandError, Meld, MeldKind
from companion.rules.profiles import Profile, load_profile
from companion.rules.scoring import FalseWin, NotAWin, Score, score
from companion.rules.settlement import Stakes, settle
from companion.rules.shape import is_complete
from companion.rules.waits import WaitShape, seven_pairs, wait_shapes
from companion.rules.win import Win, WinInputError, WinType
from companion.tiles import CopyLimitError, NotationError, Tile, format_tiles
from companion.vision.hand_photo import NoPlaceToAdd, with_added
from companion.vision.hand_score import (
    Note,
    PhotoHandError,
    PhotoWin,
    WayOut,
    check_context,
    eight_flowers_note,
    flowers_tile_said,
    flowers_won_on_tile,
    hand_labels,
    only_eight_flowers,
    own_kong,
    score_photo,
)
from companion.vision.image_file import ImageFileError, jpeg_bytes, read_image
from companion.vision.legend import Entry
from companion.vision.quality import photo_quality
from companion.vision.read import Detections, Marks, TileReader, annotated, reading_order, too_dark

__all__ = ["UPLOAD_MAX_BYTES", "MOMENTS", "MOMENTS_FOR", "PAYING", "READIES", "PhotoPanel", "PhotoFailed", "PhotoContext", "ReadPhoto", "read_photo_file",
           "score_read_photo", "score_photo_file", "demo_photo", "unscored", "app_words", "DEMO_STAKES", "TABLE_RULES", "ReadTile",
           "read_tiles", "with_picks", "score_typed_hand", "score_picked", "photo_warnings", "stakes_typed", "with_added_tiles"]

DEMO_STAKES = Stakes(30, 10)
TABLE_RULES = "table"
"""The form's rules when they are the live table's: its rule set with its house rules, and its stakes."""
STAKES = ("30/10", "50/20", "100/20", "100/50", "200/50", "300/100", "500/100")
"""底/台 pairs the form offers as quick picks (home games' usual ones); any other is typed (:func:`stakes_typed`)."""
UPLOAD_MAX_BYTES = 20 * 1024 * 1024
"""The largest photo a phone may send (a phone's full-size JPEG is 2-8 MB)."""

@dataclass(frozen=True, slots=True)
class PhotoPanel:
    name: str
    image: bytes  # JPEG of the photo with the hand as scored drawn on it
    concealed: tuple[str, ...]
    melds: tuple[MeldPic, ...]
    flowers: tuple[str, ...]
    win_tile: str | None
    notes: tuple[Words, ...]  # assumed context, repairs, doubts
    items: tuple[tuple[Words, int], ...]
    hand_tai: int
    capped_tai: int
    dealer_tai: int
    payments: tuple[Words, ...]
    total: Words
    scored: tuple[tuple[int, str], ...] = ()  # (detection index, the tile it was scored as) over the hand
    # each tile the hand can have been won on, with its tai (a typed hand, or a photo with no tile set apart)
    win_choices: tuple[tuple[str, int], ...] = ()
    win_picked: bool = False  # the player named the tile won on (else the most tai was taken)
    house: tuple[Words, ...] = ()  # what the house-rule marks on items mean, the items other tables would add
    dealer_why: Words | None = None  # what the dealer's tai are made of (莊家 1、連N拉N), where the streak adds some
    legend: tuple[Entry, ...] = ()  # what the photo's box colours and label marks mean


@dataclass(frozen=True, slots=True)
class PhotoFailed:
    name: str
    reason: Words
    image: bytes | None = None
    legend: tuple[Entry, ...] = ()  # what the photo's box colours and label marks mean
    check: tuple[int, ...] = ()  # the detections the refusal names for the player to check (PhotoHandError.check)
    waits: tuple[str, ...] = ()  # a hand shown without its winning tile: the tiles it waits on, to tap (WayOut.WIN_TILE)


def photo_drawn(image: np.ndarray, dets: Detections, names: Sequence[str] | None = None,
                check: Iterable[int] = ()) -> tuple[bytes, tuple[Entry, ...]]:
    """The photo as JPEG with the reading (or the hand as scored: ``names``) drawn on it, and its legend, said under
    it on the screen (a review could not tell what the colours and the marks ``?``, ``!`` and ``*`` meant); the tiles
    a refusal names (``check``) framed thick, and those the player corrected (:attr:`Detections.picked`) in their
    own colour, as ``companion score --annotate`` draws them (:class:`Marks`; a review found the app's photo of a
    refused hand framed neither)."""
    picked = frozenset(int(i) for i in np.flatnonzero(dets.picked)) if dets.picked is not None else frozenset()
    picture, legend = annotated(image, dets, names, Marks(check=frozenset(check), corrected=picked))
    return jpeg_bytes(picture), tuple(legend)


# when the winning tile came (one at most; spec §3.2 flags): 槓上開花, 花上開花, 海底, 河底, 天胡, 地胡, 人胡
MOMENTS = ("", "after_kong", "after_discard_kong", "after_flower", "last_tile", "last_discard", "heavenly", "earthly",
           "human")
# 槓上開花 after the winner's own kong (暗槓, or 加槓: a face-up kong is taken as added), or the replacement after a
# kong of a discard, which these rules may forbid (spec §2.10; a rules review: the form could not say which kong)
DISCARD_KONG = "after_discard_kong"
READIES = ("", "ready_declared", "ready_on_deal", "ready_first_discard")  # 報聽, 天聽, 地聽
# the moments each way of winning can have (海底 is drawn, 河底 discarded; a robbed kong is neither)
MOMENTS_FOR = {"self_draw": ("", "after_kong", DISCARD_KONG, "after_flower", "last_tile", "heavenly", "earthly"),
               "discard": ("", "last_discard", "human"), "rob_kong": ("",), "eight_flowers": ("",),
               "seven_flowers_rob": ("",)}
PAYING = tuple(t.value for t in WinType if t.one_payer)
"""The kinds of win one other player pays for: the form asks who (the discarder, the robbed player, the revealer of the
eighth flower)."""


HAND_FIELDS = ("win_type", "discarder", "seat_wind", "streak", "moment", "ready", "concealed")
"""The form's fields each hand has of its own: another photo is another hand (a review's next photo was charged the
streak set for the one before)."""
FIELD_WORDS = {"win_type": "win_type", "discarder": "discarder", "seat_wind": "seat_wind", "streak": "streak_n",
               "moment": "moment", "ready": "ready_kind", "concealed": "photo_calls"}
"""Each of :data:`HAND_FIELDS` by the form's label (a key of the words)."""


@dataclass(frozen=True, slots=True)
class PhotoContext:
    """What a photo cannot show, as the form sets it (winds as E/S/W/N, as ``companion tai`` reads them)."""

    win_type: str = "self_draw"  # or "discard", "rob_kong" (搶槓), "eight_flowers" (八仙過海), "seven_flowers_rob" (七搶一)
    discarder: str = "N"  # used only for a win on a discard (or the robbed kong's)
    seat_wind: str = "E"
    round_wind: str = "E"
    dealer: str = "E"
    streak: int = 0
    profile: str = "atawmj_2009"  # the rules the table plays (TABLE_RULES: the live table's, with its stakes)
    stakes: str = "30/10"  # 底/台
    moment: str = ""  # one of MOMENTS: when the winning tile came, where it scores
    ready: str = ""  # one of READIES: a ready declaration that scores if he wins
    concealed: str = ""  # "concealed": nothing was called (門清), however the rows lie; "": as laid out

    def as_context(self) -> dict[str, Any]:
        """The fields of ``companion tai``'s input this context fills (the profile and stakes go apart)."""
        out: dict[str, Any] = {"win_type": self.win_type, "seat_wind": self.seat_wind,
                               "round_wind": self.round_wind, "dealer": self.dealer, "streak": self.streak}
        if self.win_type in PAYING:
            out["discarder"] = self.discarder
        flags: dict[str, Any] = {name: True for name in (self.moment, self.ready) if name}
        if flags.pop(DISCARD_KONG, None):
            flags["replacement_after"] = "kong"
        if flags:
            out["flags"] = flags
        if self.concealed:
            out[CONCEALED_HAND] = True
        return out

    def next_hand(self) -> tuple[PhotoContext, tuple[str, ...]]:
        """The form for another hand's photo: what each hand has of its own (:data:`HAND_FIELDS`) back to the
        defaults, the table's (the round wind, the dealer's seat, the rules, the stakes) kept; and the fields that
        changed, in the form's order."""
        fresh = PhotoContext()
        changed = tuple(f for f in HAND_FIELDS if getattr(self, f) != getattr(fresh, f))
        return replace(self, **{f: getattr(fresh, f) for f in HAND_FIELDS}), changed

    @classmethod
    def from_context(cls, context: Mapping[str, Any]) -> PhotoContext:
        flags = context.get("flags") or {}
        moment = DISCARD_KONG if str(flags.get("replacement_after", "")).lower() == "kong" else \
            next((m for m in MOMENTS[1:] if flags.get(m)), "")
        ready = next((r for r in READIES[1:] if flags.get(r)), "")
        return cls(str(context.get("win_type", "self_draw")), str(context.get("discarder") or "N"),
                   str(context.get("seat_wind", "E")), str(context.get("round_wind", "E")),
                   str(context.get("dealer", "E")), int(context.get("streak", 0)), moment=moment, ready=ready,
                   concealed="concealed" if context.get(CONCEALED_HAND) else "")


@dataclass(frozen=True, slots=True)
class ReadPhoto:
    """A photo and its tiles as read (the slow part, done once; scoring it again with another context is fast)."""

    name: str
    image: np.ndarray
    dets: Detections
    tile_set: str | None = None  # the calibrated set it was read with (None: the trained model alone)
    set_damaged: str | None = None  # the selected set, not read with since its file is damaged
    set_unreadable: bool = False  # ... or rather cannot be read now (not broken: no permission, a disk's error)


@dataclass(frozen=True, slots=True)
class ReadTile:
    """One tile of a read photo, as the player can correct it: the detection's ``index``, what it reads as, whether
    the reading is doubtful, and whether the player picked it."""

    index: int
    code: str
    doubtful: bool
    picked: bool


def read_tiles(read: ReadPhoto, picks: Mapping[int, Tile] | None = None,
               scored: Mapping[int, str] | None = None) -> tuple[ReadTile, ...]:
    """Every tile of the photo in reading order (rows from the top, each left to right): the player's ``picks``
    (detection index -> the tile it really is), else what the hand was ``scored`` as (a doubtful tile the scorer
    read otherwise), else the reading. Doubtful: a face read unsurely, or scored as another kind than it was read
    (a review saw two 1s and could not tell which the reader had changed), and, in a photo not scored (``scored``
    None: refused), the least sure of more copies of a kind than a set holds, as the photo's drawing frames them."""
    # a refused photo's tiles as its drawing shows them: with the player's picks
    doubtful = read.dets.doubtful() if scored is not None else with_picks(read, picks or {}).dets.to_check()
    picks, scored = picks or {}, scored or {}
    dets = read.dets
    out = []
    for k in reading_order(dets.obb):
        i = int(k)
        code = picks[i].code if i in picks else scored.get(i, Tile(int(dets.kind[i])).code)
        changed = i in scored and scored[i] != Tile(int(dets.kind[i])).code
        out.append(ReadTile(i, code, bool(doubtful[i] or changed) and i not in picks, i in picks))
    return tuple(out)


def with_picks(read: ReadPhoto, picks: Mapping[int, Tile]) -> ReadPhoto:
    """The photo as read, with the tiles the player picked (detection index -> tile) read as those, for certain: the
    scorer neither doubts nor repairs them. A picked back is face down, a picked face face up."""
    if not picks:
        return read
    bad = [i for i in picks if not 0 <= i < len(read.dets)]
    if bad:
        raise ValueError(f"no tile {bad[0]} in the photo {read.name} ({len(read.dets)} read)")
    dets = read.dets.corrected(picks)
    return replace(read, dets=dets)


def stakes_typed(text: str | None) -> str | Words:
    """The form's stakes as typed, 底/台 read as ``--stakes`` reads them (``20/5``; ``２０／５`` from a Chinese
    keyboard), written plainly (``20/5``); or why not, naming the box, in both languages (a settlement review: the
    form offered seven presets only, so a 20/5 table was charged at 30/10)."""
    typed = (text or "").strip()
    if not typed:
        why = ui("photo_stakes_missing")
    else:
        try:
            stakes = Stakes.parse(typed, "stakes")
        except WinInputError as bad:
            why = Words(bad.zh, bad.reason)
        else:
            return f"{stakes.base}/{stakes.per_tai}"
    box = ui("stakes")
    return ui("form_field_wrong", field=box.zh, field_en=box.en, why=why.zh, why_en=why.en)


def with_added_tiles(read: ReadPhoto, tiles: Sequence[Tile]) -> ReadPhoto:
    """The photo as read, with the tiles the player says the reading missed (no box on them) added after its own
    detections, for certain (:func:`companion.vision.hand_photo.with_added`: a flower with the flowers, another tile
    at an end of the hand's row); the detections read keep their indices, so the player's picks still name them. A
    :class:`~companion.vision.hand_photo.NoPlaceToAdd` where the photo holds no row to add a tile to."""
    if not tiles:
        return read
    return replace(read, dets=with_added(read.dets, list(tiles)))


def demo_photo() -> tuple[Path, dict[str, Any]]:
    """The bundled photo (``training/render_demo_hand.py``) and its context, which a photo cannot show."""
    folder = resources.files("companion") / "assets" / "demo"
    truth = json.loads((folder / "win_hand.json").read_text(encoding="utf-8"))
    context = {k: v for k, v in truth.items() if k not in ("concealed", "win_tile", "melds", "flowers")}
    return Path(str(folder / "win_hand.jpg")), context


def read_photo_file(path: Path, reader: TileReader | None = None, name: str | None = None,
                    tile_set: str | None = None, set_damaged: str | None = None,
                    set_unreadable: bool = False) -> ReadPhoto | PhotoFailed:
    """Read the photo at ``path`` as ``companion score`` does (the whole photo, then twice the scale). ``tile_set``:
    the name of the calibrated set ``reader`` reads with, to be shown; ``set_damaged``: the selected set, not read with
    since its file is damaged (or, ``set_unreadable``, cannot be read now), to be said."""
    name = name or path.name
    try:
        image = read_image(path, reduce_large=True)  # a 48 MP phone photo is read at half size
        reader = reader or TileReader()
        dets = reader.read(image, tiled=True)
    except ImageFileError as bad:  # not an image, truncated, too big: the reason alone (the words name the photo)
        why = Words(bad.zh, bad.en)
        return PhotoFailed(name, ui("photo_failed", name=name, why=why.zh, why_en=why.en))
    except ValueError as bad:  # too small for the reader…
        why = both_words(str(bad).replace(str(path), name))
        return PhotoFailed(name, ui("photo_failed", name=name, why=why.zh, why_en=why.en))
    return ReadPhoto(name, image, dets, tile_set, set_damaged, set_unreadable)


def score_read_photo(read: ReadPhoto, context: Mapping[str, Any], stakes: Stakes = DEMO_STAKES,
                     profile_id: str | Profile | None = None, corrected: int = 0) -> PhotoPanel | PhotoFailed:
    """Score the hand of a read photo under ``profile_id`` (default: the default profile) with ``context`` and
    settle it at ``stakes``. ``corrected``: how many of its tiles the player has corrected (:func:`with_picks`);
    a hand they leave no win is said to be his corrections', not the photo's."""
    return _shown(read, _attempt(read, context, profile_id), stakes, corrected)


def score_picked(read: ReadPhoto, picks: Mapping[int, Tile], context: Mapping[str, Any], stakes: Stakes = DEMO_STAKES,
                 profile_id: str | Profile | None = None, win_tile: Tile | None = None,
                 added: Sequence[Tile] = ()) -> PhotoPanel | PhotoFailed:
    """Score ``read`` with the player's ``picks`` (:func:`with_picks`), the tiles he says the reading missed
    (``added``: :func:`with_added_tiles`) and the tile he says the hand was won on (``win_tile``; None: the one set
    apart, else the most tai). Where the photo as read is a win and his corrections (not the doubtful tiles he
    confirmed as read) make it none, the refusal says they are why."""
    try:
        picked = with_added_tiles(with_picks(read, picks), added)
    except NoPlaceToAdd as bad:  # (a photo with no row of tiles: the flowers alone, say)
        return PhotoFailed(read.name, ui("photo_failed", name=read.name, why=bad.zh, why_en=str(bad)),
                           *photo_drawn(read.image, read.dets))
    outcome = _attempt(picked, context, profile_id, win_tile)
    changed = sum(int(read.dets.kind[i]) != int(t) for i, t in picks.items())
    blamed = changed if isinstance(outcome, PhotoHandError) and changed and \
        not isinstance(_attempt(read, context, profile_id), Exception) else 0
    return _shown(picked, outcome, stakes, blamed, changed)


_Refusal = PhotoHandError | WinInputError | NotAWin


def _attempt(read: ReadPhoto, context: Mapping[str, Any], profile_id: str | Profile | None,
             win_tile: Tile | None = None) -> PhotoWin | _Refusal:
    """The photo's hand scored (won on ``win_tile`` where the player named it), or why it cannot be. A hand won on
    the tile named keeps the list of every tile it can have been won on, so the player can pick again."""
    context, concealed = as_laid(context)
    try:
        check_context(context)
        profile = load_profile(profile_id)
        # a face-up kong won on after the winner's own kong (槓上開花) is taken as added by the scorer, and said, as
        # ``companion score`` says it (:func:`stripped` puts the app's way to say otherwise): the app once took it so
        # itself, and said it in words of its own
        try:
            every: PhotoWin | None = score_photo(read.dets, context, profile, concealed=concealed)
        except PhotoHandError as missing:  # the winning tile not in the photo: the one named completes it
            if win_tile is None or missing.way_out is not WayOut.WIN_TILE:
                raise
            every = None
        if win_tile is not None:  # (the search again: a few ms once the reader has run)
            named = score_photo(read.dets, context, profile, win_tile, concealed=concealed)
            every = named if every is None or every.marked else replace(named, win_tiles=every.win_tiles)
        assert every is not None
        return every
    except (PhotoHandError, WinInputError, NotAWin) as bad:
        return bad


def either(tiles: Iterable[Tile]) -> tuple[str, str]:
    """``三萬、七萬或二筒`` / ``3 Characters, 7 Characters or 2 Dots``."""
    ts = list(tiles)
    zh = "、".join(t.zh for t in ts[:-1]) + ("或" if len(ts) > 1 else "") + ts[-1].zh
    en = ", ".join(t.en for t in ts[:-1]) + (" or " if len(ts) > 1 else "") + ts[-1].en
    return zh, en


def _shown(read: ReadPhoto, outcome: PhotoWin | _Refusal, stakes: Stakes, corrected: int,
           changed: int | None = None) -> PhotoPanel | PhotoFailed:
    """What the tab shows of :func:`_attempt`'s ``outcome``; ``corrected``: see :func:`score_read_photo`;
    ``changed``: how many tiles the player's picks read otherwise than the photo (:func:`app_words`)."""
    name, image, dets = read.name, read.image, read.dets
    if isinstance(outcome, Exception):
        if corrected and isinstance(outcome, PhotoHandError) and outcome.reading is not None:
            en, zh = outcome.reading
            return PhotoFailed(name, ui("photo_not_win_corrected", n=corrected, tiles=zh, tiles_en=en),
                               *photo_drawn(image, dets, check=outcome.check), check=outcome.check)
        return unscored(read, outcome, changed)
    # with no tile set apart, each tile the hand can have been won on is offered with its tai, as for a typed hand
    # (a review: a hand won on an edge wait was charged the most tai, and the screen said only a command's option)
    choices = () if outcome.marked else tuple((t.code, tai) for t, tai in outcome.win_tiles)
    picture, legend = photo_drawn(image, dets, hand_labels(dets, outcome))
    panel = replace(_panel(name, picture, outcome.win, outcome.score, stakes,
                           tuple(map(doubt_note, outcome.doubts)) + photo_warnings(read),
                           tuple((int(i), t.code) for i, t in sorted(outcome.kinds.items())), choices, outcome.named),
                    legend=legend)
    won = outcome.win.win_tile
    if choices and not outcome.named and won is not None and len({tai for _, tai in choices}) > 1:
        most = max(tai for _, tai in choices)  # its guess said: every tile giving the most (the same payments)
        tied = [Tile.from_code(c) for c, tai in choices if tai == most]
        zh, en = either(tied)
        plain = _one_shape(outcome.score, _photo_shapes(outcome.win, tied))
        if plain is not outcome.score:  # (the items again, the 獨聽 one without a shape)
            panel = replace(panel, items=marked_items(plain)[0])
        return replace(panel, total=panel.total + ui("total_if", tile=zh, tile_en=en))
    return panel


def _one_shape(sc: Score, shapes: Iterable[WaitShape | None]) -> Score:
    """``sc`` as shown for a win assumed on any of several tiles, whose wait ``shapes`` these are: 獨聽 said with no
    shape where they differ (a review read 獨聽（中洞） beside 「假設胡二萬、三萬、五萬…或東」, edge and pair waits among
    them: one tile's shape said as the group's)."""
    return sc if len(set(shapes)) <= 1 else replace(sc, wait_shape=None)


def _photo_shapes(win: Win, tiles: Sequence[Tile]) -> list[WaitShape | None]:
    """Every wait shape the hand of ``win`` shows for each of ``tiles`` taken as its winning tile (None where it
    cannot be told)."""
    held = list(win.concealed) + ([win.win_tile] if win.win_tile is not None else [])
    shapes: list[WaitShape | None] = []
    for tile in tiles:
        rest = list(held)
        try:
            rest.remove(tile)
            shapes.extend(wait_shapes(Hand(tuple(rest), win.melds), tile) or (None,))
        except (ValueError, HandError):
            shapes.append(None)
    return shapes


def _panel(name: str, image: bytes, win: Win, sc: Score, stakes: Stakes, notes: tuple[Words, ...],
           scored: tuple[tuple[int, str], ...] = (), win_choices: tuple[tuple[str, int], ...] = (),
           win_picked: bool = False) -> PhotoPanel:
    """A scored hand as the tab shows it: the tiles, the tai items, and who pays what at ``stakes``."""
    st = settle(sc, win, stakes)
    items, house = marked_items(sc)
    melds = [MeldPic(meld_codes(m), meld_words(m.kind)) for m in win.melds]
    concealed = list(win.concealed)  # the hand before the win: the winning tile is apart
    # the dealer's tai count only where the dealer wins or pays (each payment says what it carries)
    dealer_tai = st.dealer_tai_paid
    everyone = all(p.dealer_tai == dealer_tai for p in st.payments)
    # each payment's tai where they differ; where all are the total's, said once (a review read 「共 3 台：北家 付
    # 南家 60（3 台）」)
    payments = tuple(ui("pays_wind" if everyone else "pays_tai", payer=wind_words(p.payer).zh + "家",
                        payer_en=wind_words(p.payer).en, payee=wind_words(p.payee).zh + "家",
                        payee_en=wind_words(p.payee).en, amount=p.amount, tai=p.tai)
                     for p in st.payments)
    return PhotoPanel(
        name, image, tuple(t.code for t in sorted(concealed)),
        tuple(melds), tuple(t.code for t in win.flowers), win.win_tile.code if win.win_tile else None, notes,
        items, sc.hand_tai, sc.capped_tai, dealer_tai, payments,
        ui("photo_total", tai=sc.capped_tai + dealer_tai) if everyone else
        ui("photo_total_dealer", tai=sc.capped_tai, dealer=sc.capped_tai + dealer_tai),  # the dealer pays more
        scored, win_choices, win_picked, house, dealer_parts(sc.profile, win.streak))


def _added_notes(melds: Sequence[Meld]) -> tuple[Note, ...]:
    """What is said of each kong of a typed hand taken as added (:func:`~companion.vision.hand_score.own_kong`): a
    concealed kong turned up scores more (門清, 暗刻), and is typed another way. (A photo's are the scorer's, and
    said by it: :func:`~companion.vision.hand_score.score_photo`.)"""
    # (a sentence of the card's own, capitalised, and no Chinese in its English: a wording review read "(加槓)")
    return tuple(Note(f"The {m.tile.en} kong is taken as an added kong, since the win came after the winner's own "
                      f"kong; if it was a concealed kong, type it as ckong:{format_tiles(m.tiles)}",
                      f"{m.tile.zh}的槓當作加槓（胡在自己槓後補的牌）；若是暗槓，請寫成 ckong:{format_tiles(m.tiles)}")
                 for m in melds if m.kind is MeldKind.ADDKONG)


def score_typed_hand(text: str, context: Mapping[str, Any], stakes: Stakes = DEMO_STAKES,
                     profile_id: str | Profile | None = None, win_tile: Tile | None = None) -> PhotoPanel | PhotoFailed:
    """Score a winning hand typed as My hand takes it (the notation or Chinese names; melds as ``pung:999p@O``;
    flowers): no photo needed. The hand holds its winning tile among the concealed ones. ``win_tile`` names it
    (the player knows it; it changes 獨聽, 平胡, a concealed triplet); without it each kind is tried, the most tai
    taken and said. Either way the panel lists every tile the hand can have been won on with its tai, to pick."""
    shown = text.strip() or "-"
    context = as_laid(context)[0]  # (a typed hand says its melds itself)
    try:
        hand = Hand.parse(text)
    except NotationError as bad:
        return PhotoFailed(shown, ui("typed_bad", why=bad.zh, why_en=str(bad)))
    except (HandError, CopyLimitError) as bad:
        n = _structural_count(text)
        if n == 0:  # the flowers alone: 八仙過海, 七搶一, paid flat whatever the hand
            bare = Hand.parse(text, stage_free=True)
            if win_tile is not None and flowers_won_on_tile(context, bare.flowers, win_tile):  # as a photo of them
                en, zh = flowers_tile_said(win_tile, len(bare.flowers), typed=True)  # (was scored flat, the tile
                return PhotoFailed(shown, ui("photo_failed", name=shown, why=zh, why_en=en))  # dropped unsaid)
            instant = _typed_instant(bare, context, win_tile)
            if instant is not None:
                return _instant_panel(shown, bare, *instant, stakes, profile_id)
        # told against a win's count, not a hand's between turns (a beginner review read "16, or 17 after a draw")
        if n is not None and n != WIN_COUNT:
            kong = kong_typed_as_four(text, (WIN_COUNT,))  # a kong typed as four tiles: one over for each
            return PhotoFailed(shown, ui("typed_count", n=n, want=WIN_COUNT) + kong)
        return PhotoFailed(shown, ui("typed_bad", why=bad.zh or str(bad), why_en=str(bad)))
    instant = _typed_instant(hand, context, win_tile)
    if instant is not None:  # 八仙過海, 七搶一: no tile won on, 16 tiles between turns (a review's were refused)
        return _instant_panel(shown, hand, *instant, stakes, profile_id)
    if not is_complete(hand):
        pairs = ui("pairs_not_win") if seven_pairs(hand) else Words("", "")  # (a beginner from another game)
        return PhotoFailed(shown, ui("typed_not_win") + pairs)
    profile = load_profile(profile_id)
    try:
        check_context(context)
    except WinInputError as bad:  # the form's, not the hand's
        why = app_words(bad)
        return PhotoFailed(shown, ui("photo_failed", name=shown, why=why.zh, why_en=why.en))
    tried: dict[Tile, tuple[Win, Score]] = {}
    refused: dict[Tile, NotAWin | WinInputError] = {}
    melds = hand.melds
    added = own_kong(context) and not any(m.kind in (MeldKind.CKONG, MeldKind.ADDKONG) for m in melds)
    if added:  # 槓上開花 after his own kong: a kong typed as exposed was added to a pung
        melds = tuple(Meld(MeldKind.ADDKONG, m.tiles, m.source) if m.kind is MeldKind.KONG else m for m in melds)
    for tile in sorted(set(hand.concealed)):
        rest = list(hand.concealed)
        rest.remove(tile)
        obj = {"concealed": format_tiles(rest), "win_tile": tile.code, "melds": [str(m) for m in melds],
               "flowers": format_tiles(hand.flowers), **context}
        try:
            win = Win.from_dict(obj)
            tried[tile] = (win, score(win, profile))
        except (NotAWin, WinInputError) as bad:  # not a win this way (under the rules' minimum, say)
            refused[tile] = bad
    choices = tuple((t.code, s.hand_tai) for t, (_, s) in tried.items())
    if win_tile is not None and win_tile not in tried:
        if win_tile in refused:
            why = app_words(refused[win_tile])
        else:
            why = ui("typed_win_absent", tile=win_tile.zh, tile_en=win_tile.said_en)
        return PhotoFailed(shown, ui("typed_win_refused", tile=win_tile.zh, tile_en=win_tile.said_en, why=why.zh,
                                     why_en=why.en))
    if not tried:
        why = app_words(next(iter(refused.values()))) if refused else ui("typed_not_win")
        return PhotoFailed(shown, ui("photo_failed", name=shown, why=why.zh, why_en=why.en))
    kongs = tuple(Words(n.zh, n.en) for n in _added_notes(melds)) if added else ()
    if win_tile is not None:
        win, sc = tried[win_tile]
        return _panel(shown, b"", win, sc, stakes, kongs, win_choices=choices, win_picked=True)
    win, sc = max(tried.values(), key=lambda x: x[1].hand_tai)  # sorted by tile: the first of equal ones
    notes: tuple[Words, ...] = kongs
    if len({s.hand_tai for _, s in tried.values()}) > 1:  # the tile matters: say which was taken (each is listed)
        assert win.win_tile is not None
        # every tile giving the most is named (a review read one of two that did): the same tai, the same payments
        tied = [t for t, (_, s) in tried.items() if s.hand_tai == sc.hand_tai]
        tile_zh, tile_en = either(tied)
        notes += (ui("typed_win_tile" if len(tied) == 1 else "typed_win_tied", tile=tile_zh, tile_en=tile_en,
                     tai=sc.hand_tai),)
        sc = _one_shape(sc, (tried[t][1].wait_shape for t in tied))
        panel = _panel(shown, b"", win, sc, stakes, notes, win_choices=choices)
        # the total says its guess too: a review paid from the big figure, which was the most the tiles allow
        return replace(panel, total=panel.total + ui("total_if", tile=tile_zh, tile_en=tile_en))
    return _panel(shown, b"", win, sc, stakes, notes, win_choices=choices)  # named by the hand as typed


WIN_COUNT = 17
"""A winning hand's tiles, a kong's fourth left out: 16 and the tile won on."""


def _win_type(context: Mapping[str, Any]) -> WinType | None:
    """The form's way of winning; None where it names none (the rules say so when the hand is scored)."""
    try:
        return WinType(str(context.get("win_type", WinType.SELF_DRAW.value)).strip().lower())
    except ValueError:
        return None


def _typed_instant(hand: Hand, context: Mapping[str, Any],
                   win_tile: Tile | None = None) -> tuple[dict[str, Any], tuple[Words, ...]] | None:
    """The form's ``context`` for a typed ``hand`` won instantly, on no tile (八仙過海, 七搶一, 四槓: spec §3.1), and
    what is said of it; None for a hand won on a tile. The form's 胡法 says so, but for a 八仙過海 whose eighth
    flower's replacement completed the hand (17 tiles: won on that tile, 8 added); and the flowers alone or 16 tiles
    with all eight on a self-draw, no winning tile named (``win_tile``), can only have been won on the eighth
    flower, as a photo of them is scored and said (:func:`companion.vision.hand_score.only_eight_flowers`), with
    the way to a 七搶一 instead."""
    kind = _win_type(context)
    if kind is None:  # (the rules say what is wrong with it)
        return None
    complete = is_complete(hand)
    n = hand.structural_count
    if only_eight_flowers(context, hand.flowers, not complete and n in (0, WIN_COUNT - 1), win_tile):
        return {**context, "win_type": WinType.EIGHT_FLOWERS.value}, (doubt_note(eight_flowers_note(alone=not n)),)
    if kind.is_instant and not (kind is WinType.EIGHT_FLOWERS and complete) and (n or kind.flat_without_hand):
        return dict(context), ()
    return None


def _instant_panel(shown: str, hand: Hand, context: Mapping[str, Any], notes: tuple[Words, ...], stakes: Stakes,
                   profile_id: str | Profile | None) -> PhotoPanel | PhotoFailed:
    """The typed ``hand`` scored as the instant win ``context`` says (:func:`_typed_instant`), or why it cannot be."""
    obj = {"concealed": format_tiles(hand.concealed), "melds": [str(m) for m in hand.melds],
           "flowers": format_tiles(hand.flowers), **context}
    try:
        win = Win.from_dict(obj)
        sc = score(win, load_profile(profile_id))
    except (NotAWin, WinInputError) as bad:
        why = app_words(bad)
        return PhotoFailed(shown, ui("photo_failed", name=shown, why=why.zh, why_en=why.en))
    return _panel(shown, b"", win, sc, stakes, notes)


def _structural_count(text: str) -> int | None:
    """The tiles typed (concealed, and 3 a meld), whatever their number; None where the text cannot be read."""
    try:
        return Hand.parse(text, stage_free=True).structural_count
    except (HandError, NotationError, CopyLimitError):
        return None


def warning_words(en: str, zh: str) -> Words:
    """A warning of :mod:`companion.vision.quality` as the card says it, a sentence: its own words, which ``read`` and
    ``score`` print (one wording, not a copy of it to drift apart)."""
    return Words(zh, en[:1].upper() + en[1:])


def photo_warnings(read: ReadPhoto) -> tuple[Words, ...]:
    """What is wrong with the photo ``read`` (:func:`companion.vision.quality.photo_quality`: shaken, black and
    white, tiles too small to judge), a sentence each, for the card's notes: its tiles may be misread, and taking it again is the cure."""
    # (a photo with no tile found is refused saying so, and what to photograph: not said twice)
    return tuple(warning_words(en, zh) for code, en, zh in photo_quality(read.image, read.dets).warnings()
                 if code != "no_tiles")


def unscored(read: ReadPhoto, bad: PhotoHandError | WinInputError | NotAWin, changed: int | None = None) -> PhotoFailed:
    """Why the photo ``read`` cannot be scored, in both languages, with the photo as read (the tiles the refusal
    names framed), and what is wrong with the photo (:func:`photo_warnings`), which may be why its hand reads as no
    win: a shaken photo said first. ``changed``: see :func:`app_words`."""
    why = app_words(bad, changed=changed)
    if isinstance(bad, PhotoHandError) and too_dark(read.image):  # the light may be why (a review's dark photo)
        why = why + ui("photo_too_dark")
    if not isinstance(bad, WinInputError):  # (the form's own mistake: the photo is not why)
        for code, en, zh in photo_quality(read.image, read.dets).warnings():
            if code == "no_tiles":  # (the refusal says no tile was found, and what to photograph: not said twice)
                continue
            if code == "shaken":  # first: the cure is another photo, and the count or the tiles read are likely
                # wrong (a review's blurred photo led with "found 8 tiles … a winning hand shows 17")
                why = Words(zh, en) + ui("photo_also", what=why.zh, what_en=why.en)
            else:
                why = why + ui("photo_also", what=zh, what_en=en)
    check = bad.check if isinstance(bad, PhotoHandError) else ()
    return PhotoFailed(read.name, ui("photo_failed", name=read.name, why=why.zh, why_en=why.en),
                       *photo_drawn(read.image, read.dets, check=check), check=check,
                       waits=tuple(t.code for t in bad.waits)
                       if isinstance(bad, PhotoHandError) and bad.way_out is WayOut.WIN_TILE else ())


_COMMAND_LINE = ((re.compile(r"^--win-tile \S+: "), re.compile(r"^--win-tile \S+：")),
                 # the tile won on is picked on the card (its choices), not with the command's option
                 (re.compile(r"; --win-tile names it$"), re.compile(r"；可用 --win-tile 指定$")))


# the form's box each field of a win record is set in (a review read "欄位 discarder 有誤" on a phone)
_FORM_FIELD = {"win_type": "win_type", "discarder": "discarder", "seat_wind": "seat_wind", "round_wind": "round_wind",
               "dealer": "dealer_seat", "streak": "streak_n", "flags.ready_declared": "ready_kind",
               "flags.ready_on_deal": "ready_kind", "flags.ready_first_discard": "ready_kind"}


def _form_field(field: str) -> Words:
    if field in _FORM_FIELD:
        return ui(_FORM_FIELD[field])
    return ui("moment") if field.startswith("flags.") else ui("form_the_hand")


# the command's way to name a face-up kong's kind, said as a player does it: the form's moment says an added one
# (槓上開花 after his own kong), a concealed one is photographed with its ends face down (a code review: the hint
# was only stripped, so the app said nothing of a concealed kong turned up)
_KONG_HINT = (re.compile(r"; --kong \S+ \(an added kong\) or =ckong \(a concealed kong turned up\) says otherwise$"),
              re.compile(r"；加槓請用 --kong \S+，暗槓翻開的請用 --kong \S+$"))
# the scorer's words of a face-up kong taken as added, the win coming after the winner's own kong: the options that
# say it concealed or exposed, said as the app's (a review: the app said this kong in words of its own)
_OWN_KONG_HINT = (re.compile(r"; --kong \S+=ckong \(a concealed kong turned up\) or =kong \(an exposed kong\) says "
                             r"otherwise$"),
                  re.compile(r"；暗槓翻開的請用 --kong \S+=ckong，明槓請用 --kong \S+=kong$"))


# a Chinese gloss in a scorer's English (the command line's once had them, "taken as an exposed kong (明槓)"): the
# app's English carries none (a wording review read "(明槓)", "(白板)" on the English card)
_GLOSS = re.compile(r" \([\u4e00-\u9fff]+\)")


def stripped(zh: str, en: str) -> Words:
    """A scorer's words without the command line's options and commands, nor its Chinese glosses in the English."""
    for pat_en, pat_zh in _COMMAND_LINE:
        en, zh = pat_en.sub("", en), pat_zh.sub("", zh)
    field = ui("moment")  # the form's field and choice as it names them (the two hints were worded apart: a review)
    for (pat_en, pat_zh), key, moment in ((_KONG_HINT, "photo_kong_hint", "moment_after_kong"),
                                          (_OWN_KONG_HINT, "photo_own_kong_hint", "moment_after_discard_kong")):
        if pat_en.search(en) or pat_zh.search(zh):  # (the hint's options first: it is matched with them)
            choice = ui(moment)
            hint = ui(key, field=field.zh, field_en=field.en, choice=choice.zh, choice_en=choice.en)
            en, zh = pat_en.sub(hint.en, en), pat_zh.sub(hint.zh, zh)
    return Words(zh, _GLOSS.sub("", en))


def scorer_note(zh: str, en: str) -> Words:
    """A scorer's note (a doubt) as the app says it: :func:`stripped`, and a sentence of its own on the card,
    capitalised as the card's other notes are."""
    note = stripped(zh, en)
    return Words(note.zh, note.en[:1].upper() + note.en[1:])


def way_out(refused: PhotoHandError, live: bool = False) -> Words:
    """A refusal's way out (:class:`~companion.vision.hand_score.WayOut`) as the app gives it: on the Score tab the
    tiles read, to tap and correct, are under the refusal, and a kong of blank white dragons is typed in on My hand;
    on the Live tab (``live``) the form is filled with the tiles read, to mend, and a concealed kong's kind is its
    field."""
    way = refused.way_out
    if way is WayOut.BLANK_KONG:
        if live:
            field = ui("live_win_kongs")
            return ui("live_way_blank_kong", field=field.zh, field_en=field.en)
        tab = ui("tab_hand")
        return ui("photo_way_blank_kong", tab=tab.zh, tab_en=tab.en)
    if way is WayOut.CORRECT_TILE:
        return ui("live_way_correct" if live else "photo_way_correct")
    if way is WayOut.CLOSER:
        return ui("live_way_closer" if live else "photo_way_closer")
    if way is WayOut.WIN_TILE:  # tap one of the waits under the refusal, or type the hand in the tab's own box
        if live:
            return ui("live_way_win_tile")
        box = ui("typed_field")
        return ui("photo_way_win_tile", field=box.zh, field_en=box.en)
    return Words("", "")


def app_words(bad: PhotoHandError | WinInputError | NotAWin, live: bool = False, changed: int | None = None) -> Words:
    """The reason a photo's hand cannot be scored, as the app says it: without the command line's options and
    commands, which mean nothing on a phone, naming the form's box where the record's field is wrong, and a
    refusal's way out in the app's own terms (:func:`way_out`; ``live``: the Live tab's). A refusal of the tiles
    the player picked (:attr:`PhotoHandError.corrected`) is said of the ``changed`` tiles he read otherwise than
    the photo, where he changed any, and as read where he only confirmed tiles as read (None: the scorer's own
    words)."""
    if isinstance(bad, WinInputError) and bad.field != "(line)":  # the record's field said as the form's box
        box, why = _form_field(bad.field), stripped(bad.zh, bad.reason)
        return ui("form_field_wrong", field=box.zh, field_en=box.en, why=why.zh, why_en=why.en)
    if isinstance(bad, NotAWin):  # the reason alone: the hand is on the card (a review read its notation here)
        said = stripped(bad.reason_zh, bad.reason)
        return Words("詐胡：" + said.zh, "a false win: " + said.en) if isinstance(bad, FalseWin) else said
    if isinstance(bad, PhotoHandError):
        way = way_out(bad, live)
        opening = None if changed is None else ui("photo_opening_corrected", n=changed) if changed else \
            ui("photo_opening_as_read")
        also = _seven_rob_way() if bad.also is WayOut.SEVEN_ROB_ONE and not live else ("", "")  # (seven flowers)
        en, zh = bad.said((way.en, way.zh), None if opening is None else (opening.en, opening.zh), also)
        return stripped(zh, en)
    return stripped(bad.message_zh, str(bad))


def score_photo_file(path: Path, context: Mapping[str, Any], reader: TileReader | None = None,
                     stakes: Stakes = DEMO_STAKES, name: str | None = None) -> PhotoPanel | PhotoFailed:
    """Read and score the photo at ``path`` (:func:`read_photo_file`, then :func:`score_read_photo`)."""
    read = read_photo_file(path, reader, name)
    return read if isinstance(read, PhotoFailed) else score_read_photo(read, context, stakes)


# --- a hand with nothing called (門清) whose rows lie as melds would: the form's "Calls" box ---------------------

CONCEALED_HAND = "hand_concealed"
"""The key :meth:`PhotoContext.as_context` sets for a hand said to have nothing called (read by :func:`as_laid`; no
field of ``companion tai``'s input)."""


def as_laid(context: Mapping[str, Any]) -> tuple[dict[str, Any], bool]:
    """``context`` without :data:`CONCEALED_HAND`, and whether it said the hand has nothing called."""
    rest = dict(context)
    return rest, bool(rest.pop(CONCEALED_HAND, False))


def doubt_note(doubt: Note, live: bool = False) -> Words:
    """A scorer's doubt as the app says it (:func:`scorer_note`) with its way out (:attr:`Note.way_out`) in the
    app's words: rows taken as called only for lying apart are said concealed by the form's calls box on the Score
    tab, and on the Live tab (``live``) by typing their tiles into the hand, or laying the hand in one row."""
    way = ("", "")
    if doubt.way_out is WayOut.CONCEALED:
        if live:
            said = ui("live_concealed_hint")
        else:
            box, choice = ui("photo_calls"), ui("photo_calls_concealed")
            said = ui("photo_concealed_hint", field=box.zh, field_en=box.en, choice=choice.zh, choice_en=choice.en)
        way = (said.en, said.zh)
    elif doubt.way_out is WayOut.SEVEN_ROB_ONE and not live:
        way = _seven_rob_way()
    en, zh = doubt.said(way)
    return scorer_note(zh, en)


def _seven_rob_way() -> tuple[str, str]:
    """How the Score tab's form says a Seven rob one (English, Chinese): its 胡法 list has 七搶一, its payer
    放槍的人."""
    field, who = ui("win_type"), ui("discarder")  # (after the note's own words, which name 七搶一 and the payer)
    said = ui("photo_seven_rob_hint", field=field.zh, field_en=field.en, who=who.zh, who_en=who.en)
    return said.en, said.zh
