"""Generate ``companion/rules/data/suit_shanten.bin``: overlap vectors for every common group key.

For every suit key (9 ranks) and honour key (7 kinds) with at most ``--max-tiles`` tiles and no rank above
four copies, the vector ``v[2*m + p]`` (m = 0..5 sets, p = 0/1 pair) of
:func:`companion.rules._suit_tables.overlap_vector` under the default limit of four copies per rank.
The runtime falls back to that same function for larger groups and for groups whose limits are lowered
by melds, and a test checks table entries against it.

The programme is run once per key prefix (a depth-first walk over the ranks), so the whole table takes
well under a minute. Usage::

    python training/gen_suit_tables.py [--max-tiles 12] [--out companion/rules/data/suit_shanten.bin]

File layout (little endian): magic ``b"SST1"``, u32 max_tiles, u32 vector length, u32 number of
vectors, u32 number of keys, then zlib-compressed: the vectors (one byte per entry), the keys (u64,
count field included) and for each key the u16 index of its vector.
"""

from __future__ import annotations

import argparse
import struct
import sys
import time
import zlib
from array import array
from pathlib import Path

from companion.rules._suit_tables import COUNT, DIGIT, HONOUR, TABLE_SETS, _suit_step, overlap_vector

MAGIC = b"SST1"
VEC_LEN = 2 * (TABLE_SETS + 1)


def suit_entries(max_tiles: int) -> list[tuple[int, tuple[int, ...]]]:
    """(key, vector) for every suit key with at most ``max_tiles`` tiles."""
    out: list[tuple[int, tuple[int, ...]]] = []
    limits = [4] * 9

    def walk(r: int, key: int, n: int, states: dict[tuple[int, int, int, int], int]) -> None:
        if r == 9:
            vec = [0] * VEC_LEN
            for (c1, c2, m, p), v in states.items():
                if c1 == 0 and c2 == 0 and v > vec[2 * m + p]:
                    vec[2 * m + p] = v
            out.append((key | n * COUNT, tuple(vec)))
            return
        for d in range(min(4, max_tiles - n) + 1):
            # exact programme (no fresh pruning: the next ranks are not known yet); under the
            # default limits its vectors equal the fresh ones, which a test checks
            nxt = _suit_step(states, d, 4, 4 if r <= 6 else 0, TABLE_SETS, limits[r + 1 : r + 3])
            walk(r + 1, key + (d << (DIGIT * r)), n + d, nxt)

    walk(0, 0, 0, {(0, 0, 0, 0): 0})
    return out


def honour_entries(max_tiles: int) -> list[tuple[int, tuple[int, ...]]]:
    out: list[tuple[int, tuple[int, ...]]] = []

    def walk(r: int, counts: list[int]) -> None:
        if r == 7:
            key = HONOUR | sum(c << (DIGIT * i) for i, c in enumerate(counts)) | sum(counts) * COUNT
            out.append((key, overlap_vector(counts, [4] * 7, True, TABLE_SETS, fresh=False)))
            return
        for d in range(min(4, max_tiles - sum(counts)) + 1):
            walk(r + 1, [*counts, d])

    walk(0, [])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--max-tiles", type=int, default=12)
    ap.add_argument("--out", type=Path, default=Path("companion/rules/data/suit_shanten.bin"))
    args = ap.parse_args(argv)
    t0 = time.time()
    entries = suit_entries(args.max_tiles) + honour_entries(args.max_tiles)
    vectors: dict[tuple[int, ...], int] = {}
    keys = array("Q")
    index = array("H")
    for key, vec in entries:
        keys.append(key)
        index.append(vectors.setdefault(vec, len(vectors)))
    if len(vectors) >= 1 << 16:
        raise SystemExit(f"{len(vectors)} distinct vectors do not fit a u16 index")
    if sys.byteorder != "little":
        keys.byteswap()
        index.byteswap()
    vec_bytes = bytes(v for vec in vectors for v in vec)
    body = zlib.compress(vec_bytes + keys.tobytes() + index.tobytes(), 9)
    header = MAGIC + struct.pack("<4I", args.max_tiles, VEC_LEN, len(vectors), len(keys))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(header + body)
    print(f"{len(keys)} keys, {len(vectors)} distinct vectors, {len(header) + len(body)} bytes "
          f"in {time.time() - t0:.1f} s -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
