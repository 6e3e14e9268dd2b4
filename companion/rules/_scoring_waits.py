"""Real waits for the scorer (spec §3.5), private to it.

A stop-gap until ``companion.rules.waits`` (owned by the analysis work) lands; kept small and fast: a
linear feasibility check per candidate instead of listing every split.
"""

from __future__ import annotations

from companion.tiles import NUM_KINDS, Tile

__all__ = ["real_waits", "sets_only"]


def sets_only(c: list[int]) -> bool:
    """``c`` (modified, then restored) splits into sets only. Three chows of a kind equal three pungs in
    tiles, so taking pungs first never loses a solution; the rest of the lowest kind must start chows."""
    work = list(c)
    for i in range(NUM_KINDS):
        n = work[i]
        if not n:
            continue
        n %= 3
        if n:
            if i >= 27 or i % 9 > 6 or work[i + 1] < n or work[i + 2] < n:
                return False
            work[i + 1] -= n
            work[i + 2] -= n
    return True


def _complete(c: list[int]) -> bool:
    for p in range(NUM_KINDS):
        if c[p] >= 2:
            c[p] -= 2
            ok = sets_only(c)
            c[p] += 2
            if ok:
                return True
    return False


def real_waits(concealed: list[int], own: list[int]) -> tuple[Tile, ...]:
    """Kinds that complete ``concealed`` (a 34-slot count array, 3k+1 tiles) and of which the player's
    own tiles (``own``: concealed and melds) do not already hold all four."""
    out = []
    for t in range(NUM_KINDS):
        if own[t] >= 4:
            continue
        if not concealed[t]:
            if t >= 27:
                continue
            r = t % 9
            if not ((r > 0 and concealed[t - 1]) or (r > 1 and concealed[t - 2]) or (r < 8 and concealed[t + 1])
                    or (r < 7 and concealed[t + 2])):
                continue
        concealed[t] += 1
        if _complete(concealed):
            out.append(Tile(t))
        concealed[t] -= 1
    return tuple(out)
