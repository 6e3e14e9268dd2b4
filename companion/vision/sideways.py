"""Tiles lying across their row in a photo of a laid-down hand (a meld's claimed tile turned sideways): the frame of
the rows, and a second look where the detector boxed such a tile wrong.

The detector learnt sideways tiles from rendered ones, whose body shows around the face. A real tile photographed
from above shows little body, and a face lying across its row then looks like upright faces: on hands composed
from the real dev crops with each meld's claimed tile turned (``python -m benchmarks.photo_score DEV ...
--sideways``) the detector boxed about one sideways tile in five as an upright tile, a box about a tile's width
high (its true height, which is what sets it apart) but cut to part of its length, or as two narrow upright
tiles side by side (a 4p across the row as two 2p). So in photos (``TileReader.read(..., tiled=True)``) a face-up
box markedly less deep across its row than its row's upright tiles (:data:`SHORT`) is read again as a tile lying
across the row, at a few places along it (:data:`SLIDE`), turned both ways; the surest reading replaces the boxes
it covers where it is surer than they are (:func:`choose`), or where it joins two or more boxes each narrower than a
tile (a tile read as two). And a face-up tile that lies across the row is read again half turned, and at its row's
tile size both ways (:func:`across_views`), keeping the surest reading and turn: which end of a sideways tile is its
top is the orientation network's least certain call, and a sideways box drawn smaller than the tile cuts off part of
its face (萬 read as a wind). Its box grows to the view's sides where they are larger, never shrinks: the sides
measure the gaps between a row's groups.

Where a second look reads another kind less surely than the box's own reading, its reading is not lost: the
likeliest other face joins the box's top three, for the hand's search to take where the tiles as read make no win.
Such looks are also taken at upright boxes a little short of their row's tiles, or read unsurely (:data:`ALMOST`),
and at a tile across the row slid along it (:func:`across_views`).

The other way round, a lone upright tile with no row around it (the winning tile set apart) was boxed as one or two
halves lying across the row, a 4p as 2p: a box lying across the row too small for a tile lying so (:data:`PART`,
:data:`THIN`) is read again as an upright tile slid across the row, under the same rules.

And the tiles of a hand's row all stand the same way up: a photo taken from across the table turns them all upside
down, and the orientation network read some of them the right way up against the rest. Each row takes the way up
its tiles' readings favour together (:func:`ways_up`), and a tile standing the other way is read turned where it
reads surer so (a tile left upside down in a row that stands right keeps its reading).

Pure geometry here; :class:`companion.vision.read.TileReader` reads the crops.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from companion.vision.detect import obb_xyxy

SIDEWAYS = 0.7
"""A tile lies sideways (a meld's claimed tile) when the sine of its turn against the tiles' common turn is at
least this (about 45 degrees and more)."""
SHORT = 0.875
"""A face-up upright box whose depth across its row is under this share of its row's tiles' depth (:data:`NEAR`)
may be a tile lying across the row: halfway between a tile's width and its height (3:4), so a box nearer a tile's
width deep than its height."""
NEAR = 8
"""A box is measured against the median of this many upright face-up tiles of its own row nearest to it (at least
two; else against the photo's): a row farther from the camera has smaller tiles, and measured against the photo's a
review's far row was all short, two of its 2p read as one 4p lying across it. Eight, not four: the detector's boxes
of one row differ by a tenth, and four of them measured a lone half of a 4p as no part of a tile."""
REACH = 3.5
"""Tiles of one row may lie this many tile widths apart (centre to centre) and still chain into it: a player
may leave a wide gap between the groups of a row."""
SLIDE = (-1.0, -0.5, 0.0, 0.5, 1.0)
"""Where along the row a sideways tile is looked for around a short box: its centre moved by these shares of
half the length the box lacks (from one end of the tile to the other)."""
PART = 0.8
"""A box lying across its row that reaches along it less than this share of its row's tiles' height, or reaches
across it less than :data:`THIN` of it, is no sideways tile (one reaches a tile's height along the row and its
width across) but may be part of an upright one: a lone 4p, with no row around it, was boxed as one or two 2p lying
across the row, each half the tile."""
THIN = 0.6
"""(See :data:`PART`.) A half of a 4p lying across the row reached across it 0.57 of its row's tiles' height, a
sideways tile drawn a little short about 0.7 (its width)."""
ACCEPT = 0.6
"""A whole tile's reading replaces boxes only when its best tile reaches this ..."""
MARGIN = 0.1
"""... and, where it replaces one box, by this much more than that box's reading, and as another kind (the same kind
read surer is no reason to turn a tile: a blank 白板 drawn a little short was turned across its row, and its meld
was then cut); ..."""
JOIN = 0.85
"""... where it joins two boxes or more lying along the row (one tile read as two, which may both read surely: a 4p
as two 2p at 0.95), its reading must reach this; ..."""
OVERLAP = 0.25
"""... and it may reach at most this share of a tile's width along the row into a box it does not replace, or into a
whole tile taken before it."""
ALMOST = 0.92
"""A face-up box standing in its row less deep than this share of its row's tiles (but not under :data:`SHORT`), or
read under :data:`UNSURE`, is looked at as a tile lying across the row too, slid along it as a box too short is
(:func:`proposals`), but only to offer the hand's search another kind
(:meth:`companion.vision.read.TileReader._across_rows`), never to replace the box: real claimed tiles lying across a
meld's row were boxed as upright tiles 0.88 of a tile deep and read as what the part of the face in the box looks
like (a 4m as 中 at 0.81: the whole tile across the row read 4m at 0.99), or boxed a whole upright tile and read
unsurely (a 3m as 中 at 0.14). Upright tiles read at 0.76-0.89, as deep as their row, read across it as another kind
at 0.5-0.8 (a sideways crop of half a tile and the felt): those are not asked."""
UNSURE = 0.5
"""(See :data:`ALMOST`.)"""
OFFER = 0.2
"""A second look's other face is offered to the hand's search where it reads at least this: a speck of a checked
table boxed as a small tile, read across as 3f at 0.06, let a rendered hand be scored wrong with one flower more."""
EDGE = 2.0
"""A box within this many pixels of the image's edge may be a tile the edge cuts: it is not looked at again, nor is a
whole tile looked for reaching past the edge (the edge's pixels repeated read as anything)."""


def common_turn(angle: np.ndarray) -> float:
    """The tiles' common turn (radians, counter-clockwise from image up), up to a half turn: the median of doubled
    angles ignores which way up a tile lies, and sideways tiles are few."""
    a = np.radians(angle)
    return float(np.arctan2(np.median(np.sin(2 * a)), np.median(np.cos(2 * a))) / 2)


@dataclass(frozen=True, slots=True)
class RowFrame:
    """Tiles in the frame of their rows: ``along`` and ``across`` the rows (px), each tile's extent along its
    row (``extent``) and across it (``depth``), and whether it lies ``sideways``; ``turn`` is the rows' common
    turn (radians)."""

    along: np.ndarray
    across: np.ndarray
    extent: np.ndarray
    depth: np.ndarray
    sideways: np.ndarray
    turn: float

    @staticmethod
    def of(obb: np.ndarray) -> RowFrame:
        """The frame of the oriented boxes ``obb`` (N x 5: cx, cy, w, h, angle in degrees)."""
        ref = common_turn(obb[:, 4])
        xy = obb[:, :2].astype(np.float64)
        w, h = obb[:, 2].astype(np.float64), obb[:, 3].astype(np.float64)
        side = np.abs(np.sin(np.radians(obb[:, 4]) - ref)) >= SIDEWAYS
        short, long = np.minimum(w, h), np.maximum(w, h)
        return RowFrame(xy @ _right(ref), xy @ _down(ref), np.where(side, long, short), np.where(side, short, long),
                        side, ref)

    def point(self, along: float, across: float) -> tuple[float, float]:
        """Image coordinates of a point given along and across the rows."""
        x, y = along * _right(self.turn) + across * _down(self.turn)
        return float(x), float(y)

    def locate(self, x: float, y: float) -> tuple[float, float]:
        """A point of the image along and across the rows (:meth:`point`'s inverse)."""
        xy = np.array([x, y], np.float64)
        return float(xy @ _right(self.turn)), float(xy @ _down(self.turn))


def _right(ref: float) -> np.ndarray:
    return np.array([np.cos(ref), -np.sin(ref)])  # a tile's right in the image (y down), turned with it


def _down(ref: float) -> np.ndarray:
    return np.array([np.sin(ref), np.cos(ref)])


STANDING = 3
"""A row's own standing tiles decide which way up it lies when it has at least this many; a shorter row (a pair set
apart, the winning tile) follows the photo's standing tiles."""
DECIDE = 1.5
"""The way up a row's (or the photo's) reading favours by at least this much (natural log of the product of its
tiles' probabilities, one way against the other) turns its tiles lying the other way; a closer vote turns none."""
OWN = 0.0
"""A tile lying the other way from its row's (or the photo's) way up is turned only where its own reading turned is
surer than as it lies by more than this (natural log of the two probabilities): the row's vote says which of its
tiles may have been read the wrong way up, each tile's own reading says whether it was. Players leave tiles upside
down in a row that stands the right way up; turned with the row, such a tile, read right, read as a flower or
another kind (a review's 3m lying upside down, read 3m, turned and read 4f at 0.75: on a grid of the 232 dev crops
one in four upside down, 13 of 29 such tiles read right with the row's vote alone, 29 of 29 without this look)."""


def ways_up(frame: RowFrame, obb: np.ndarray, standing: np.ndarray, gain: np.ndarray) -> np.ndarray:
    """The ``standing`` tiles (face up, standing in their row) to turn a half turn: the tiles of a hand's row all
    stand the same way up, so each row reads its tiles as they lie and turned (``gain``: log probability of each
    tile's best face turned, less as it lies) and the way up whose readings are the more likely together is the
    row's (or, in a row of fewer than :data:`STANDING`, the photo's); each of its tiles lying the other way is turned
    where its own reading gains by the turn (:data:`OWN`).
    A photo taken from across the table turns every tile upside down, and the orientation network read a third of
    them the right way up against the rest (a review's 7f read as a 9m at 0.17 and two 東 as 7m)."""
    n = len(obb)
    out = np.zeros(n, bool)
    if standing.sum() < 2:
        return out
    up = np.cos(np.radians(obb[:, 4].astype(np.float64)) - frame.turn) > 0  # (turn is known up to a half turn)
    lean = np.where(up, -gain, gain)  # each tile's say for the "up" way (its reading as the "up" way, less turned)
    rows = row_labels(frame)

    def turned(members: np.ndarray) -> np.ndarray:
        vote = float(lean[members].sum())
        flag = np.zeros(n, bool)
        if abs(vote) >= DECIDE:
            flag[members] = up[members] != (vote > 0)
        return flag

    whole = turned(np.flatnonzero(standing))
    for r in np.unique(rows):
        members = np.flatnonzero((rows == r) & standing)
        # a short row follows the photo, unless its own tile reads far worse turned (flowers laid aside askew)
        out |= turned(members) if len(members) >= STANDING else whole & np.isin(np.arange(n), members)
    return out & (gain > OWN)  # (and a tile reading worse turned keeps its reading: a flower laid aside askew too)


def row_labels(f: RowFrame) -> np.ndarray:
    """Row labels: tiles chain into a row when their centres lie within half the deeper one's depth across the
    row and within :data:`REACH` of the wider one's extents along it."""
    n = len(f.along)
    near = (np.abs(f.across[:, None] - f.across[None, :]) <= 0.5 * np.maximum(f.depth[:, None], f.depth[None, :])) \
        & (np.abs(f.along[:, None] - f.along[None, :]) <= REACH * np.maximum(f.extent[:, None], f.extent[None, :]))
    row = np.arange(n)
    changed = True
    while changed:  # each tile takes the smallest label of its neighbours until the chains settle
        new = np.where(near, row[None, :], n).min(axis=1)
        changed = bool((new != row).any())
        row = new
    return row


@dataclass(frozen=True, slots=True)
class Proposals:
    """Boxes of a whole tile (``obb``, P x 5) around the boxes that look like part of one, or that are read unsurely;
    ``owner`` (P) is the box each was put around, ``upright`` (P) whether it stands in its row (else it lies across
    it); ``parts`` the mask of boxes that look like part of a tile (:func:`proposals`), the only ones
    :func:`choose` may replace; ``width`` and ``depth`` (N) the tile size each box was measured against (its row's)."""

    obb: np.ndarray
    owner: np.ndarray
    upright: np.ndarray
    parts: np.ndarray
    width: np.ndarray
    depth: np.ndarray

    def halves(self, j: int) -> tuple[float, float]:
        """Half the extent of proposal ``j`` along its row and across it."""
        w, h = float(self.obb[j, 2]), float(self.obb[j, 3])
        return (w / 2, h / 2) if self.upright[j] else (h / 2, w / 2)


def tile_size(frame: RowFrame, obb: np.ndarray, face_up: np.ndarray) -> tuple[float, float] | None:
    """A tile's width and height in the photo: the medians of the face-up tiles' sides that do not lie across their
    row; None where there are fewer than three to measure by."""
    up = face_up & ~frame.sideways
    if up.sum() < 3:
        return None
    return float(np.median(np.minimum(obb[up, 2], obb[up, 3]))), float(np.median(np.maximum(obb[up, 2], obb[up, 3])))


def row_sizes(frame: RowFrame, obb: np.ndarray, face_up: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """Each box's tile width and height (N each): the medians of the :data:`NEAR` upright face-up tiles of its row
    nearest to it, itself left out, where there are two or more; else the photo's (:func:`tile_size`). None where
    the photo has fewer than three such tiles."""
    size = tile_size(frame, obb, face_up)
    if size is None:
        return None
    up = face_up & ~frame.sideways
    short, long = np.minimum(obb[:, 2], obb[:, 3]), np.maximum(obb[:, 2], obb[:, 3])
    width, depth = np.full(len(obb), size[0]), np.full(len(obb), size[1])
    label = row_labels(frame)
    for i in range(len(obb)):
        mates = np.flatnonzero(up & (label == label[i]))
        mates = mates[mates != i]
        if len(mates) >= 2:
            near = mates[np.argsort(np.abs(frame.along[mates] - frame.along[i]), kind="stable")[:NEAR]]
            width[i], depth[i] = float(np.median(short[near])), float(np.median(long[near]))
    return width, depth


def across_views(obb: np.ndarray, width: np.ndarray | None, depth: np.ndarray | None,
                 turn: float = 0.0) -> np.ndarray:
    """``V x N x 5``: other boxes to read each tile lying across its row in (``obb``, N x 5): half turned, and,
    where its row's tile size is known (``width``, ``depth``: N each), at that size both ways (a sideways box drawn
    smaller than the tile cuts off part of its face), and so slid along the row to either end of where the tile may
    lie, both ways (``turn``: the rows' common turn, radians): a box a sixth shorter than the tile, drawn to one end
    of it, left out the other end (a 7s read 6s at 0.88 without its top bamboo)."""
    views = [half_turned(obb)]
    if width is not None and depth is not None:
        full = obb.copy()
        full[:, 2], full[:, 3] = width, depth
        views += [full, half_turned(full)]
        lack = np.maximum(depth - np.maximum(obb[:, 2], obb[:, 3]), 0.0) / 2
        for k in (-1.0, 1.0):
            slid = full.copy()
            slid[:, :2] += (k * lack[:, None] * _right(turn)[None, :]).astype(np.float32)
            views += [slid, half_turned(slid)]
    return np.stack(views)


def inside(obb: np.ndarray, image_size: tuple[int, int], margin: float = 0.0) -> np.ndarray:
    """Bool mask: the boxes ``obb`` whose corners all lie at least ``margin`` px inside an image of ``image_size``
    (w, h)."""
    box = obb_xyxy(obb.astype(np.float64))
    w, h = image_size
    return (box[:, 0] >= margin) & (box[:, 1] >= margin) & (box[:, 2] <= w - margin) & (box[:, 3] <= h - margin)


def proposals(frame: RowFrame, obb: np.ndarray, face_up: np.ndarray,
              image_size: tuple[int, int] = (0, 0), read: np.ndarray | None = None) -> Proposals | None:
    """Whole tiles around the face-up boxes that look like part of one, each measured against its row
    (:func:`row_sizes`): sideways tiles around the upright boxes less deep than :data:`SHORT` of a tile (slid along
    the row), and upright tiles around the boxes lying across the row that are too small for a tile lying so (slid
    across the row: a lone 4p boxed as one or two 2p lying across it), each at the
    :data:`SLIDE` places, turned both ways. Where the image's size is known, a box near its edge is left as it is
    and no whole tile reaches past it (:data:`EDGE`). ``read`` (N): each box's reading's probability, where given,
    and a face-up box standing in its row less deep than :data:`ALMOST` of a tile or read under :data:`UNSURE` gets
    sideways tiles around it too, though it is no part (``parts`` leaves it out: :func:`choose` replaces none of them).
    None where there is none, or fewer than three upright face-up tiles to measure a tile by."""
    sizes = row_sizes(frame, obb, face_up)
    if sizes is None:
        return None
    width, depth = sizes
    short = face_up & ~frame.sideways & (frame.depth < SHORT * depth)
    small = face_up & frame.sideways & ((frame.extent < PART * depth) | (frame.depth < THIN * depth))
    parts = short | small
    looked = parts | (face_up & ~frame.sideways & ((frame.depth < ALMOST * depth) | (read < UNSURE))) \
        if read is not None else parts
    if image_size[0] > 0 and image_size[1] > 0:
        edge = inside(obb, image_size, EDGE)
        parts &= edge
        looked &= edge
    out, owner, upright = [], [], []
    turn = np.degrees(frame.turn)
    for i in np.flatnonzero(looked):
        stands = bool(small[i])  # the tile it is part of stands in the row
        lacks = max(depth[i] - (frame.depth[i] if stands else frame.extent[i]), 0.0) / 2
        for k in SLIDE:
            a, c = (frame.along[i], frame.across[i] + k * lacks) if stands else (frame.along[i] + k * lacks,
                                                                                 frame.across[i])
            x, y = frame.point(float(a), float(c))
            for t in ((0.0, 180.0) if stands else (90.0, -90.0)):
                out.append((x, y, width[i], depth[i], (turn + t + 180) % 360 - 180))
                owner.append(i)
                upright.append(stands)
    if not out:
        return None
    props = np.array(out, np.float32)
    keep = inside(props, image_size, -EDGE) if image_size[0] > 0 and image_size[1] > 0 else np.ones(len(props), bool)
    if not keep.any():
        return None
    return Proposals(props[keep], np.array(owner)[keep], np.array(upright)[keep], parts, width, depth)


def choose(frame: RowFrame, props: Proposals, sure: np.ndarray, kind: np.ndarray, old: np.ndarray,
           old_kind: np.ndarray) -> list[tuple[int, np.ndarray]]:
    """Which proposals to take: ``(proposal, boxes it replaces)``. ``sure`` and ``kind`` (P) are each proposal's
    best tile reading, ``old`` and ``old_kind`` (N) each box's. Each box that looks like part of a tile offers its
    surest proposal, the surest first; one is taken when it reaches :data:`ACCEPT`, covers no box (centre inside
    it) but such parts, and reaches no further than :data:`OVERLAP` of a tile's width along the row into a box in
    line with it that it does not cover or into a whole tile taken before it; and where it covers one box, reads
    another kind :data:`MARGIN` surer; where it covers more, reads surer than all of them, or, lying across the row
    over boxes each narrower along it than :data:`SHORT` of a tile's width (one tile read as two), reaches
    :data:`JOIN`."""
    n = len(frame.along)
    best: dict[int, int] = {}
    for j, i in enumerate(props.owner):
        if int(i) not in best or sure[j] > sure[best[int(i)]]:
            best[int(i)] = j
    taken: list[tuple[int, np.ndarray]] = []
    spans: list[tuple[float, float, float, float]] = []  # the whole tiles taken: along, across, half extents
    gone = np.zeros(n, bool)
    for i, j in sorted(best.items(), key=lambda kv: -sure[kv[1]]):
        if gone[i] or sure[j] < ACCEPT or not props.parts[i]:
            continue
        half_long, half_wide = props.halves(j)
        pa, pc = frame.locate(float(props.obb[j, 0]), float(props.obb[j, 1]))
        in_line = np.abs(frame.across - pc) < half_wide
        covered = np.flatnonzero(in_line & (np.abs(frame.along - pa) < half_long) & ~gone)
        if (~props.parts[covered]).any():
            continue
        others = in_line & ~gone
        others[covered] = False
        reach = np.minimum(pa + half_long, frame.along + frame.extent / 2) - \
            np.maximum(pa - half_long, frame.along - frame.extent / 2)
        limit = OVERLAP * float(props.width[i])
        if (others & (reach > limit)).any() or any(
                abs(c - pc) < w2 + half_wide and min(pa + half_long, a + l2) - max(pa - half_long, a - l2) > limit
                for a, c, l2, w2 in spans):
            continue
        if len(covered) == 1:
            ok = sure[j] >= old[covered[0]] + MARGIN and kind[j] != old_kind[covered[0]]
        else:
            join = not props.upright[j] and bool((frame.extent[covered] < SHORT * props.width[covered]).all())
            ok = sure[j] > old[covered].max() or (join and sure[j] >= JOIN)
        if ok:
            taken.append((j, covered))
            spans.append((pa, pc, half_long, half_wide))
            gone[covered] = True
    return taken


def half_turned(obb: np.ndarray) -> np.ndarray:
    """The boxes ``obb`` turned half a turn (the same place, the other end up)."""
    out = obb.copy()
    out[:, 4] = (out[:, 4] + 360) % 360 - 180
    return out
