"""Melds and hands in the notation of spec §1.2.

>>> h = Hand.parse("123m456p789s5z pung:555p@O ckong:7777m 15f")
>>> str(h)
'123m456p789s5z pung:555p@O ckong:7777m 15f'
>>> h.structural_count
16
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import Enum

from companion.tiles import (
    CopyLimitError,
    NotationError,
    Tile,
    check_copies,
    counts34,
    format_tiles,
    format_zh,
    parse_tiles,
    plain_typed,
)

__all__ = ["HandError", "Hand", "Meld", "MeldKind", "Source", "DEFAULT_SETS", "parse_seen"]

DEFAULT_SETS = 5
"""Sets in a winning hand of the Taiwanese 16-tile game (4 for the 13-tile families)."""


class HandError(ValueError):
    """A hand that cannot exist: wrong tile count for the stage of play, a bad meld, too many copies.
    ``zh``: what is wrong in Traditional Chinese (the message is English); every raiser should say it."""

    def __init__(self, message: str, zh: str = "") -> None:
        super().__init__(message)
        self.zh = zh


class MeldKind(Enum):
    CHOW = "chow"
    PUNG = "pung"
    KONG = "kong"  # exposed kong 明槓 from a discard
    ADDKONG = "addkong"  # added kong 加槓
    CKONG = "ckong"  # concealed kong 暗槓

    @property
    def is_kong(self) -> bool:
        return self in (MeldKind.KONG, MeldKind.ADDKONG, MeldKind.CKONG)

    @property
    def is_called(self) -> bool:
        """吃, 碰, 明槓 and 加槓 are called (exposed) sets; a concealed kong is not."""
        return self is not MeldKind.CKONG

    @property
    def size(self) -> int:
        return 4 if self.is_kong else 3

    @property
    def zh(self) -> str:
        return {"chow": "吃", "pung": "碰", "kong": "明槓", "addkong": "加槓", "ckong": "暗槓"}[self.value]

    @property
    def en(self) -> str:
        return {"chow": "chow", "pung": "pung", "kong": "exposed kong", "addkong": "added kong",
                "ckong": "concealed kong"}[self.value]

    @classmethod
    def parse(cls, word: str, *, sourced: bool | None = None) -> MeldKind:
        """The kind named by ``word`` (``pung``, 碰, 暗槓 …). ``sourced``: whether the meld gives a source; a bare
        槓 without one is refused (:data:`_BARE_KONG`); ``None`` where a meld has no source to give."""
        w = plain_typed(word).strip().lower()
        if sourced is not True and w in _BARE_KONG:  # (w folded already: is_bare_kong's test)  # (None: no source to give, as --kong 5p=槓 has none)
            colon, source_en, source_zh = (":", ", or give its source (@L, @O, @R)", "，或寫出來源（@上家、@對家、@下家）") \
                if sourced is False else ("", "", "")
            raise HandError(f"“{word.strip()}” alone does not say which kong it is: write it as an exposed kong "
                            f"(kong{colon}, from a discard) or a concealed kong (ckong{colon}){source_en}",
                            f"「{word.strip()}」沒說是哪一種槓：請寫成「明槓」（槓別人打出的牌）或「暗槓」{source_zh}")
        w = _KIND_ALIASES.get(w, w)
        try:
            return cls(w)
        except ValueError:
            raise HandError(f"unknown meld kind “{word}” (chow, pung or pong, kong, addkong, ckong)",
                            f"不認得吃碰槓的種類「{word}」（chow 吃、pung 或 pong 碰、kong 明槓、addkong 加槓、ckong 暗槓）") from None


_KIND_ALIASES = {"added_kong": "addkong", "concealed_kong": "ckong", "exposed_kong": "kong"}
# the kinds by their Chinese names, as the error lists them (a review typed 碰:999p@O and was refused): 槓 alone is a
# discard kong, as kong: is; 杠 is how many keyboards write 槓
_KIND_ALIASES.update({zh: kind for kind, names in (("chow", "吃"), ("pung", "碰"), ("kong", "槓 明槓"),
                                                     ("addkong", "加槓 補槓"), ("ckong", "暗槓"))
                      for name in names.split() for zh in (name, name.replace("槓", "杠"))})
# the simplified 补 beside the simplified 杠 (补杠 was refused where 杠 was taken)
_KIND_ALIASES.update({"补槓": "addkong", "补杠": "addkong"})
# pong, as many English players write it (and pon, the Japanese word): refused as an unknown kind before
_KIND_ALIASES.update({"pong": "pung", "pon": "pung"})
_BARE_KONG = frozenset({"槓", "杠"})
"""槓 alone says no more than that it is a kong: with a source it was a discard's (明槓); without, it may as well be
a concealed one (暗槓, 2 tai more), so it is asked, never guessed (a tai line's 槓:7777s scored 1 tai unsaid)."""


def is_bare_kong(word: str) -> bool:
    """Whether ``word`` is 槓 alone (杠, full-width spaces …), which :meth:`MeldKind.parse` asks about."""
    return plain_typed(word).strip().lower() in _BARE_KONG


class Source(Enum):
    """The player who supplied a claimed tile, relative to the claimer."""

    LEFT = "L"  # 上家
    OPPOSITE = "O"  # 對家
    RIGHT = "R"  # 下家

    @property
    def zh(self) -> str:
        return {"L": "上家", "O": "對家", "R": "下家"}[self.value]

    @property
    def en(self) -> str:
        return {"L": "left", "O": "opposite", "R": "right"}[self.value]

    @classmethod
    def parse(cls, word: str) -> Source:
        """``L``, ``O`` or ``R`` (either case), or the seat's Chinese name (上家, 對家, 下家); ``ValueError`` else."""
        w = plain_typed(word).strip()
        return cls(_SOURCE_ZH.get(w, w.upper()))


_SOURCE_ZH = {"上家": "L", "對家": "O", "对家": "O", "下家": "R", "對面": "O", "对面": "O"}


@dataclass(frozen=True, slots=True)
class Meld:
    """A set laid on the table: its kind, its tiles (sorted) and who supplied the claimed tile."""

    kind: MeldKind
    tiles: tuple[Tile, ...]
    source: Source | None = None

    def __post_init__(self) -> None:
        tiles = tuple(sorted(self.tiles))
        object.__setattr__(self, "tiles", tiles)
        k = self.kind
        if len(tiles) != k.size:
            raise HandError(f"{k.value} needs {k.size} tiles, got {len(tiles)} in {self}",
                            f"{k.zh}要 {k.size} 張牌，{self} 有 {len(tiles)} 張")
        if any(t.is_flower for t in tiles):
            raise HandError(f"flowers never form a meld: {self}", f"花牌不能組成吃碰槓：{self}")
        if k is MeldKind.CHOW:
            a, b, c = tiles
            if Tile.UNKNOWN in tiles or not a.is_suited or b != a + 1 or c != a + 2 or a.suit != c.suit:
                raise HandError(f"a chow is three consecutive ranks of one suit: {self}",
                                f"吃要同一花色的三張連號：{self}")
            if self.source not in (None, Source.LEFT):
                raise HandError(f"a chow may only take the tile of the player on the left (L): {self}",
                                f"只能吃上家（L）打的牌：{self}")
        else:
            if len(set(tiles)) != 1:
                raise HandError(f"a {k.value} is identical tiles: {self}", f"{k.zh}要 {k.size} 張相同的牌：{self}")
            if tiles[0] == Tile.UNKNOWN and k is not MeldKind.CKONG:
                raise HandError(f"only a concealed kong may hide its tiles (0x): {self}",
                                f"只有暗槓可以蓋著寫（0x）：{self}")
        if k is MeldKind.CKONG and self.source is not None:
            raise HandError(f"a concealed kong has no source: {self}", f"暗槓沒有來源，不寫 @：{self}")

    @property
    def tile(self) -> Tile:
        """The lowest tile (the kind for pungs and kongs)."""
        return self.tiles[0]

    @property
    def is_kong(self) -> bool:
        return self.kind.is_kong

    @property
    def is_called(self) -> bool:
        return self.kind.is_called

    @property
    def is_pung_like(self) -> bool:
        """Pungs and kongs (刻子 for scoring)."""
        return self.kind is not MeldKind.CHOW

    def __str__(self) -> str:
        src = f"@{self.source.value}" if self.source else ""
        return f"{self.kind.value}:{format_tiles(self.tiles)}{src}"

    def __repr__(self) -> str:
        return f"Meld.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Meld:
        """``Meld.parse('chow:345p@L')``; sources L/O/R, none for ``addkong`` and ``ckong``."""
        # split where the folded text has ：and ＠ (a Chinese keyboard's), the parts as typed: their errors quote
        # what the player typed (a review was told of 「99q」 in 碰：９９ｑ＠Ｏ); plain_typed keeps the positions
        plain = plain_typed(text)
        colon = plain.find(":")
        if colon < 0:
            raise HandError(f"a meld is written kind:tiles@source, got “{text}”",
                            f"吃碰槓的寫法是 種類:牌@來源（如 pung:555p@O），收到「{text}」")
        kind_text = text[:colon]
        at_pos = plain.find("@", colon + 1)
        at = at_pos >= 0
        tiles_text, src_text = (text[colon + 1:at_pos], text[at_pos + 1:]) if at else (text[colon + 1:], "")
        kind = MeldKind.parse(kind_text, sourced=at)
        source: Source | None = None
        if at:
            try:
                source = Source.parse(src_text)
            except ValueError:
                raise HandError(f"meld source must be L, O or R, got “{src_text}” in “{text}”",
                                f"吃碰槓的來源須是 L（上家）、O（對家）或 R（下家），收到「{src_text}」") from None
        try:
            tiles = parse_tiles(tiles_text)
        except NotationError as e:
            raise HandError(f"in meld “{text}”: {e}", f"吃碰槓「{text}」的牌寫錯了：{e.zh}") from None
        except CopyLimitError as e:  # (a ValueError, not a HandError: `companion tai` lost a batch's other lines)
            raise HandError(f"in meld “{text}”: {e}", f"吃碰槓「{text}」不成立：{e.zh}") from None
        try:
            return cls(kind, tiles, source)
        except HandError as e:  # quoted as typed, not with its tiles sorted (chow:891m@L read chow:189m@L: a review)
            sorted_text = f"{kind.value}:{format_tiles(sorted(tiles))}" + (f"@{source.value}" if source else "")
            raise HandError(str(e).replace(sorted_text, text.strip()), e.zh.replace(sorted_text, text.strip())) \
                from None

    @classmethod
    def of(cls, kind: MeldKind | str, tiles: str | Iterable[Tile], source: Source | str | None = None) -> Meld:
        k = kind if isinstance(kind, MeldKind) else MeldKind.parse(kind, sourced=source is not None)
        ts = parse_tiles(tiles) if isinstance(tiles, str) else tuple(tiles)
        src = source if isinstance(source, Source) or source is None else Source.parse(source)
        return cls(k, ts, src)


@dataclass(frozen=True, slots=True)
class Hand:
    """A player's tiles: the concealed part, the melds and the flowers.

    ``sets`` is the number of sets in a winning hand (5 for this game). The structural count
    (concealed + 3 per meld) must be ``3*sets + 1`` (waiting) or ``3*sets + 2`` (after a draw, or
    complete); ``stage_free=True`` lifts that check (dealing, partial entry).
    """

    concealed: tuple[Tile, ...]
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()
    sets: int = DEFAULT_SETS
    stage_free: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "concealed", tuple(sorted(self.concealed)))
        object.__setattr__(self, "flowers", tuple(sorted(self.flowers)))
        object.__setattr__(self, "melds", tuple(self.melds))
        if any(t.is_flower for t in self.concealed):
            raise HandError(f"flowers are laid out, never held: {format_tiles(self.concealed)}",
                            f"花牌要亮出來補花，不能留在手牌：{format_zh(t for t in self.concealed if t.is_flower)}")
        if Tile.UNKNOWN in self.concealed:
            raise HandError("a hand's concealed part must be known tiles (no 0x)",
                            "手牌要寫出每一張牌，不能有 0x（只有暗槓可以蓋著寫）")
        if any(not t.is_flower for t in self.flowers):
            not_flowers = [t for t in self.flowers if not t.is_flower]
            raise HandError(f"not flowers: {format_tiles(not_flowers)}", f"這些不是花牌：{format_zh(not_flowers)}")
        if self.sets < 1:
            raise HandError(f"a hand needs at least one set, got sets={self.sets}",
                            f"一手牌至少要有 1 組（sets），收到 {self.sets}")
        if len(self.melds) > self.sets:
            raise HandError(f"{len(self.melds)} melds but a hand has only {self.sets} sets",
                            f"有 {len(self.melds)} 組吃碰槓，但一手牌只有 {self.sets} 組")
        tiles = self.all_tiles()
        if any(k > t.max_copies for t, k in Counter(tiles).items()):
            try:  # format the hand only when there is something to report
                check_copies(tiles, f"“{self}”")
            except CopyLimitError as e:
                raise HandError(str(e), e.zh) from None
        n = self.structural_count
        if not self.stage_free and n not in (3 * self.sets + 1, 3 * self.sets + 2):
            raise HandError(
                f"{n} tiles (concealed + 3 per meld) in “{self}”: a hand holds {3 * self.sets + 1} "
                f"between turns and {3 * self.sets + 2} after a draw",
                f"張數不對：{n} 張（手牌加上每組吃碰槓各算 3 張），手牌應有 {3 * self.sets + 1} 張，摸牌後 {3 * self.sets + 2} 張",
            )

    # --- counts ---------------------------------------------------------------------------------

    @property
    def structural_count(self) -> int:
        return len(self.concealed) + 3 * len(self.melds)

    @property
    def is_waiting_size(self) -> bool:
        """16 structural tiles (for 5 sets): between turns, ready to be checked for waits."""
        return self.structural_count == 3 * self.sets + 1

    @property
    def is_drawn_size(self) -> bool:
        """17 structural tiles: after a draw, a complete hand, or one about to discard."""
        return self.structural_count == 3 * self.sets + 2

    @property
    def sets_needed(self) -> int:
        """Sets still to be formed from the concealed part."""
        return self.sets - len(self.melds)

    def all_tiles(self) -> tuple[Tile, ...]:
        """Every physical tile: concealed, all meld tiles (four per kong) and flowers."""
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        out.extend(self.flowers)
        return tuple(out)

    def concealed_counts(self) -> list[int]:
        return counts34(self.concealed)

    def own_counts(self) -> list[int]:
        """Copies of each kind in the player's own concealed tiles and melds (for real waits)."""
        return counts34(t for t in self.all_tiles() if not t.is_flower)

    # --- changes --------------------------------------------------------------------------------

    def add(self, *tiles: Tile) -> Hand:
        return Hand(self.concealed + tiles, self.melds, self.flowers, self.sets, self.stage_free)

    def remove(self, *tiles: Tile) -> Hand:
        rest = list(self.concealed)
        for t in tiles:
            try:
                rest.remove(t)
            except ValueError:
                raise HandError(f"{t.code} is not in the concealed part of “{self}”",
                                f"手牌（不含吃碰槓）裡沒有{t.zh}：「{self}」") from None
        return Hand(tuple(rest), self.melds, self.flowers, self.sets, self.stage_free)

    # --- notation -------------------------------------------------------------------------------

    def __str__(self) -> str:
        parts = [format_tiles(self.concealed)] if self.concealed else []
        parts += [str(m) for m in self.melds]
        if self.flowers:
            parts.append(format_tiles(self.flowers))
        return " ".join(parts)

    def __repr__(self) -> str:
        extra = "" if self.sets == DEFAULT_SETS else f", sets={self.sets}"
        return f"Hand.parse({str(self)!r}{extra})"

    @classmethod
    def parse(cls, text: str, sets: int = DEFAULT_SETS, *, stage_free: bool = False) -> Hand:
        """Read ``123m456p789s5z pung:555p@O ckong:7777m 15f``: concealed tiles, melds, flowers.

        Tokens with a ``:`` are melds; flowers may be written anywhere; the order has no meaning.
        """
        concealed: list[Tile] = []
        flowers: list[Tile] = []
        melds: list[Meld] = []
        for part in _parts(text):
            if isinstance(part, Meld):
                melds.append(part)
                continue
            for t in part:
                (flowers if t.is_flower else concealed).append(t)
        try:  # the hand quoted as typed, not as it prints ('1111m1m' was said "in “11111m”": a review)
            check_copies([*concealed, *(t for m in melds for t in m.tiles), *flowers], f"“{text}”")
        except CopyLimitError as e:
            raise HandError(str(e), e.zh) from None
        return cls(tuple(concealed), tuple(melds), tuple(flowers), sets, stage_free)


