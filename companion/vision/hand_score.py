"""Score a photographed winning hand: the tiles read (:mod:`companion.vision.read`), grouped as they lie
(:mod:`companion.vision.hand_photo`), then read as a legal win and scored by the rules (:mod:`companion.rules`).

What is decided here, against the rules rather than the pixels:

- **which row is the concealed one**: every row in turn, the others cut into melds (a group of three or four in
  order: a chow, a pung, an exposed kong, or a concealed kong when face-down tiles show in it); the tile count
  must come out right (16 + the winning tile, one more per kong);
- **doubtful readings repaired**: when the hand as read is no win (a fifth copy, a meld that is no meld, a hand
  that does not complete), the classifier's other readings (its top three) are tried, the likeliest change first,
  up to :data:`MAX_CHANGES` tiles; every change made is reported;
- **the winning tile**: the tile set apart at an end of the concealed row (or a lone tile of its own), the one
  the player names, or else every kind of the concealed tiles in turn, the score reported for each.

Nothing is guessed silently: :attr:`PhotoWin.doubts` says, in English and Chinese, each assumption made.
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
import math
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from companion.hand import Hand, HandError, Meld, MeldKind
from companion.rules.profiles import Profile
from companion.rules.scoring import NotAWin, Score, score
from companion.rules.shape import is_complete
from companion.rules.win import Win, WinInputError, WinType
from companion.tiles import Tile, format_tiles
from companion.vision.hand_photo import Group, LaidHand, lay_out
from companion.vision.read import Detections

MAX_CHANGES = 3
"""At most this many readings are changed to make the hand legal."""
ALTERNATIVE_FLOOR = 0.02
"""A reading the classifier gives less than this probability is never tried."""
WILDCARDS = 3
"""When no reading from the classifier's top three makes a win, each of this many least sure tiles in turn is
tried as every kind (:func:`_unreadable`)."""
ALTERNATIVE_ODDS = 4.0
"""Another legal reading at most this many times less likely than the one taken is said, with its tai."""
MAX_ALTERNATIVES = 3
MAX_TRIED = 5000
"""Readings tried at most (best first) before the hand is reported as unreadable."""
SETS = 5
INSTANT = frozenset(t.value for t in WinType if t.is_instant)
"""Wins with no winning shape and no winning tile (八仙過海, 七搶一, 四槓; spec §3.1): the photo shows 16."""


class PhotoHandError(ValueError):
    """The photo does not show a winning hand this reader can make out; the message says why (``zh``: in
    Chinese)."""

    def __init__(self, message: str, zh: str) -> None:
        super().__init__(message)
        self.zh = zh


@dataclass(frozen=True, slots=True)
class Note:
    """One thing the reader assumed or doubts, in both languages."""

    en: str
    zh: str

    def to_dict(self) -> dict[str, str]:
        return {"message": self.en, "message_zh": self.zh}


@dataclass(frozen=True, slots=True)
class Repair:
    """A reading changed so that the hand is legal: detection ``index`` read as ``read`` (probability
    ``read_p``) is taken as ``taken`` (the classifier's ``taken_p``)."""

    index: int
    read: Tile
    read_p: float
    taken: Tile
    taken_p: float

    def to_dict(self) -> dict[str, Any]:
        return {"index": self.index, "read": self.read.code, "read_score": round(self.read_p, 4),
                "taken_as": self.taken.code, "taken_score": round(self.taken_p, 4)}


@dataclass(frozen=True, slots=True)
class PhotoWin:
    """The hand of a photo as scored: ``win`` and its ``score``; ``concealed`` and ``melds`` as detection
    indices (the winning tile's copy among the concealed ones is ``win_index``; -1 for a win with no winning
    tile, :data:`INSTANT`); ``kinds`` the tile each
    detection of the hand was taken as; ``win_tiles`` each possible winning tile with its hand tai (one entry
    when the tile was marked); ``repairs`` and ``doubts`` as above."""

    win: Win
    score: Score
    concealed: tuple[int, ...]
    melds: tuple[tuple[int, ...], ...]
    flowers: tuple[int, ...]
    win_index: int
    marked: bool
    kinds: Mapping[int, Tile]
    win_tiles: tuple[tuple[Tile, int], ...]
    repairs: tuple[Repair, ...]
    doubts: tuple[Note, ...]


@dataclass(frozen=True, slots=True)
class _Plan:
    """One reading of the layout: the concealed tiles (``apart``: the tile set apart, or -1) and the groups to
    cut into melds."""

    concealed: tuple[int, ...]
    apart: int
    meld_groups: tuple[Group, ...]
    split: bool = False
    """The concealed row has gaps besides the tile set apart (groups taken as concealed, not as melds)."""


def _single(g: Group, flower: set[int]) -> int:
    """The one tile of ``g`` not read as a flower (a winning tile set apart, maybe with a flower laid beside
    it), or -1."""
    rest = [i for i in g.tiles if i not in flower]
    return rest[0] if len(rest) == 1 else -1


def _plans(laid: LaidHand, flower: set[int]) -> list[_Plan]:
    """Every row as the concealed one (the tile count is checked per reading: a tile read as a flower, here
    ``flower``, may be one laid beside the others or a misread tile); the longest rows first."""
    plans = []
    lone = [row[0] for row in laid.rows if len(row) == 1 and _single(row[0], flower) >= 0]
    for r, row in enumerate(laid.rows):
        if len(row) == 1 and _single(row[0], flower) >= 0:
            continue  # a lone tile is the winning tile set apart, not the hand
        meld_groups = [g for g in row if g.sideways or g.backs]  # a claimed tile or a concealed kong
        concealed_groups = [g for g in row if not (g.sideways or g.backs)]
        apart = -1
        if len(concealed_groups) > 1:
            first, last = (_single(concealed_groups[k], flower) for k in (0, -1))
            if first >= 0 and last < 0:
                apart = first
            elif last >= 0 and first < 0:
                apart = last
        others = [g for q, other in enumerate(laid.rows) if q != r for g in other if g not in lone]
        concealed = tuple(i for g in concealed_groups for i in g.tiles)
        if apart < 0 and len(lone) == 1:
            apart = _single(lone[0], flower)
            concealed += lone[0].tiles
        if len(concealed) < 2:
            continue
        split = sum(len(g) > 1 for g in concealed_groups) > 1
        plans.append(_Plan(concealed, apart, tuple(meld_groups + others), split))
    if len(lone) == 2:  # 全求人: the one tile left in the hand and the winning tile, each lying alone
        others = [g for row in laid.rows for g in row if g not in lone]
        plans.append(_Plan(lone[0].tiles + lone[1].tiles, -1, tuple(others)))
    plans.sort(key=lambda p: -len(p.concealed))
    return plans


def _meld(tiles: list[Tile]) -> Meld | None:
    """The meld a group piece forms, or None."""
    known = [t for t in tiles if t != Tile.UNKNOWN]
    if not known:
        return None
    if len(known) < len(tiles):  # a concealed kong shows some of its tiles face down
        if len(tiles) == 4 and len(set(known)) == 1:
            return Meld(MeldKind.CKONG, (known[0],) * 4)
        return None
    if len(set(tiles)) == 1:
        return Meld(MeldKind.PUNG if len(tiles) == 3 else MeldKind.KONG, tuple(tiles))
    if len(tiles) == 3:
        a, b, c = sorted(tiles)
        if a.is_suited and a.suit == c.suit and b == a + 1 and c == a + 2:
            return Meld(MeldKind.CHOW, (a, b, c))
    return None


def _cut(tiles: list[Tile]) -> list[Meld] | None:
    """One group's tiles cut into consecutive melds of three or four, or None."""
    if not tiles:
        return []
    for size in (3, 4):
        if len(tiles) >= size:
            first = _meld(tiles[:size])
            if first is not None:
                rest = _cut(tiles[size:])
                if rest is not None:
                    return [first, *rest]
    return None


@dataclass(frozen=True, slots=True)
class _Legal:
    plan: _Plan
    melds: tuple[Meld, ...]
    meld_idx: tuple[tuple[int, ...], ...]
    flowers: tuple[int, ...]
    kinds: dict[int, Tile]


def _legal(plan: _Plan, kinds: dict[int, Tile], laid_flowers: tuple[int, ...], instant: bool = False) -> _Legal | None:
    """The plan with these readings is a complete hand with at most four copies of a kind (a tile of the rows
    read as a flower joins the flowers), or None. ``instant``: a win with no winning shape (八仙過海, 七搶一,
    四槓; spec §3.1): a hand of 16 between turns, complete or not."""
    melds: list[Meld] = []
    meld_idx: list[tuple[int, ...]] = []
    flowers = list(laid_flowers)
    for g in plan.meld_groups:
        tiles = [i for i in g.tiles if not kinds[i].is_flower]
        flowers.extend(i for i in g.tiles if kinds[i].is_flower)
        cut = _cut([kinds[i] for i in tiles])
        if cut is None:
            return None
        at = 0
        for m in cut:
            meld_idx.append(tuple(tiles[at:at + m.kind.size]))
            at += m.kind.size
        melds.extend(cut)
    concealed = [kinds[i] for i in plan.concealed if not kinds[i].is_flower]
    flowers.extend(i for i in plan.concealed if kinds[i].is_flower)
    if len(concealed) + 3 * len(melds) != 3 * SETS + 2 - instant or Tile.UNKNOWN in concealed:
        return None
    if plan.apart >= 0 and kinds[plan.apart].is_flower:
        return None
    flower_tiles = tuple(kinds[i] for i in flowers)
    every = Counter(concealed) + Counter(t for m in melds for t in m.tiles) + Counter(flower_tiles)
    if any(k > t.max_copies for t, k in every.items()):
        return None
    try:
        hand = Hand(tuple(concealed), tuple(melds), flower_tiles)
    except HandError:
        return None
    if not instant and not is_complete(hand):
        return None
    return _Legal(plan, tuple(melds), tuple(meld_idx), tuple(sorted(flowers)), kinds)


def _options(dets: Detections, i: int) -> list[tuple[Tile, float]]:
    """Detection ``i``'s readings, the one taken first: (tile, probability)."""
    read = Tile(int(dets.kind[i]))
    out = [(read, 1.0 if read == Tile.UNKNOWN else float(dets.score[i]))]
    for k, p in zip(dets.top3_kind[i], dets.top3_score[i], strict=True):
        t = Tile(int(k))
        if t == read:
            out[0] = (read, float(p))
        elif p >= ALTERNATIVE_FLOOR and t != Tile.UNKNOWN:
            out.append((t, float(p)))
    return out


def _readings(dets: Detections, hand: list[int]) -> Iterator[tuple[float, dict[int, Tile], tuple[Repair, ...]]]:
    """Readings of the hand's tiles, likeliest first: the tiles as read, then up to :data:`MAX_CHANGES` of
    them changed to another of their top three (cost: the log-odds of the change)."""
    base = {i: Tile(int(dets.kind[i])) for i in hand}
    changes = []
    for i in hand:
        opts = _options(dets, i)
        read_p = max(opts[0][1], 1e-6)
        for t, p in opts[1:]:
            changes.append((math.log(read_p) - math.log(p), i, t, p, read_p))
    changes.sort(key=lambda c: (c[0], c[1], int(c[2])))
    yield 0.0, base, ()
    if MAX_CHANGES < 1:
        return
    heap: list[tuple[float, tuple[int, ...]]] = [(c[0], (n,)) for n, c in enumerate(changes)]
    heapq.heapify(heap)
    while heap:
        cost, combo = heapq.heappop(heap)
        kinds = dict(base)
        repairs = []
        for n in combo:
            _, i, t, p, read_p = changes[n]
            kinds[i] = t
            repairs.append(Repair(i, base[i], read_p, t, p))
        yield cost, kinds, tuple(repairs)
        if len(combo) < MAX_CHANGES:  # extend by a later change of another tile (each set is reached once)
            used = {changes[n][1] for n in combo}
            for n in range(combo[-1] + 1, len(changes)):
                if changes[n][1] not in used:
                    heapq.heappush(heap, (cost + changes[n][0], (*combo, n)))


DEFAULTS = {"win_type": "self_draw", "seat_wind": "E", "round_wind": "E", "dealer": "E", "streak": 0}
"""What a photo's context is taken to be where it says nothing (each said in :attr:`PhotoWin.doubts`)."""


def with_defaults(context: Mapping[str, Any]) -> dict[str, Any]:
    """``context`` with :data:`DEFAULTS` for what it lacks; a discarder given means a win on a discard."""
    out = {**DEFAULTS, **context}
    if context.get("discarder") is not None and "win_type" not in context:
        out["win_type"] = "discard"
    return out


def check_context(context: Mapping[str, Any]) -> None:
    """Refuse a context that no hand could be scored with (an unknown key or flag, a bad wind, a negative streak,
    the winner as discarder…) before any photo is read: a ``WinInputError`` naming the field, which says when a
    value it clashes with was only assumed."""
    probe = {**with_defaults(context), "concealed": "123m456m789m123p456p4s", "win_tile": "1z", "melds": [],
             "flowers": ""}
    flags = probe.get("flags")
    if isinstance(flags, Mapping):  # a flag may need a kong among the melds: the photo's melds are not known yet
        probe["flags"] = {k: v for k, v in flags.items() if k not in ("replacement_after", "after_kong")}
    try:
        Win.from_dict(probe)
    except WinInputError as e:
        if e.field == "discarder" and "seat_wind" not in context:
            raise WinInputError(e.field, f"{e.reason} (the winner's seat was assumed East: give --seat)",
                                f"{e.zh}（胡牌的人的座位是假設的東：請用 --seat 指定）") from None
        raise


def _alternatives(others: list[tuple[float, _Legal, tuple[Repair, ...]]], context: Mapping[str, Any],
                  profile: Profile, win_tile: Tile | None) -> list[Note]:
    """A note for each other legal reading nearly as likely as the one taken, with its tai."""
    notes = []
    for _, legal, repairs in others:
        try:
            tai = max(s[2].hand_tai for s in _score_each(legal, context, profile, win_tile))
        except (NotAWin, WinInputError, PhotoHandError):
            continue
        how_en = ", ".join(f"{r.read.code} as {r.taken.code} ({r.taken_p:.2f})" for r in repairs) or "as read"
        how_zh = "、".join(f"{r.read.zh}當作{r.taken.zh}（{r.taken_p:.2f}）" for r in repairs) or "照讀到的"
        melds = " ".join(str(m) for m in legal.melds) or "-"
        notes.append(Note(f"also a win, nearly as likely: {how_en} (melds {melds}): {tai} tai; check the photo",
                          f"另一種讀法也是胡牌，可能性相近：{how_zh}（副露 {melds}）：{tai} 台；請對照照片"))
    return notes


def _assumed(context: Mapping[str, Any]) -> list[Note]:
    notes = []
    if "win_type" not in context and context.get("discarder") is None:
        notes.append(Note("assumed self-drawn (自摸): give --discarder SEAT for a win on a discard",
                          "假設是自摸：胡別人打出的牌請加 --discarder 座位"))
    for key, en, zh in (("seat_wind", "the winner sits East", "胡牌的人坐東"),
                        ("round_wind", "the round is East", "圈風是東"),
                        ("dealer", "the dealer is East", "莊家是東")):
        if key not in context:
            notes.append(Note(f"assumed {en}: say otherwise with --{key.split('_')[0]}",
                              f"假設{zh}：不是的話請用 --{key.split('_')[0]} 指定"))
    if "streak" not in context:
        notes.append(Note("assumed the dealer's streak is 0: say otherwise with --streak",
                          "假設莊家沒有連莊：有的話請用 --streak 指定"))
    return notes


def _score_each(legal: _Legal, context: Mapping[str, Any], profile: Profile,
                win_tile: Tile | None) -> list[tuple[int, Win, Score]]:
    """Each possible winning tile's (index, win, score), the marked one only when there is one."""
    kinds = legal.kinds
    plan = legal.plan
    concealed = [i for i in plan.concealed if not kinds[i].is_flower]
    flowers = [kinds[i] for i in legal.flowers]
    if with_defaults(context)["win_type"] in INSTANT:
        obj = {**with_defaults(context), "concealed": format_tiles(sorted(kinds[j] for j in concealed)),
               "win_tile": None, "melds": [str(m) for m in legal.melds], "flowers": format_tiles(sorted(flowers))}
        win = Win.from_dict(obj)
        return [(-1, win, score(win, profile))]
    if win_tile is not None:
        candidates = [i for i in concealed if kinds[i] == win_tile][:1]
        if not candidates:
            raise PhotoHandError(f"--win-tile {win_tile.code}: no {win_tile.code} among the concealed tiles "
                                 f"({format_tiles(sorted(kinds[i] for i in concealed))})",
                                 f"--win-tile {win_tile.code}：手牌裡沒有{win_tile.zh}"
                                 f"（{format_tiles(sorted(kinds[i] for i in concealed))}）")
    elif plan.apart >= 0:
        candidates = [plan.apart]
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


def reading_text(dets: Detections, laid: LaidHand) -> str:
    """The photo as read, row by row (``1) …  2) …``), groups apart by `` | ``, unsure faces marked ``?``, the
    flowers and the face-down tiles left out last: what a person checks against the photo."""
    doubtful = dets.doubtful()

    def code(i: int) -> str:
        return Tile(int(dets.kind[i])).code + ("?" if doubtful[i] else "")

    parts = [f"{n}) " + " | ".join(" ".join(code(i) for i in g.tiles) for g in row)
             for n, row in enumerate(laid.rows, 1)]
    if laid.flowers:
        parts.append("flowers/花 " + " ".join(code(i) for i in laid.flowers))
    if laid.stray:
        parts.append(f"face down/蓋著 {len(laid.stray)}")
    return "  ".join(parts) or "-"


def _kongs_as_said(legal: _Legal, kongs: Mapping[Tile, MeldKind]) -> tuple[_Legal, list[Note]]:
    """Face-up kongs of the kinds in ``kongs`` made that kind of kong (加槓, or 暗槓 turned up at the win); a
    note for each other face-up kong, taken as exposed (明槓)."""
    melds, notes = [], []
    for m in legal.melds:
        if m.kind is MeldKind.KONG and m.tile in kongs:
            m = Meld(kongs[m.tile], m.tiles)
        elif m.kind is MeldKind.KONG:
            notes.append(Note(f"the kong of {m.tile.code} lies face up: taken as exposed (明槓); --kong "
                              f"{m.tile.code}=addkong (加槓) or ={MeldKind.CKONG.value} (暗槓 turned up) says otherwise",
                              f"{m.tile.zh}的槓整組朝上：當作明槓；加槓請用 --kong {m.tile.code}=addkong，"
                              f"暗槓翻開的請用 --kong {m.tile.code}=ckong"))
        melds.append(m)
    return dataclasses.replace(legal, melds=tuple(melds)), notes


def score_photo(dets: Detections, context: Mapping[str, Any], profile: Profile,
                win_tile: Tile | None = None, kongs: Mapping[Tile, MeldKind] | None = None) -> PhotoWin:
    """Score the hand of the photo read as ``dets``. ``context`` holds the fields of ``companion tai``'s JSON
    input other than the tiles (``win_type``, ``discarder``, ``seat_wind``, ``flags``…); what it lacks of the
    kind of win and the winds is assumed (self-drawn, East everywhere) and said.
    ``kongs`` says which face-up kongs were added (``addkong``) or concealed ones turned up (``ckong``); the
    others are taken as exposed and said.
    Raises :class:`PhotoHandError` when no reading of the photo is a legal win, and the rules' own errors
    (``WinInputError``, ``NotAWin``) for a context that does not fit the hand."""
    laid = lay_out(dets)
    in_rows = {i for row in laid.rows for g in row for i in g.tiles if Tile(int(dets.kind[i])).is_flower}
    plans = _plans(laid, in_rows)
    counts = [laid.tile_count(r) for r in range(len(laid.rows))]
    total = sum(counts)
    read = reading_text(dets, laid)
    if len(laid.flowers) > 8:
        raise PhotoHandError(f"{len(laid.flowers)} flowers found: a set has 8 (read: {read})",
                             f"找到 {len(laid.flowers)} 張花牌，一副牌只有 8 張（讀到：{read}）")
    instant = with_defaults(context)["win_type"] in INSTANT
    need = 3 * SETS + 2 - instant
    if len(laid.stray) >= 4 and total < need:
        raise PhotoHandError(f"{len(laid.stray)} tiles lie face down: turn one tile of a concealed kong face up so "
                             f"its kind shows (read: {read})",
                             f"有 {len(laid.stray)} 張牌蓋著：暗槓請翻開一張，讓它的牌面看得到（讀到：{read}）")
    if not plans or total < need or total - len(in_rows) > 4 * SETS + 2:  # 17, or 22 with five kongs
        raise PhotoHandError(
            f"found {total} tiles besides the flowers, in rows of {counts}: a winning hand shows 17 (16 and the "
            f"winning tile, one more per kong), the concealed ones in one row (read: {read})",
            f"除了花牌找到 {total} 張牌（各列 {counts} 張）：胡牌的手牌應有 17 張（16 張加胡的那張，每槓多一張），"
            f"手牌排成一列（讀到：{read}）")
    found = _search(dets, laid, plans, instant)
    if not found:
        raise PhotoHandError(f"no reading of the photo is a winning hand, even with up to {MAX_CHANGES} doubtful "
                             f"tiles read otherwise or one unsure tile as any kind (read, row by row, ? = unsure: "
                             f"{read}); photograph it closer, or score it with `companion tai`",
                             f"照片怎麼讀都不是胡牌，改讀最多 {MAX_CHANGES} 張不確定的牌、或把一張不確定的牌當任何一種也不行"
                             f"（逐列讀到，? = 不確定：{read}）；請拍近一點，或用 companion tai 輸入")
    _, legal, repairs = found[0]
    legal, kong_notes = _kongs_as_said(legal, kongs or {})
    scored = _score_each(legal, context, profile, win_tile)
    best = max(scored, key=lambda s: (s[2].hand_tai, -s[0]))
    marked = win_tile is not None or legal.plan.apart >= 0 or best[0] < 0
    doubts = [Note(f"read {r.read.code} ({r.read_p:.2f}) as {r.taken.code} ({r.taken_p:.2f}): so the hand is a win",
                   f"{r.read.zh}（{r.read_p:.2f}）當作{r.taken.zh}（{r.taken_p:.2f}）：這樣才是胡牌")
              if r.taken_p > 0 else
              Note(f"read {r.read.code} ({r.read_p:.2f}) as {r.taken.code}, which the classifier did not name: "
                   "only that kind makes the hand a win; check it in the photo",
                   f"{r.read.zh}（{r.read_p:.2f}）當作{r.taken.zh}（辨識沒有想到這張）：只有這樣才能胡，請對照照片")
              for r in repairs]
    doubts.extend(_alternatives(found[1:], context, profile, win_tile))
    doubts.extend(kong_notes)
    if legal.plan.split:
        doubts.append(Note("the hand's row has gaps: its groups are taken as concealed tiles (melds lie in a row of "
                           "their own, in front of the hand)",
                           "手牌那一列中間有空隙：各組都當作手牌（副露要另外排一列，放在手牌前面）"))
    changed = {r.index for r in repairs}
    doubtful = dets.doubtful()
    unsure = [i for i in sorted(legal.kinds) if doubtful[i] and i not in changed]
    for i in unsure:  # read as it is, but not surely: a legal hand can still hold a misread tile
        t, p = legal.kinds[i], float(dets.score[i])
        others = "/".join(Tile(int(k)).code for k, q in zip(dets.top3_kind[i], dets.top3_score[i], strict=True)
                          if int(k) != int(t) and q >= ALTERNATIVE_FLOOR)
        doubts.append(Note(f"{t.code} read unsure ({p:.2f}; or {others or '?'}): check it in the photo",
                           f"{t.zh}讀得不確定（{p:.2f}；也可能是 {others or '?'}）：請對照照片"))
    if not marked and len(scored) > 1:
        tais = sorted({s[2].hand_tai for s in scored})
        best_tile = legal.kinds[best[0]]
        doubts.append(Note(f"the winning tile is not set apart: scored as {best_tile.code} (the most, "
                           f"{best[2].hand_tai} tai; others {tais[0]}-{tais[-1]}); --win-tile names it",
                           f"胡的那張沒有分開擺：以{best_tile.zh}計（最多 {best[2].hand_tai} 台；其他胡法 "
                           f"{tais[0]}-{tais[-1]} 台）；可用 --win-tile 指定"))
    if laid.stray:
        doubts.append(Note(f"{len(laid.stray)} face-down tile(s) are in no concealed kong: left out",
                           f"{len(laid.stray)} 張蓋著的牌不屬於暗槓：不計"))
    doubts.extend(_assumed(context))
    kinds = {i: legal.kinds[i] for i in (*legal.plan.concealed, *(j for m in legal.meld_idx for j in m),
                                          *legal.flowers)}
    concealed = tuple(i for i in legal.plan.concealed if i not in legal.flowers)
    return PhotoWin(best[1], best[2], concealed, legal.meld_idx, legal.flowers, best[0], marked, kinds,
                    tuple((s[1].win_tile, s[2].hand_tai) for s in scored if s[1].win_tile is not None),
                    repairs, tuple(doubts))


def _search(dets: Detections, laid: LaidHand, plans: list[_Plan],
            instant: bool = False) -> list[tuple[float, _Legal, tuple[Repair, ...]]]:
    """The likeliest legal reading over every plan (fewest-cost changes first, plans in order), then the other
    legal readings of that many changes or fewer that are at most :data:`ALTERNATIVE_ODDS` times less likely,
    likeliest first; empty when none is legal."""
    found: list[tuple[float, _Legal, tuple[Repair, ...]]] = []
    for plan in plans:
        hand = [*plan.concealed, *(i for g in plan.meld_groups for i in g.tiles), *laid.flowers]
        for cost, kinds, repairs in itertools.islice(_readings(dets, hand), MAX_TRIED):
            if found and cost > found[0][0] + math.log(ALTERNATIVE_ODDS):
                break
            legal = _legal(plan, kinds, laid.flowers, instant)
            if legal is not None:
                if not repairs and found and found[0][2]:  # a legal reading with no change beats repaired ones
                    found.clear()
                found.append((cost, legal, repairs))
                found.sort(key=lambda f: f[0])
                if not repairs:  # read as it is: no other reading is worth a doubt
                    break
    if found:
        best = found[0][0]
        return [f for f in found if f[0] <= best + math.log(ALTERNATIVE_ODDS)][:1 + MAX_ALTERNATIVES]
    if MAX_CHANGES > 0:
        wild = _unreadable(dets, laid, plans, instant)
        return [(math.inf, *wild)] if wild else []
    return []


def _unreadable(dets: Detections, laid: LaidHand, plans: list[_Plan],
                instant: bool = False) -> tuple[_Legal, tuple[Repair, ...]] | None:
    """When no reading from the top three is a win: one of the :data:`WILDCARDS` least sure face-up tiles may
    be a kind the classifier did not think of; the other tiles as read, the rules say which kinds complete the
    hand. Taken only when exactly one kind does (for the least sure tile that has one)."""
    for plan in plans:
        hand = [*plan.concealed, *(i for g in plan.meld_groups for i in g.tiles), *laid.flowers]
        base = {i: Tile(int(dets.kind[i])) for i in hand}
        doubtful = sorted((i for i in hand if dets.face_up[i]), key=lambda i: float(dets.score[i]))[:WILDCARDS]
        for i in doubtful:
            fits = []
            for t in Tile:
                if t == Tile.UNKNOWN or t == base[i]:
                    continue
                legal = _legal(plan, {**base, i: t}, laid.flowers, instant)
                if legal is not None:
                    fits.append(legal)
            if len(fits) == 1:
                taken = fits[0].kinds[i]
                return fits[0], (Repair(i, base[i], float(dets.score[i]), taken, 0.0),)
    return None
