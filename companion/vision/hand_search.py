"""The search behind photo scoring (:mod:`companion.vision.hand_score`): which row of a laid-down hand is the
concealed one, the other groups cut into melds, and which readings of the tiles make a legal win.

A reading is legal when the melds are melds, no kind has more copies than a set holds, and the concealed tiles
with the winning tile complete the hand (16 + 1, a kong one more; for a win with no winning shape, the count of its
kind, complete or not: :class:`Need`). Readings are tried likeliest first: the tiles as read, then up to
:data:`MAX_CHANGES` of them changed to another of the classifier's top three (cost: the log-odds of each change;
a tile read surely never, unless the other reading nearly matches it: :func:`_changeable`);
when none is legal, one of the least sure tiles, or of the tiles lying across their row, as any kind
(:func:`_unreadable`).
"""

from __future__ import annotations

import heapq
import itertools
import math
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from companion.hand import Hand, HandError, Meld, MeldKind
from companion.rules.shape import is_complete
from companion.rules.win import WinType
from companion.tiles import Tile
from companion.vision.hand_photo import Group, LaidHand
from companion.vision.read import Detections
from companion.vision.sideways import RowFrame

SETS = 5
MAX_CHANGES = 3
"""At most this many readings are changed to make the hand legal."""
ALTERNATIVE_FLOOR = 0.02
"""A reading the classifier gives less than this probability is never tried."""
WILDCARDS = 3
"""When no reading from the classifier's top three makes a win, each of this many least sure tiles in turn is
tried as every kind, and then each tile lying across its row (:func:`_unreadable`), of the tiles read unsure only."""
ALTERNATIVE_ODDS = 4.0
"""Another legal reading at most this many times less likely than the one taken is said, with its tai."""
MAX_ALTERNATIVES = 3
"""... and at most this many of them."""
CLOSE = 0.6
"""A tile read surely (not :meth:`Detections.doubtful`) is changed only to another reading the classifier gives
at least this share of the reading's own probability (:func:`_changeable`). ``DOUBTFUL`` (in
:mod:`companion.vision.read`) draws the line at a reading under even odds; a reading just at it (0.5) with a
second guess at 0.3 is this ratio, and a sure reading is held to no looser a doubt than that: 0.55 beside 0.41
(0.75) is changed, 0.74 beside 0.25 (0.34) or 0.62 beside 0.13 (0.21) never (a review scored both, the 9s taken
as 3s, 3 tai paid on a hand one tile from a win)."""
MAX_TRIED = 5000
"""Readings tried at most (best first) before the hand is reported as unreadable."""


@dataclass(frozen=True, slots=True)
class Need:
    """What a legal reading's hand comes to: one of ``sizes`` tiles, concealed + 3 a meld (a kong 3), complete;
    or, for an instant win (八仙過海, 七搶一, 四槓: no winning shape, spec §3.1), complete or not."""

    sizes: tuple[int, ...] = (3 * SETS + 2,)
    kind: WinType | None = None
    """The instant win whose hand it is; None for a win on a tile."""
    drawn: int = 0
    """A hand of this many has drawn the eighth flower's replacement (八仙過海): it holds all eight flowers (else
    its extra tile is no replacement but a tile misread, or no part of the hand); 0: none."""
    added: Tile | None = None
    """The winning tile the player named where the photo does not show it (16 tiles: the winning discard still lies
    in the discarder's river): the hand of ``sizes`` with it must complete."""

    @property
    def instant(self) -> bool:
        return self.kind is not None


WIN = Need()
"""A win on a tile: 16 and the winning tile, complete."""


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
class Plan:
    """One reading of the layout: the concealed tiles (``apart``: the tile set apart, or -1) and the groups to
    cut into melds."""

    concealed: tuple[int, ...]
    apart: int
    meld_groups: tuple[Group, ...]
    split: bool = False
    """The concealed row has gaps besides the tile set apart (groups taken as concealed, not as melds)."""