# a meld or a run of tiles, apart from the next at a space or a 、 (the tiles' own separator: 5m、碰：三萬三萬三萬 was
# refused as the meld kind 「5m、碰」), a meld's tiles maybe a space after its colon ("pung: 333m@L" was told pung
# had 0 tiles: a change review)
_PART = re.compile(r"[^\s、:]*:\s*[^\s、:]+(?:、[^\s、:]+)*(?![^\s、])|[^\s、]+")
"""A meld (its tiles parted by 、 too, a space after its colon) or a run of tiles (not "pung: chow:…": the next meld)."""


def _parts(text: str) -> Iterator[Meld | tuple[Tile, ...]]:
    """The melds and the runs of tiles written in ``text``, in order: the one reading of :meth:`Hand.parse` and
    :func:`parse_seen` (which read it each with a copy of one loop)."""
    for match in _PART.finditer(plain_typed(text)):  # (folded one character for one: the positions are the text's)
        token = text[match.start():match.end()]
        if ":" in match.group():
            yield from _meld_then_tiles(text, match.start(), token)
            continue
        try:
            yield parse_tiles(token, check=False)
        except NotationError as e:  # the position in the whole text (this token's, not an equal earlier one)
            raise NotationError(text, match.start() + e.position, e.reason, e.reason_zh) from None


