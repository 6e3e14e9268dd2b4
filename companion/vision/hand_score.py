"""Score a photographed winning hand: the tiles read (:mod:`companion.vision.read`), grouped as they lie
(:mod:`companion.vision.hand_photo`), then read as a legal win and scored by the rules (:mod:`companion.rules`).

What is decided here, against the rules rather than the pixels:

- **which row is the concealed one**: every row in turn, the others cut into melds (a group of three or four in
  order: a chow, a pung, an exposed kong, or a concealed kong when face-down tiles show in it); the tile count
  must come out right (16 + the winning tile, one more per kong; for a win with no winning tile 16 between turns,
  or 17 for 八仙過海 with the eighth flower's replacement drawn: :func:`hand_need`);
- **doubtful readings repaired**: when the hand as read is no win (a fifth copy, a meld that is no meld, a hand
  that does not complete), the classifier's other readings (its top three) are tried, the likeliest change first,
  up to :data:`companion.vision.hand_search.MAX_CHANGES` tiles, then one unsure tile as any kind the rules allow
  alone (:mod:`companion.vision.hand_search`); every change made is reported, and so are other readings that win
  nearly as likely;
- **the winning tile**: the one the player names, else the tile set apart at an end of the concealed row (or a
  lone tile of its own), else every kind of the concealed tiles in turn, the score reported for each.

Nothing is guessed silently: :attr:`PhotoWin.doubts` says, in English and Chinese, each assumption made.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.hand import Meld, MeldKind
from companion.rules.profiles import Profile
from companion.rules.scoring import NotAWin, Score, replacement_named, score
from companion.rules.win import Win, WinInputError, WinType, win_type_zh
from companion.tiles import Tile, format_en, format_tiles
from companion.vision import hand_search
from companion.vision.hand_photo import (
    LaidHand,
    as_backs,
    as_whites,
    far_first,
    kong_end_backs,
    lay_out,
    shadowed,
)
from companion.vision.hand_search import SETS, WIN, Legal, Need, Repair, row_plans, search
from companion.vision.read import Detections

INSTANT = frozenset(t.value for t in WinType if t.is_instant)
"""Wins with no winning shape and no winning tile (八仙過海, 七搶一, 四槓; spec §3.1): the photo shows the hand
between turns (:func:`hand_need`)."""


class WayOut(Enum):
    """A refusal's way out, as data: each surface says it in its own terms (``companion score``'s options, the app's
    taps and fields), for the words of one are nonsense on the other (the command line's ``companion tai`` was once
    patched into each surface's words by pattern, and broke silently when these words changed)."""

    NONE = "none"
    CORRECT_TILE = "correct_tile"
    """A tile may be misread: correct it."""
    CLOSER = "closer"
    """The photo may be misread: photograph the hand closer, or correct the tiles read wrong."""
    BLANK_KONG = "blank_kong"
    """Four backs lying together may be a kong of blank white dragons lying face up (a set whose 白板 is blank): say
    so (:func:`score_photo` takes them so with ``blank_white``, which ``companion score --kong 5z=…`` gives)."""
    WIN_TILE = "win_tile"
    """The photo shows the hand but its winning tile (the discard still in the discarder's river): lay it beside the
    hand and photograph it again, or name it (:func:`score_photo`'s ``win_tile``, ``companion score --win-tile``, a
    typed hand); :attr:`PhotoHandError.waits` the tiles the hand as read waits on."""
    CONCEALED = "concealed"
    """A note's (:attr:`Note.way_out`): rows were taken as called melds only for lying apart; were they not called,
    say so (:func:`score_photo`'s ``concealed``, ``companion score --concealed``, the photo form's calls)."""
    SEVEN_ROB_ONE = "seven_rob_one"
    """A note's, or a refusal's second (:attr:`PhotoHandError.also`: seven flowers and 16 tiles, the winning tile not
    in the photo): all eight flowers and 16 tiles were scored as 八仙過海, but a 七搶一 winner lays the eighth flower,
    robbed from another player, with his seven: if so, say that kind of win and who was robbed (``win_type``
    ``seven_flowers_rob`` with its ``discarder``: the photo form's 胡法, ``companion score``'s kind of win)."""


class PhotoHandError(ValueError):
    """The photo does not show a winning hand this reader can make out; the message says why (``zh``: in
    Chinese), and :attr:`way_out` what the player can do, which each surface says in its own words where
    :meth:`said` puts them (the message carries none). A refusal of a hand holding tiles the player corrected
    (:attr:`Detections.picked`) says so in its ``opening`` and names them in :attr:`corrected`: each surface can say
    them in its own words in place of that opening (:meth:`said`), never by matching its words."""

    def __init__(self, message: str, zh: str, reading: tuple[str, str] | None = None,
                 check: tuple[int, ...] = (), way_out: WayOut = WayOut.NONE, after: tuple[str, str] = ("", ""),
                 fits: tuple[tuple[int, tuple[Tile, ...]], ...] = (), waits: tuple[Tile, ...] = (),
                 opening: tuple[str, str] = ("", ""), corrected: tuple[int, ...] = (), also: WayOut = WayOut.NONE,
                 closing: tuple[str, str] = ("", "")) -> None:
        super().__init__(opening[0] + message + after[0] + closing[0])
        self.zh = opening[1] + zh + after[1] + closing[1]
        self.opening = opening  # the words the message opens with (English, Chinese), apart from the rest
        self.corrected = corrected  # the detections the player corrected, where the opening blames them
        self.reading = reading  # the photo as read (:func:`reading_text`; notation, Chinese), when it says no win
        self.check = check  # the detections the refusal names for the player to check (a tile read surely that
        # would make the hand a win as another kind, the copies of a kind read too often)
        self.fits = fits  # of those, each read surely that would make the hand a win, with the kinds it would as
        self.way_out = way_out
        self.waits = waits  # a hand shown without its winning tile (:attr:`WayOut.WIN_TILE`): the tiles it waits on
        self._before = (message, zh)  # the way out is said between these and ``after`` (the photo as read)
        self._after = after
        self.also = also  # a second way out, for what ``after`` says (a Seven rob one), said before ``closing``
        self._closing = closing

    def said(self, way: tuple[str, str], corrections: tuple[str, str] | None = None,
             also: tuple[str, str] = ("", "")) -> tuple[str, str]:
        """The refusal (English, Chinese) with a surface's words for :attr:`way_out` (``way``, each beginning with
        its own separator, ``"; "`` / ``"；"``) where they go: at the end, or before the photo as read; and, where it
        blames the player's corrections (:attr:`corrected`), the surface's words for them (``corrections``: "not a
        win with your correction (--tile 1.17=5s)") in place of its opening; and the surface's words for
        :attr:`also` (``also``) after ``after``, before its ``closing``."""
        en, zh = corrections if corrections is not None and self.corrected else self.opening
        return (en + self._before[0] + way[0] + self._after[0] + also[0] + self._closing[0],
                zh + self._before[1] + way[1] + self._after[1] + also[1] + self._closing[1])


@dataclass(frozen=True, slots=True)
class Note:
    """One thing the reader assumed or doubts, in both languages; :attr:`way_out` what the player can do about it,
    which each surface says in its own words after it (:meth:`said`): the words carry none."""

    en: str
    zh: str
    way_out: WayOut = WayOut.NONE

    def said(self, way: tuple[str, str]) -> tuple[str, str]:
        """The note (English, Chinese) with a surface's words for :attr:`way_out` after it (each beginning with its
        own separator)."""
        return self.en + way[0], self.zh + way[1]

    def to_dict(self) -> dict[str, str]:
        return {"message": self.en, "message_zh": self.zh,
                **({"way_out": self.way_out.value} if self.way_out is not WayOut.NONE else {})}


@dataclass(frozen=True, slots=True)
class PhotoWin:
    """The hand of a photo as scored: ``win`` and its ``score``; ``concealed`` and ``melds`` as detection
    indices (the winning tile's copy among the concealed ones is ``win_index``; -1 for a win with no winning
    tile, :data:`INSTANT`, but for the eighth flower's replacement of a 八仙過海 of 17); ``kinds`` the tile each
    detection of the hand was taken as; ``win_tiles`` each possible winning tile with its hand tai (one entry
    when the tile was set apart or named); ``repairs`` and ``doubts`` as above."""

    win: Win
    score: Score
    concealed: tuple[int, ...]
    melds: tuple[tuple[int, ...], ...]
    flowers: tuple[int, ...]
    win_index: int
    marked: bool
    """The winning tile scored is the one set apart in the photo (or the win has none)."""
    named: bool
    """The player named the winning tile."""
    kinds: Mapping[int, Tile]
    win_tiles: tuple[tuple[Tile, int], ...]
    repairs: tuple[Repair, ...]
    doubts: tuple[Note, ...]


DEFAULTS = {"win_type": "self_draw", "seat_wind": "E", "round_wind": "E", "dealer": "E", "streak": 0}
"""What a photo's context is taken to be where it says nothing (each said in :attr:`PhotoWin.doubts`)."""


def with_defaults(context: Mapping[str, Any]) -> dict[str, Any]:
    """``context`` with :data:`DEFAULTS` for what it lacks; a discarder given means a win on a discard."""
    out = {**DEFAULTS, **context}
    if context.get("discarder") is not None and "win_type" not in context:
        out["win_type"] = "discard"
    return out


def is_instant(context: Mapping[str, Any]) -> bool:
    """The context's kind of win is one of :data:`INSTANT` (written as ``companion tai`` reads it)."""
    return str(with_defaults(context)["win_type"]).strip().lower() in INSTANT


def hand_need(context: Mapping[str, Any]) -> Need:
    """What the photo's hand comes to under the context's kind of win: 16 and the winning tile, complete; for an
    instant win the hand between turns, 16, complete or not (七搶一 is won on another player's flower, 四槓 ends the
    hand at the fourth kong), and for 八仙過海 17 too: its holder may have drawn the eighth flower's replacement
    (spec §4.2, §6.3), as ``companion tai`` takes it."""
    kind = str(with_defaults(context)["win_type"]).strip().lower()
    if kind not in INSTANT:
        return WIN
    between = 3 * SETS + 1
    if kind == WinType.EIGHT_FLOWERS.value:
        return Need((between, between + 1), WinType.EIGHT_FLOWERS, drawn=between + 1)
    return Need((between,), WinType(kind))


def dealer_is_east(profile: Profile | None) -> bool:
    """The rule set counts the seat winds from the dealer (dealer_east, spec §2.15): the dealer is East by rule."""
    return profile is not None and profile.switch("seat_wind") == "dealer_east"


def check_context(context: Mapping[str, Any], profile: Profile | None = None) -> None:
    """Refuse a context that no hand could be scored with (an unknown key or flag, a bad wind, a negative streak,
    the winner as discarder…) before any photo is read: a ``WinInputError`` naming the field, which says when a
    value it clashes with was only assumed."""
    probe = {**with_defaults(context), "concealed": "123m456m789m123p456p4s", "melds": [], "flowers": "",
             "win_tile": None if is_instant(context) else "1z"}
    flags = probe.get("flags")
    if isinstance(flags, Mapping):  # a flag may need a kong among the melds, or a flower: the photo's are not known
        # yet (a review found 花上開花 always refused: the probe hand has no flower)
        probe["flags"] = {k: v for k, v in flags.items() if k not in ("replacement_after", "after_kong", "after_flower")}
    try:
        Win.from_dict(probe)
    except WinInputError as e:
        if e.field == "discarder" and e.reason == "the winner cannot be the discarder" and "seat_wind" not in context:
            raise WinInputError(e.field, f"{e.reason} (the winner's seat was assumed East: give --seat)",
                                f"{e.zh}（胡牌的人的座位是假設的東：請用 --seat 指定）") from None
        if e.field in _DEALER_FLAGS and dealer_is_east(profile):  # the dealer is East by rule: the seat says it
            raise WinInputError(e.field, f"{e.reason} (the dealer is East under these rules: give the winner's --seat "
                                         "as seen from the dealer)",
                                f"{e.zh}（這套規則莊家坐東：請以莊家為東用 --seat 指定胡牌者的門風）") from None
        if e.field in _DEALER_FLAGS and "dealer" not in context:  # these flags ask who the dealer is
            raise WinInputError(e.field, f"{e.reason} (the dealer was assumed East: give --dealer)",
                                f"{e.zh}（莊家是假設的東：請用 --dealer 指定）") from None
        raise


_DEALER_FLAGS = ("flags.heavenly", "flags.earthly", "flags.ready_first_discard")


def _alternatives(others: list[tuple[float, Legal, tuple[Repair, ...]]], context: Mapping[str, Any],
                  profile: Profile, win_tile: Tile | None) -> list[Note]:
    """A note for each other legal reading nearly as likely as the one taken, with its tai."""
    notes = []
    for _, legal, repairs in others:
        try:
            tai = max(s[2].hand_tai for s in _score_each(legal, context, profile, win_tile))
        except (NotAWin, WinInputError, PhotoHandError):
            continue
        how_en = ", ".join(f"{_en(r.read)} as {_en(r.taken)} "
                           f"({_sure(r.taken_p) if r.taken_p > 0 else 'not named by the reader'})"
                           for r in repairs) or "as read"
        how_zh = "、".join(f"{r.read.zh}當作{r.taken.zh}（{_sure(r.taken_p) if r.taken_p > 0 else '辨識沒有想到這張'}）"
                           for r in repairs) or "照讀到的"
        melds = ", ".join(f"{m.kind.en} of {format_en(m.tiles)}" for m in legal.melds) or "none"
        melds_zh = "、".join(f"{m.kind.zh}{''.join(t.zh for t in m.tiles)}" for m in legal.melds) or "沒有"
        notes.append(Note(f"also a win, nearly as likely: {how_en} (melds: {melds}): {tai} tai; check the photo",
                          f"另一種讀法也是胡牌，可能性相近：{how_zh}（吃碰槓：{melds_zh}）：{tai} 台；請對照照片"))
    return notes


def _assumed(context: Mapping[str, Any], profile: Profile | None = None) -> list[Note]:
    notes = []
    if "win_type" not in context and context.get("discarder") is None:
        notes.append(Note("assumed self-drawn: give --discarder SEAT for a win on a discard",
                          "假設是自摸：胡別人打出的牌請加 --discarder 座位"))
    for key, en, zh in (("seat_wind", "the winner sits East", "胡牌的人坐東"),
                        ("round_wind", "the round is East", "圈風是東"),
                        ("dealer", "the dealer is East", "莊家是東")):
        if key not in context and not (key == "dealer" and dealer_is_east(profile)):  # by rule, not assumed
            if key == "seat_wind" and dealer_is_east(profile) and "dealer" not in context:  # a review's wish
                en, zh = (f"{en}, so he deals (the dealer sits East in these rules, and his tai counts in every "
                          "payment)", f"{zh}，也就是莊家（這套規則莊家坐東，每筆付款都加莊家台）")
            notes.append(Note(f"assumed {en}: say otherwise with --{key.split('_')[0]}",
                              f"假設{zh}：不是的話請用 --{key.split('_')[0]} 指定"))
    if "streak" not in context:
        notes.append(Note("assumed the dealer's streak is 0: say otherwise with --streak",
                          "假設莊家沒有連莊：有的話請用 --streak 指定"))
    return notes


def _score_each(legal: Legal, context: Mapping[str, Any], profile: Profile,
                win_tile: Tile | None) -> list[tuple[int, Win, Score]]:
    """Each possible winning tile's (index, win, score), the marked one only when there is one. An instant win has
    none (index -1), but a 八仙過海 of 17 tiles: the eighth flower's replacement is the tile named, else the one set
    apart, else the one ``companion tai`` takes (:func:`replacement_named`), scored as ``companion tai`` scores it
    (the hand it completes with 8 added; 8 flat where it completes none)."""
    kinds = legal.kinds
    plan = legal.plan
    concealed = [i for i in plan.concealed if not kinds[i].is_flower]
    flowers = [kinds[i] for i in legal.flowers]
    chosen = None  # the eighth flower's replacement companion tai takes
    if legal.added is not None:  # the winning tile named, not in the photo: every tile shown is the hand's own
        obj = {**with_defaults(context), "concealed": format_tiles(sorted(kinds[j] for j in concealed)),
               "win_tile": legal.added.code, "melds": [str(m) for m in legal.melds],
               "flowers": format_tiles(sorted(flowers))}
        win = Win.from_dict(obj)
        return [(-1, win, score(win, profile))]
    if is_instant(context):
        obj = {**with_defaults(context), "concealed": format_tiles(sorted(kinds[j] for j in concealed)),
               "win_tile": None, "melds": [str(m) for m in legal.melds], "flowers": format_tiles(sorted(flowers))}
        win = Win.from_dict(obj)
        drawn = win.win_type is WinType.EIGHT_FLOWERS and len(win.concealed) + 3 * len(win.melds) == 3 * SETS + 2
        if drawn and win_tile is None and legal.apart < 0:
            chosen = replacement_named(win, profile).win_tile
        if not drawn or (win_tile is None and legal.apart < 0 and chosen is None):
            return [(-1, win, score(win, profile))]
    if win_tile is not None:
        candidates = [i for i in concealed if kinds[i] == win_tile][:1]
        if not candidates:
            raise PhotoHandError(f"--win-tile {win_tile.code}: no {_en(win_tile)} among the concealed tiles "
                                 f"({format_en(kinds[i] for i in concealed)})",
                                 f"--win-tile {win_tile.code}：手牌裡沒有{win_tile.zh}"
                                 f"（{format_tiles(sorted(kinds[i] for i in concealed))}）")
    elif legal.apart >= 0:
        candidates = [legal.apart]
    elif chosen is not None:
        candidates = [next(i for i in concealed if kinds[i] == chosen)]
    else:
        first: dict[Tile, int] = {}
        for i in concealed:
            first.setdefault(kinds[i], i)
        candidates = sorted(first.values(), key=lambda i: kinds[i])
    out = []
    last: Exception | None = None
    for i in candidates:
        obj = {**with_defaults(context), "concealed": format_tiles(sorted(kinds[j] for j in concealed if j != i)),
               "win_tile": kinds[i].code, "melds": [str(m) for m in legal.melds],
               "flowers": format_tiles(sorted(flowers))}
        try:
            win = Win.from_dict(obj)
            out.append((i, win, score(win, profile)))
        except (NotAWin, WinInputError) as e:  # a FalseWin too (under the profile's minimum with this winning
            last = e  # tile); a winning tile the context rules out (a robbed kong's tile held by the winner)
    if not out and last is not None:
        raise last
    return out


def reading_text(dets: Detections, laid: LaidHand, zh: bool = False) -> str:
    """The photo as read, row by row (``row 1: …; row 2: …``, 「第 1 列：…；第 2 列：…」: no parentheses, for it is
    said in some, a review read "(read, row by row: 1) 1p …)"), groups apart by `` | ``, unsure faces marked ``?``,
    the flowers and the face-down tiles left out last: what a person checks against the photo. In the notation, or
    with ``zh`` by the tiles' Chinese names (一萬 …, unsure ``？``)."""
    doubtful = dets.doubtful()

    def name(i: int) -> str:
        t = Tile(int(dets.kind[i]))
        return (t.zh + "？" if doubtful[i] else t.zh) if zh else t.code + ("?" if doubtful[i] else "")

    parts = [(f"第 {n} 列：" if zh else f"row {n}: ") + " | ".join(" ".join(name(i) for i in g.tiles) for g in row)
             for n, row in enumerate(laid.rows, 1)]
    if laid.flowers:
        parts.append(("花：" if zh else "flowers: ") + " ".join(name(i) for i in laid.flowers))
    if laid.stray:
        parts.append(f"蓋著 {len(laid.stray)} 張" if zh else f"{len(laid.stray)} face down")
    return ("；" if zh else "; ").join(parts) or "-"


def own_kong(context: Mapping[str, Any]) -> bool:
    """The context says the hand was won on the replacement after the winner's own kong (槓上開花, ``after_kong``
    with no ``replacement_after`` naming the kong): a kong lying face up was then added to a called pung (加槓), or
    was concealed and turned up, never claimed from a discard, which the rules may make a false win (spec §2.10)."""
    flags = context.get("flags") or {}
    return bool(flags.get("after_kong")) and not flags.get("replacement_after")


def _kongs_as_said(legal: Legal, kongs: Mapping[Tile, MeldKind],
                   concealed: bool = False, own: bool = False) -> tuple[Legal, list[Note]]:
    """Face-up kongs of the kinds in ``kongs`` made that kind of kong (加槓, or 暗槓 turned up at the win); a
    note for each other face-up kong, taken as exposed (明槓), or as added where the win came after the winner's
    own kong (``own``: :func:`own_kong`). ``concealed`` (the player says nothing was called):
    each is a concealed kong turned up, and said; a :class:`PhotoHandError` where ``kongs`` calls it otherwise,
    naming the option to drop (but ``5z=kong``, said to take four backs as blank white dragons, is then concealed too:
    a review followed the refusal's own advice and was refused again)."""
    melds, notes = [], []
    for m in legal.melds:
        said = kongs.get(m.tile, MeldKind.CKONG)
        if m.kind is MeldKind.KONG and concealed and said is MeldKind.KONG and m.tile is Tile.Z5:
            said = MeldKind.CKONG  # 5z=kong: four backs are blank white dragons (the kong, concealed, as the rest)
        if m.kind is MeldKind.KONG and concealed and said is not MeldKind.CKONG:
            added = said is MeldKind.ADDKONG
            raise PhotoHandError(f"--kong {m.tile.code}={said.value} says the kong of {_en(m.tile)} was "
                                 f"{'added to a called pung' if added else 'made on a discard (exposed)'}, but "
                                 f"--concealed says nothing was called: drop one of the two",
                                 f"--kong {m.tile.code}={said.value} 表示{m.tile.zh}的槓是"
                                 f"{'加槓（碰了再槓）' if added else '明槓（槓別人打出的牌）'}，但 --concealed 又說沒有"
                                 "吃碰（門清）：請拿掉其中一個")
        if m.kind is MeldKind.KONG and concealed:
            if kongs.get(m.tile) is not MeldKind.CKONG:
                notes.append(Note(f"nothing was called, so the kong of {_en(m.tile)} lying face up is taken as a "
                                  "concealed kong turned up",
                                  f"沒有吃碰（門清）：{m.tile.zh}整組朝上的槓當作翻開的暗槓"))
            m = Meld(MeldKind.CKONG, m.tiles)
        elif m.kind is MeldKind.KONG and m.tile in kongs:
            m = Meld(kongs[m.tile], m.tiles)
        elif m.kind is MeldKind.KONG and own:  # (a review's was scored a false win, as a kong of a discard)
            notes.append(Note(f"the {_en(m.tile)} kong lies face up and the win came after the winner's own kong, so "
                              f"it is taken as an added kong; --kong {m.tile.code}={MeldKind.CKONG.value} (a "
                              f"concealed kong turned up) or ={MeldKind.KONG.value} (an exposed kong) says otherwise",
                              f"{m.tile.zh}的槓整組朝上，胡在自己槓後補的牌：當作加槓；暗槓翻開的請用 --kong "
                              f"{m.tile.code}=ckong，明槓請用 --kong {m.tile.code}=kong"))
            m = Meld(MeldKind.ADDKONG, m.tiles)
        elif m.kind is MeldKind.KONG:
            notes.append(Note(f"the {_en(m.tile)} kong lies face up, so it is taken as an exposed kong; "
                              f"--kong {m.tile.code}=addkong (an added kong) or ={MeldKind.CKONG.value} (a concealed "
                              "kong turned up) says otherwise",
                              f"{m.tile.zh}的槓整組朝上：當作明槓；加槓請用 --kong {m.tile.code}=addkong，"
                              f"暗槓翻開的請用 --kong {m.tile.code}=ckong"))
        melds.append(m)
    return dataclasses.replace(legal, melds=tuple(melds)), notes


def score_photo(dets: Detections, context: Mapping[str, Any], profile: Profile,
                win_tile: Tile | None = None, kongs: Mapping[Tile, MeldKind] | None = None,
                blank_white: bool = False, concealed: bool = False, kind_recorded: bool = False) -> PhotoWin:
    """Score the hand of the photo read as ``dets``. ``context`` holds the fields of ``companion tai``'s JSON
    input other than the tiles (``win_type``, ``discarder``, ``seat_wind``, ``flags``…); what it lacks of the
    kind of win and the winds is assumed (self-drawn, East everywhere) and said. ``win_tile`` is the winning
    tile the player names (else the one set apart, else each in turn); where the photo shows 16 tiles, not the
    winning one, the tile named completes them (without it the refusal names the waits: :data:`WayOut.WIN_TILE`).
    All eight flowers beside 16 tiles on a self-draw are 八仙過海 (:func:`only_eight_flowers`), and said, but where
    ``kind_recorded``: the context's kind of win is the one a table recorded (the Live tab's), and is kept.
    ``kongs`` says which face-up kongs were added (``addkong``) or concealed ones turned up (``ckong``); the
    others are taken as exposed and said. ``blank_white``: the player says the hand holds a kong of white dragons
    whose faces are blank (``--kong 5z=…``): four backs lying together are taken as it, of the kind ``kongs`` says.
    ``concealed``: the player says nothing was called (門清): every row is concealed tiles but a concealed kong's
    with tiles face down, however the rows lie (:func:`_as_concealed`). Otherwise a row taken as called melds only
    for lying apart, no tile of it across the row to mark a claim, is said with the tai it would be concealed
    (:func:`_called_by_layout`).
    Raises :class:`PhotoHandError` when no reading of the photo is a legal win, and the rules' own errors
    (``WinInputError``, ``NotAWin``) for a context that does not fit the hand."""
    laid = lay_out(dets)
    short = _short_of_win(dets, laid, WIN)  # (once: each check below asks it of the photo as read)
    context, eight = (context, False) if kind_recorded else _eight_flowers(dets, laid, context, win_tile, short)
    alone = _flowers_alone(dets, laid, context, profile, win_tile)
    if alone is not None:
        return alone
    need = hand_need(context)
    if win_tile is not None and not need.instant and short:
        need = dataclasses.replace(need, sizes=(need.sizes[0] - 1,), added=win_tile)
        _ask_discarder(win_tile, context)
    try:
        plans, refused = _plans_or_refuse(dets, laid, need, concealed, short, kind_recorded), None
    except PhotoHandError as why:
        plans, refused = [], why
    found = search(dets, laid, plans, need) if refused is None else []
    # face-down tiles in no concealed kong, read as blank-faced white dragons (白板): tried when the photo as read is
    # no win (a review's pung of 白 was read as three backs, and the hand refused)
    # but never four backs lying together as a group: a concealed kong laid face down, its kind unseen (a review's was
    # scored an exposed kong of 白); the refusal asks to turn one of its tiles up
    # unless the player says there is a kong of 白 (--kong 5z=…): a set whose 白板 is blank, its kong lying face up
    hidden = {i for g in laid.hidden for i in g if not (blank_white and len(g) == 4)}
    whites = [i for i in laid.stray if i not in hidden] if not found else []
    named = sum(len(g) for g in laid.hidden if blank_white and len(g) == 4) if whites else 0
    if whites:
        white = as_whites(dets, whites)
        laid_white = lay_out(white)
        plans_white, other = _attempt(white, laid_white, need, concealed)
        if other:
            dets, laid, plans, found, refused = white, laid_white, plans_white, other, None
        else:
            whites, named = [], 0
    if refused is not None:
        raise refused
    # pale backs at a concealed kong's ends, read as unsure blank white dragons: tried when the photo as read is no
    # win, or only one with tiles read otherwise, and kept when that needs fewer changes
    pale = kong_end_backs(dets) if not found or found[0][2] else []
    if pale:
        backs = as_backs(dets, pale)
        laid_backs = lay_out(backs)
        _, other = _attempt(backs, laid_backs, need, concealed)
        if other and (not found or len(other[0][2]) < len(found[0][2])):
            dets, laid, found = backs, laid_backs, other
        else:
            pale = []
    # an unsure upright box inside a claimed tile lying across the row, boxed twice: left out, when the photo as read
    # is no win otherwise, or only with a tile taken as a kind the classifier did not name (that box as the pung's
    # fourth 6p made a kong of it, once flowers no longer fitted it as well)
    guessed = not found or math.isinf(found[0][0])
    twice = shadowed(dets) if guessed else []
    if twice:
        laid_once = lay_out(dets, frozenset(twice))
        plans_once, once = _attempt(dets, laid_once, need, concealed)
        if once and (not found or math.isfinite(once[0][0])):
            laid, plans, found = laid_once, plans_once, once
        else:
            twice = []
    # tiles lying alone, each a row of its own, away from the hand (a discard or a neighbour's tile in the shot, a
    # box on a patterned table): left out, when the photo as read is no win otherwise (a review's hand read exactly
    # right beside a lone 9p was refused as "a false win?")
    # every choice of them tried: where two each win, and differently, the player is asked which is no part of it
    apart: list[int] = []
    same_en = same_zh = ""
    if not found or math.isinf(found[0][0]):
        choices = _without_lone(dets, laid, frozenset(twice), need, concealed)
        if choices:
            (apart, laid, plans, found), same_en, same_zh = _lone_choice(dets, laid, choices, context, profile,
                                                                         win_tile, kongs or {})
    if not found:
        read, read_zh = reading_text(dets, laid), reading_text(dets, laid, zh=True)
        n = hand_search.MAX_CHANGES
        # a kind read more often than a set holds first: a flower corrected into a second copy was refused by count
        # (a review's --tile 1.11=2f beside a 2f: "no way of laying out the rows"), not for the copy it made
        _refuse_too_many(dets, laid)
        _refuse_by_count(dets, laid, plans, need, context)
        _refuse_named_no_win(dets, laid, need)
        _refuse_sure_fits(dets, laid, plans, need)
        which, which_zh = _which_kind(dets, laid, plans, need)
        if not dets.doubtful().any():  # every face read surely: the hand, not the photo, is at fault (a review)
            # (no word of a false win: at a table that is a penalty, and a photo cannot tell a misread tile from one)
            raise PhotoHandError(f"every tile was read surely, and no arrangement of them is a winning hand: check "
                                 f"the tiles against the photo (read, row by row: {read}){which}",
                                 f"每張牌都讀得很確定，但怎麼排都不是胡牌：請對照照片檢查（逐列讀到：{read_zh}）"
                                 f"{which_zh}",
                                 (read, read_zh), way_out=WayOut.CORRECT_TILE)
        raise PhotoHandError(f"no reading of the photo is a winning hand, even with up to {n} doubtful tiles read "
                             f"otherwise or one unsure tile as any kind (read, row by row, ? = unsure: {read}){which}",
                             f"照片怎麼讀都不是胡牌，改讀最多 {n} 張不確定的牌、或把一張不確定的牌當任何一種也不行"
                             f"（逐列讀到，？= 不確定：{read_zh}）{which_zh}",
                             (read, read_zh), way_out=WayOut.CLOSER)
    _, legal, repairs = found[0]
    legal, kong_notes = _kongs_as_said(legal, kongs or {}, concealed, own_kong(context))
    scored = _score_each(legal, context, profile, win_tile)
    best = max(scored, key=lambda s: (s[2].hand_tai, -s[0]))
    doubts = [*map(_repair_note, repairs), *_alternatives(found[1:], context, profile, win_tile), *kong_notes]
    hand = {*legal.plan.concealed, *(j for m in legal.meld_idx for j in m), *legal.flowers}  # (a flower read in
    # the concealed row is in both)
    doubtful = dets.doubtful()
    shaky = {r.index for r in repairs} | {i for i in hand if doubtful[i]}
    if len(shaky) >= SHAKY:  # first: a review read nine warnings under a hand read wrong at 32 px a tile
        doubts.insert(0, Note(f"{len(shaky)} of the hand's {len(hand)} tiles were read unsure or changed: this reading "
                              "is likely wrong; check each tile below against the photo, or photograph the hand closer",
                              f"這手 {len(hand)} 張牌裡有 {len(shaky)} 張讀得不確定或被改讀：這個結果很可能不對；"
                              "請逐張對照照片，或拍近一點"))
    if legal.plan.split:
        doubts.append(Note("the hand's row has gaps: its groups are taken as concealed tiles (melds lie in a row of "
                           "their own, in front of the hand)",
                           "手牌那一列中間有空隙：各組都當作手牌（吃碰槓要另外排一列，放在手牌前面）"))
    if not concealed:  # rows taken as called only for lying apart (a review's concealed hand in two rows paid short)
        doubts += _called_by_layout(laid, legal, need, context, profile, win_tile, best)
    doubts += _unsure_notes(dets, legal, {r.index for r in repairs}, best, profile)
    doubts += _flower_notes(dets, legal, best, profile, {r.index for r in repairs})
    doubts += _win_tile_notes(legal, scored, best, win_tile, need.instant)
    if pale:
        doubts.append(Note(f"{len(pale)} tile(s) read as a blank white dragon at the end of a concealed kong taken "
                           "as its face-down tiles (the set's backs are pale)",
                           f"{len(pale)} 張讀成白板的牌在暗槓的兩端，當作蓋著的牌（這副牌的背面顏色很淡）"))
    if twice:
        doubts.append(Note(f"{len(twice)} box(es) read unsure inside a tile lying across its row left out (the same "
                           f"tile boxed twice: read {', '.join(_en(Tile(int(dets.kind[i]))) for i in twice)})",
                           f"{len(twice)} 個讀得不確定的框在一張橫放的牌裡面，當作同一張牌框了兩次，不計（讀成"
                           f"{'、'.join(Tile(int(dets.kind[i])).zh for i in twice)}）"))
    if named:  # (four backs together are taken as 白 only so)
        doubts.append(Note(f"{named} face-down tile(s) taken as white dragons, as --kong 5z said: check that "
                           "they are blank white dragons, not a concealed kong laid face down",
                           f"{named} 張蓋著的牌照 --kong 5z 當作白板：請確認它們是牌面空白的白板，不是蓋著的暗槓"))
    if len(whites) > named:  # (not "blank in this set": nothing in the photo says so; a review's set had a framed 白板)
        doubts.append(Note(f"{len(whites) - named} face-down tile(s) outside any concealed kong taken as white dragons: "
                           "only then is the hand a win (in some sets the white dragon is blank and looks like a "
                           "tile's back); check them in the photo",
                           f"{len(whites) - named} 張蓋著的牌不屬於暗槓，當作白板：這樣才是胡牌（有些牌的白板是空白的，"
                           "看起來像背面）；請對照照片"))
    if apart:
        names_en = ", ".join(_en(Tile(int(dets.kind[i]))) for i in apart)
        names_zh = "、".join(Tile(int(dets.kind[i])).zh for i in apart)
        one = len(apart) == 1  # (a review read "1 tile(s) lying alone ... without them")
        doubts.append(Note(f"{'a tile' if one else f'{len(apart)} tiles'} lying alone away from the hand "
                           f"{'was' if one else 'were'} left out (read {names_en}): the hand is a win without "
                           f"{'it; check that it is' if one else 'them; check that they are'} no part of it{same_en}",
                           f"{len(apart)} 張離手牌很遠、單獨擺著的牌不計（讀成{names_zh}）：不算{'它' if one else '它們'}"
                           f"才是胡牌；請確認{'它' if one else '它們'}不是這手牌的{same_zh}"))
    if legal.added is not None:
        doubts.append(Note(f"the winning tile, {_en(legal.added)}, is not in the photo: scored as named",
                           f"照片裡沒有胡的那張{legal.added.zh}：照指定的計"))
    if eight:
        doubts.append(eight_flowers_note(alone=False))
    if laid.stray:
        doubts.append(Note(f"{len(laid.stray)} face-down tile(s) are in no concealed kong: left out",
                           f"{len(laid.stray)} 張蓋著的牌不屬於暗槓：不計"))
    doubts.extend(_assumed(context, profile))
    kinds = {i: legal.kinds[i] for i in (*legal.plan.concealed, *(j for m in legal.meld_idx for j in m),
                                          *legal.flowers)}
    own = tuple(i for i in legal.plan.concealed if i not in legal.flowers)
    return PhotoWin(best[1], best[2], own, legal.meld_idx, legal.flowers, best[0],
                    (best[0] < 0 and legal.added is None) or
                    (legal.apart >= 0 and legal.kinds[legal.apart] == best[1].win_tile),
                    win_tile is not None, kinds,
                    tuple((s[1].win_tile, s[2].hand_tai) for s in scored if s[1].win_tile is not None),
                    repairs, tuple(doubts))


SHAKY = 4
"""A hand with this many tiles read unsure or changed says first that its reading is likely wrong."""


def _attempt(dets: Detections, laid: LaidHand, need: Need, concealed: bool = False
             ) -> tuple[list[hand_search.Plan], list[tuple[float, Legal, tuple[Repair, ...]]]]:
    """The plans of ``dets`` laid out as ``laid``, and the readings of them that win; none where no plan fits (a
    second try at a photo: as read, its refusal is said)."""
    try:
        plans = _plans_or_refuse(dets, laid, need, concealed)
    except PhotoHandError:
        return [], []
    return plans, search(dets, laid, plans, need)


def _which_kind(dets: Detections, laid: LaidHand, plans: list[hand_search.Plan], need: Need) -> tuple[str, str]:
    """For a refusal: the tile that each of two or three kinds would make a win of (:func:`hand_search.ambiguous`),
    named by its row and place for the player to tell which it is, after ``"; "`` / ``"；"`` (``""`` each where there
    is none)."""
    found = hand_search.ambiguous(dets, laid, plans, need)
    if found is None:
        return "", ""
    i, kinds = found
    at, at_zh = _place(laid, i)
    read = Tile(int(dets.kind[i]))
    return (f"; the tile read {_en(read)} ({at}) would make a win as {' or '.join(map(_en, kinds))}: check which "
            "it is",
            f"；{at_zh}（讀成{read.zh}）當作{'或'.join(k.zh for k in kinds)}都能胡：請看清楚是哪一張")


def _place(laid: LaidHand, i: int) -> tuple[str, str]:
    """Where detection ``i`` lies, as a player finds it: ``row 2, tile 3`` / ``第 2 列第 3 張`` (or among the
    flowers)."""
    for r, groups in enumerate(laid.rows, 1):
        tiles = [j for g in groups for j in g.tiles]
        if i in tiles:
            return f"row {r}, tile {tiles.index(i) + 1}", f"第 {r} 列第 {tiles.index(i) + 1} 張"
    return "among the flowers", "花牌裡"


_TIMES = {2: ("twice", "two"), 3: ("three times", "three"), 4: ("four times", "four"), 5: ("five times", "five"),
          6: ("six times", "six"), 7: ("seven times", "seven"), 8: ("eight times", "eight")}


def _refuse_too_many(dets: Detections, laid: LaidHand) -> None:
    """For a photo no reading of which is a win: where a kind is read more often than a set holds it (a fifth 5m, a
    second 3f), a :class:`PhotoHandError` saying so and naming where each copy lies, before any word of a win: one
    of them is misread (a review's five 5m were refused as "no arrangement is a winning hand (a false win?)")."""
    over = dets.over_read()
    if not over:
        return
    read, read_zh = reading_text(dets, laid), reading_text(dets, laid, zh=True)
    said_en, said_zh, check = [], [], []
    for t, n in sorted(over.items()):
        copies = [i for i in range(len(dets)) if dets.face_up[i] and int(dets.kind[i]) == int(t)]
        check += copies
        at: dict[int, list[int]] = {}  # row -> places in it (0: among the flowers)
        for i in copies:
            row = next((r for r, groups in enumerate(laid.rows, 1) for g in groups if i in g.tiles), 0)
            tiles = [j for g in laid.rows[row - 1] for j in g.tiles] if row else list(laid.flowers)
            at.setdefault(row, []).append(tiles.index(i) + 1 if i in tiles else 0)
        where_en = "; ".join((f"row {r}, tile" if r else "flower") + ("s " if len(k) > 1 else " ")
                             + ", ".join(map(str, sorted(k))) for r, k in sorted(at.items()))
        where_zh = "；".join((f"第 {r} 列" if r else "花牌") + f"第 {'、'.join(map(str, sorted(k)))} 張"
                             for r, k in sorted(at.items()))
        most = t.max_copies
        said_en.append(f"{_en(t)} read {_TIMES.get(n, (f'{n} times', ''))[0]}; a set has "
                       f"{'one' if most == 1 else _TIMES.get(most, ('', str(most)))[1]} ({where_en})")
        said_zh.append(f"{t.zh}讀到 {n} 張，一副牌只有 {most} 張（{where_zh}）")
    raise PhotoHandError(f"{'; '.join(said_en)}: one of them is another tile: check them against the photo "
                         f"(read, row by row: {read})",
                         f"{'；'.join(said_zh)}：其中有讀錯的，請對照照片檢查（逐列讀到：{read_zh}）",
                         (read, read_zh), tuple(check), WayOut.CORRECT_TILE)


def _refuse_sure_fits(dets: Detections, laid: LaidHand, plans: list[hand_search.Plan], need: Need) -> None:
    """For a photo no reading of which is a win: where a tile read surely would make it one as another kind
    (:func:`hand_search.sure_fits`), a :class:`PhotoHandError` saying the hand is no win as read and naming that
    tile and kind. Such a tile was once taken as the kind silently, and a hand one tile from a win scored and paid (a
    review: 9s read at 86% taken as 1s; a 7p set apart at 83% taken as the hand's only wait, 3p)."""
    fits = hand_search.sure_fits(dets, laid, plans, need)
    if not fits:
        return
    read, read_zh = reading_text(dets, laid), reading_text(dets, laid, zh=True)
    ifs_en, ifs_zh = [], []
    for i, kinds in fits:
        t, (at, at_zh) = Tile(int(dets.kind[i])), _place(laid, i)
        ifs_en.append(f"the {_en(t)} ({_sure(float(dets.score[i]))} sure; {at}) were {' or '.join(map(_en, kinds))}")
        ifs_zh.append(f"{at_zh}的{t.zh}（{_sure(float(dets.score[i]))} 把握）其實是{'或'.join(k.zh for k in kinds)}")
    that_en, that_zh = ("that tile", "那張牌") if len(fits) == 1 else ("those tiles", "那幾張牌")
    # the hand holding tiles the player corrected is his reading, not the photo's: said so (each surface names them)
    picked = tuple(i for i, said in enumerate(dets.picked) if said) if dets.picked is not None else ()
    opening = ("not a win with the tiles corrected", "照改正過的牌不是胡牌") if picked else \
        ("not a win as read", "照讀到的不是胡牌")
    raise PhotoHandError(f"; it would be one if {', or '.join(ifs_en)}: check {that_en} "
                         f"(read, row by row: {read})",
                         f"；若{'，或'.join(ifs_zh)}，才是胡牌：請檢查{that_zh}（逐列讀到：{read_zh}）",
                         (read, read_zh), tuple(i for i, _ in fits), WayOut.CORRECT_TILE,
                         fits=tuple((i, tuple(kinds)) for i, kinds in fits), opening=opening, corrected=picked)


def _plans_or_refuse(dets: Detections, laid: LaidHand, need: Need, concealed: bool = False,
                     short: bool | None = None, kind_recorded: bool = False) -> list[hand_search.Plan]:
    """The rows' plans (``concealed``: every row concealed, :func:`_as_concealed`), or a :class:`PhotoHandError`
    saying why the photo cannot hold a winning hand (``short``: :func:`_short_of_win` of the photo under
    :data:`WIN`, where known; ``kind_recorded``: as :func:`score_photo`'s, :func:`_refuse_missing_win`)."""
    in_rows = _in_rows(dets, laid)
    plans = row_plans(laid, in_rows)
    counts = [laid.tile_count(r) for r in range(len(laid.rows))]
    total = sum(counts)
    read, read_zh = reading_text(dets, laid), reading_text(dets, laid, zh=True)
    if len(laid.flowers) > 8:
        raise PhotoHandError(f"{len(laid.flowers)} flowers found: a set has 8 (read: {read})",
                             f"找到 {len(laid.flowers)} 張花牌，一副牌只有 8 張（讀到：{read_zh}）", (read, read_zh))
    fewest = min(need.sizes)
    down = len(laid.stray)
    # only backs: a cup, a wall, no hand; or one to three of them alone (a review was told "no tile found" beside the
    # face-down tile it was shown)
    if down and total < fewest and not dets.face_up.any() and (down >= 4 or total == 0):
        raise PhotoHandError(f"no face-up tile found, only {down} that {'looks' if down == 1 else 'look'} face down: "
                             f"a winning hand is laid face up (read: {read})",
                             f"沒找到翻開的牌，只有 {len(laid.stray)} 張看起來是蓋著的：胡牌的手牌要攤開（讀到：{read_zh}）", (read, read_zh))
    if len(laid.stray) >= 4 and total < fewest <= total + len(laid.stray):  # the backs would make up the count
        # four together may be a kong of blank 白板 lying face up, with nothing to turn over (a product review): said
        blank = WayOut.BLANK_KONG if any(len(g) == 4 for g in laid.hidden) else WayOut.NONE
        raise PhotoHandError(f"{len(laid.stray)} tiles lie face down: turn one tile of a concealed kong face up so "
                             "its kind shows",
                             f"有 {len(laid.stray)} 張牌蓋著：暗槓請翻開一張，讓它的牌面看得到",
                             (read, read_zh), way_out=blank, after=(f" (read: {read})", f"（讀到：{read_zh}）"))
    if total == 0:
        flowers = len(laid.flowers)
        # (a review read "no tile found in the photo but 8 flower(s)")
        but_en = f", only {flowers} flower{'s' if flowers != 1 else ''}" if flowers else ""
        but_en += f"{' and' if flowers else ', only'} {down} face down" if down else ""
        but_zh = f"（只有 {flowers} 張花牌{f'、{down} 張蓋著的牌' if down else ''}）" if flowers else \
            f"（只有 {down} 張蓋著的牌）" if down else ""
        raise PhotoHandError(f"no tile found in the photo{but_en}: photograph "
                             "the whole hand laid face up, from above, the tiles filling most of the picture",
                             f"照片裡沒找到牌{but_zh}：請從上方拍整手攤開的牌，"
                             "讓牌佔畫面的大部分")
    _refuse_missing_win(dets, laid, need, short, kind_recorded)
    if not plans or total < fewest or total - len(in_rows) > 4 * SETS + 2:  # 17, or 22 with five kongs
        tiles = total - len(in_rows)  # (a flower in a row is counted by the checks above: it may be a misread tile)
        en, zh = _count_said(dets, laid, need, in_rows)
        # far more than a hand (a page of text, a screenshot's rows): no reading of hundreds of tiles (a review)
        many = tiles > 2 * (4 * SETS + 2)
        said_en = ": is this a photo of one laid-down hand?" if many else f" (read: {read})"
        said_zh = "：這是一手攤開的牌的照片嗎？" if many else f"（讀到：{read_zh}）"
        raise PhotoHandError(en + said_en, zh + said_zh, (read, read_zh))
    return _as_concealed(plans) if concealed else plans


def _in_rows(dets: Detections, laid: LaidHand) -> set[int]:
    """The tiles read as flowers among the rows (not laid out with the flowers): each may be a misread tile."""
    return {i for row in laid.rows for g in row for i in g.tiles if Tile(int(dets.kind[i])).is_flower}


def _short_of_win(dets: Detections, laid: LaidHand, need: Need) -> bool:
    """The photo's rows come to a winning hand but its winning tile (16, a kong one more), and to no whole one: the
    winning discard still lies in the discarder's river, the common case (a review's 16 tiles were refused as "a
    winning hand shows 17", ``--win-tile`` given or not)."""
    if need.instant or need.added is not None:
        return False
    in_rows = _in_rows(dets, laid)
    plans = row_plans(laid, in_rows)
    # (a tile read as a flower in a row may be a misread tile of the hand: counted so, the hand may be whole)
    if any(_count_fits(p, in_rows, need.sizes) or _count_fits(p, set(), need.sizes) for p in plans):
        return False
    short = need.sizes[0] - 1
    for p in plans:  # 16 exactly, a kong only where a group of four lies (not a long row cut into fours)
        own = sum(i not in in_rows for i in p.concealed)
        laid_out = sum(i not in in_rows for g in p.meld_groups for i in g.tiles)
        fours = sum(len(g) == 4 for g in p.meld_groups)
        if any(laid_out >= 4 * k and (laid_out - 4 * k) % 3 == 0 and own + laid_out - k == short
               for k in range(fours + 1)):
            return True
    return False


def waits_as_read(dets: Detections, laid: LaidHand, need: Need = WIN) -> tuple[Tile, ...]:
    """The tiles that, named as the winning tile, make the photo's hand of 16 as read a win (its waits); none where
    the rows do not come to 16 so, or no tile completes them."""
    in_rows = _in_rows(dets, laid)
    plans = row_plans(laid, in_rows)
    kinds = {i: Tile(int(k)) for i, k in enumerate(dets.kind)}
    short = (need.sizes[0] - 1,)
    return tuple(t for t in Tile if t.is_known and not t.is_flower and
                 any(hand_search.legal_reading(p, kinds, laid.flowers, Need(short, added=t)) is not None
                     for p in plans))


def _waits_said(waits: tuple[Tile, ...]) -> tuple[str, str]:
    """The tiles the hand as read waits on, said (English, Chinese), or that none completes it."""
    if waits:
        return (f"as read, the hand waits on {' or '.join(map(_en, waits))}",
                f"照讀到的，這手聽{'、'.join(t.zh for t in waits)}")
    return "as read, no tile completes the hand", "照讀到的，沒有一張牌能讓這手胡"


def _refuse_missing_win(dets: Detections, laid: LaidHand, need: Need, short: bool | None = None,
                        kind_recorded: bool = False) -> None:
    """For a photo whose rows come to a winning hand but its winning tile (:func:`_short_of_win`; ``short``: its
    answer under :data:`WIN`, where known): a :class:`PhotoHandError` saying the winning tile is not in the photo,
    the tiles the hand as read waits on, and (:attr:`WayOut.WIN_TILE`) how to give it; where no tile completes it,
    that the tiles are to be checked (:attr:`WayOut.CORRECT_TILE`: no winning tile to name). A review was told "a
    winning hand shows 17" and a ``--tile`` example, neither of which helps (the app's said to tap a misread tile).
    A kind read more often than a set holds (a flower read twice) is said first (:func:`_refuse_too_many`): the
    waits cannot be told then (a review's 5677f was refused as waiting on nothing, with seven flowers). All eight
    flowers are said to make it Eight flowers but where the kind of win is one a table recorded (``kind_recorded``:
    a Live tab's self-draw was told so)."""
    if not (short if short is not None and not need.instant and need.added is None else
            _short_of_win(dets, laid, need)):
        return
    _refuse_too_many(dets, laid)
    read, read_zh = reading_text(dets, laid), reading_text(dets, laid, zh=True)
    in_rows = _in_rows(dets, laid)
    tiles = sum(i not in in_rows for row in laid.rows for g in row for i in g.tiles)
    waits = waits_as_read(dets, laid, need)
    on_en, on_zh = _waits_said(waits)
    if not waits:
        on_en, on_zh = on_en + ": check the tiles", on_zh + "：請檢查讀到的牌"
    kinds = {int(dets.kind[i]) for i in laid.flowers}
    seven = not _all_flowers(dets, laid) and len(laid.flowers) == 7 == len(kinds)  # its way out said by each surface
    eight_en, eight_zh = ("", "") if kind_recorded and _all_flowers(dets, laid) else \
        ("; with all eight flowers it is Eight flowers, won on the eighth flower, not on a discard",
         "；八張花都到齊就是八仙過海，不是胡別人打的牌") if _all_flowers(dets, laid) else \
        ("; with seven flowers, the eighth robbed from another player, it is Seven rob one: if it was robbed, say so "
         "as the kind of win, with the player robbed",
         "；七張花、第八張是搶別家的，就是七搶一：若第八張是搶別家的，請把胡法指定為七搶一，並指定被搶的人") \
        if seven else ("", "")
    found_en, found_zh = (f"found {tiles} tiles besides the flowers", f"除了花牌找到 {tiles} 張") \
        if laid.flowers or in_rows else (f"found {tiles} tiles", f"找到 {tiles} 張")
    way = (": lay the winning tile beside the hand and photograph it again", "：請把胡的那張放在手牌旁邊再拍一次") \
        if waits else ("", "")
    raise PhotoHandError(f"{found_en}: the winning tile is not in the photo (a winning hand shows 16 and the winning "
                         f"tile); {on_en}{way[0]}",
                         f"{found_zh}：照片裡沒有胡的那張（胡牌要有 16 張加胡的那張）；{on_zh}{way[1]}",
                         (read, read_zh), way_out=WayOut.WIN_TILE if waits else WayOut.CORRECT_TILE,
                         after=(eight_en, eight_zh), closing=(f" (read: {read})", f"（讀到：{read_zh}）"),
                         waits=waits, also=WayOut.SEVEN_ROB_ONE if seven else WayOut.NONE)


def _refuse_named_no_win(dets: Detections, laid: LaidHand, need: Need) -> None:
    """For a photo of 16 whose winning tile was named (:attr:`Need.added`) and no reading of which wins on it: a
    :class:`PhotoHandError` naming the tile and the tiles the hand as read waits on."""
    if need.added is None:
        return
    read, read_zh = reading_text(dets, laid), reading_text(dets, laid, zh=True)
    waits = waits_as_read(dets, laid, dataclasses.replace(need, sizes=(need.sizes[0] + 1,), added=None))
    on_en, on_zh = _waits_said(waits)
    raise PhotoHandError(f"the winning tile named, {_en(need.added)}, is not in the photo, and the hand is no win on "
                         f"it: {on_en}; check the tile named and the tiles read (read, row by row: {read})",
                         f"指定胡的那張{need.added.zh}不在照片裡，而這手胡{need.added.zh}不是胡牌：{on_zh}；"
                         f"請檢查指定的牌和讀到的牌（逐列讀到：{read_zh}）",
                         (read, read_zh), way_out=WayOut.CORRECT_TILE, waits=waits)


class WinTileUnseen(WinInputError):
    """A winning tile named (:attr:`tile`) that is not in the photo, with no kind of win nor discarder said
    (:func:`_ask_discarder`): each surface says its own way to give who discarded it, or that it was self-drawn and
    left out of the photo (a review was told both "so it was a discard" and "if it was self-drawn")."""

    def __init__(self, tile: Tile) -> None:
        self.tile = tile
        super().__init__("discarder", f"the winning tile named, {_en(tile)}, is not in the photo: say who discarded "
                         "it, or, if it was self-drawn and left out of the photo, that it was self-drawn",
                         f"指定胡的那張{tile.zh}不在照片裡：請指定放槍的人；若是自摸、只是沒拍進照片，請指定自摸")


def _ask_discarder(win_tile: Tile, context: Mapping[str, Any]) -> None:
    """A winning tile named that is not in the photo, with no kind of win nor discarder said: a
    :class:`WinTileUnseen` asking who discarded it. It lies in a river (a self-drawn tile is photographed with the
    hand), so a self-draw, paid by all three, is no fair guess (a review's was scored so)."""
    if "win_type" in context or context.get("discarder") is not None:
        return
    raise WinTileUnseen(win_tile)


def _all_flowers(dets: Detections, laid: LaidHand) -> bool:
    """The photo's flowers laid out are all eight, each once."""
    return len({int(dets.kind[i]) for i in laid.flowers}) == 8 == len(laid.flowers)


def only_eight_flowers(context: Mapping[str, Any], flowers: Sequence[Tile], between_turns: bool,
                       win_tile: Tile | None) -> bool:
    """All eight ``flowers``, each once, beside a hand ``between_turns`` (16 tiles that are no win, or none: the
    flowers alone), on a self-draw (or nothing said: the app's form says self-drawn by default), with no discarder
    and no winning tile named: such a hand can only have been won on the eighth flower, 八仙過海 (spec §4.2), and is
    scored so, and said (:func:`eight_flowers_note`). The one test of it, for a photo's hand (:func:`score_photo`),
    a photo of the flowers alone, and a hand typed on the app's tab (a review found three, one dropping the winning
    tile named). A winning tile named says the hand was won on a tile: never taken so."""
    said = str(with_defaults(context)["win_type"]).strip().lower()
    return (between_turns and win_tile is None and said == WinType.SELF_DRAW.value
            and context.get("discarder") is None and len(set(flowers)) == 8 == len(flowers))


def eight_flowers_note(alone: bool) -> Note:
    """What is said of a hand taken as 八仙過海 by :func:`only_eight_flowers` (``alone``: the flowers with no other
    tile), the way to say a 七搶一 instead its :attr:`Note.way_out`: the one wording of it, said by the photo's
    scorer and the app's typed hand alike (it was written four times, and had drifted apart)."""
    what_en, what_zh, flat_en, flat_zh = (
        ("only the eight flowers, no other tile", "只有八張花、沒有別的牌", ", paid flat", "，不看手牌") if alone else
        ("all eight flowers and 16 tiles", "全部八張花和 16 張牌", "", ""))
    return Note(f"{what_en}: scored as Eight flowers, won on the eighth flower{flat_en}; a Seven rob one winner lays "
                "the eighth, robbed from another player, with his seven: if it was robbed, say so as the kind of win, "
                "with the player robbed",
                f"{what_zh}：當作八仙過海計（摸到第八張花就胡{flat_zh}）；七搶一的人也會把搶來的第八張花和自己的七張擺在"
                "一起：若第八張是搶別家的，請把胡法指定為七搶一，並指定被搶的人", WayOut.SEVEN_ROB_ONE)


def _eight_flowers(dets: Detections, laid: LaidHand, context: Mapping[str, Any],
                   win_tile: Tile | None, short: bool) -> tuple[Mapping[str, Any], bool]:
    """``context`` as 八仙過海 where the photo's flowers laid out and its hand of 16 between turns (``short``:
    :func:`_short_of_win` of the photo under :data:`WIN`) are :func:`only_eight_flowers` (a review's were refused as
    "a winning hand shows 17"), and whether it was so taken."""
    if not only_eight_flowers(context, [Tile(int(dets.kind[i])) for i in laid.flowers], short, win_tile):
        return context, False
    return {**context, "win_type": WinType.EIGHT_FLOWERS.value}, True


COUNT_SAID = {
    None: ("16 and the winning tile, one more per kong", "16 張加胡的那張，每槓多一張"),
    WinType.EIGHT_FLOWERS: ("16 between turns, 17 with the eighth flower's replacement; one more per kong",
                            "輪與輪之間的 16 張，或加上第八張花的補牌共 17 張；每槓多一張"),
    WinType.SEVEN_FLOWERS_ROB: ("16 between turns, the eighth flower robbed from another player; one more per kong",
                                "輪與輪之間的 16 張，第八張花是搶別家的；每槓多一張"),
    WinType.FOUR_KONGS: ("16 between turns: the fourth kong ends the hand, before its replacement; one more per kong",
                         "輪與輪之間的 16 張：第四個槓就胡，不補牌；每槓多一張"),
}
"""Why a winning hand shows the tiles it does, by its kind of win (:attr:`Need.kind`; spec §3.1, §4.2, §4.4), in
English and Chinese."""


def _count_said(dets: Detections, laid: LaidHand, need: Need, in_rows: set[int]) -> tuple[str, str]:
    """How many tiles the photo shows besides the flowers, in which rows, against the count a winning hand shows."""
    counts = [sum(i not in in_rows for g in row for i in g.tiles) for row in laid.rows]
    tiles = sum(counts)
    rows_en = "in one row" if len(counts) == 1 else f"in {len(counts)} rows of {_listed(counts, 'and')}"
    rows_zh = "排成一列" if len(counts) == 1 else f"分成 {len(counts)} 列，各 {_listed(counts, '、')} 張"
    down_en, down_zh = (f" (and {len(laid.stray)} face down)", f"（另有 {len(laid.stray)} 張蓋著）") if laid.stray \
        else ("", "")
    why_en, why_zh = COUNT_SAID[need.kind]
    return (f"found {tiles} tiles besides the flowers{down_en}, {rows_en}: a winning hand shows "
            f"{' or '.join(map(str, need.sizes))} ({why_en}), the concealed ones in one row",
            f"除了花牌找到 {tiles} 張牌{down_zh}，{rows_zh}：胡牌的手牌應有 {' 或 '.join(map(str, need.sizes))} 張（"
            f"{why_zh}），手牌排成一列")


FLOWERS_NEEDED = {"eight_flowers": (8, "Eight flowers"), "seven_flowers_rob": (7, "Seven rob one")}
"""The flowers an instant win by flowers shows (spec §4: 八仙過海 all eight; 七搶一 seven, the eighth robbed), and its
English name (the tai table's)."""


def _refuse_by_count(dets: Detections, laid: LaidHand, plans: list[hand_search.Plan], need: Need,
                     context: Mapping[str, Any]) -> None:
    """For a photo no reading of which is a win: a :class:`PhotoHandError` saying so by count where the count is what
    is wrong: fewer flowers than the instant win needs, or tiles that no plan's rows can lay out as a hand of the
    right size (a review's hand with a lone tile beside it, 18 tiles where a win shows 17, was refused as "a false
    win?", which at a table means a penalty)."""
    read, read_zh = reading_text(dets, laid), reading_text(dets, laid, zh=True)
    in_rows = _in_rows(dets, laid)
    _refuse_few_flowers(dets, laid, context)
    if any(_count_fits(p, in_rows, need.sizes) for p in plans):
        return
    lone = laid.lone()
    en, zh = _count_said(dets, laid, need, in_rows)
    hint_en = ": is a tile lying apart no part of the hand?" if lone else ": is a tile missing from the photo, or " \
        "one there that is no part of the hand?"
    hint_zh = "：是不是有一張單獨擺著的牌不是這手牌的？" if lone else "：是不是有牌沒拍到，或拍到了不屬於這手的牌？"
    raise PhotoHandError(f"{en}; no way of laying out the rows comes to that{hint_en} (read: {read})",
                         f"{zh}；各列怎麼分都湊不出這個張數{hint_zh}（讀到：{read_zh}）", (read, read_zh))


def _refuse_few_flowers(dets: Detections, laid: LaidHand, context: Mapping[str, Any]) -> None:
    """A :class:`PhotoHandError` where the photo shows fewer flowers than the instant win by flowers the context
    says needs (:data:`FLOWERS_NEEDED`)."""
    win_type = str(with_defaults(context)["win_type"]).strip().lower()
    needed, name = FLOWERS_NEEDED.get(win_type, (0, ""))
    seen = len(laid.flowers) + len(_in_rows(dets, laid))
    if seen < needed:
        read, read_zh = reading_text(dets, laid), reading_text(dets, laid, zh=True)
        raise PhotoHandError(f"{name} needs {needed} flowers, and the photo shows {seen} (read: {read})",
                             f"{win_type_zh(WinType(win_type))}要有 {needed} 張花，照片裡只有 {seen} 張（讀到：{read_zh}）",
                             (read, read_zh))


def _flowers_alone(dets: Detections, laid: LaidHand, context: Mapping[str, Any],
                   profile: Profile, win_tile: Tile | None) -> PhotoWin | None:
    """The photo's flowers scored as the instant win by flowers the context says (八仙過海, 七搶一), where the photo
    shows flowers and no other tile: both pay flat whatever the hand (spec §4.2, §4.4), as ``companion tai`` scores
    them with no concealed tiles (a review's photo of the eight was refused, "photograph the whole hand"); None for
    any other photo or kind of win. A :class:`PhotoHandError` where the flowers are fewer than it needs, or where a
    winning tile is named (``win_tile``): neither wins on a tile, and the hand won on it is not in the photo (a
    review's was scored won on the eighth flower, the tile named dropped unsaid). All eight alone on a self-draw
    are 八仙過海 (:func:`only_eight_flowers`), as all eight beside 16 tiles are, and are scored so, and said."""
    if laid.stray or not laid.flowers or any(laid.tile_count(r) for r in range(len(laid.rows))):
        return None
    kinds = {i: Tile(int(dets.kind[i])) for i in laid.flowers}
    win_type = str(with_defaults(context)["win_type"]).strip().lower()
    if flowers_won_on_tile(context, list(kinds.values()), win_tile):
        assert win_tile is not None
        read, read_zh = reading_text(dets, laid), reading_text(dets, laid, zh=True)
        en, zh = flowers_tile_said(win_tile, len(kinds))
        raise PhotoHandError(f"{en} (read: {read})", f"{zh}（讀到：{read_zh}）", (read, read_zh))
    notes: list[Note] = []
    if only_eight_flowers(context, list(kinds.values()), True, win_tile):
        win_type = WinType.EIGHT_FLOWERS.value
        context = {**context, "win_type": win_type}
        notes.append(eight_flowers_note(alone=True))
    if win_type not in FLOWERS_NEEDED:
        return None
    _refuse_few_flowers(dets, laid, context)
    win = Win.from_dict({**with_defaults(context), "concealed": "", "win_tile": None, "melds": [],
                         "flowers": format_tiles(sorted(kinds.values()))})
    return PhotoWin(win, score(win, profile), (), (), tuple(laid.flowers), -1, True, False, kinds, (), (),
                    (*notes, *_assumed(context, profile)))


def flowers_won_on_tile(context: Mapping[str, Any], flowers: Sequence[Tile], win_tile: Tile | None) -> bool:
    """Flowers and no other tile, with a winning tile named (``win_tile``), where the context says a win by flowers
    (:data:`FLOWERS_NEEDED`) or the flowers are all eight: neither wins on a tile, and the hand won on it is not
    there (:func:`flowers_tile_said`). The one test of it, for a photo of the flowers alone (:func:`_flowers_alone`)
    and the flowers alone typed on the app's tab (a review's typed one was scored flat, the tile named dropped)."""
    win_type = str(with_defaults(context)["win_type"]).strip().lower()
    return win_tile is not None and (win_type in FLOWERS_NEEDED or len(set(flowers)) == 8 == len(flowers))


def flowers_tile_said(win_tile: Tile, flowers: int, typed: bool = False) -> tuple[str, str]:
    """Why the flowers alone (``flowers`` of them) with a winning tile named are refused (:func:`flowers_won_on_tile`),
    in English and Chinese: of a photo, or of a hand ``typed`` (the one wording, said by both)."""
    where_en, how_en = (("the hand typed, which holds", "type the whole hand with the flowers") if typed else
                        ("the photo, which shows", "photograph the whole hand laid face up, with the flowers"))
    where_zh, how_zh = (("輸入的手牌裡，手牌裡", "請把整手牌和花一起輸入") if typed else
                        ("照片裡，照片裡", "請把整手牌攤開，和花一起拍"))
    return (f"the winning tile named, {_en(win_tile)}, is not in {where_en} only {flowers} flowers: a win by flowers "
            f"(Eight flowers, Seven rob one) is won on no tile; a win on a tile is scored with its hand: {how_en}",
            f"指定胡的那張{win_tile.zh}不在{where_zh}只有 {flowers} 張花：八仙過海、七搶一不是胡哪一張牌；胡一張牌要看整手牌："
            f"{how_zh}")


def _count_fits(plan: hand_search.Plan, flowers: set[int], sizes: tuple[int, ...]) -> bool:
    """The plan's tiles (but ``flowers``) can come to a hand of one of ``sizes``: its melds' groups cut into threes
    and fours, whatever their kinds."""
    sums = {sum(i not in flowers for i in plan.concealed)}
    for g in plan.meld_groups:
        n = sum(i not in flowers for i in g.tiles)
        sums = {s + 3 * m for s in sums for m in range(n // 3 + 1) if 3 * m <= n <= 4 * m}
    return any(n in sums for n in sizes)


LONE_TRIED = 4
"""The tiles lying alone tried left out (:func:`_without_lone`): this many, the farthest from the others first ..."""
LONE_OUT = 2
"""... and at most this many of them at once."""


LoneChoice = tuple[list[int], LaidHand, list[hand_search.Plan], list[tuple[float, Legal, tuple[Repair, ...]]]]
"""Tiles lying alone left out, and the layout, plans and winning readings without them (:func:`_without_lone`)."""


def _without_lone(dets: Detections, laid: LaidHand, left_out: frozenset[int], need: Need,
                  concealed: bool = False) -> list[LoneChoice]:
    """Every choice of tiles lying alone (:meth:`LaidHand.lone`) without which the photo is a win as read or with the
    classifier's own other readings (not a kind it did not name: a tile left out and another guessed is too much):
    (those tiles, the layout, plans and readings without them), the fewest tiles first, then the farthest from the
    others; none where none is. All of them, not the first found: two choices may each win, and differently (a
    product review's winning tile pushed apart beside a discard that was another wait)."""
    lone = far_first(dets, laid.lone())[:LONE_TRIED]
    out: list[LoneChoice] = []
    for k in range(1, min(len(lone), LONE_OUT) + 1):
        for tiles in itertools.combinations(lone, k):
            without = lay_out(dets, left_out | frozenset(tiles))
            plans, found = _attempt(dets, without, need, concealed)
            if found and math.isfinite(found[0][0]):
                out.append((sorted(tiles), without, plans, found))
    return out


def _lone_outcome(dets: Detections, choice: LoneChoice, context: Mapping[str, Any], profile: Profile,
                  win_tile: Tile | None, kongs: Mapping[Tile, MeldKind]) -> tuple[tuple[Win, int], str, str] | None:
    """What a choice of lone tiles left out scores as (the win and its hand tai), said in English and Chinese; None
    where it scores as no win."""
    legal, _ = _kongs_as_said(choice[3][0][1], kongs, own=own_kong(context))
    try:
        scored = _score_each(legal, context, profile, win_tile)
    except (NotAWin, WinInputError, PhotoHandError):
        return None
    if not scored:
        return None
    _, win, sc = max(scored, key=lambda s: (s[2].hand_tai, -s[0]))
    names_en = " and ".join(_en(Tile(int(dets.kind[i]))) for i in choice[0])
    names_zh = "、".join(Tile(int(dets.kind[i])).zh for i in choice[0])
    if win.win_tile is None:
        return (win, sc.hand_tai), f"without {names_en}: {sc.hand_tai} tai", f"不算{names_zh}：{sc.hand_tai} 台"
    return ((win, sc.hand_tai), f"without {names_en}: won on {_en(win.win_tile)}, {sc.hand_tai} tai",
            f"不算{names_zh}：胡{win.win_tile.zh}，{sc.hand_tai} 台")


def _lone_choice(dets: Detections, laid: LaidHand, choices: list[LoneChoice], context: Mapping[str, Any],
                 profile: Profile, win_tile: Tile | None,
                 kongs: Mapping[Tile, MeldKind]) -> tuple[LoneChoice, str, str]:
    """The choice of lone tiles to leave out (:func:`_without_lone`) when every one that scores as a win is the same
    win with the same tai, and what to say of the others ("" each where there are none); a
    :class:`PhotoHandError` asking which tile is no part of the hand where they differ: which lies farther says
    nothing of it (a product review: a hand won on 1z beside a discarded 5z, both waits, was scored won on 5z)."""
    scored = [(c, o) for c in choices if (o := _lone_outcome(dets, c, context, profile, win_tile, kongs)) is not None]
    if len(scored) < 2:
        return (scored[0][0] if scored else choices[0]), "", ""
    first = scored[0][1][0]
    if any(o[0] != first for _, o in scored[1:]):
        read, read_zh = reading_text(dets, laid), reading_text(dets, laid, zh=True)
        said = [(o[1], o[2]) for _, o in scored]
        if len(set(said)) < len(said):  # the same tile and tai, another hand: the hands said too
            hands = [format_tiles(sorted(o[0][0].concealed)) for _, o in scored]
            said = [(f"{en} (hand {hand})", f"{zh}（手牌 {hand}）") for (en, zh), hand in zip(said, hands, strict=True)]
        raise PhotoHandError(f"the hand is a win whichever tile lying alone is left out, and not the same win: "
                             f"{'; '.join(en for en, _ in said)}: which is no part of the hand? take it away and "
                             f"photograph the hand again (read: {read})",
                             f"單獨擺著的牌不管不算哪一張都是胡牌，但胡的不一樣：{'；'.join(zh for _, zh in said)}："
                             f"哪一張不是這手牌的？請把它拿開再拍一次（讀到：{read_zh}）", (read, read_zh))
    others = [c for c, _ in scored[1:]]
    en = " or ".join(" and ".join(_en(Tile(int(dets.kind[i]))) for i in c[0]) for c in others)
    zh = "或".join("、".join(Tile(int(dets.kind[i])).zh for i in c[0]) for c in others)
    return (scored[0][0], f"; left out instead, {en} gives the same win ({first[1]} tai)",
            f"；改成不算{zh}也是一樣的胡牌（{first[1]} 台）")


def _en(t: Tile) -> str:
    """A tile as an English sentence names it: ``5 Dots``, ``White dragon``, ``a face-down tile`` (not ``5p``,
    ``5z``, ``0x``: a review's player was told "0x read unsure")."""
    return "a face-down tile" if t == Tile.UNKNOWN else t.en


def _listed(counts: list[int], joint: str) -> str:
    """Row sizes as words: ``12, 12 and 5`` (``joint`` "and"), or ``12、12、5`` (``joint`` "、")."""
    if joint != "and":
        return joint.join(map(str, counts))
    return ", ".join(map(str, counts[:-1])) + f" and {counts[-1]}"


def _sure(p: float) -> str:
    """How sure the classifier was, as players read it: a percentage, not 0.42 (a review); under 1% said so."""
    return f"{round(100 * p)}%" if p >= 0.005 else "<1%"


def _repair_note(r: Repair) -> Note:
    if r.taken_p > 0:
        return Note(f"read {_en(r.read)} ({_sure(r.read_p)} sure) as {_en(r.taken)} ({_sure(r.taken_p)}): so the hand "
                    "is a win",
                    f"{r.read.zh}（{_sure(r.read_p)} 把握）當作{r.taken.zh}（{_sure(r.taken_p)}）：這樣才是胡牌")
    return Note(f"read {_en(r.read)} ({_sure(r.read_p)} sure) as {_en(r.taken)}, which the classifier did not name: "
                "only that kind makes the hand a win; check it in the photo",
                f"{r.read.zh}（{_sure(r.read_p)} 把握）當作{r.taken.zh}（辨識沒有想到這張）：只有這樣才能胡，請對照照片")


def _unsure_notes(dets: Detections, legal: Legal, changed: set[int], best: tuple[int, Win, Score],
                  profile: Profile) -> list[Note]:
    """The tiles kept as read but not surely (a legal hand can still hold a misread tile), each named; a flower's
    with the tai the hand would have were it its likeliest other flower, as a surer flower's note says
    (:func:`_flower_notes`; a review's unsure 7f, truly the winner's own 1f, was told only to be checked)."""
    doubtful = dets.doubtful()
    held = {legal.kinds[i] for i in legal.flowers}
    notes = []
    for i in sorted(legal.kinds):
        if not doubtful[i] or i in changed:
            continue
        t, p = legal.kinds[i], float(dets.score[i])
        alike = [Tile(int(k)) for k, q in zip(dets.top3_kind[i], dets.top3_score[i], strict=True)
                 if int(k) != int(t) and q >= hand_search.ALTERNATIVE_FLOOR]
        others = " or ".join(map(_en, alike)) or "another tile"
        others_zh = "或".join(a.zh for a in alike) or "別的牌"
        then_en = then_zh = ""
        flower = next((a for a in alike if a.is_flower and a not in held), None) if i in legal.flowers else None
        tai = _tai_as(best, t, flower, profile) if flower is not None else None
        if flower is not None and tai is not None:
            now = best[2].hand_tai
            then_en = f"; were it {_en(flower)}, the hand would be {tai} tai, not {now}" if tai != now else \
                f"; were it {_en(flower)}, the hand would still be {now} tai"
            then_zh = f"；若其實是{flower.zh}，這手是 {tai} 台，不是 {now} 台" if tai != now else \
                f"；若其實是{flower.zh}，這手還是 {now} 台"
        notes.append(Note(f"{_en(t)} read unsure ({_sure(p)} sure; or {others}){then_en}: check it in the photo",
                          f"{t.zh}讀得不確定（{_sure(p)} 把握；也可能是{others_zh}）{then_zh}：請對照照片"))
    return notes


def _tai_as(best: tuple[int, Win, Score], flower: Tile, other: Tile, profile: Profile) -> int | None:
    """The hand tai of the win scored with its ``flower`` taken as ``other``; None where that is no win."""
    flowers = tuple(other if f == flower else f for f in best[1].flowers)
    try:
        return score(dataclasses.replace(best[1], flowers=flowers), profile).hand_tai
    except (NotAWin, WinInputError):
        return None


def _flower_notes(dets: Detections, legal: Legal, best: tuple[int, Win, Score], profile: Profile,
                  changed: set[int]) -> list[Note]:
    """The flowers read surely enough to pass unsaid whose other reading scores the hand otherwise (a flower decides
    正花 and 花槓 by its kind alone): a photo review's 冬 read as 春 at 0.84 lost the 正花 of a North winner and paid
    a tai short without a word."""
    doubtful = dets.doubtful()
    held = {legal.kinds[i] for i in legal.flowers}
    notes = []
    for i in legal.flowers:
        if doubtful[i] or i in changed:  # (said as unsure or changed already)
            continue
        read, p = legal.kinds[i], float(dets.score[i])
        for k, q in zip(dets.top3_kind[i], dets.top3_score[i], strict=True):
            other = Tile(int(k))
            if other == read or not other.is_flower or other in held or q < hand_search.ALTERNATIVE_FLOOR:
                continue
            tai = _tai_as(best, read, other, profile)
            if tai is not None and tai != best[2].hand_tai:
                notes.append(Note(f"flower {_en(read)} read {_sure(p)} sure; were it {_en(other)}, the hand would be "
                                  f"{tai} tai, not {best[2].hand_tai}: check it in the photo",
                                  f"花{read.zh}（{_sure(p)} 把握）若其實是{other.zh}，這手是 {tai} 台，不是 "
                                  f"{best[2].hand_tai} 台：請對照照片"))
                break
    return notes


def _win_tile_notes(legal: Legal, scored: list[tuple[int, Win, Score]], best: tuple[int, Win, Score],
                    win_tile: Tile | None, instant: bool = False) -> list[Note]:
    """What to say of the winning tile: named against the one set apart, or taken as the best of several (for a
    八仙過海 of 17, the eighth flower's replacement as ``companion tai`` takes it)."""
    apart = legal.kinds[legal.apart] if legal.apart >= 0 else None
    if win_tile is not None and apart is not None and apart != win_tile:
        return [Note(f"the tile set apart is {_en(apart)}, but {_en(win_tile)} was named: scored as named",
                     f"分開擺的是{apart.zh}，但指定的是{win_tile.zh}：照指定的計")]
    if instant and win_tile is None and apart is None and best[0] >= 0:
        tile, tai = legal.kinds[best[0]], best[2].hand_tai
        return [Note(f"the eighth flower's replacement is not set apart: taken as {_en(tile)}, the tile of the 17 "
                     f"that scores most ({tai} tai); --win-tile names it",
                     f"第八張花的補牌沒有分開擺：當作{tile.zh}，17 張裡台數最多的一張（{tai} 台）；"
                     "可用 --win-tile 指定")]
    if win_tile is None and apart is None and best[0] >= 0 and len(scored) > 1:
        tile = legal.kinds[best[0]]
        each: dict[Tile, int] = {}  # every other tile it may have been won on, by its best total (a review's wish:
        for _, win, sc in scored:  # "the others 7-11" did not say which tile gave which)
            if win.win_tile is not None and win.win_tile != tile:
                each[win.win_tile] = max(sc.hand_tai, each.get(win.win_tile, 0))
        if not each:
            return []
        ranked = sorted(each.items(), key=lambda kv: (-kv[1], kv[0]))
        en = ", ".join(f"{_en(t)} {n} tai" for t, n in ranked)
        zh = "、".join(f"{t.zh} {n} 台" for t, n in ranked)
        return [Note(f"the winning tile is not set apart: scored as {_en(tile)}, the most ({best[2].hand_tai} tai); "
                     f"won on another tile: {en}; --win-tile names it",
                     f"胡的那張沒有分開擺：以{tile.zh}計，台數最多（{best[2].hand_tai} 台）；若胡的是別張：{zh}；"
                     "可用 --win-tile 指定")]
    return []


def hand_labels(dets: Detections, found: PhotoWin) -> list[str]:
    """Each detection's label as the hand was scored: its kind, ``!`` where a repair changed it, ``*`` on the
    winning tile (for :func:`companion.vision.read.annotate`)."""
    names = [Tile(int(k)).code for k in dets.kind]
    repaired = {r.index for r in found.repairs}
    for i, t in found.kinds.items():
        names[i] = t.code + ("!" if i in repaired else "")
    if found.win_index >= 0:
        names[found.win_index] += "*"
    return names


# --- rows taken as called melds, or said to be concealed ---------------------------------------------------------


def _as_concealed(plans: list[hand_search.Plan]) -> list[hand_search.Plan]:
    """The plans with every group of their melds concealed tiles but a concealed kong's (tiles face down in it): the
    hand as the player says it was, nothing called (門清), however its rows lie; one plan for each set of concealed
    tiles, the one with a winning tile set apart first."""
    out: dict[frozenset[int], hand_search.Plan] = {}
    for p in sorted(plans, key=lambda p: p.apart < 0):
        kept = tuple(g for g in p.meld_groups if g.backs)
        tiles = p.concealed + tuple(i for g in p.meld_groups if not g.backs for i in g.tiles)
        out.setdefault(frozenset(tiles), hand_search.Plan(tiles, p.apart, kept))
    # and a group of four lying face up kept as a kong (a concealed kong turned up: nothing was called,
    # :func:`_kongs_as_said`): a review's 1111m over 234m567m234p567p 5s, taken as 18 concealed tiles, was refused
    # as "a tile missing from the photo"
    for p in sorted(plans, key=lambda p: p.apart < 0):
        kept = tuple(g for g in p.meld_groups if g.backs or len(g) == 4)
        tiles = p.concealed + tuple(i for g in p.meld_groups if g not in kept for i in g.tiles)
        out.setdefault(frozenset(tiles), hand_search.Plan(tiles, p.apart, kept))
    return list(out.values())


def _called_by_layout(laid: LaidHand, legal: Legal, need: Need, context: Mapping[str, Any], profile: Profile,
                      win_tile: Tile | None, best: tuple[int, Win, Score]) -> list[Note]:
    """A note where rows were taken as called melds only for lying in a row of their own: no tile of them across the
    row marking a claim, no gap between their melds, no face-down tile; with the tai of the hand were they concealed
    (a review's concealed self-draw laid in two rows, 123m456m789m over 234p56p55s, paid 2 tai a player, not 4: 門清
    and 不求 lost unsaid). None where they could not be concealed, or would score the same."""
    meld_tiles = {i for g in legal.plan.meld_groups for i in g.tiles}
    rows = [r for r, row in enumerate(laid.rows, 1) if len(row) == 1 and not row[0].sideways and not row[0].backs
            and set(row[0].tiles) <= meld_tiles]
    if not rows:
        return []
    moved = {i for r in rows for i in laid.rows[r - 1][0].tiles}
    plan = legal.plan
    other = hand_search.Plan(plan.concealed + tuple(sorted(moved)), plan.apart,
                             tuple(g for g in plan.meld_groups if not set(g.tiles) & moved))
    alt = hand_search.legal_reading(other, dict(legal.kinds), laid.flowers, need)
    if alt is None:
        return []
    try:
        tai = max(s[2].hand_tai for s in _score_each(alt, context, profile, win_tile))
    except (NotAWin, WinInputError, PhotoHandError, ValueError):
        return []
    now = best[2].hand_tai
    if tai == now:
        return []
    melds = [m for m, idx in zip(legal.melds, legal.meld_idx, strict=True) if set(idx) <= moved]
    kinds = {m.kind for m in melds}
    called_en = "called chows" if kinds == {MeldKind.CHOW} else "called pungs" if kinds == {MeldKind.PUNG} else \
        "called melds"
    one = len(melds) == 1  # (one pung was said "called pungs ... were they not called": a review)
    if one:
        called_en = "a " + called_en[:-1]
    called_zh = "吃的牌" if kinds == {MeldKind.CHOW} else "碰的牌" if kinds == {MeldKind.PUNG} else "吃碰槓的牌"
    which_en = f"row {rows[0]}" if len(rows) == 1 else "rows " + _listed(rows, "and")
    which_zh = "、".join(map(str, rows))
    each_en = ", ".join(f"{m.kind.en} of {format_en(m.tiles)}" for m in melds)
    each_zh = "、".join(f"{m.kind.zh}{''.join(t.zh for t in m.tiles)}" for m in melds)
    return [Note(f"{which_en} taken as {called_en} ({each_en}) only because {'it lies' if len(rows) == 1 else 'they lie'}"
                 f" apart: no tile lies sideways to mark a claim; were {'it' if one else 'they'} not called, the hand "
                 f"would be {tai} tai, not {now}",
                 f"第 {which_zh} 列當作{called_zh}（{each_zh}），只因為分開擺：沒有橫放的牌表示是吃碰來的；"
                 f"若不是吃碰來的（門清），這手是 {tai} 台，不是 {now} 台", WayOut.CONCEALED)]
