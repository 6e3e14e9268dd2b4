"""The My-hand view's model: a player's own hand analysed for teaching and for play at the table.

Plain Python (no flet). :func:`analyse` takes the hand as typed or tapped (the notation, or Chinese tile names;
melds as ``pung:999p@O``) and the tiles the player can see on the table, and says:

- between turns (16 tiles): the real waits, each with the copies still unseen and *why* it is a wait (the partial
  set it completes and the wait's shape); or how far the hand is from ready and which draws bring it closer;
- holding a drawn tile (17): the discards, best first, each with its reason; or that the hand is complete.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Sequence
from dataclasses import dataclass, replace

from companion.app.table_model import meld_codes
from companion.app.words import Words, shanten_words, ui
from companion.english import all_four, the_tile
from companion.hand import Hand, HandError, Meld, MeldKind, parse_seen
from companion.rules.efficiency import discard_options, kong_options
from companion.rules.shanten import shanten
from companion.rules.shape import Group, GroupKind, decompose_counts, is_complete
from companion.rules.waits import (
    WaitShape,
    checked_visible_counts,
    holds_eight_flowers,
    pairs_note_due,
    structural_waits,
    wait_counts,
    wait_shape,
    waits,
)
from companion.tiles import (
    NUM_KINDS,
    CopyLimitError,
    NotationError,
    Tile,
    format_tiles,
    typed_with,
    typed_without_last,
)

__all__ = ["KeptHand", "after_discard", "with_tile", "with_meld", "without_last", "MELD_KEYS", "HandPanel", "HandFailed", "WaitWhy", "Choice", "KongChoice", "analyse", "ADVICE_SHOWN",
           "kong_fours", "kong_typed_as_four"]

ADVICE_SHOWN = 5
Shown = tuple[tuple[str, ...], tuple[tuple[str, ...], ...], tuple[str, ...]]  # concealed, melds, flowers


@dataclass(frozen=True, slots=True)
class WaitWhy:
    tile: str
    unseen: int
    why: tuple[Words, ...]  # each partial set this tile completes, with the wait's shape


@dataclass(frozen=True, slots=True)
class Choice:
    tile: str
    unseen: int  # copies still unseen of the tiles that then help
    reason: Words


@dataclass(frozen=True, slots=True)
class KongChoice:
    """A kong the drawn hand may make instead of discarding (暗槓, or 加槓 onto a called pung)."""

    tile: str
    added: bool
    hand: str  # the hand after the kong, in the notation, before the replacement draw
    reason: Words
    better: bool = False  # better than any discard: as near ready, as many tiles, and a draw more


@dataclass(frozen=True, slots=True)
class HandPanel:
    concealed: tuple[str, ...]
    melds: tuple[tuple[str, ...], ...]
    flowers: tuple[str, ...]
    headline: Words
    waits: tuple[WaitWhy, ...] = ()
    draws: tuple[tuple[str, int], ...] = ()  # not ready: the draws that bring it closer, with unseen copies
    choices: tuple[Choice, ...] = ()  # holding a drawn tile: every discard, best first (ADVICE_SHOWN shown at first)
    kongs: tuple[KongChoice, ...] = ()  # holding a drawn tile: the kongs it may make instead
    complete: bool = False  # a winning hand (which can be scored)


@dataclass(frozen=True, slots=True)
class HandFailed:
    reason: Words


@dataclass(frozen=True, slots=True)
class KeptHand:
    """What My hand holds that is the player's own, kept in his phone's browser (as the language he chose is) so
    that it outlives the laptop's server restarting, as it outlives a reload (which finds the page's session still
    on the server; a restart loses every session: a game-night review's phone came back to an empty tab). Kept on
    the phone, not beside the table's file like a win form begun: it is his private hand, not the table's."""

    hand: str  # the hand as typed or tapped
    seen: str  # the tiles seen, as typed (or as the followed seat's view of the table filled them)
    seat: int | None = None  # the live table's seat followed
    player: str = ""  # that seat's player, and the table's file: a seat followed is followed again on that table
    table: str = ""  # alone, seated as it was; kept with any hand typed beside a seated table
    game: str = ""  # the game on that table (LiveGame.game_key): the hand is restored onto that game alone

    def text(self) -> str:
        return json.dumps({"hand": self.hand, "seen": self.seen, "seat": self.seat, "player": self.player,
                           "table": self.table, "game": self.game}, ensure_ascii=False)

    @staticmethod
    def read(text: object) -> KeptHand | None:
        """The kept hand from its text, or None (nothing kept, or not a kept hand: a browser's storage is another
        program's to change)."""
        if not isinstance(text, str):
            return None
        try:
            kept = json.loads(text)
        except ValueError:
            return None
        if not isinstance(kept, dict):
            return None
        hand, seen, seat = kept.get("hand"), kept.get("seen"), kept.get("seat")
        player, table, game = kept.get("player", ""), kept.get("table", ""), kept.get("game", "")
        if not isinstance(hand, str) or not isinstance(seen, str) or not isinstance(player, str) \
                or not isinstance(table, str) or not isinstance(game, str):
            return None
        if not (seat is None or (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < 4)):
            seat = None
        return KeptHand(hand, seen, seat, player, table, game)

    def follows(self, players: tuple[str, ...], table: str) -> int | None:
        """The seat to follow again at ``table`` seated by ``players``: the one kept, where the same player sits in
        it at the same table."""
        seat = self.seat
        if seat is None or table != self.table or seat >= len(players) or players[seat] != self.player:
            return None
        return seat


def _group_text(tiles: tuple[Tile, ...]) -> Words:
    """A group as a learner reads it: 三四五索 / ``345s`` (the short notation), an honour by its name: 東東 /
    ``East wind x2`` (a review read ``3s4s`` and ``1z1z`` in the English answers)."""
    zh = "".join(t.zh for t in tiles)
    if not tiles:
        return Words(zh, "")
    if all(t.is_honour for t in tiles) and len(set(tiles)) == 1:
        return Words(zh, tiles[0].en if len(tiles) == 1 else f"{tiles[0].en} x{len(tiles)}")
    if all(t.is_suited for t in tiles) and len({t.code[1] for t in tiles}) == 1:
        return Words(zh, "".join(t.code[0] for t in tiles) + tiles[0].code[1])
    return Words(zh, " ".join(t.said_en for t in tiles))


_WHY = {WaitShape.TWO_SIDED: "wait_why_two_sided", WaitShape.EDGE: "wait_why_edge", WaitShape.CLOSED: "wait_why_closed"}


def _said_why(shape: WaitShape, partial: tuple[Tile, ...], made: tuple[Tile, ...], tile: Tile) -> Words:
    """One wait's why in a sentence a shape (a teaching review read 「二條二條 加 二條 成 二條二條二條（雙碰）」): a chow
    by its ranks and suit, 三四條 / ``34s``; a pung's or a pair's tile by its name."""
    if shape is WaitShape.SINGLE:
        return ui("wait_why_pair", tile=tile.zh, tile_en=tile.said_en)
    if shape is WaitShape.DOUBLE_PUNG:
        return ui("wait_why_pung", tile=tile.zh, tile_en=tile.said_en)
    return ui(_WHY[shape], partial=_chow_zh(partial), partial_en=_group_text(partial).en, tile=tile.zh,
              tile_en=tile.said_en, made=_chow_zh(made), made_en=_group_text(made).en)


def _chow_zh(tiles: tuple[Tile, ...]) -> str:
    """Suit tiles of one suit as a Chinese reader says them: 三四五條 (not 三條四條五條)."""
    return "".join(t.zh[0] for t in tiles) + tiles[0].zh[1:]


def _why(hand: Hand, tile: Tile) -> tuple[tuple[Words, ...], tuple[WaitShape, ...]]:
    """Every way ``tile`` completes ``hand``: the partial set it joins, the set it makes, and the shape; and the
    shapes, each once. A two-sided partial whose other end is all in the hand says so (it is then a single wait)."""
    counts = hand.concealed_counts()
    counts[tile] += 1
    own = hand.own_counts()
    out: dict[str, Words] = {}
    shapes: dict[WaitShape, None] = {}
    for sets, pair in decompose_counts(counts, hand.sets_needed):
        for group in (*sets, Group(GroupKind.PAIR, pair)):
            if tile not in group.tiles:
                continue
            rest = list(group.tiles)
            rest.remove(tile)
            shape = wait_shape(group, tile)
            shapes.setdefault(shape, None)
            words = _said_why(shape, tuple(rest), group.tiles, tile)
            key = words.en
            held = hand.concealed_counts()[tile]
            if (shape is WaitShape.SINGLE and (held != 1 or _beside(hand, tile))) or \
                    (shape is WaitShape.DOUBLE_PUNG and held != 2):
                # the hand holds more of the tile than the shape says, or its one copy sits in a run (3m of 3456789m
                # read "a lone 3m": a review saw none): the split it is true of (a final review)
                others = list(sets)
                if shape is WaitShape.DOUBLE_PUNG:
                    others.remove(group)
                    others.append(Group(GroupKind.PAIR, pair))
                words = _split_why(shape, tuple(others), tile)
            if shape is WaitShape.TWO_SIDED:
                lo, hi = min(rest), max(rest)
                other = lo.next_in_suit(-1) if tile > hi else hi.next_in_suit(1)
                if other is not None and own[other] == 4:
                    words = words + Words("；", "; ") + ui("other_end_own", tile=other.zh, tile_en=other.code)
            out.setdefault(key, words)
    return tuple(out.values()), tuple(shapes)


def _beside(hand: Hand, tile: Tile) -> bool:
    """Whether a suit tile has a concealed neighbour (a rank or two off, in its suit): one copy of it does not look
    lone in the hand."""
    counts = hand.concealed_counts()
    return tile.is_suited and any(
        (n := tile.next_in_suit(d)) is not None and counts[n] > 0 for d in (-2, -1, 1, 2))


def _split_why(shape: WaitShape, others: tuple[Group, ...], tile: Tile) -> Words:
    """A pair or double-pung wait said with the rest of the hand's split: 拆成二三四萬、…，剩一張三萬單吊."""
    zh = "、".join(_chow_zh(g.tiles) if _one_suit(g.tiles) else "".join(t.zh for t in g.tiles) for g in others)
    en = " ".join(_group_text(g.tiles).en for g in others)
    key = "wait_why_pair_split" if shape is WaitShape.SINGLE else "wait_why_pung_split"
    return ui(key, sets=zh, sets_en=en, tile=tile.zh, tile_en=tile.said_en)


def _one_suit(tiles: tuple[Tile, ...]) -> bool:
    return all(t.is_suited for t in tiles) and len({t.code[1] for t in tiles}) == 1


def _closer(hand: Hand, s: int, seen: list[int]) -> tuple[tuple[str, int], ...]:
    """The draws after which some discard leaves the hand nearer ready, with their unseen copies; a step from
    ready, only those after which it waits on a tile not all in sight (as the discard advice counts them: an
    audit found a draw listed that led only to a dead wait)."""
    own = hand.own_counts()
    out = []
    for k in range(NUM_KINDS):
        t = Tile(k)
        left = 4 - own[k] - seen[k]
        if left <= 0:
            continue
        drawn = hand.add(t)
        mine = drawn.own_counts()  # (the tile discarded is in sight: not a copy left)
        for d in set(drawn.concealed):
            after = Hand(tuple(_without(drawn.concealed, d)), hand.melds, hand.flowers)
            if shanten(after) >= s:
                continue
            if s == 1 and not any(4 - mine[w] - seen[w] > 0 for w in waits(after)):  # ready on a wait with a copy left
                continue
            out.append((t.code, left))
            break
    return tuple(out)


def _without(tiles: tuple[Tile, ...], t: Tile) -> list[Tile]:
    rest = list(tiles)
    rest.remove(t)
    return rest


def with_tile(hand_text: str, code: str) -> str:
    """``hand_text`` with the tile ``code`` tapped onto its end (:func:`companion.tiles.typed_with`)."""
    return typed_with(hand_text, code)


MELD_KEYS = (MeldKind.CHOW, MeldKind.PUNG, MeldKind.KONG, MeldKind.CKONG)  # 吃碰槓, the order a table says them
"""The melds My hand's palette lays down with a tap (an added kong is a pung with its fourth, typed)."""


def with_meld(hand_text: str, kind: MeldKind, code: str) -> str | Words:
    """``hand_text`` with a meld laid down, in a word of its own: three (a pung) or four (a kong) of ``code``, or
    the run that ``code`` starts (a chow); or why ``code`` makes no such meld. A beginner on a phone could not type
    ``pung:999p``."""
    t = Tile.from_code(code)
    if t.is_flower:
        return ui("hand_meld_flower")
    if kind is MeldKind.CHOW:
        if t.suit not in "mps" or t.rank > 7:
            return ui("hand_meld_chow_bad")
        tiles = f"{t.rank}{t.rank + 1}{t.rank + 2}{t.suit}"
    else:
        tiles = f"{str(t.rank) * (4 if kind.is_kong else 3)}{t.suit}"
    if kind.is_kong and (added := _added_kong(hand_text, kind, t)) is not None:
        return added
    text, kind = _held_for(hand_text, kind, t)
    return f"{text.rstrip()} {kind.value}:{tiles}".lstrip()


def _added_kong(hand_text: str, kind: MeldKind, t: Tile) -> str | None:
    """``hand_text`` with its pung of ``t`` made an added kong (加槓), where a kong of ``t`` is tapped (not a concealed
    one) onto a hand that has that pung laid down: the fourth tile joins the pung, taken from the hand where it was
    typed (the tile drawn). None where the hand has no such pung. A kong laid beside the pung read "7 copies of 6m"
    (a change review)."""
    if kind is MeldKind.CKONG:
        return None
    try:
        hand = Hand.parse(hand_text, stage_free=True)
    except (HandError, NotationError, CopyLimitError):
        return None
    pung = next((m for m in hand.melds if m.kind is MeldKind.PUNG and m.tiles[0] == t), None)
    if pung is None:
        return None
    text = _typed_less(hand_text, hand, [t]) if t in hand.concealed else hand_text
    rest = Hand.parse(text, stage_free=True)
    melds = list(rest.melds)
    melds.remove(pung)
    words = text.split()
    for i in range(len(words)):  # the pung's word goes, the rest kept as written
        cut = " ".join(words[:i] + words[i + 1:])
        if _reads_as(cut, sorted(rest.concealed), replace(rest, melds=tuple(melds))):
            return f"{cut} {MeldKind.ADDKONG.value}:{str(t.rank) * 4}{t.suit}".lstrip()
    added = tuple(Meld(MeldKind.ADDKONG, (t,) * 4) if m == pung else m for m in rest.melds)
    return str(Hand(rest.concealed, added, rest.flowers, rest.sets, rest.stage_free))


def _held_for(hand_text: str, kind: MeldKind, t: Tile) -> tuple[str, MeldKind]:
    """``hand_text`` less the tiles a meld of ``kind`` starting at ``t`` takes from the hand, where it holds them:
    two for a pung, three for a kong, all four for a concealed kong, and for a chow claimed between turns (16 tiles)
    the two of its three held; where it holds all three, the two besides ``t``, the tile tapped, taken as the one
    claimed (as a pung's third is): the chow was laid beside all three, "19 tiles" (a review). A player
    who had typed his hand and then tapped 碰 6m or 暗槓 6m at the table read "5 (or 8) copies of 6m": the meld was
    laid beside the tiles it was made of. Else ``hand_text`` as typed (a meld laid down before, entered after). With
    the meld's kind: a concealed kong of three held takes the three (the fourth is the tile just drawn, not typed: it
    read "7 copies"), and an exposed kong tapped with all four held is a concealed kong (no fifth copy was claimed: it
    read "5 copies")."""
    try:
        hand = Hand.parse(hand_text, stage_free=True)
    except (HandError, NotationError, CopyLimitError):
        return hand_text, kind
    held = hand.concealed_counts()
    if kind is MeldKind.CHOW:
        run = [x for x in (t, t.next_in_suit(1), t.next_in_suit(2)) if x is not None]
        have = [x for x in run if held[x]]
        if len(have) == 3:  # which came from the discard the hand cannot tell: the tile tapped
            have = have[1:]
        taken = have if len(have) == 2 and hand.structural_count == 3 * hand.sets + 1 else []
    else:
        if kind is MeldKind.KONG and held[t] == 4:
            kind = MeldKind.CKONG
        need = {MeldKind.PUNG: 2, MeldKind.KONG: 3, MeldKind.CKONG: 3 if held[t] == 3 else 4}.get(kind, 0)
        taken = [t] * need if need and held[t] >= need else []
    return (_typed_less(hand_text, hand, taken) if taken else hand_text), kind


def _typed_less(hand_text: str, hand: Hand, taken: Sequence[Tile]) -> str:
    """``hand_text`` less the tiles ``taken`` from its concealed part, in the player's own writing where each can be
    cut out of it (一一一萬六六萬 less a 六萬 is 一一一萬六萬, 666m less a 6m is 66m), the last written first; else the
    hand in the notation (what it holds is the same). A meld tap rewrote the hand the player typed into codes, and
    reordered it (a change review)."""
    text = hand_text
    for t in taken:
        want = sorted(hand.concealed)
        want.remove(t)
        text = next((cut for i in range(len(text) - 1, -1, -1) for n in range(1, 5)
                     if _reads_as(cut := text[:i] + text[i + n:], want, hand)), "")
        if not text:
            return str(hand.remove(*taken))
        hand = Hand.parse(text, stage_free=True)
    return " ".join(text.split()).strip("、，, ")  # (一二三萬、六六萬 less its 六六萬 left 「一二三萬、」: a review)


def _reads_as(text: str, concealed: list[Tile], hand: Hand) -> bool:
    """Whether ``text`` reads as a hand of these ``concealed`` tiles with ``hand``'s melds and flowers."""
    try:
        read = Hand.parse(text, stage_free=True)
    except (HandError, NotationError, CopyLimitError):
        return False
    return sorted(read.concealed) == concealed and read.melds == hand.melds and \
        sorted(read.flowers) == sorted(hand.flowers)


def without_last(hand_text: str) -> str:
    """``hand_text`` less what was tapped last: a meld whole, else one tile (:func:`companion.tiles.typed_without_last`,
    as Live's backspace)."""
    return typed_without_last(hand_text)


def after_discard(hand_text: str, code: str) -> str:
    """The hand ``hand_text`` with one ``code`` discarded from its concealed tiles, in the notation (melds and
    flowers kept): what the field holds once the player has played the advice."""
    hand = Hand.parse(hand_text)
    return str(hand.remove(Tile.from_code(code)))


def with_seen(seen: str, hand_text: str, code: str) -> str:
    """The tiles seen ``seen`` with ``code`` discarded from the hand ``hand_text`` (after it) among them; as they
    were where that would make a fifth copy with the hand (the tile counted already: a discard tried again after the
    hand was typed anew)."""
    tile = Tile.from_code(code)
    try:
        held = Hand.parse(hand_text).all_tiles().count(tile) if hand_text.strip() else 0
        shown = parse_seen(seen).count(tile) if seen.strip() else 0
    except ValueError:
        return seen
    return f"{seen} {code}".strip() if held + shown < tile.max_copies else seen


def analyse(hand_text: str, visible_text: str = "") -> HandPanel | HandFailed:
    """The hand ``hand_text`` (16 or 17 tiles counting each meld as 3) against the tiles in ``visible_text``."""
    if not hand_text.strip():
        return HandFailed(ui("hand_empty"))
    try:
        hand = Hand.parse(hand_text)
    except NotationError as bad:  # and how tiles are written (a newcomer typed "east")
        return HandFailed(ui("hand_bad", why=bad.zh, why_en=str(bad)) + ui("notation_hint"))
    except (HandError, CopyLimitError) as bad:
        so_far = _tiles_so_far(hand_text) if isinstance(bad, HandError) else None
        if so_far is not None:  # a hand being tapped in, tile by tile: how far it is, not a fault at every tap (a
            # beginner review read "this hand cannot be read" fifteen times)
            said = ui("hand_so_far", n=so_far, need=16 - so_far)
            return HandFailed(said + ui("hand_other_game") if so_far in (13, 14) else said)
        said = ui("hand_bad", why=bad.zh or str(bad), why_en=str(bad))
        if _other_games_size(hand_text):
            return HandFailed(said + ui("hand_other_game"))
        return HandFailed(said + kong_typed_as_four(hand_text, (16, 17)))  # a kong typed as four tiles: how to type it
    # the seen tiles' faults are theirs (a review read "this hand cannot be read" for a fifth copy seen)
    try:
        visible = parse_seen(visible_text) if visible_text.strip() else ()
    except (NotationError, HandError, CopyLimitError) as bad:  # (HandError: another player's meld written wrong)
        return HandFailed(ui("seen_bad", why=bad.zh, why_en=str(bad)))
    try:
        seen = checked_visible_counts(hand, visible)
    except CopyLimitError as bad:  # each field may be right alone, and the two together one copy too many
        return HandFailed(ui("seen_too_many", why=bad.zh, why_en=str(bad)))
    # a concealed kong drawn as it lies, its ends face down (a 白 kong of four faces read as four empty boxes: a review)
    shown: Shown = (tuple(t.code for t in sorted(hand.concealed)), tuple(meld_codes(m) for m in hand.melds),
                    tuple(t.code for t in hand.flowers))
    size = len(hand.concealed)
    # said first: the hand has won, whatever its tiles (a teaching review: My hand said nothing of it)
    eight = holds_eight_flowers(hand)
    flowers = ui("eight_flowers_won") if eight else Words("", "")
    if size == 3 * hand.sets_needed + 1:
        panel = _between_turns(hand, seen, shown)
        if pairs_note_due(hand) and not panel.waits:
            panel = replace(panel, headline=panel.headline + ui("pairs_not_win"))
        return replace(panel, headline=flowers + panel.headline)
    if is_complete(hand):  # (not "if you play on: a win!": a complete hand with the eight is scored and the 8 added)
        return HandPanel(*shown, ui("hand_complete") + (ui("eight_flowers_too") if eight else Words("", "")),
                         complete=True)
    options = discard_options(hand, visible)
    best = options[0]
    # a discard that leaves only waits all in sight is ranked, and said, as a step from ready
    head = ui("drawn_ready") if best.is_ready and not best.dead_waits else \
        ui("drawn_not_ready", **shanten_words(best.ranked_shanten))
    if pairs_note_due(hand):
        head = head + ui("pairs_not_win")
    choices = tuple(Choice(o.discard.code, o.unseen, Words(o.reason_zh, o.reason_en)) for o in options)
    kongs = tuple(KongChoice(k.tile.code, k.added, str(k.hand), Words(k.reason_zh, k.reason_en), k.better)
                  for k in kong_options(hand, visible))
    best_kong = next((k for k in kongs if k.better), None)
    if best_kong is not None:  # the discards' "best" is among discards: the kong comes first (a review)
        t = Tile.from_code(best_kong.tile)
        kong = ui("hand_added_kong" if best_kong.added else "hand_concealed_kong")
        article = "an" if kong.en[0].lower() in "aeiou" else "a"  # an added kong, a concealed kong
        head = head + ui("kong_better", kong=kong.zh, kong_en=f"{article} {kong.en.lower()}", tile=t.zh,
                         tile_en=the_tile(t) if t.is_honour else t.code)  # as its lines name them: "an added kong
        # of the East wind" (a review read "of East wind"), 7p by its code
    return HandPanel(*shown, flowers + head, choices=choices, kongs=kongs)


def kong_fours(tiles: Sequence[Tile], n: int, counts: Collection[int], each: int = 1) -> list[str]:
    """The kinds typed four times among a hand's own ``tiles`` (not as a meld), as ``7777z``, where they are why the
    hand's count ``n`` is none of ``counts``: each a kong typed as four tiles, ``each`` tile(s) over (a meld's kong
    counts as three; a form that counts the table's kongs apart, all four). Empty where they are not why."""
    fours = [format_tiles([t] * 4) for t in sorted(set(tiles)) if tiles.count(t) == 4]
    return fours if fours and n not in counts and n - each * len(fours) in counts else []


def kong_typed_as_four(text: str, counts: Collection[int]) -> Words:
    """How a kong is typed (``kong:7777z``, ``ckong:7777z``), said after a count refused, where the hand ``text``
    (notation) is none of ``counts`` tiles because a kong was typed as four of its own tiles; else nothing. The
    Score tab and My hand say it alike (it was the Score tab's alone: a change review)."""
    try:
        hand = Hand.parse(text, stage_free=True)
    except (HandError, NotationError, CopyLimitError):
        return Words("", "")
    fours = kong_fours(hand.concealed, hand.structural_count, counts)
    if not fours:
        return Words("", "")
    return ui("typed_count_kong", tiles="、".join(fours), tiles_en=", ".join(fours), one=fours[0])


def _tiles_so_far(text: str) -> int | None:
    """How many tiles (a meld as 3) a hand short of 16 holds, where being short is all that is wrong with it; else
    None."""
    try:
        n = Hand.parse(text, stage_free=True).structural_count
    except (HandError, NotationError, CopyLimitError):
        return None
    return n if n < 16 else None


def _other_games_size(text: str) -> bool:
    """13 or 14 tiles: the size of a Japanese or a Chinese-official hand, not of this game's 16 (or 17)."""
    try:
        return Hand.parse(text, stage_free=True).structural_count in (13, 14)
    except (HandError, NotationError, CopyLimitError):
        return False


def _between_turns(hand: Hand, seen: list[int], shown: Shown) -> HandPanel:
    visible = [Tile(k) for k in range(NUM_KINDS) for _ in range(seen[k])]
    found = wait_counts(hand, visible)
    if found:
        whys = [_why(hand, t) for t, _ in found]
        waits = tuple(WaitWhy(t.code, n, why) for (t, n), (why, _) in zip(found, whys, strict=True))
        left = sum(n for _, n in found)
        if len(found) > 1:
            head = ui("ready", kinds=len(found), left=left)
        else:  # 獨聽 with the shape of the partial the tile completes (spec §3.6: 邊張, 中洞 or 單吊)
            shapes = [ui("one_end_gone") if x is WaitShape.TWO_SIDED else Words(x.zh, x.en) for x in whys[0][1]]
            head = ui("ready_one", left=left) + (ui("single_wait_pair") if whys[0][1] == (WaitShape.SINGLE,) else
                                                 ui("single_wait_shape", shape="、".join(x.zh for x in shapes),
                                                    shape_en=" or ".join(x.en for x in shapes)))
        if left == 0:  # 死聽: the copies are all on the table
            head = head + ui("dead_wait")
        return HandPanel(*shown, head, waits=waits)
    # four of an honour concealed can be no pung plus one (spec §3.1): said, and what they can be (a teaching review
    # read only "1 step from ready" beside four East)
    counts = hand.concealed_counts()
    quads = Words("", "")
    for k in range(NUM_KINDS):
        if counts[k] == 4 and Tile(k).is_honour:
            quads = quads + ui("four_honours_held", tile=Tile(k).zh, tile_en=Tile(k).said_en)
    gone = structural_waits(hand)
    if gone:
        names_zh, names_en = all_four([t.zh for t in gone], [t.said_en for t in gone])
        # a step from ready (spec §3.5): the draws that make it ready again, as for any hand not ready (a review)
        return HandPanel(*shown, ui("all_own", tiles=names_zh, tiles_en=names_en)
                         + quads, draws=_closer(hand, shanten(hand), seen))
    s = shanten(hand)
    return HandPanel(*shown, ui("not_ready", **shanten_words(s)) + quads, draws=_closer(hand, s, seen))
