"""Tile efficiency for teaching (牌效): which discard keeps a drawn hand closest to a win.

For a hand after a draw (``3*sets + 2`` structural tiles) :func:`discard_options` tries every distinct
discard and reports the shanten left, the kinds whose draw would lower it (進張; the waits once ready)
with the copies still unseen, best first, each with a one-sentence reason in Traditional Chinese and
English.

>>> best = discard_options(Hand.parse("45m345p678p123s999s55z7z"))[0]
>>> best.discard.code, best.shanten, [i.tile.code for i in best.improvements], best.unseen
('7z', 0, ['3m', '6m'], 8)
>>> best.reason_en
'Discard the Red dragon (7z; a lone honour): ready, waiting on 3m and 6m with 8 tiles unseen — the best choice.'
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass

from companion.english import all_four, listed, the_tile
from companion.hand import Hand, HandError, Meld, MeldKind
from companion.rules._suit_tables import INCREMENT, group_keys
from companion.rules.shanten import hand_limits, shanten_of_keys
from companion.rules.waits import checked_visible_counts, structural_waits, waits_of_keys
from companion.tiles import Tile, zh_count

__all__ = ["DiscardOption", "Improvement", "KongOption", "discard_options", "from_ready", "kong_options"]

DRAGONS = (Tile.Z5, Tile.Z6, Tile.Z7)
"""The honours whose pung scores for every player (三元牌)."""


@dataclass(frozen=True, slots=True)
class Improvement:
    """A kind whose draw lowers the shanten, and its copies still unseen."""

    tile: Tile
    unseen: int


class _Option:
    """What a discard option and a kong option share: the improving kinds, and a reason in either language."""

    __slots__ = ()
    improvements: tuple[Improvement, ...]
    reason_zh: str
    reason_en: str

    @property
    def unseen(self) -> int:
        """Copies of the improving kinds still unseen."""
        return sum(i.unseen for i in self.improvements)

    def reason(self, lang: str = "zh") -> str:
        return self.reason_zh if lang.startswith("zh") else self.reason_en


@dataclass(frozen=True, slots=True)
class DiscardOption(_Option):
    """One possible discard and what it leaves."""

    discard: Tile
    shanten: int
    """Shanten of the hand after the discard (0 = ready)."""
    improvements: tuple[Improvement, ...]
    """The kinds that lower it (the real waits when ready), in tile order; for a ready hand whose waits are all in
    sight (``dead_waits``), the draws after which some discard leaves it ready on a wait with a copy unseen."""
    reason_zh: str
    reason_en: str
    dead_waits: tuple[Tile, ...] = ()
    """The waits of a ready hand every copy of which is in sight (死聽): nothing to win on, ranked a step from ready."""

    @property
    def is_ready(self) -> bool:
        return self.shanten == 0

    @property
    def ranked_shanten(self) -> int:
        """The shanten the option is ranked by: a ready hand with nothing left to win on counts as a step away."""
        return 1 if self.dead_waits else self.shanten


@dataclass(frozen=True, slots=True)
class KongOption(_Option):
    """A kong the drawn hand may make instead of a discard: 暗槓 of four held copies, or 加槓 of the fourth copy of
    a pung it has called. Either is followed by a replacement draw: the hand is then one tile short of a discard."""

    tile: Tile
    added: bool  # 加槓 (else 暗槓)
    hand: Hand  # the hand after the kong, before the replacement draw
    better: bool  # as near ready as the best discard with as many tiles to improve it, and a draw more
    shanten: int
    improvements: tuple[Improvement, ...]
    reason_zh: str
    reason_en: str


def kong_options(hand: Hand, visible: Iterable[Tile] | str = ()) -> tuple[KongOption, ...]:
    """The kongs a drawn hand may make, each with the shanten it leaves and the draws that would lower it, compared
    with the best discard (:func:`discard_options`). A kong keeps every set the fourth copy's discard would keep and
    adds a replacement draw, so it is rarely worse; where it is (the fourth copy was worth more in a chow), it says
    so."""
    options = discard_options(hand, visible)  # checks the hand's size and the visible tiles
    best = options[0]
    seen = checked_visible_counts(hand, visible)
    counts = hand.concealed_counts()
    out: list[KongOption] = []
    for k in range(34):
        x = Tile(k)
        if counts[k] == 4:
            after = Hand(tuple(t for t in hand.concealed if t != x), (*hand.melds, Meld(MeldKind.CKONG, (x,) * 4)),
                         hand.flowers, hand.sets)
            out.append(_kong(x, False, after, seen, best))
        elif counts[k] >= 1:
            for i, m in enumerate(hand.melds):
                if m.kind is MeldKind.PUNG and m.tiles[0] == x:
                    melds = (*hand.melds[:i], Meld(MeldKind.ADDKONG, (x,) * 4, m.source), *hand.melds[i + 1:])
                    out.append(_kong(x, True, Hand(hand.remove(x).concealed, melds, hand.flowers, hand.sets), seen,
                                     best))
    return tuple(out)


def _kong(x: Tile, added: bool, after: Hand, seen: list[int], best: DiscardOption) -> KongOption:
    n = after.sets_needed
    limits = hand_limits(after)
    keys = group_keys(after.concealed)
    own = after.own_counts()
    left = shanten_of_keys(keys, n, limits)
    imp = _improvements(keys, left, n, limits, own, seen)
    if left == 1:  # as the discards it is weighed against: a draw that leaves only waits all in sight is none (an audit)
        imp = _live_ready_draws(list(keys), list(after.concealed_counts()), own, seen, {i.tile for i in imp})
    unseen = sum(i.unseen for i in imp)
    name_zh, name_en = ("加槓", "added kong") if added else ("暗槓", "concealed kong")
    head_zh, head_en = f"{name_zh}{x.zh}：槓完補一張牌", f"{name_en.capitalize()} of {_en_one(x)}: a replacement draw follows"
    zh_tiles, en_tiles = "、".join(i.tile.zh for i in imp), _en_tiles(i.tile for i in imp)
    if left == 0:
        zh = f"{head_zh}，聽{zh_tiles}，還有{unseen}張沒出現"
        en = f"{head_en}; ready, waiting on {en_tiles} with {_n(unseen, 'tile', 'tiles')} unseen"
    elif not imp:  # every draw that would bring it nearer is in sight (a review foresaw "0 kinds improve it ()")
        zh, en = _none_improves(head_zh, head_en, left, "", "", True)
    else:
        far_zh, far_en = from_ready(left)
        zh = f"{head_zh}，{far_zh}，{len(imp)}種進張（{zh_tiles}）共{unseen}張"
        en = (f"{head_en}; {far_en}, {_n(len(imp), 'kind improves', 'kinds improve')} it ({en_tiles}), "
              f"{_n(unseen, 'tile', 'tiles')} unseen")
    behind = _effective(left, imp) - best.ranked_shanten
    beats = behind <= 0 and unseen >= best.unseen
    if behind > 0:
        zh += f"，比打{best.discard.zh}多{zh_count(behind)}向聽，先別槓。"
        en += (f" — {_n(behind, 'more useful draw', 'more useful draws')} than discarding {_en_one(best.discard)} "
               "needs: not yet.")
    elif unseen < best.unseen:
        fewer = best.unseen - unseen
        zh += f"，跟打{best.discard.zh}一樣接近聽牌，但少{fewer}張進張；槓了多摸一張補牌。"
        en += (f" — as near ready as discarding {_en_one(best.discard)} but with {_n(fewer, 'tile', 'tiles')} fewer to "
               f"improve it; the kong gains a replacement draw.")
    else:
        zh += f"，跟打{best.discard.zh}一樣接近聽牌，還多摸一張（有槓上開花的機會）。"
        en += f" — as near ready as discarding {_en_one(best.discard)}, with an extra draw (and a chance to win on the replacement)."
    return KongOption(x, added, after, beats, left, imp, zh, en)


def discard_options(hand: Hand, visible: Iterable[Tile] | str = (), valued: Iterable[Tile] | None = None
                    ) -> tuple[DiscardOption, ...]:
    """Every distinct discard of a drawn hand, best first: lowest shanten, then most unseen
    improving tiles, then most improving kinds. On a full tie a discard that breaks four of a kind goes after every
    other, a suit tile's as an honour's (the four may become a concealed kong, a draw more); among the rest an honour
    first (one whose pung would score nothing before one in ``valued``), then a terminal (they join fewer sets), then
    tile order.

    ``visible``: the tiles seen on the table (discards, other players' melds), as tiles or notation.
    ``valued``: the honours whose pung scores for this player (default: the dragons; a table that knows the seat
    and the round adds those winds), kept longer than a guest wind (客風) at a tie (a teaching review: East went
    before the red dragon).
    """
    keep = frozenset(DRAGONS if valued is None else valued)
    n = hand.sets_needed
    if len(hand.concealed) != 3 * n + 2:
        before_draw = hand.structural_count == 3 * hand.sets + 1  # (the hint in both languages: a newcomer review)
        raise HandError(
            f"discard options need a hand after a draw ({3 * hand.sets + 2} structural tiles), "
            f"got {hand.structural_count} in “{hand}”"
            + (" (not drawn yet: companion waits says what it waits on)" if before_draw else ""),
            f"打哪張要看摸牌後的 {3 * hand.sets + 2} 張，這手有 {hand.structural_count} 張"
            + ("（還沒摸牌：請用 companion waits 看聽哪張）" if before_draw else ""),
        )
    own = hand.own_counts()
    seen = checked_visible_counts(hand, visible)
    limits = hand_limits(hand)
    keys = group_keys(hand.concealed)
    counts = hand.concealed_counts()
    raw = []
    for x in sorted(set(hand.concealed)):
        g, step = INCREMENT[x]
        after = list(keys)
        after[g] -= step
        left = shanten_of_keys(after, n, limits)
        held = list(own)
        held[x] -= 1  # (the discarded copy may be drawn again)
        imp = _improvements(after, left, n, limits, held, seen, own)
        dead: tuple[Tile, ...] = ()
        concealed = list(counts)
        concealed[x] -= 1
        if left == 0 and not any(i.unseen for i in imp):  # 死聽: what makes it ready on a live wait again
            dead = tuple(i.tile for i in imp)
            imp = _live_ready_draws(after, concealed, own, seen)
        mine: tuple[Tile, ...] = ()
        if left == 1:  # a draw that makes it ready only on waits all in sight (or all its own) is no improvement
            imp = _live_ready_draws(after, concealed, own, seen, {i.tile for i in imp})
            mine = structural_waits(hand.remove(x))  # ready in shape, on tiles all its own: said (a review)
        raw.append((x, left, imp, dead, mine))
    # a ready hand whose winning tiles are all in sight cannot win: it ranks as a step from ready
    # at a tie a fourth copy is kept: four in hand may become a concealed kong, a draw more (a teaching review: the
    # fourth East went before a lone red dragon)
    raw.sort(key=lambda r: (1 if r[3] else r[1], -sum(i.unseen for i in r[2]), -len(r[2]), counts[r[0]] == 4,
                           not r[0].is_honour, r[0] in keep, not r[0].is_terminal, r[0]))
    best_shanten, best_unseen = 1 if raw[0][3] else raw[0][1], sum(i.unseen for i in raw[0][2])
    punged = {m.tiles[0] for m in hand.melds if m.kind is MeldKind.PUNG}
    return tuple(
        DiscardOption(x, s, imp, *_reasons(x, _ROLES["added"] if x in punged else _role(counts, x), s, imp, i == 0,
                                           best_shanten, best_unseen, dead, mine), dead)
        for i, (x, s, imp, dead, mine) in enumerate(raw)
    )


def _live_ready_draws(keys: list[int], concealed: list[int], own: list[int], seen: list[int],
                      only: set[Tile] | None = None) -> tuple[Improvement, ...]:
    """For a ready hand ``keys`` (its ``concealed`` counts) whose waits are all in sight: the kinds with copies
    unseen after whose draw some discard leaves it ready on a wait with a copy unseen (a teaching review: such a
    hand ranked below every hand a step from ready, as if nothing could mend it).

    ``only``: these kinds alone (for a hand a step from ready: the kinds that make it ready, less those after which
    every wait would be in sight). ``own``: the copies in the hand and its melds before the discard that left it
    (the tiles discarded are in sight, so the copies unseen are 4 - ``own`` - ``seen``, and the draw's too)."""
    out = []
    present = [d for d in range(34) if concealed[d]]
    for t in range(34):
        left = 4 - own[t] - seen[t]
        if left <= 0 or (only is not None and Tile(t) not in only):
            continue
        tg, tstep = INCREMENT[t]
        drawn = list(keys)
        drawn[tg] += tstep
        for d in (*present, t) if not concealed[t] else present:
            dg, dstep = INCREMENT[d]
            after = list(drawn)
            after[dg] -= dstep
            # the waits of the hand left (the tables hold no fifth copy), one with a copy unseen (the draw's known)
            if any(4 - own[w] - (w == t) - seen[w] > 0 for w in _waits_of(tuple(after))):
                out.append(Improvement(Tile(t), left))
                break
    return tuple(out)


@functools.lru_cache(maxsize=8192)
def _waits_of(keys: tuple[int, ...]) -> tuple[Tile, ...]:
    """The structural waits of the concealed tiles ``keys`` (none where they are not ready)."""
    return waits_of_keys(keys)


def _improvements(keys: list[int], left: int, n: int, limits: tuple[tuple[int, ...], ...], held: list[int],
                  seen: list[int], own: list[int] | None = None) -> tuple[Improvement, ...]:
    """The kinds whose draw lowers the shanten ``left`` of the hand ``keys`` (``held`` copies in it: four held, none
    is left to draw), with their copies unseen (4 - ``own`` - seen; ``own`` defaults to ``held``). Two steps from
    ready and more, a kind all in sight improves nothing (a teaching review found "25 kinds improve it (2m …)" with
    the four 2m on the table); nearer, those are kept for the callers to weigh (a wait all in sight, 死聽)."""
    own = held if own is None else own
    out = []
    for t in range(34):
        if held[t] >= 4 or (left >= 2 and 4 - own[t] - seen[t] <= 0):
            continue
        tg, tstep = INCREMENT[t]
        trial = list(keys)
        trial[tg] += tstep
        if shanten_of_keys(trial, n, limits) < left:
            out.append(Improvement(Tile(t), 4 - own[t] - seen[t]))
    return tuple(out)


def _effective(s: int, imp: tuple[Improvement, ...]) -> int:
    """The shanten an option is ranked by: a ready hand with no winning tile left unseen counts as 1."""
    return 1 if s == 0 and not any(i.unseen for i in imp) else s


def _n(k: int, one: str, many: str) -> str:
    return f"{k} {one if k == 1 else many}"


def from_ready(s: int) -> tuple[str, str]:
    """How far from ready (zh, en), the one phrase that ``discard``, ``waits``, ``shanten`` and the app (words.
    shanten_words) all say: 還差兩張才聽（二向聽） / "2 useful draws from ready" (兩 before a measure word, 二 in the
    term). ``discard`` said 二向聽 / "2 steps from ready" beside My hand's useful draws (a review); the app said
    「未聽牌（還差兩張才聽，二向聽）」 where ``waits`` said 「未聽牌：還差兩張才聽（二向聽）」 (a review)."""
    return f"還差{zh_count(s, '兩')}張才聽（{zh_count(s)}向聽）", f"{_n(s, 'useful draw', 'useful draws')} from ready"


_ROLES = {
    "fourth": ("第四張，刻子不拆；也可以暗槓", "the fourth copy: the pung stays whole; it could be a concealed kong"),
    "added": ("碰過的第四張，可以加槓", "the fourth of a called pung: it could be an added kong"),
    "pung": ("拆刻子", "breaks a pung"),
    "pair": ("拆對子", "breaks a pair"),
    "lone_honour": ("孤張字牌", "a lone honour"),
    "lone": ("孤張", "a lone tile"),
    "spare": ("多出的一張", "a spare tile"),
    "chow": ("拆順子", "breaks a chow"),
    "partial": ("拆搭子", "breaks a partial set"),
}


def _role(counts: list[int], x: Tile) -> tuple[str, str]:
    """What discarding one ``x`` breaks, read from the best ways to split the tiles of its suit into sets (chows,
    pungs), pairs, partial sets and lone tiles: the least it can break there. The fourth copy beside a pung breaks
    nothing. A tile that some best split leaves over breaks nothing either: in 4567m the 7m is spare beside 456m,
    and in 334455m a 3m belongs to one of two chows, not to a pair (a review read "breaks a chow" and "breaks a
    pair" there, from the tile's neighbours alone). A tile held twice that a best split puts in a partial set breaks
    the pair the player sees (11p2p33p…: 13p and 123p in the split, 11p in hand), and a tile held twice or three
    times that a best split keeps as a pair or a pung breaks it, though another best split leaves the tile over."""
    if counts[x] >= 4:  # one of four: the other three stay a pung
        return _ROLES["fourth"]
    if x.is_honour:
        return _ROLES["pung" if counts[x] == 3 else "pair" if counts[x] == 2 else "lone_honour"]
    base = x - x % 9
    suit = tuple(counts[base:base + 9])
    best = _best_split(suit)
    held = suit[x % 9]
    if held in (2, 3):  # the pung or pair the player sees, where a best split keeps it whole: broken by the discard
        rest = list(suit)  # (6p of 5p666p77p read "a spare tile", a review: some best split leaves a 6p over, but
        rest[x % 9] = 0  # the one that keeps 666p is as good, and the discard breaks it)
        left = _best_split(tuple(rest))
        worth = (2, 1) if held == 3 else (1, 0)
        if (left[0] + worth[0], left[1] + worth[1]) == best:
            return _ROLES["pung" if held == 3 else "pair"]
    for role, groups in _LEAST_FIRST:
        for offsets, worth in groups:
            rest = list(suit)
            for d in offsets:
                i = x % 9 + d
                if not 0 <= i <= 8 or rest[i] == 0:
                    break
                rest[i] -= 1
            else:
                left = _best_split(tuple(rest))
                if (left[0] + worth[0], left[1] + worth[1]) == best:
                    if role == "lone" and any(suit[i] for i in range(max(0, x % 9 - 2), min(9, x % 9 + 3))
                                              if i != x % 9):
                        return _ROLES["spare"]
                    if role == "partial" and suit[x % 9] == 2:  # one of two held: the player sees the pair it
                        return _ROLES["pair"]  # breaks (1p of 11p2p33p read "breaks a partial set", a review)
                    return _ROLES[role]
    raise AssertionError(f"no split of {suit} holds {x.code}")  # the single always fits


# the groups a tile can belong to, the least broken by its discard first: (offsets from it, (worth, sets))
_LEAST_FIRST: tuple[tuple[str, tuple[tuple[tuple[int, ...], tuple[int, int]], ...]], ...] = (
    ("lone", (((0,), (0, 0)),)),
    ("partial", (((0, 1), (1, 0)), ((-1, 0), (1, 0)), ((0, 2), (1, 0)), ((-2, 0), (1, 0)))),
    ("pair", (((0, 0), (1, 0)),)),
    ("pung", (((0, 0, 0), (2, 1)),)),
    ("chow", (((0, 1, 2), (2, 1)), ((-1, 0, 1), (2, 1)), ((-2, -1, 0), (2, 1)))),
)


@functools.lru_cache(maxsize=4096)
def _best_split(suit: tuple[int, ...]) -> tuple[int, int]:
    """The most a suit's counts make: sets count 2 and pairs or partial sets 1, then the most sets."""
    p = next((i for i, c in enumerate(suit) if c), None)
    if p is None:
        return (0, 0)
    best = (-1, -1)
    for offsets, worth in (((0, 0, 0), (2, 1)), ((0, 1, 2), (2, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 0)),
                           ((0, 2), (1, 0)), ((0,), (0, 0))):
        rest = list(suit)
        if all(p + d <= 8 for d in offsets) and all(rest[p + d] >= offsets.count(d) for d in set(offsets)):
            for d in offsets:
                rest[p + d] -= 1
            left = _best_split(tuple(rest))
            best = max(best, (left[0] + worth[0], left[1] + worth[1]))
    return best


def _none_improves(head_zh: str, head_en: str, s: int, own_zh: str, own_en: str, kong: bool) -> tuple[str, str]:
    """An option no draw improves: at a step from ready, either every tile that would make it ready is in sight, or
    its unseen copies make it ready only on waits all in sight (the draws are weighed so). Said as such, where
    "every tile that would improve it is in sight" was read beside 1m and 4m unseen (a newcomer review)."""
    zh_sep, en_sep = ("，", "; ") if kong else ("：", ": ")
    far_zh, far_en = from_ready(s)
    if s == 1:
        return (f"{head_zh}{zh_sep}{far_zh}{own_zh}，但不管摸進哪張，能聽的牌都已經出完了",
                f"{head_en}{en_sep}{far_en}{own_en}, but no draw makes it ready on a tile still unseen")
    return (f"{head_zh}{zh_sep}{far_zh}{own_zh}，能進張的牌都已經出現",
            f"{head_en}{en_sep}{far_en}{own_en}, and every tile that would improve it is in sight")


def _reasons(
    x: Tile, role: tuple[str, str], s: int, imp: tuple[Improvement, ...], first: bool, best_s: int,
    best_unseen: int, dead: tuple[Tile, ...] = (), mine: tuple[Tile, ...] = (),
) -> tuple[str, str]:
    """The zh and en sentence for one option (``dead``: the waits of a ready hand all in sight; ``mine``: those of a
    hand ready in shape whose every copy is the player's own, which counts a step from ready, spec §3.5)."""
    unseen = sum(i.unseen for i in imp)
    zh_tiles = "、".join(i.tile.zh for i in imp)
    en_tiles = _en_tiles(i.tile for i in imp)
    head_zh = f"打{x.zh}（{role[0]}）"
    head_en = f"Discard {x.code} ({role[1]})" if x.is_suited else f"Discard the {x.en} ({x.code}; {role[1]})"
    mine_zh, mine_en = all_four([t.zh for t in mine], [t.said_en for t in mine])
    own_zh = f"（聽的{mine_zh}都在自己手上）" if mine else ""
    own_en = f" (its wait is in the player's own hand: {mine_en})" if mine else ""
    if dead:
        last_zh, last_en = ((f"（最後一張{x.zh}就是打出的這張）", f" (the last {x.code if x.is_suited else x.en} is this "
                             "discard)") if x in dead else ("", ""))
        zh = (f"{head_zh}：聽{'、'.join(t.zh for t in dead)}，但這些牌都已經出現{last_zh}，沒有牌可以胡"
              + (f"；摸到{len(imp)}種牌（{zh_tiles}）共{unseen}張，就能改聽還有牌的" if imp else ""))
        en = (f"{head_en}: ready on {_en_tiles(dead)}, but every copy is in sight{last_en}: "
              "nothing left to win on" + (f"; {_n(len(imp), 'kind', 'kinds')} ({en_tiles}; "
                                          f"{_n(unseen, 'tile', 'tiles')} unseen) make it ready on a live wait"
                                          if imp else ""))
        s = 1  # ranked a step from ready
    elif s == 0:
        zh = f"{head_zh}：聽牌，聽{zh_tiles}，還有{unseen}張沒出現"
        en = f"{head_en}: ready, waiting on {en_tiles} with {_n(unseen, 'tile', 'tiles')} unseen"
    elif not imp:  # every draw that would bring it nearer is in sight (or, its wait, in his own hand)
        zh, en = _none_improves(head_zh, head_en, s, own_zh, own_en, False)
    else:
        far_zh, far_en = from_ready(s)
        zh = f"{head_zh}：{far_zh}{own_zh}，{len(imp)}種進張（{zh_tiles}）共{unseen}張"
        en = (f"{head_en}: {far_en}{own_en}, {_n(len(imp), 'kind improves', 'kinds improve')} it "
              f"({en_tiles}), {_n(unseen, 'tile', 'tiles')} unseen")
    if first:
        return zh + "，是最佳選擇。", en + " — the best choice."
    if s > best_s:
        d = s - best_s
        return zh + f"，比最佳打法多{zh_count(d)}向聽。", en + f" — {_n(d, 'more useful draw', 'more useful draws')} than the best needs."
    fewer = best_unseen - unseen
    if fewer > 0:
        return zh + f"，比最佳打法少{fewer}張進張。", en + f" — {_n(fewer, 'tile', 'tiles')} fewer than the best."
    return zh + "，與最佳打法一樣好。", en + " — as good as the best."


def _en_tiles(tiles: Iterable[Tile]) -> str:
    """Tiles in an English sentence: suit tiles by code, then honours by name (``1m, 9s and the Green dragon``):
    "6z" tells a beginner nothing (a review), "Green dragon (6z)" in a list in brackets read as a tangle, and
    "waiting on 2p 3p 4p 5p 8p" had no commas (a teaching review)."""
    tiles = tuple(tiles)
    return listed([t.code for t in tiles if t.is_suited] + [the_tile(t) for t in tiles if not t.is_suited])


def _en_one(x: Tile) -> str:
    """One tile in an English sentence: a suit tile by its code, an honour by its name and code."""
    return the_tile(x, x.said_en)