def _single(g: Group, flower: set[int]) -> int:
    """The tile of ``g`` that may be a winning tile set apart: a lone tile (read as a flower or not: it may be
    misread), or the one tile not read as a flower among flowers laid beside it; else -1."""
    if len(g) == 1:
        return g.tiles[0]
    rest = [i for i in g.tiles if i not in flower]
    return rest[0] if len(rest) == 1 else -1


def _meld_group(g: Group) -> bool:
    """``g`` lies as a meld laid out: a claimed tile across the row beside others, or a concealed kong's backs."""
    return bool(g.backs) or (g.sideways and len(g) > 1)


def joined_short(row: tuple[Group, ...]) -> list[Group]:
    """A row of melds' groups with each group of fewer than three tiles joined to its neighbours on both sides (and
    they to theirs while short): such a group is no meld of its own, so a gap beside it is none between two melds
    but a tile's box drawn short of it. A meld's claimed tile lying across the row, boxed smaller than it, left a gap
    wider than a group's on dev hands (``4p | 5p 6p``, ``5z 5z | 5z``); every reading of the row as cut before was
    refused, so joining only adds readings (and the count of tiles still has to come out right)."""
    out: list[Group] = []
    for g in row:
        if out and (len(g) < 3 or len(out[-1]) < 3):
            prev = out.pop()
            g = Group(prev.tiles + g.tiles, prev.sideways or g.sideways, prev.backs + g.backs)
        out.append(g)
    return out


def row_plans(laid: LaidHand, flower: set[int]) -> list[Plan]:
    """Every row as the concealed one (the tile count is checked per reading: a tile read as a flower, here
    ``flower``, may be one laid beside the others or a misread tile). A tile lying alone in a row of its own
    is a concealed tile, the winning tile pushed apart; the tile set apart is the one such tile, or the lone
    tile at one end of the concealed row, when there is exactly one. Rows without gaps first (a row with gaps
    in it is more likely melds), then the longest. The other rows are melds, their short groups joined
    (:func:`joined_short`). A group of one tile lying across the row is no meld (a claimed
    tile lies beside its meld's other tiles): it is a lone tile like any other, often the winning tile set apart
    and boxed across the row (a real hand's 北 at the row's end, read sideways)."""
    plans = []
    lone = [row[0] for row in laid.rows if len(row) == 1 and _single(row[0], flower) >= 0]
    for r, row in enumerate(laid.rows):
        if len(row) == 1 and row[0] in lone:
            continue
        others = [g for q, other in enumerate(laid.rows) if q != r and not (len(other) == 1 and other[0] in lone)
                  for g in joined_short(other)]
        melds = [_meld_group(g) for g in row]  # a claimed tile or a concealed kong
        # and, where the row's melds are claimed tiles alone, the row read whole as the concealed one: a concealed
        # tile boxed lying across the row made a dev hand's row of eight a meld group (a 4p boxed as half a tile)
        whole = [m and g.backs > 0 for g, m in zip(row, melds, strict=True)]
        for as_meld in (melds, whole) if whole != melds else (melds,):
            meld_groups = [g for g, m in zip(row, as_meld, strict=True) if m]
            concealed_groups = [g for g, m in zip(row, as_meld, strict=True) if not m]
            ends = []
            if len(concealed_groups) > 1:
                first, last = (_single(concealed_groups[k], flower) for k in (0, -1))
                ends = [first] if first >= 0 and last < 0 else [last] if last >= 0 and first < 0 else []
            candidates = ends + [_single(g, flower) for g in lone]
            concealed = tuple(i for g in concealed_groups for i in g.tiles) + tuple(i for g in lone for i in g.tiles)
            split = sum(len(g) > 1 for g in concealed_groups) > 1
            plans.append(Plan(concealed, candidates[0] if len(candidates) == 1 else -1,
                              tuple(meld_groups + others), split))
    if len(lone) == 2:  # 全求人: the one tile left in the hand and the winning tile, each lying alone
        others = [g for row in laid.rows if not (len(row) == 1 and row[0] in lone) for g in joined_short(row)]
        plans.append(Plan(lone[0].tiles + lone[1].tiles, -1, tuple(others)))
    plans.sort(key=lambda p: (p.split, -len(p.concealed)))
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
class Legal:
    plan: Plan
    melds: tuple[Meld, ...]
    meld_idx: tuple[tuple[int, ...], ...]
    flowers: tuple[int, ...]
    kinds: dict[int, Tile]
    apart: int
    """The winning tile set apart, or -1 (none, or the tile set apart is read as a flower laid out)."""
    added: Tile | None = None
    """The winning tile named and not in the photo (:attr:`Need.added`): the hand's tiles are all concealed ones."""


