"""A photographed winning hand, laid down: which tiles form the concealed row, the melds, the flowers and the
winning tile, from where they lie in the photo (:func:`lay_out`).

How a winner lays a hand down (台灣十六張: 推倒): the concealed tiles in one row, side by side; the melds already
face up in a row in front of it, a meld's claimed tile sometimes turned sideways, a concealed kong with one or two
of its tiles face down; the flowers in a group of their own; the winning tile often set a little apart at one end
of the row. So the photo is read as rows, in the frame of the tiles' common turn (a photo taken askew or turned a
quarter still has its rows), each row cut into groups where neighbours leave a gap (:data:`GAP`). The choice of
which row is the concealed one, and every reading, is left to :mod:`companion.vision.hand_score`, which tries
them against the rules.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from companion.tiles import Tile
from companion.vision.read import Detections
from companion.vision.sideways import RowFrame, row_labels

GAP = 0.22
"""Two neighbours in a row belong to different groups when the gap between them is wider than this share of the
row's median tile width, and than :data:`LOOSE` times the row's usual gap (tiles laid side by side touch or leave a
millimetre or two; a player who sets a group apart leaves a centimetre or more, a third of a tile). In the rows of
the dev photos (77 rows, whole sets laid in rows) the gaps between neighbours measured -0.16 to 0.19 of a tile's
width; a winning tile set a centimetre apart measured 0.30 (a review's: the limit had been 0.3, so it was missed)."""
LOOSE = 3.0
"""A row laid loosely (its tiles a tenth of a tile apart and more) cuts only at gaps this many times its median one."""


@dataclass(frozen=True, slots=True)
class Group:
    """Tiles side by side with no gap between them, in order along their row: indices into the detections."""

    tiles: tuple[int, ...]
    sideways: bool = False
    """One of its tiles lies turned across the row (a claimed tile)."""
    backs: int = 0
    """How many of its tiles lie face down (a concealed kong shows two)."""

    def __len__(self) -> int:
        return len(self.tiles)


@dataclass(frozen=True, slots=True)
class LaidHand:
    """The tiles of a photo grouped as they lie. ``rows`` holds each row's groups, left to right; rows are
    ordered from the top of the photo down. A group of flowers only is taken out of the rows into ``flowers``
    (a flower read among other tiles stays in its group: it may be a misread tile, or a flower laid beside them,
    which the scorer decides); ``stray`` are face-down tiles in no group of four (not part of a hand as laid
    down: a concealed kong shows its kind on at least one of its four)."""

    rows: tuple[tuple[Group, ...], ...]
    flowers: tuple[int, ...]
    stray: tuple[int, ...]
    hidden: tuple[tuple[int, ...], ...] = ()
    """Runs of four face-down tiles or more side by side, no face among them (:data:`HIDDEN_RUN`; their tiles are in
    ``stray`` too), alone or touching another meld: a concealed kong laid all face down, whose kind the photo does
    not show (spec §2: tables often turn its tiles down). A photo review's four backs were taken for a pung and one
    of white dragons, an exposed kong of 白."""

    def tile_count(self, row: int) -> int:
        return sum(len(g) for g in self.rows[row])

    def lone(self) -> list[int]:
        """The tiles lying alone, in a row of one-tile groups only (no other tile beside any of them): the winning
        tile pushed apart, or a tile that is no part of the hand (a discard, a neighbour's tile, a box on a
        patterned table). Two such tiles a gap apart in one row are each alone: a review's 7z and 9m two tiles
        apart in front of a winning hand made it "a false win?", where five tiles apart (two rows) they were left
        out."""
        return [g.tiles[0] for row in self.rows if all(len(g) == 1 for g in row) for g in row]


def _groups(dets: Detections, f: RowFrame, idx: np.ndarray) -> tuple[Group, ...]:
    """One row's tiles (indices ``idx``) cut into groups at the gaps, in order along the row."""
    idx = idx[np.argsort(f.along[idx], kind="stable")]
    width = float(np.median(np.minimum(dets.obb[idx, 2], dets.obb[idx, 3])))
    gap = np.diff(f.along[idx]) - (f.extent[idx][1:] + f.extent[idx][:-1]) / 2
    usual = float(np.median(gap)) if len(gap) >= 3 else 0.0  # (a gap or two have no usual one to stand out from)
    cut = np.flatnonzero(gap > max(GAP * width, LOOSE * usual)) + 1
    out = []
    for part in np.split(np.arange(len(idx)), cut):
        tiles = idx[part]
        out.append(Group(tuple(int(i) for i in tiles), bool(f.sideways[tiles].any()),
                         int((dets.kind[tiles] == int(Tile.UNKNOWN)).sum())))
    return tuple(out)


def _kong_windows(g: Group, kinds: np.ndarray) -> list[int]:
    """Where a concealed kong may lie in ``g``: the starts of the windows of four tiles in a row that hold a back
    and whose face-up tiles (at least one) show one kind."""
    back = [kinds[i] == int(Tile.UNKNOWN) for i in g.tiles]
    out = []
    for start in range(len(g) - 3):
        window = range(start, start + 4)
        shown = {int(kinds[g.tiles[k]]) for k in window if not back[k]}
        if len(shown) == 1 and any(back[k] for k in window):
            out.append(start)
    return out


def _stray_backs(g: Group, kinds: np.ndarray) -> list[int]:
    """The face-down tiles of ``g`` that no concealed kong can hold (:func:`_kong_windows`)."""
    held = {k for start in _kong_windows(g, kinds) for k in range(start, start + 4)}
    return [i for k, i in enumerate(g.tiles) if kinds[i] == int(Tile.UNKNOWN) and k not in held]


HIDDEN_RUN = 4
"""Backs side by side, this many and more, no face among them, are a concealed kong laid face down (its kind not
shown): :attr:`LaidHand.hidden`."""


def _face_down_runs(g: Group, kinds: np.ndarray) -> tuple[list[tuple[int, ...]], list[tuple[int, ...]]]:
    """``g``'s runs of :data:`HIDDEN_RUN` backs or more, and its tiles between them (the pieces, in order; each a
    group of its own, apart from the kong it touched)."""
    back = [kinds[i] == int(Tile.UNKNOWN) for i in g.tiles]
    runs: list[tuple[int, ...]] = []
    pieces: list[tuple[int, ...]] = []
    start = 0
    k = 0
    while k < len(g):
        end = k
        while end < len(g) and back[end]:
            end += 1
        if end - k >= HIDDEN_RUN:
            if k > start:
                pieces.append(g.tiles[start:k])
            runs.append(g.tiles[k:end])
            start = end
        k = max(end, k + 1)
    if start < len(g):
        pieces.append(g.tiles[start:])
    return runs, pieces


def _kongs_apart(g: Group, kinds: np.ndarray) -> list[Group]:
    """``g`` cut around the concealed kongs in it, when it is longer than one: a kong laid touching the hand's row
    is its own group. A kong's four are a :func:`_kong_windows` window, both ends face down first
    (``0x K K 0x``), then both middles (``K 0x 0x K``), then any."""
    if not g.backs or len(g) <= 4:
        return [g]
    back = [kinds[i] == int(Tile.UNKNOWN) for i in g.tiles]
    starts = _kong_windows(g, kinds)
    for pattern in ((0, 3), (1, 2), ()):
        found = [k for k in starts if all(back[k + j] for j in pattern)]
        if found:
            k = found[0]
            before, kong, after = g.tiles[:k], g.tiles[k:k + 4], g.tiles[k + 4:]
            parts = [Group(before, g.sideways, 0)] if before else []
            parts.append(Group(kong, False, sum(back[k:k + 4])))
            if after:
                parts += _kongs_apart(Group(after, g.sideways, sum(back[k + 4:])), kinds)
            return parts
    return [g]


BLANK_BACK = 0.8
"""A tile read as the white dragon (白板: a blank face in many sets) below this score may be a back lying flat: where
a set's backs are pale, a back and a blank face look alike (the classifier's known confusion; the shipped demo photo
reads its true 白板 at 0.9 and more)."""


def kong_end_backs(dets: Detections) -> list[int]:
    """Tiles read as an unsure white dragon (:data:`BLANK_BACK`) at an end of a group of four tiles side by side
    laid as a concealed kong (``0x K K 0x``): both ends a back or such a 白板, at least one of them the 白板, the middle two one
    kind other than 白板. :func:`companion.vision.hand_score.score_photo` reads them as backs only when the photo
    as read is no win."""
    if len(dets) < 4:
        return []
    kinds = dets.kind.astype(np.int64)
    blank = (kinds == int(Tile.Z5)) & (dets.score < BLANK_BACK)
    end = blank | (kinds == int(Tile.UNKNOWN))
    frame = RowFrame.of(dets.obb)
    label = row_labels(frame)
    out: list[int] = []
    for lab in np.unique(label):
        for g in _groups(dets, frame, np.flatnonzero(label == lab)):
            if len(g) != 4:  # a kong laid as a group of its own (a hand's row may hold 5z K K 5z)
                continue
            for s in range(len(g) - 3):
                a, b, c, d = g.tiles[s:s + 4]
                if end[a] and end[d] and (blank[a] or blank[d]) and kinds[b] == kinds[c] \
                        and kinds[b] not in (int(Tile.Z5), int(Tile.UNKNOWN)):
                    out += [i for i in (a, d) if blank[i] and i not in out]
    return sorted(out)


def as_backs(dets: Detections, idx: list[int]) -> Detections:
    """``dets`` with the tiles ``idx`` read as backs (``0x``, as a face-down box the back check passed)."""
    kind, face_up = dets.kind.copy(), dets.face_up.copy()
    top3_kind, top3_score = dets.top3_kind.copy(), dets.top3_score.copy()
    kind[idx], face_up[idx] = int(Tile.UNKNOWN), False
    top3_kind[idx], top3_score[idx] = (int(Tile.UNKNOWN), 0, 0), (1.0, 0.0, 0.0)
    return dataclasses.replace(dets, kind=kind, face_up=face_up, top3_kind=top3_kind, top3_score=top3_score,
                               second_look=_no_second_look(dets, idx))


def _no_second_look(dets: Detections, idx: list[int]) -> np.ndarray | None:
    """``dets.second_look`` with the rows ``idx``, read anew, cleared."""
    if dets.second_look is None:
        return None
    looks = dets.second_look.copy()
    looks[idx] = False
    return looks


BLANK_FACE = 0.5
"""The score a face-down box taken as a blank white dragon is given (:func:`as_whites`): not doubtful, not sure."""


def as_whites(dets: Detections, idx: list[int]) -> Detections:
    """``dets`` with the face-down tiles ``idx`` read face up as white dragons (白板): a set whose 白板 has a blank
    face shows it as a plain tile, which the back check may take for a back (a photo review: a pung of 白 read as
    three face-down tiles in no concealed kong, and the hand refused)."""
    kind, face_up, sc = dets.kind.copy(), dets.face_up.copy(), dets.score.copy()
    top3_kind, top3_score = dets.top3_kind.copy(), dets.top3_score.copy()
    kind[idx], face_up[idx], sc[idx] = int(Tile.Z5), True, BLANK_FACE
    top3_kind[idx], top3_score[idx] = (int(Tile.Z5), 0, 0), (BLANK_FACE, 0.0, 0.0)
    return dataclasses.replace(dets, kind=kind, face_up=face_up, score=sc, top3_kind=top3_kind,
                               top3_score=top3_score, second_look=_no_second_look(dets, idx))


def shadowed(dets: Detections) -> list[int]:
    """Face-up boxes standing in their row, read unsurely (under :data:`companion.vision.read.DOUBTFUL`), whose centre
    lies inside a face-up tile lying across the row read surer: the same claimed tile boxed twice, once whole across
    the row and once as an upright tile over part of it (dev hands of ``benchmarks.photo_score --sideways``: a 6p
    across its pung boxed again as a 2p at 0.22, a 3m across its chow as a 北 at 0.43). A neighbour standing beside
    a tile lying across the row has its centre a tile's width and half its height away, outside it."""
    if len(dets) == 0:
        return []
    frame = RowFrame.of(dets.obb)
    up = dets.face_up & (dets.kind != int(Tile.UNKNOWN))
    across = np.flatnonzero(up & frame.sideways)
    out = []
    for i in np.flatnonzero(up & ~frame.sideways & dets.doubtful()):
        inside = (np.abs(frame.along[across] - frame.along[i]) < frame.extent[across] / 2) & \
            (np.abs(frame.across[across] - frame.across[i]) < frame.depth[across] / 2) & \
            (dets.score[across] > dets.score[i])
        if inside.any():
            out.append(int(i))
    return out


def lay_out(dets: Detections, left_out: frozenset[int] = frozenset()) -> LaidHand:
    """Group the tiles of a photo of a laid-down hand (see the module's text), but the boxes ``left_out``. Pure
    geometry and kinds: which row is the concealed one is not decided here."""
    if len(dets) == 0:
        return LaidHand((), (), ())
    kinds = dets.kind.astype(np.int64)
    flower = np.array([Tile(int(k)).is_flower for k in kinds])
    rows: list[tuple[float, tuple[Group, ...]]] = []
    stray: list[int] = []
    hidden: list[tuple[int, ...]] = []
    flowers: list[tuple[float, float, int]] = []  # (its row's place across, its place along, the tile)
    frame = RowFrame.of(dets.obb)
    label = row_labels(frame)
    for lab in np.unique(label):
        members = np.array([i for i in np.flatnonzero(label == lab) if int(i) not in left_out], np.int64)
        if len(members) == 0:
            continue
        groups = []
        parts = _groups(dets, frame, members)
        for g in parts:
            # a group of flowers laid out; but a lone tile beside others may be a winning tile set apart, misread
            if flower[list(g.tiles)].all() and not (len(g) == 1 and len(parts) > 1):
                at = float(frame.across[members].mean())
                flowers.extend((at, float(frame.along[i]), i) for i in g.tiles)
                continue
            # a back lying across its row is no concealed kong's (its four stand in the row, none claimed): the felt
            # of a gap between groups boxed as a back where a set's backs are green (a review's upside-down photos)
            lying = [i for i in g.tiles if kinds[i] == int(Tile.UNKNOWN) and frame.sideways[i]]
            if lying:
                rest = tuple(i for i in g.tiles if i not in lying)
                stray.extend(lying)
                if not rest:
                    continue
                g = Group(rest, bool(frame.sideways[list(rest)].any()), g.backs - len(lying))
            # four backs or more side by side, no face among them: a concealed kong laid face down, whether alone
            # or touching another meld (a product review's, pushed against a pung, was filled in as a kong of 白)
            runs, pieces = _face_down_runs(g, kinds)
            for run in runs:
                stray.extend(run)
                hidden.append(run)
            for tiles in pieces:
                piece = Group(tiles, bool(frame.sideways[list(tiles)].any()),
                              int((kinds[list(tiles)] == int(Tile.UNKNOWN)).sum()))
                odd = _stray_backs(piece, kinds)
                stray.extend(odd)
                kept = tuple(i for i in piece.tiles if i not in odd)
                if kept:
                    groups.extend(_kongs_apart(Group(kept, piece.sideways, piece.backs - len(odd)), kinds))
        if groups:
            rows.append((float(frame.across[members].mean()), tuple(groups)))
    rows.sort(key=lambda r: r[0])
    # the flowers in the order they lie, as the rows' tiles are numbered (top row first, each left to right): a
    # review's f.1... followed the detector's order, another in each photo
    return LaidHand(tuple(g for _, g in rows), tuple(i for *_, i in sorted(flowers)), tuple(sorted(stray)),
                    tuple(hidden))


def far_first(dets: Detections, idx: list[int]) -> list[int]:
    """The tiles ``idx`` ordered the farthest from every other tile first (by their centres)."""
    if len(idx) < 2:
        return list(idx)
    xy = dets.obb[:, :2].astype(np.float64)

    def nearest(i: int) -> float:
        d = np.hypot(*(xy - xy[i]).T)
        d[i] = np.inf
        return float(d.min())

    return sorted(idx, key=lambda i: -nearest(i))


class NoPlaceToAdd(ValueError):
    """A tile the player adds (:func:`with_added`) that no place in the photo's layout takes: the photo holds no
    row of tiles to add it to (``zh``: in Chinese)."""

    def __init__(self, tile: Tile) -> None:
        self.tile = tile
        super().__init__(f"{tile.code} cannot be added: the photo shows no row of the hand's tiles to add it to")
        self.zh = f"無法補上{tile.zh}：照片裡沒有手牌那一列可以加"


def with_added(dets: Detections, tiles: list[Tile] | tuple[Tile, ...]) -> Detections:
    """``dets`` with the ``tiles`` the player says the photo missed (the detector found no box for them), each as a
    detection after the others, read as he says, for certain (:meth:`Detections.corrected`'s): a flower laid out with
    the flowers (in a row of its own below the hand: :func:`lay_out` takes a group of flowers alone as laid out), any
    other tile at an end of the longest group of the photo, the concealed tiles as a hand lies (its other groups, and
    a winning tile set apart, as they were). A :class:`NoPlaceToAdd` where no end keeps the other groups as they lie;
    a ValueError for a tile that is no face (a back, ``0x``)."""
    for t in tiles:
        if not t.is_known:
            raise ValueError(f"{t.code} is no tile to add: name the tile's face")
    out = dets
    flowers = 0
    for t in tiles:
        if t.is_flower:
            out = _added_flower(out, t, flowers)
            flowers += 1
        else:
            out = _added_tile(out, t)
    return out


def _box_size(dets: Detections) -> tuple[float, float]:
    """A tile's box (width, height), the photo's median; a phone photo's size where it holds none."""
    if len(dets) == 0:
        return 70.0, 95.0
    return float(np.median(dets.obb[:, 2])), float(np.median(dets.obb[:, 3]))


def _appended(dets: Detections, tile: Tile, box: tuple[float, float, float, float, float]) -> Detections:
    """``dets`` with one more detection at ``box``, read as ``tile`` for certain."""
    n = len(dets)
    picked = np.zeros(n, bool) if dets.picked is None else dets.picked
    second = None if dets.second_look is None else np.concatenate([dets.second_look, np.zeros((1, 3), bool)])
    return dataclasses.replace(
        dets, obb=np.concatenate([dets.obb, np.array([box], np.float32)]),
        kind=np.concatenate([dets.kind, np.array([int(tile)], dets.kind.dtype)]),
        face_up=np.concatenate([dets.face_up, np.ones(1, bool)]),
        score=np.concatenate([dets.score, np.ones(1, dets.score.dtype)]),
        top3_kind=np.concatenate([dets.top3_kind, np.full((1, 3), int(tile), dets.top3_kind.dtype)]),
        top3_score=np.concatenate([dets.top3_score, np.array([[1.0, 0.0, 0.0]], dets.top3_score.dtype)]),
        second_look=second, picked=np.concatenate([picked, np.ones(1, bool)]))


def _added_flower(dets: Detections, tile: Tile, k: int) -> Detections:
    """``dets`` with the flower ``tile`` laid out below every tile, the ``k``-th added beside the ones before it."""
    w, h = _box_size(dets)
    x0 = float(dets.obb[:, 0].min()) if len(dets) else w
    y = float(dets.obb[:, 1].max()) + 3 * h if len(dets) else h
    if k:  # beside the flowers added before it, in one group
        y = float(dets.obb[-1, 1])
    return _appended(dets, tile, (x0 + k * (w + 1), y, w, h, 0.0))


def _added_tile(dets: Detections, tile: Tile) -> Detections:
    """``dets`` with ``tile`` at an end of the longest group: the right end first (the numbers of the tiles before it
    are kept), where the other groups lie as they did; else where it joins the longest group to another of its row
    (the hole the missed tile left), a tile lying alone (a winning tile set apart) kept apart.
    :class:`NoPlaceToAdd` where no end does."""
    laid = lay_out(dets)
    groups = [g for row in laid.rows for g in row]
    if not groups:
        raise NoPlaceToAdd(tile)
    longest = max(groups, key=len)
    row = next(r for r in laid.rows if longest in r)
    centres = dets.obb[list(longest.tiles), :2].astype(np.float64)
    w, h = _box_size(dets)
    if len(longest) > 1:
        step = (centres[-1] - centres[0]) / (len(longest) - 1)
    else:
        turn = np.deg2rad(float(dets.obb[longest.tiles[0], 4]))
        step = np.array([np.cos(turn), -np.sin(turn)]) * (w + 1)
    angle = float(np.median(dets.obb[list(longest.tiles), 4]))
    others = {g.tiles for g in groups if g is not longest}
    n = len(dets)
    tried = []
    for at in (centres[-1] + step, centres[0] - step):
        out = _appended(dets, tile, (float(at[0]), float(at[1]), w, h, angle))
        again = lay_out(out)
        now = {g.tiles for r in again.rows for g in r}
        joined = next((set(g) for g in now if n in g), set())
        if not set(longest.tiles) < joined or again.flowers != laid.flowers:
            continue
        lost = others - now  # groups the added tile joined to the longest
        if not lost:
            return out
        if all(len(g) > 1 and any(g == o.tiles for o in row) for g in lost):
            tried.append(out)
    if tried:
        return tried[0]
    raise NoPlaceToAdd(tile)
