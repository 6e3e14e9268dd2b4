"""Tiles and the tile notation of spec §1.2.

A tile *kind* is a :class:`Tile` (an ``IntEnum``), so a 34-slot count array is indexed directly:
``0-8`` = 1m-9m, ``9-17`` = 1p-9p, ``18-26`` = 1s-9s, ``27-33`` = 1z-7z (東南西北白發中),
``34-41`` = 1f-8f (春夏秋冬 and the plants by printed number), ``42`` = ``0x`` (unknown / face down).

Physical copies are not identities: hands, walls and pools are multisets (tuples or count arrays).

>>> parse_tiles("123m55z")
(Tile.M1, Tile.M2, Tile.M3, Tile.Z5, Tile.Z5)
>>> format_tiles(parse_tiles("一萬二萬三萬東東"))
'123m11z'
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from enum import IntEnum

from companion.english import listed

__all__ = [
    "NUM_KINDS",
    "NUM_FACES",
    "SUITS",
    "NotationError",
    "Tile",
    "counts34",
    "format_en",
    "format_tiles",
    "parse_tile",
    "parse_tiles",
    "check_copies",
    "CopyLimitError",
    "format_zh",
    "list_en",
    "tiles_from_counts",
    "KINDS",
    "FACES",
    "plain_typed",
    "typed_with",
    "typed_without_last",
]

NUM_KINDS = 34
"""Suited and honour kinds: the size of a count array."""
NUM_FACES = 42
"""Every face: 34 kinds and 8 flowers."""
SUITS = "mpszf"
"""Suit letters in canonical order (``x`` = unknown comes last)."""


class NotationError(ValueError):
    """Tile or hand notation that cannot be read; names the text, the character and its position.

    ``reason`` / ``reason_zh``: what is wrong, in English and Traditional Chinese; ``zh``: the whole message in
    Traditional Chinese (``str(e)`` is the English one). ``position`` counts from 0; the messages count characters
    from 1, as a reader does (a review read "位置 13" for the fourteenth)."""

    def __init__(self, text: str, position: int, reason: str, reason_zh: str = "") -> None:
        self.text = text
        self.position = position
        self.reason = reason
        self.reason_zh = reason_zh or "看不懂這個寫法"
        char = text[position] if 0 <= position < len(text) else ""
        where = f" at character {position + 1} (“{char}”)" if char else ""  # (quoted as a reader quotes, not as Python)
        super().__init__(f"{reason}{where} in “{text}”")
        where_zh = f"「{text}」的第 {position + 1} 個字，「{char}」" if char else f"「{text}」"
        self.zh = f"{self.reason_zh}（{where_zh}）"


_ZH_DIGITS = "一二三四五六七八九"


def zh_count(n: int, two: str = "二") -> str:
    """A count as a Chinese sentence writes it: 零 to 十 in words (``two="兩"`` before a measure word: 兩台; 二 in
    二向聽), larger ones in digits."""
    return ("零" + _ZH_DIGITS + "十")[n].replace("二", two) if 0 <= n <= 10 else str(n)
_HONOUR_ZH = "東南西北白發中"
_HONOUR_EN = ("East", "South", "West", "North", "White", "Green", "Red")
# Plants are coded by their printed number (spec §1.1); which plant carries 3 and 4 differs between sets.
# Names follow the common printing (and the product's tile pictures): 菊 3, 竹 4. A set printed the
# other way is read by its number (recognition, calibration), never by the plant.
_FLOWER_ZH = "春夏秋冬梅蘭菊竹"
_NUMBERED_PLANTS = "菊竹"
"""The plants typed only with their printed number (竹3, 菊4): their names are shown, never read."""
_FLOWER_EN = ("Spring", "Summer", "Autumn", "Winter", "Plum", "Orchid", "Chrysanthemum",
              "Bamboo flower")  # not plain "Bamboo": that is the 條 suit
_SUIT_ZH = {"m": "萬", "p": "筒", "s": "條"}
_SUIT_EN = {"m": "Characters", "p": "Dots", "s": "Bamboo"}
_SUIT_ONE_EN = {"m": "Character", "p": "Dot", "s": "Bamboo"}
_SUIT_GROUP_ZH = {"m": "萬子", "p": "筒子", "s": "條子", "z": "字牌", "f": "花牌"}


class Tile(IntEnum):
    """One of the 42 tile faces, or ``UNKNOWN`` (``0x``)."""

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    Z1 = 27
    Z2 = 28
    Z3 = 29
    Z4 = 30
    Z5 = 31
    Z6 = 32
    Z7 = 33
    F1 = 34
    F2 = 35
    F3 = 36
    F4 = 37
    F5 = 38
    F6 = 39
    F7 = 40
    F8 = 41
    UNKNOWN = 42

    # Friendly aliases (same members).
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    WHITE = 31
    GREEN = 32
    RED = 33

    def __bool__(self) -> bool:
        """Every tile is a tile: as an ``int`` 一萬 (``M1 = 0``) would be false, and ``name if tile else ""`` would
        drop it where a tile may be missing (``Tile | None``)."""
        return True

    # --- classification -------------------------------------------------------------------------

    @property
    def suit(self) -> str:
        """``m`` ``p`` ``s`` ``z`` ``f`` or ``x``."""
        return _SUIT_OF[self]

    @property
    def rank(self) -> int:
        """1-9 for suits, 1-7 for honours, 1-8 for flowers, 0 for ``0x``."""
        return _RANK_OF[self]

    @property
    def is_suited(self) -> bool:
        return self < 27

    @property
    def is_honour(self) -> bool:
        return 27 <= self < 34

    @property
    def is_wind(self) -> bool:
        return 27 <= self < 31

    @property
    def is_dragon(self) -> bool:
        return 31 <= self < 34

    @property
    def is_flower(self) -> bool:
        return 34 <= self < 42

    @property
    def is_season(self) -> bool:
        return 34 <= self < 38

    @property
    def is_plant(self) -> bool:
        return 38 <= self < 42

    @property
    def is_known(self) -> bool:
        return self != Tile.UNKNOWN

    @property
    def is_terminal(self) -> bool:
        """A suited 1 or 9."""
        return self.is_suited and self.rank in (1, 9)

    @property
    def max_copies(self) -> int:
        """4 for suited and honour kinds, 1 for flowers, unlimited (a large number) for ``0x``."""
        if self.is_flower:
            return 1
        if self == Tile.UNKNOWN:
            return 1 << 30
        return 4

    @property
    def flower_seat(self) -> int:
        """The seat number (東 1 … 北 4) a flower belongs to, from its printed number."""
        if not self.is_flower:
            raise ValueError(f"{self.code} is not a flower")
        return (self - Tile.F1) % 4 + 1

    def next_in_suit(self, step: int = 1) -> Tile | None:
        """The suited tile ``step`` ranks up, or ``None`` past 9 / for non-suited tiles."""
        if not self.is_suited:
            return None
        r = self.rank + step
        return Tile(self - self.rank + r) if 1 <= r <= 9 else None

    # --- names ----------------------------------------------------------------------------------

    @property
    def code(self) -> str:
        """The notation of this tile, e.g. ``5m`` or ``0x``."""
        return f"{self.rank}{self.suit}"

    @property
    def zh(self) -> str:
        """Traditional Chinese display name: 一萬, 五筒, 三條, 東, 紅中, 春, 梅 …"""
        return _ZH_NAME[self]

    @property
    def en(self) -> str:
        """English display name: 1 Character, 5 Dots, East, Red dragon, Spring …"""
        return _EN_NAME[self]

    @property
    def said_en(self) -> str:
        """How an English sentence names this tile: a suit tile by its code (``6p``), an honour or a flower by its
        name and code (``East wind (1z)``), since ``1z`` tells a beginner nothing."""
        return f"{self.en} ({self.code})" if self.is_honour or self.is_flower else self.code

    def name_in(self, lang: str) -> str:
        return self.zh if lang.startswith("zh") else self.en

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile.{self.name}"

    @classmethod
    def from_code(cls, code: str) -> Tile:
        """``Tile.from_code('5m')``; raises :class:`NotationError` unless ``code`` is exactly one tile."""
        tiles = parse_tiles(code, check=False)
        if len(tiles) != 1:
            raise NotationError(code, 0, f"expected exactly one tile, got {len(tiles)}",
                                f"應為一張牌，收到 {len(tiles)} 張")
        return tiles[0]

    @classmethod
    def suited(cls, suit: str, rank: int) -> Tile:
        base = {"m": 0, "p": 9, "s": 18}[suit]
        if not 1 <= rank <= 9:
            raise ValueError(f"rank {rank} out of 1-9")
        return cls(base + rank - 1)


def _build_tables() -> tuple[dict[Tile, str], dict[Tile, int], dict[Tile, str], dict[Tile, str]]:
    suit_of: dict[Tile, str] = {}
    rank_of: dict[Tile, int] = {}
    zh: dict[Tile, str] = {}
    en: dict[Tile, str] = {}
    for t in Tile:
        v = int(t)
        if v < 27:
            s = "mps"[v // 9]
            r = v % 9 + 1
            suit_of[t], rank_of[t] = s, r
            zh[t] = _ZH_DIGITS[r - 1] + _SUIT_ZH[s]
            en[t] = f"{r} {_SUIT_EN[s] if r > 1 else _SUIT_ONE_EN[s]}"  # "1 Character", "5 Characters"
        elif v < 34:
            suit_of[t], rank_of[t] = "z", v - 26
            zh[t] = ("東", "南", "西", "北", "白板", "青發", "紅中")[v - 27]
            en[t] = _HONOUR_EN[v - 27] + (" dragon" if v >= 31 else " wind")
        elif v < 42:
            suit_of[t], rank_of[t] = "f", v - 33
            zh[t] = _FLOWER_ZH[v - 34]
            en[t] = _FLOWER_EN[v - 34]
        else:
            suit_of[t], rank_of[t] = "x", 0
            zh[t], en[t] = "暗牌", "face-down tile"
    return suit_of, rank_of, zh, en


_SUIT_OF, _RANK_OF, _ZH_NAME, _EN_NAME = _build_tables()
_SUIT_BASE = {"m": 0, "p": 9, "s": 18, "z": 27, "f": 34}
_SUIT_MAX_RANK = {"m": 9, "p": 9, "s": 9, "z": 7, "f": 8}

# Chinese input: multi-character words first (longest match wins), then single characters.
_ZH_WORDS: dict[str, Tile] = {}
# and the numerals printed on many sets' characters (伍萬, as the product's own 5m picture prints it: a newcomer typed
# what the tile says and was refused)
for _digits in (_ZH_DIGITS, "壹貳參肆伍陸柒捌玖"):
    for _i, _d in enumerate(_digits):
        for _s, _words in (("m", "萬万"), ("p", "筒餅饼"), ("s", "條条索")):
            for _w in _words:
                _ZH_WORDS[_d + _w] = Tile.suited(_s, _i + 1)
for _i, _w in enumerate(_HONOUR_ZH):
    _ZH_WORDS[_w] = Tile(27 + _i)
_ZH_WORDS.update({"白板": Tile.Z5, "白皮": Tile.Z5, "青發": Tile.Z6, "發財": Tile.Z6, "发": Tile.Z6,
                  "紅中": Tile.Z7, "红中": Tile.Z7, "东": Tile.Z1, "兰": Tile.F6})
for _i, _w in enumerate(_FLOWER_ZH):
    _ZH_WORDS[_w] = Tile(34 + _i)
# the winds as a player names them (東風, 西風; the simplified 风 too): a review typed 東風 and was refused at 風
for _i, _w in enumerate("東南西北"):
    for _wind in "風风":
        _ZH_WORDS[_w + _wind] = Tile(27 + _i)
_ZH_WORDS["东风"] = Tile.Z1
# and half of each, as a keyboard switching scripts mid-word types them (东風, 東风: a review was refused at 風)
for _i, (_w, _s) in enumerate(zip("東南西北", "东南西北", strict=True)):
    _ZH_WORDS.update({_s + "風": Tile(27 + _i), _w + "风": Tile(27 + _i)})
# a flower with the number printed on it (春1, 梅1, 竹3): the number decides. 竹 and 菊 go only so, never by the
# plant's name (spec §1.1: sets differ on which of them carries 3; a West player's 竹 read as 8f lost his 正花 unsaid)
for _i, _w in enumerate(_FLOWER_ZH[:6]):
    _ZH_WORDS[f"{_w}{_i % 4 + 1}"] = Tile(34 + _i)
_ZH_WORDS["兰2"] = Tile.F6
for _w in _NUMBERED_PLANTS:
    del _ZH_WORDS[_w]
    _ZH_WORDS.update({f"{_w}3": Tile.F7, f"{_w}4": Tile.F8})
_ZH_MAXLEN = max(len(w) for w in _ZH_WORDS)
# the suit written as a character after digits, as Chinese writes a hand and the app's own glossary does (45萬)
_SUIT_CHARS = {c: s for s, cs in (("m", "萬万"), ("p", "筒餅饼"), ("s", "條条索")) for c in cs}
"""The characters that stand for a suit letter after digits (萬 in 45萬)."""


_ZH_NUMERALS = {d: i + 1 for digits in (_ZH_DIGITS, "壹貳參肆伍陸柒捌玖") for i, d in enumerate(digits)}
"""The numerals a run of suited tiles is written with in Chinese, the suit said once after them: 一二三萬 is 123m, as
45萬 is 45m (a first-hour review typed 一二三萬四五六筒 and was refused at 一)."""


def _numeral_run(plain: str, i: int) -> int:
    """How many Chinese numerals run from ``plain[i]`` (0 where it is none)."""
    n = 0
    while i + n < len(plain) and plain[i + n] in _ZH_NUMERALS:
        n += 1
    return n


_NO_SUIT = "digits without a suit letter (m p s z f x) or its Chinese character"
_NO_SUIT_ZH = "數字後面要接花色字母 m p s z f x（或 萬、筒、條）"
_MIXED_RUN = ("digits and Chinese numerals are not mixed in one run of tiles: write it all in digits (123m) or all "
              "in Chinese numerals before the suit's character (one two three Characters written in Chinese)")
_MIXED_RUN_ZH = "同一串牌不能數字和中文數字混寫：請都寫數字（123m 或 123萬），或都寫中文數字（一二三萬）"
_NO_PLANT_NUMBER = ("the bamboo and chrysanthemum flowers go by the number printed on them, since sets differ on "
                    "which of them carries 3: add the number after the name (3 or 4), or write 7f or 8f")
_NO_PLANT_NUMBER_ZH = "竹、菊要看牌上印的數字（各副牌哪一張印 3 不一樣）：請在名字後面加上印的數字（如 竹3、菊4），或寫 7f、8f"
_PLANT_SPACE = ("the number printed on the flower goes right after its name, with no space between them, or write "
                "{code}")
_PLANT_SPACE_ZH = "牌上印的數字要緊接在名字後面，中間不留空格：{name}{n}，或寫 {code}"
_PLANT_RUN = ("the flower's number {n} runs on into the digits after it, as one run of tiles: put a space after the "
              "flower's {n}, or write {code}")
_PLANT_RUN_ZH = "{name}{n} 後面接著數字會讀成一串牌：請在 {name}{n} 後面空一格（{name}{n} {rest}），或寫 {code}"
_RUN_GOES_ON = frozenset("0123456789mpszfxMPSZFX") | frozenset(_SUIT_CHARS)


def plain_typed(text: str) -> str:
    """``text`` with each character's compatibility form folded (NFKC: a phone's full-width ``４５ｍ`` is ``45m``,
    the ideographic space and the full-width colon are plain ones), one character for one, so that a position in it
    is the same position in ``text``."""
    if text.isascii():
        return text
    out = []
    for c in text:
        folded = unicodedata.normalize("NFKC", c)
        out.append(folded if len(folded) == 1 else c)
    return "".join(out)


def parse_tiles(text: str, *, check: bool = True) -> tuple[Tile, ...]:
    """Read tiles written in the notation (``123m456p55z 1f``) or in Chinese (``一萬二萬東東``, ``45萬77筒``).

    The tiles come back in the order written. Spaces, commas and ``+`` only group tiles; full-width digits and
    letters (a phone's) read as plain ones. With ``check`` (the default) more copies than exist (a fifth ``5m``, a
    second ``3f``) is an error. Errors quote ``text`` as it was typed.
    """
    tiles: list[Tile] = []
    digits: list[tuple[int, int]] = []  # (digit, position) waiting for their suit letter
    plain = plain_typed(text)
    i, n = 0, len(plain)
    while i < n:
        c = plain[i]
        if c.isascii() and c.isdigit():
            digits.append((int(c), i))
            i += 1
            continue
        if digits and c in _SUIT_CHARS:  # 45萬 as 45m
            c = _SUIT_CHARS[c]
        if c in "mpszfxMPSZFX":  # a capital suit letter (1M from a phone's keyboard) reads as its small one
            c = c.lower()
            if not digits:
                raise NotationError(text, i, f"suit letter “{c}” has no digits before it",
                                    f"花色字母「{c}」前面沒有數字")
            if c == "x" and any(d != 0 for d, _ in digits):  # a suit letter mistyped, most likely: say so at it
                raise NotationError(text, i, "“x” follows only 0 (0x, a face-down tile); the suits are m, p, s, z "
                                    "and f", "x 只用在 0x（蓋著的牌）；花色字母是 m 萬、p 筒、s 條、z 字、f 花")
            for d, pos in digits:
                tiles.append(_tile_of(text, pos, d, c))
            digits.clear()
            i += 1
            continue
        if c.isspace() or c in ",+、，":
            if digits:
                raise NotationError(text, digits[0][1], _NO_SUIT, _NO_SUIT_ZH)
            i += 1
            continue
        run = _numeral_run(plain, i)
        if run:  # 一二三萬 as 123m (一萬 as before): the numerals say their suit once, after them
            if digits or plain[i + run : i + run + 1].isdigit():  # 1二3萬: digits and numerals in one run
                raise NotationError(text, digits[0][1] if digits else i, _MIXED_RUN, _MIXED_RUN_ZH)
            if plain[i + run : i + run + 1] not in _SUIT_CHARS:
                raise NotationError(text, digits[0][1] if digits else i, _NO_SUIT, _NO_SUIT_ZH)
            suit = _SUIT_CHARS[plain[i + run]]
            tiles.extend(Tile.suited(suit, _ZH_NUMERALS[plain[i + k]]) for k in range(run))
            i += run + 1
            continue
        for length in range(_ZH_MAXLEN, 0, -1):
            word = plain[i : i + length]
            # a flower's number is its own only where no run goes on after it: 梅1m is 梅 and 1m
            if word in _ZH_WORDS and not (word[-1].isdigit() and plain[i + length : i + length + 1] in _RUN_GOES_ON):
                if digits:
                    raise NotationError(text, digits[0][1], _NO_SUIT, _NO_SUIT_ZH)
                tiles.append(_ZH_WORDS[word])
                i += length
                break
        else:
            if c in _NUMBERED_PLANTS:
                raise _plant_error(text, plain, i)
            raise NotationError(text, i, "unexpected character", "不認得這個字")
    if digits:
        raise NotationError(text, digits[0][1], _NO_SUIT, _NO_SUIT_ZH)
    if check:
        check_copies(tiles, f"“{text}”")
    return tuple(tiles)


def _plant_error(text: str, plain: str, i: int) -> NotationError:
    """Why the plant ``plain[i]`` (竹 or 菊) is not read: its number written after a space (竹 3), or followed by
    a run that takes the number as its own (竹34m: 竹3 and 4m, run together), or no number at all."""
    name = plain[i]
    after = plain[i + 1:].lstrip(" \t")
    spaced = len(plain) - i - 1 - len(after)
    # 竹 3m: the 3 is 3m's and the name has none; 竹3m: 竹 and 3m, no digits run on after the name's 3 (a review
    # was told to write 竹3 m, then refused it)
    if after[:1] in ("3", "4") and (after[1:2].isdigit() if not spaced else after[1:2] not in _RUN_GOES_ON):
        n = after[0]
        code = f"{_ZH_WORDS[name + n].rank}f"
        if spaced:
            return NotationError(text, i, _PLANT_SPACE.format(name=name, n=n, code=code),
                                 _PLANT_SPACE_ZH.format(name=name, n=n, code=code))
        rest = text[i + 2:].split()[0] if text[i + 2:].split() else ""
        return NotationError(text, i, _PLANT_RUN.format(name=name, n=n, code=code, rest=rest),
                             _PLANT_RUN_ZH.format(name=name, n=n, code=code, rest=rest))
    return NotationError(text, i, _NO_PLANT_NUMBER, _NO_PLANT_NUMBER_ZH)


def typed_with(text: str, code: str) -> str:
    """``text`` (a hand as typed) with the tile ``code`` tapped onto its end: joined to the tiles before it, but in
    a word of its own after a meld (``碰：999p``, a Chinese keyboard's colon too) and after a name that ends in its
    printed number (春1, 竹3), which the tapped digits would otherwise run on from (春1 then 2m read 春 12m)."""
    plain = plain_typed(text.rstrip())
    words = plain.split()
    if words and (":" in words[-1] or any(plain.endswith(w) for w in _NUMBERED_WORDS)):
        return text.rstrip() + " " + code
    return text + code


_NUMBERED_WORDS = tuple(w for w in _ZH_WORDS if w[-1].isdigit())
_LONGEST_FIRST = sorted(_ZH_WORDS, key=len, reverse=True)  # 紅中 before 中
_SEPARATORS = " ,+、，\u3000\t"  # what a player may type between tiles


def typed_without_last(text: str) -> str:
    """``text`` (a hand as typed) less what was typed or tapped last: a meld whole (``碰：999p@O``); a tile named
    in Chinese whole (東風, 白板, 竹3, 一萬); one tile of a run keeping its suit (``456m`` -> ``45m``, ``４５ｍ`` ->
    ``４ｍ``, ``45萬`` -> ``4萬``, ``一二萬`` -> ``一萬``); else one character. Separators at the end go with it. My
    hand and Live both go back with this one (two copies had drifted: one took 東風 back to 東)."""
    text = text.rstrip(_SEPARATORS)
    plain = plain_typed(text)
    words = plain.split()
    if words and ":" in words[-1]:
        return text[:len(text) - len(words[-1])].rstrip(_SEPARATORS)
    if not text:
        return ""
    if plain[-1] in _SUIT_CHARS and _numeral_run(plain[-3:-1], 0) == 2:  # 一二三萬 -> 一二萬: the run keeps its suit
        return text[:-2] + text[-1]
    named = next((len(w) for w in _LONGEST_FIRST if plain.endswith(w)), 0)
    if named:
        return text[:-named].rstrip(_SEPARATORS)
    last = plain[-1].lower()
    if last not in "mpszfx" and last not in _SUIT_CHARS:
        return text[:-1]
    digits = len(plain[:-1]) - len(plain[:-1].rstrip("0123456789"))
    if digits >= 2:
        return text[:-2] + text[-1]
    return text[:-1 - digits].rstrip(_SEPARATORS)


def _tile_of(text: str, pos: int, digit: int, suit: str) -> Tile:
    if suit == "x":  # (only after 0s: the caller refuses other digits at the letter)
        return Tile.UNKNOWN
    if not 1 <= digit <= _SUIT_MAX_RANK[suit]:
        raise NotationError(text, pos, f"rank {digit} does not exist in suit “{suit}” (1-{_SUIT_MAX_RANK[suit]})",
                            f"{_SUIT_GROUP_ZH[suit]}（{suit}）只有 1-{_SUIT_MAX_RANK[suit]}，沒有 {digit}")
    return Tile(_SUIT_BASE[suit] + digit - 1)


def parse_tile(text: str) -> Tile:
    """Exactly one tile: ``parse_tile('5m')``, ``parse_tile('紅中')``."""
    return Tile.from_code(text.strip())


def check_copies(tiles: Iterable[Tile], what: str = "tiles") -> None:
    """Raise :class:`CopyLimitError` when a kind appears more often than a set holds it. ``what`` says where, as an
    English sentence goes on (notation quoted by the caller: ``'22222z'``, or words: ``the hand and the visible
    tiles``)."""
    for tile, k in Counter(tiles).items():
        if k > tile.max_copies:
            raise CopyLimitError(tile, k, what)


class CopyLimitError(ValueError):
    """More copies of a kind than a set holds (a fifth 5m, a second 3f)."""

    def __init__(self, tile: Tile, count: int, where: str) -> None:
        self.tile = tile
        self.count = count
        self.zh = f"{tile.zh}有 {count} 張，一副牌只有 {tile.max_copies} 張"
        super().__init__(
            f"{count} copies of {tile.code} ({tile.en}) in {where}: a set holds only {tile.max_copies}"
        )


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Write tiles in canonical compact notation: sorted, one suit letter per run (``123m55z``)."""
    out: list[str] = []
    run_suit = ""
    for t in sorted(tiles):
        s = t.suit
        if s != run_suit and run_suit:
            out.append(run_suit)
        run_suit = s
        out.append(str(t.rank))
    if run_suit:
        out.append(run_suit)
    return "".join(out)


def format_en(tiles: Iterable[Tile]) -> str:
    """English display of a hand, sorted and grouped: a suit's ranks before its name (``1 2 3 Characters``, one
    tile by its name: ``5 Dots``), honours by name with their count (``2 White dragons``), flowers by name. An
    English sentence that named a hand in the notation (``123m55z``) told a player who does not read it nothing
    (an English host review); seventeen names one by one were too long."""
    ts = sorted(tiles)
    groups: list[str] = []
    for suit in ("m", "p", "s"):
        of = [t for t in ts if t.suit == suit]
        if len(of) == 1:
            groups.append(of[0].en)
        elif of:
            groups.append(" ".join(str(t.rank) for t in of) + " " + _SUIT_EN[suit])
    for t in dict.fromkeys(t for t in ts if t.suit not in ("m", "p", "s")):
        k = ts.count(t)
        groups.append(t.en if k == 1 else f"{k} {t.en}s")
    return ", ".join(groups)


def list_en(tiles: Iterable[Tile], last: str = "and") -> str:
    """A few tiles named one by one (``3 Characters or 6 Characters``), ``last`` before the last of them."""
    return listed([t.en for t in tiles], last)


def format_zh(tiles: Iterable[Tile]) -> str:
    """Chinese display of tiles, space separated, in canonical order."""
    return " ".join(t.zh for t in sorted(tiles))


def counts34(tiles: Iterable[Tile]) -> list[int]:
    """A 34-slot count array of the suited and honour tiles (flowers and ``0x`` are ignored)."""
    c = [0] * NUM_KINDS
    for t in tiles:
        if t < NUM_KINDS:
            c[t] += 1
    return c


def tiles_from_counts(counts: Sequence[int]) -> tuple[Tile, ...]:
    """The inverse of :func:`counts34`, in canonical order."""
    return tuple(Tile(i) for i, k in enumerate(counts) for _ in range(k))


KINDS: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_KINDS))
"""The 34 suited and honour kinds."""
FACES: tuple[Tile, ...] = tuple(Tile(i) for i in range(NUM_FACES))
"""The 42 faces (34 kinds and 8 flowers)."""