def legal_reading(plan: Plan, kinds: dict[int, Tile], laid_flowers: tuple[int, ...],
                  need: Need = WIN) -> Legal | None:
    """The plan with these readings is a hand of the size ``need`` says, complete unless it is an instant win's, with
    at most four copies of a kind (a tile of the rows read as a flower joins the flowers), or None."""
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
    size = len(concealed) + 3 * len(melds)
    if size not in need.sizes or Tile.UNKNOWN in concealed or (size == need.drawn and len(set(flowers)) < 8):
        return None
    apart = plan.apart if plan.apart >= 0 and not kinds[plan.apart].is_flower else -1
    if need.added is not None:  # the winning tile named, not in the photo: the hand with it completes
        concealed.append(need.added)
        apart = -1
    flower_tiles = tuple(kinds[i] for i in flowers)
    every = Counter(concealed) + Counter(t for m in melds for t in m.tiles) + Counter(flower_tiles)
    if any(k > t.max_copies for t, k in every.items()):
        return None
    try:
        hand = Hand(tuple(concealed), tuple(melds), flower_tiles)
    except HandError:
        return None
    if not need.instant and not is_complete(hand):
        return None
    return Legal(plan, tuple(melds), tuple(meld_idx), tuple(sorted(flowers)), kinds, apart, need.added)


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


def among_flowers(dets: Detections, laid: LaidHand) -> set[int]:
    """The tiles lying in a group with a tile read as a flower (flowers are laid together, apart from the hand's
    row), and the flowers laid out."""
    flower = [Tile(int(k)).is_flower for k in dets.kind]
    return {i for row in laid.rows for g in row if any(flower[j] for j in g.tiles) for i in g.tiles} | \
        set(laid.flowers)


def no_flower(dets: Detections, laid: LaidHand, hand: list[int], instant: bool) -> set[int]:
    """The tiles of ``hand`` that no reading from the classifier may take as a flower they were not read as. In an
    instant win (八仙過海, 七搶一) the flowers are the win: a tile read surely (not :meth:`Detections.doubtful`), or
    lying anywhere but among flowers (in the concealed row, set apart from it), is not the missing flower. A photo
    review's 1m read at 85% in the concealed row was taken as the eighth flower, and seven flowers were paid 八仙過海.
    Elsewhere, none (a flower changes no count the hand needs)."""
    if not instant:
        return set()
    doubtful = dets.doubtful()
    beside = among_flowers(dets, laid)
    return {i for i in hand if not Tile(int(dets.kind[i])).is_flower and (i not in beside or not doubtful[i])}


def _changeable(unsure: bool, read_p: float, p: float) -> bool:
    """A reading (probability ``read_p``) may be changed to another the classifier gives ``p``: where it is read
    unsure (:meth:`Detections.doubtful`), or where the other comes close to it, at least :data:`CLOSE` of its
    probability (a 6z at 0.55 beside 5z at 0.41; a second look's offer likelier than the reading). A tile read
    surely is otherwise never changed to make a win, whatever its top three say: a review's 9s read at 0.87, with
    3s a 0.06 second guess, was taken as 3s and a hand one tile from a win scored 3 tai and paid (a 詐胡); and the
    earlier cut-off (a lead under 0.5) still took a 9s at 0.74 beside 0.25, or 0.62 beside 0.13. Such a hand is
    refused, naming the tile (:func:`sure_fits`)."""
    return unsure or p >= CLOSE * read_p