def _meld_then_tiles(text: str, start: int, token: str) -> Iterator[Meld | tuple[Tile, ...]]:
    """A meld whose tiles may be parted by 、 (碰:九筒、九筒、九筒), and the tiles written after it past a 、
    (碰:三萬三萬三萬、5m): the longest meld the pieces make, the rest as tiles; else the whole refused."""
    pieces = token.split("、")
    for k in range(len(pieces), 0, -1):
        try:
            meld = Meld.parse("、".join(pieces[:k]))
        except (HandError, NotationError):
            if k == 1:
                raise
            continue
        yield meld
        at = start + len("、".join(pieces[:k]))
        for piece in pieces[k:]:
            at += 1  # (the 、 before it)
            try:
                yield parse_tiles(piece, check=False)
            except NotationError as e:
                raise NotationError(text, at + e.position, e.reason, e.reason_zh) from None
            at += len(piece)
        return


def parse_seen(text: str, *, check: bool = True) -> tuple[Tile, ...]:
    """The tiles seen on the table (``--visible``, My hand's second field): tiles as :func:`parse_tiles` reads them,
    and other players' melds written as a hand writes its own (``pung:333m@L``, ``碰:三萬三萬三萬``), read as their
    tiles; a concealed kong's face-down ``0x`` shows nothing. The help says "others' melds", and a review typed
    ``pung:333m`` there and was told the ``p`` of pung had no digits before it.

    >>> format_tiles(parse_seen("5m pung:333m@L"))
    '3335m'
    """
    tiles = [t for part in _parts(text) for t in (part.tiles if isinstance(part, Meld) else part)]
    if check:
        check_copies(tiles, f"“{text}”")
    return tuple(tiles)