def _readings(dets: Detections, hand: list[int],
              barred: set[int] = frozenset()) -> Iterator[tuple[float, dict[int, Tile], tuple[Repair, ...]]]:  # type: ignore[assignment]
    """Readings of the hand's tiles, likeliest first: the tiles as read, then up to :data:`MAX_CHANGES` of
    them changed to another of their top three (cost: the log-odds of the change; only where :func:`_changeable`
    allows it); a tile of ``barred`` never to a flower (:func:`no_flower`)."""
    base = {i: Tile(int(dets.kind[i])) for i in hand}
    unsure = dets.doubtful()
    changes = []
    for i in hand:
        opts = _options(dets, i)
        read_p = max(opts[0][1], 1e-6)
        for t, p in opts[1:]:
            if (t.is_flower and i in barred) or not _changeable(bool(unsure[i]), read_p, p):
                continue
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


def search(dets: Detections, laid: LaidHand, plans: list[Plan],
           need: Need = WIN) -> list[tuple[float, Legal, tuple[Repair, ...]]]:
    """The likeliest legal reading over every plan (fewest-cost changes first, plans in order), then the other
    legal readings of that many changes or fewer that are at most :data:`ALTERNATIVE_ODDS` times less likely,
    likeliest first; empty when none is legal."""
    found: list[tuple[float, Legal, tuple[Repair, ...]]] = []
    for plan in plans:
        hand = [*plan.concealed, *(i for g in plan.meld_groups for i in g.tiles), *laid.flowers]
        barred = no_flower(dets, laid, hand, need.instant)
        for cost, kinds, repairs in itertools.islice(_readings(dets, hand, barred), MAX_TRIED):
            if found and cost > found[0][0] + math.log(ALTERNATIVE_ODDS):
                break
            legal = legal_reading(plan, kinds, laid.flowers, need)
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
        wild = _unreadable(dets, laid, plans, need)
        return [(math.inf, *wild)] if wild else []
    return []


def _unreadable(dets: Detections, laid: LaidHand, plans: list[Plan],
                need: Need = WIN) -> tuple[Legal, tuple[Repair, ...]] | None:
    """When no reading from the top three is a win: one tile may be a kind the classifier did not think of; the
    other tiles as read (or each at its likeliest face, where a second look offered one likelier than the reading:
    :meth:`companion.vision.read.TileReader._offered`), the rules say which kinds complete the hand. The tiles so
    tried are the :data:`WILDCARDS` least sure face-up ones and each unsure face-up tile lying across its row (a
    meld's claimed tile, read from a turned crop); a tile read surely is never taken so (:func:`_wild_fits`). Taken
    only when exactly one kind does (for the first tile that has one)."""
    for i, read, base, fits in _wild_fits(dets, laid, plans, need):
        if len(fits) == 1:
            taken = fits[0].kinds[i]
            changed = [Repair(j, read[j], float(dets.score[j]), base[j], _p(dets, j, base[j]))
                       for j in base if j != i and base[j] != read[j]]
            return fits[0], (*changed, Repair(i, read[i], float(dets.score[i]), taken, 0.0))
    return None


AMBIGUOUS = 3
"""A tile that this many kinds or fewer (two at least) would each make a win of is named when a photo is refused."""


def ambiguous(dets: Detections, laid: LaidHand, plans: list[Plan],
              need: Need = WIN) -> tuple[int, tuple[Tile, ...]] | None:
    """For a photo no reading of which is a win: the first tile :func:`_unreadable` tries that two to
    :data:`AMBIGUOUS` kinds would each complete the hand as, with those kinds; None where there is none. The
    player can then tell which it is (a 3m lying across its chow read 中 at 0.14: 3m and 6m each make 345m or
    456m)."""
    for i, _, _, fits in _wild_fits(dets, laid, plans, need):
        kinds = tuple(sorted({f.kinds[i] for f in fits}))
        if 2 <= len(kinds) <= AMBIGUOUS:
            return i, kinds
    return None


def _wild_fits(dets: Detections, laid: LaidHand, plans: list[Plan],
               need: Need) -> Iterator[tuple[int, dict[int, Tile], dict[int, Tile], list[Legal]]]:
    """Each tile :func:`_unreadable` tries as any kind, in its order: (the tile, the tiles as read, the other tiles'
    readings it is tried with, the legal readings with it as another kind). A tile is tried as a flower only where it
    lies among flowers (:func:`among_flowers`; never in the concealed row) and :func:`no_flower` allows it. Only tiles
    read unsure (:meth:`Detections.doubtful`) are tried: a tile read surely taken as a kind the classifier did not
    name made a hand that is no win one (a review's 9s read at 0.86 taken as 1s, and a 7p set apart at 0.83 as the
    3p that was the hand's only wait: a false win scored and paid); such a hand is refused, naming the tiles that
    would make it a win (:func:`sure_fits`)."""
    across = RowFrame.of(dets.obb).sideways if len(dets) else np.zeros(0, bool)
    unsure = dets.doubtful()
    beside = among_flowers(dets, laid)
    for plan in plans:
        hand = [*plan.concealed, *(i for g in plan.meld_groups for i in g.tiles), *laid.flowers]
        read = {i: Tile(int(dets.kind[i])) for i in hand}
        likeliest = {i: max(_options(dets, i), key=lambda o: o[1])[0] for i in hand}
        up = sorted((i for i in hand if dets.face_up[i] and unsure[i]), key=lambda i: float(dets.score[i]))
        doubtful = list(dict.fromkeys([*up[:WILDCARDS], *(i for i in up if across[i])]))
        barred = no_flower(dets, laid, hand, need.instant) | {i for i in hand if i not in beside}
        for base in (read, likeliest) if likeliest != read else (read,):
            for i in doubtful:
                fits = [legal for t in Tile if t != Tile.UNKNOWN and t != base[i]
                        and not (t.is_flower and i in barred)
                        if (legal := legal_reading(plan, {**base, i: t}, laid.flowers, need)) is not None]
                yield i, read, base, fits


def _p(dets: Detections, i: int, t: Tile) -> float:
    """The probability detection ``i``'s readings give tile ``t`` (0 where none does)."""
    return next((p for k, p in _options(dets, i) if k == t), 0.0)


def sure_fits(dets: Detections, laid: LaidHand, plans: list[Plan],
              need: Need = WIN) -> list[tuple[int, tuple[Tile, ...]]]:
    """For a photo no reading of which is a win: each tile read surely (face up, not :meth:`Detections.doubtful`)
    that one to :data:`AMBIGUOUS` kinds other than its reading would each make a win of, the others as read (or at
    their likeliest face, as :func:`_wild_fits` tries them), with those kinds; the least sure first, at most
    :data:`AMBIGUOUS` tiles; never a tile the player said (:attr:`Detections.picked`: a corrected 7m was named back
    as "100% sure" and suspect). Never taken (the classifier was sure, and a
    hand one tile from a win is no win: a false win, 詐胡), but named, for the player to check that tile."""
    unsure = dets.doubtful()
    picked = np.zeros(len(dets), bool) if dets.picked is None else dets.picked  # the player said them: not suspect
    beside = among_flowers(dets, laid)
    found: dict[int, set[Tile]] = {}
    for plan in plans:
        hand = [*plan.concealed, *(i for g in plan.meld_groups for i in g.tiles), *laid.flowers]
        read = {i: Tile(int(dets.kind[i])) for i in hand}
        likeliest = {i: max(_options(dets, i), key=lambda o: o[1])[0] for i in hand}
        barred = no_flower(dets, laid, hand, need.instant) | {i for i in hand if i not in beside}
        for base in (read, likeliest) if likeliest != read else (read,):  # (as :func:`_wild_fits` tries them)
            for i in hand:
                if not dets.face_up[i] or unsure[i] or read[i] == Tile.UNKNOWN or picked[i]:
                    continue
                for t in Tile:
                    if t in (Tile.UNKNOWN, read[i], base[i]) or (t.is_flower and i in barred) \
                            or t in found.get(i, ()):
                        continue
                    if legal_reading(plan, {**base, i: t}, laid.flowers, need) is not None:
                        found.setdefault(i, set()).add(t)
    fits = [(i, tuple(sorted(kinds))) for i, kinds in found.items() if len(kinds) <= AMBIGUOUS]
    return sorted(fits, key=lambda f: (float(dets.score[f[0]]), f[0]))[:AMBIGUOUS]
