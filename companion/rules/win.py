"""The scoring input of spec §3.2: one record per winner.

:class:`Win` is built from code (``Win(concealed=parse_tiles(...), ...)`` or :meth:`Win.of` with
notation strings) or from the JSON object of ``companion tai`` (:meth:`Win.from_dict`). Bad input
raises :class:`WinInputError`, which names the offending field.

Readings chosen where the inputs are ambiguous (the default profile's reading; see the report):

- ``after_kong`` (an older spelling) means a replacement after the player's *own* kong (concealed, else
  added) when he has one; when his only kongs are discard kongs it was after one of those (a false win
  under the default, spec §2.10). ``replacement_after`` names the kong exactly.
- A replacement after a kong needs a kong of that kind among the winner's melds (he has just declared it).
- On a discard win ``last_tile`` means 河底 (the last discard), as the issue describes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion.hand import Hand, HandError, Meld, MeldKind
from companion.rules.said import json_said
from companion.tiles import CopyLimitError, NotationError, Tile, check_copies, parse_tiles, plain_typed

__all__ = ["Replacement", "Win", "WinInputError", "WinType", "WINDS", "counted_streak", "parse_wind"]

WINDS = (Tile.Z1, Tile.Z2, Tile.Z3, Tile.Z4)
_WIND_LETTERS = {"E": Tile.Z1, "S": Tile.Z2, "W": Tile.Z3, "N": Tile.Z4}
_WIND_LETTER_OF = {v: k for k, v in _WIND_LETTERS.items()}
_WIND_NAMES = {"EAST": Tile.Z1, "SOUTH": Tile.Z2, "WEST": Tile.Z3, "NORTH": Tile.Z4}
"""The winds by their English names, any case: ``--seat South`` was refused (a first-hour review), where 南 and 南風
were taken and the refusal itself listed "East, South, West, North"."""


_FIRST_WINS = (("heavenly", "天胡", "a heavenly win"), ("earthly", "地胡", "an earthly win"),
               ("human", "人胡", "a human win"))
"""The first go-around's wins (spec §4.2): their flag, and their names in Chinese and English."""


class WinInputError(ValueError):
    """A scoring input that cannot be a real win record; ``field`` names the offending field.

    ``reason`` says what is wrong in English (``str(e)`` is ``"<field>: <reason>"``), ``zh`` the same in
    Traditional Chinese; :attr:`message_zh` is the whole Chinese message.
    """

    def __init__(self, field: str, reason: str, zh: str = "") -> None:
        self.field = field
        self.reason = reason
        self.zh = zh or reason
        super().__init__(f"{field}: {reason}")

    @property
    def message_zh(self) -> str:
        if self.field == "(line)":  # the whole line, not one field of it
            return f"這一行有誤：{self.zh}"
        return f"欄位 {self.field} 有誤：{self.zh}"


class WinType(Enum):
    DISCARD = "discard"
    SELF_DRAW = "self_draw"
    ROB_KONG = "rob_kong"
    EIGHT_FLOWERS = "eight_flowers"
    SEVEN_FLOWERS_ROB = "seven_flowers_rob"
    FOUR_KONGS = "four_kongs"

    @property
    def is_instant(self) -> bool:
        """八仙過海, 七搶一, 四槓: no winning shape and no winning tile (spec §3.1)."""
        return self in (WinType.EIGHT_FLOWERS, WinType.SEVEN_FLOWERS_ROB, WinType.FOUR_KONGS)

    @property
    def flat_without_hand(self) -> bool:
        """An instant win that may come with no hand at all, paid flat (七搶一, a 八仙過海 not on a hand); not 四槓,
        whose four kongs are part of the hand he shows (spec §4.4: a change review found one of no tiles taken)."""
        return self in (WinType.EIGHT_FLOWERS, WinType.SEVEN_FLOWERS_ROB)

    @property
    def one_payer(self) -> bool:
        """Settled by one player (the discarder, the robbed player, the revealer of the 8th flower)."""
        return self in (WinType.DISCARD, WinType.ROB_KONG, WinType.SEVEN_FLOWERS_ROB)


class Replacement(Enum):
    """What the winning replacement tile replaced (spec §2.6, §2.10)."""

    FLOWER = "flower"
    CKONG = "ckong"  # own concealed kong
    ADDKONG = "addkong"  # own added kong
    KONG = "kong"  # a discard kong: a false win under the default profile


_WIN_TYPE_ZH = {"discard": "胡別人打出的牌", "self_draw": "自摸", "rob_kong": "搶槓胡", "eight_flowers": "八仙過海",
                "seven_flowers_rob": "七搶一", "four_kongs": "四槓"}


def win_type_zh(t: WinType) -> str:
    """The kind of win in Chinese: 自摸, 搶槓胡, 八仙過海 …"""
    return _WIN_TYPE_ZH[t.value]


_WIN_TYPE_OF_ZH = {zh: WinType(k) for k, zh in _WIN_TYPE_ZH.items()} | {"搶槓": WinType.ROB_KONG,
                                                                     "放槍": WinType.DISCARD}


def win_type_named(word: str) -> WinType | None:
    """The kind of win ``word`` names: its name in any case (``self_draw``), or its Chinese one (自摸, 七搶一; 搶槓
    for 搶槓胡, 放槍 for a win on a discard); ``None`` for none. `companion score --win-type` and `tai`'s
    ``win_type`` alike (a review's ``"win_type": "自摸"`` was refused where ``--win-type 自摸`` was taken)."""
    text = word.strip()
    try:
        return WinType(text.lower())
    except ValueError:
        return _WIN_TYPE_OF_ZH.get(text)


def error_zh(e: ValueError) -> str:
    """What a tile, meld or hand error means, in Traditional Chinese (their ``str()`` is English)."""
    zh = getattr(e, "zh", "")
    if isinstance(zh, str) and zh:
        return zh
    if isinstance(e, NotationError):
        return f"看不懂「{e.text}」（第 {e.position + 1} 個字）"
    if isinstance(e, CopyLimitError):
        return f"{e.tile.zh}有 {e.count} 張，一副牌只有 {e.tile.max_copies} 張"
    what = str(e).rpartition(": ")[2] if ": " in str(e) else ""  # the meld or hand the English names last
    return f"這組吃碰槓或這手牌不成立：{what}" if what else "這組吃碰槓或這手牌不成立"


def parse_wind(value: Any, field: str) -> Tile:
    """``E S W N`` or ``1z``-``4z`` (or a wind :class:`Tile`), or a wind's English or Chinese name (South, 南,
    南風); full-width letters and digits read as plain ones, as tiles do (a phone's Ｓ was refused where its ４５ｍ was
    taken: a change review)."""
    if isinstance(value, Tile) and value in WINDS:
        return value
    if isinstance(value, str):
        text = plain_typed(value).strip()
        if text.upper() in _WIND_LETTERS:
            return _WIND_LETTERS[text.upper()]
        if text.upper() in _WIND_NAMES:
            return _WIND_NAMES[text.upper()]
        try:
            tile = Tile.from_code(text)
        except NotationError:
            tile = None
        if tile in WINDS:
            return tile
    got, got_zh = json_said(value)
    # all it takes, as the options' refusal says (the Chinese names were taken and not said: a change review)
    raise WinInputError(field, f"expected a wind: E, S, W, N, East, South, West, North, 1z-4z or its Chinese name, "
                               f"got {got}",
                        f"風位要寫 東、南、西、北（或東風…）、E、S、W、N、East、South、West、North 或 1z-4z，收到 {got_zh}")


def counted_streak(streak: int, cap: int | str | None) -> int:
    """The 連莊 count N that the dealer's tai count and the next hand carries (spec §4.1, §2.14): ``streak`` up to
    ``cap``, the ``streak_cap`` switch as a rule set spells it (a number or ``"none"``) or as the tracker's
    switches hold it (``None`` for none). The one place the cap is applied: the tracker's next deal, the scorer's
    連莊 and 拉莊, and `tai`'s line each applied it themselves (a review)."""
    return streak if cap is None or cap == "none" else min(streak, int(cap))


def wind_letter(tile: Tile) -> str:
    return _WIND_LETTER_OF[tile]


@dataclass(frozen=True, slots=True)
class Win:
    """One winner's record (spec §3.2). ``concealed`` holds the tiles before the win, melds excluded.

    ``dealer`` is the dealer's seat wind and ``streak`` his 連莊 count N; ``discarder`` is the seat of
    the discarder, the robbed kong or the robbed eighth flower (``None`` on a self-draw).
    """

    concealed: tuple[Tile, ...]
    win_tile: Tile | None
    win_type: WinType
    seat_wind: Tile = Tile.Z1
    round_wind: Tile = Tile.Z1
    melds: tuple[Meld, ...] = ()
    flowers: tuple[Tile, ...] = ()
    dealer: Tile = Tile.Z1
    streak: int = 0
    discarder: Tile | None = None
    replacement: Replacement | None = None
    last_tile: bool = False
    last_discard: bool = False
    heavenly: bool = False
    earthly: bool = False
    human: bool = False
    ready_declared: bool = False
    ready_on_deal: bool = False
    ready_first_discard: bool = False
    profile: str | None = None

    def __post_init__(self) -> None:
        self._coerce()
        object.__setattr__(self, "concealed", tuple(sorted(self.concealed)))
        object.__setattr__(self, "melds", tuple(self.melds))
        object.__setattr__(self, "flowers", tuple(sorted(self.flowers)))
        for name in ("seat_wind", "round_wind", "dealer"):
            object.__setattr__(self, name, parse_wind(getattr(self, name), name))
        if self.discarder is not None:
            object.__setattr__(self, "discarder", parse_wind(self.discarder, "discarder"))
        self._check_tiles()
        self._check_context()

    # --- validation -----------------------------------------------------------------------------

    def _coerce(self) -> None:
        """Accept notation strings from code too: ``Win(concealed="123m…", win_tile="3s", win_type="discard")``."""
        for name in ("concealed", "flowers"):
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, _tiles(value, name))
        if isinstance(self.win_tile, str):
            object.__setattr__(self, "win_tile", _one_tile(self.win_tile, "win_tile"))
        if isinstance(self.win_type, str):
            object.__setattr__(self, "win_type", _win_type(self.win_type))
        if isinstance(self.replacement, str):
            try:
                object.__setattr__(self, "replacement", Replacement(self.replacement))
            except ValueError:
                raise WinInputError("replacement", f"expected flower, ckong, addkong or kong, got "
                                                   f"{json_said(self.replacement)[0]}",
                                    replacement_error_zh(self.replacement)) from None
        melds = self.melds
        if isinstance(melds, (list, tuple)) and any(isinstance(m, str) for m in melds):
            object.__setattr__(self, "melds", tuple(_meld_text(m) if isinstance(m, str) else m for m in melds))

    def _check_tiles(self) -> None:
        if any(not t.is_known or t.is_flower for t in self.concealed):
            raise WinInputError("concealed", "only suited and honour tiles (no flowers, no 0x)",
                                "只能有數牌和字牌（不能有花牌或 0x）")
        if any(not t.is_flower for t in self.flowers):
            raise WinInputError("flowers", "only 1f-8f", "只能是花牌 1f-8f")
        for m in self.melds:
            if Tile.UNKNOWN in m.tiles:
                raise WinInputError("melds", f"{m}: reveal the concealed kong's kind before scoring",
                                    f"{m}：計台前要翻開暗槓，寫出是哪一種牌")
        if self.win_type.is_instant:
            if self.win_tile is not None and self.win_type is not WinType.EIGHT_FLOWERS:
                raise WinInputError("win_tile", f"an instant win ({self.win_type.value}) has no winning tile",
                                    f"{win_type_zh(self.win_type)}是立即胡，沒有胡的那張牌")
        elif self.win_tile is None:
            raise WinInputError("win_tile", f"a {self.win_type.value} win needs its winning tile",
                                f"{win_type_zh(self.win_type)}要寫出胡的那張牌")
        if self.win_tile is not None and (not self.win_tile.is_known or self.win_tile.is_flower):
            raise WinInputError("win_tile", f"{self.win_tile.code} cannot complete a hand",
                                f"{self.win_tile.zh}不能用來胡牌")
        n = len(self.concealed) + 3 * len(self.melds)
        if n == 17 and self.win_type is WinType.SEVEN_FLOWERS_ROB and self.seat_wind != self.dealer:
            # (taken: a review) the dealer alone may hold 17: another's opening flower robbed before his first discard
            raise WinInputError("concealed", "17 structural tiles: a seven rob one is won on another player's "
                                             "flower, so a non-dealer holds 16",
                                "有 17 張：七搶一是搶別家的花，閒家胡牌時手上是 16 張")
        # an instant win paid flat may come with no concealed hand at all (a 七搶一 in the Live tab: its tiles mean
        # nothing; his melds as the table saw them); not 四槓 (a change review found one of no tiles taken)
        bare = self.win_type.flat_without_hand and not self.concealed
        if n != 16 and not (self.win_type.is_instant and (n == 17 or bare) and self.win_tile is None):
            # (17 with the winning tile named too was taken, and scoring it raised a traceback: a change review)
            held = n == 17 and self.win_tile is not None and self.win_tile in self.concealed
            raise WinInputError("concealed", f"{n} structural tiles (concealed + 3 per meld) before the "
                                             "win; a waiting hand holds 16"
                                             + (f" (concealed holds the winning tile: take one {self.win_tile} out, "
                                                "win_tile gives it)" if held else ""),
                                f"胡牌前有 {n} 張（手牌加上每組吃碰槓各算 3 張），聽牌時應是 16 張"
                                + (f"（手牌裡含了胡的那張：拿掉一張{self.win_tile.zh}，胡的那張寫在 win_tile）"
                                   if held and self.win_tile is not None else ""))
        extra = (self.win_tile,) if self.win_tile is not None else ()
        try:
            check_copies(self.all_tiles() + extra, "the hand with its winning tile")
        except CopyLimitError as e:  # a second copy of a flower is the flowers' field, any other the hand's
            raise WinInputError("flowers" if e.tile.is_flower else "concealed", str(e), error_zh(e)) from None

    def _check_context(self) -> None:
        t = self.win_type
        streak: Any = self.streak
        if isinstance(streak, bool) or not isinstance(streak, int):
            got, got_zh = json_said(streak)  # (it said Python's 'x' and True: a change review)
            raise WinInputError("streak", f"expected an integer N >= 0, got {got}",
                                f"連莊數 N 要是 0 以上的整數，收到 {got_zh}")
        if streak < 0:
            raise WinInputError("streak", f"N must be 0 or more, got {streak}", f"連莊數 N 不能小於 0，收到 {streak}")
        if t.one_payer:
            if self.discarder is None:
                raise WinInputError("discarder", f"a {t.value} win needs the seat that pays",
                                    f"{win_type_zh(t)}要寫出付錢那家的座位")
            if self.discarder == self.seat_wind:
                raise WinInputError("discarder", "the winner cannot be the discarder", "胡牌的人不能是放槍的人")
        elif self.discarder is not None:
            raise WinInputError("discarder", f"a {t.value} win has no discarder (null)",
                                f"{win_type_zh(t)}沒有放槍的人（要寫 null）")
        if self.replacement is not None and t is not WinType.SELF_DRAW and not (
                t is WinType.EIGHT_FLOWERS and self.replacement is Replacement.FLOWER):
            raise WinInputError("flags.replacement_after", "a win on a replacement tile is self-drawn",
                                "補牌胡一定是自摸")
        # all eight flowers with a hand complete at the deal or the first draw: entered as that self-draw, which
        # adds 八仙過海's 8 (the live table scores it so; a change review read only the refusal)
        # (the 8 of eight flowers said, where the line's own zhaishenye adds 16: the tai of the rule set it names)
        added = self._eight_flowers_tai()
        eight_en, eight_zh = (" (with all eight flowers: give it as a self_draw, its winning tile and the eight "
                              f"flowers; {added[1]} are added)", f"（八張花都有：寫成 self_draw、胡的那張和八張花，會加上{added[0]}）") \
            if t is WinType.EIGHT_FLOWERS else ("", "")
        if self.heavenly and (not self.is_dealer or t is not WinType.SELF_DRAW):
            raise WinInputError("flags.heavenly", "a heavenly win is the dealer's self-drawn win on the dealt tiles" + eight_en,
                                "天胡是莊家用起手的牌自摸胡" + eight_zh)
        if self.earthly and (self.is_dealer or t is not WinType.SELF_DRAW):
            raise WinInputError("flags.earthly", "an earthly win is a non-dealer's self-draw on the first draw" + eight_en,
                                "地胡是閒家摸第一張牌就自摸胡" + eight_zh)
        if self.human and t is not WinType.DISCARD:
            # a robbed kong was added to a pung, and that pung was a call, which ends the first go-around
            raise WinInputError("flags.human", "a human win is a win on a discard in the first go-around, "
                                               "before any call (a robbed kong's pung was one)",
                                "人胡是第一巡、還沒有人吃碰之前胡別人打出的牌（被搶槓的那組碰也算吃碰）")
        if self.heavenly and self.replacement is not None:
            raise WinInputError("flags.replacement_after", "a heavenly win is complete on the dealt tiles: a "
                                                           "flower replaced during the deal is part of dealing, "
                                                           "not a win on a replacement",
                                "天胡是起手的牌就胡：發牌時補花算發牌，不算槓上開花")
        self._check_first_go_around()
        kong = _KONG_OF.get(self.replacement) if self.replacement is not None else None
        if kong is not None and not any(m.kind is kong for m in self.melds):
            raise WinInputError("flags.replacement_after", f"a win on the replacement after "
                                                           f"{'an' if kong.en[0] in 'aeiou' else 'a'} {kong.en} "
                                                           f"({kong.value}) needs that kong among the melds",
                                f"{kong.zh}補牌胡，吃碰槓裡要有那組{kong.zh}")
        if self.replacement is Replacement.FLOWER and not self.flowers:
            raise WinInputError("flags.replacement_after", "a win on a flower's replacement needs a flower among the "
                                                           "flowers (none is given)",
                                "補花後摸的牌胡，花牌裡至少要有一張花（目前沒有花）")
        if self.last_tile and t not in (WinType.SELF_DRAW, WinType.DISCARD):
            raise WinInputError("flags.last_tile", f"no last-tile win by {t.value}", f"{win_type_zh(t)}不算海底")
        if self.last_discard and t is not WinType.DISCARD:
            raise WinInputError("flags.last_discard", "a last-discard win is a win on a discard", "河底是胡別人打出的牌")
        if t is WinType.ROB_KONG and self.win_tile is not None and self.win_tile in self.own_tiles():
            raise WinInputError("win_tile", "the robbed player holds the other three copies; the winner "
                                            f"cannot hold {self.win_tile.code}",
                                f"被搶槓的人拿著另外三張，胡牌的人不可能有{self.win_tile.zh}")

    def _eight_flowers_tai(self) -> tuple[str, str]:
        """What 八仙過海 adds to a hand, (Chinese, English): the tai of the rule set the line names, else said as
        the rule set's (the line's rule set may be given apart from it, ``companion tai --profile``)."""
        from companion.rules.profiles import ProfileError, load_profile

        if self.profile:
            try:
                v = load_profile(self.profile).value("eight_flowers")
                return f"八仙過海 {v} 台", f"the {v} tai of eight flowers"
            except ProfileError:
                pass
        return "八仙過海的台數（照所用的規則）", "the tai of eight flowers (as the rule set counts them)"

    def _check_first_go_around(self) -> None:
        """天胡/地胡/人胡 come before any call or kong; 天聽/地聽 before any call, frozen after (§2.11, §4.2)."""
        for flag, name, name_en in _FIRST_WINS:
            if getattr(self, flag) and self.melds:
                raise WinInputError(f"flags.{flag}", f"{name_en} comes before anyone calls a tile or makes a kong (a "
                                                     f"concealed one too), but the winner has {self.melds[0]}",
                                    f"{name}要在任何人吃碰槓（暗槓也算）之前，但胡牌的人有 {self.melds[0]}")
        for flag, name, name_en in _FIRST_WINS:
            # the first go-around is 63 draws from the wall's end (a rules review scored 地胡 with 海底撈月)
            last = "last_tile" if self.last_tile else "last_discard" if self.last_discard else None
            if getattr(self, flag) and last is not None:
                bottom, what_en, what_zh = ("海底", "the wall's last tile", "牌牆的最後一張") if last == "last_tile" \
                    else ("河底", "the discard after the wall's last tile", "牌摸完後打出的最後一張")
                raise WinInputError(f"flags.{last}", f"{name_en} comes in the first go-around; {what_en} comes "
                                                     "dozens of draws later",
                                    f"{name}是第一巡就胡，不可能同時是{bottom}（{what_zh}）")
        for flag, name, name_en in (("ready_on_deal", "天聽", "a heavenly ready"),
                                    ("ready_first_discard", "地聽", "an earthly ready")):
            called = next((m for m in self.melds if m.is_called), None)
            if getattr(self, flag) and called is not None:
                raise WinInputError(f"flags.{flag}", f"{name_en} is declared before any call and the hand is frozen "
                                                     f"after it (only a concealed kong), but it has {called}",
                                    f"{name}要在吃碰之前報聽，之後手牌不能再動（只能暗槓），但有 {called}")
        # 天胡, 地胡 and 人胡 with a declaration of ready are taken: §4.3 has them replace 天聽 and 地聽, 人胡's window
        # runs past the winner's first discard, and the tracker records a declaration made before a win in the turn
        # (refusing them was tried: a change review found tracker-made wins refused)
        if self.ready_on_deal and self.ready_first_discard:  # one declaration a hand (a scoring review scored both)
            raise WinInputError("flags.ready_first_discard", "a player declares ready once: a heavenly ready "
                                                             "before the first draw or an earthly ready with the "
                                                             "first discard, not both",
                                "報聽只有一次：天聽在第一次摸牌前、地聽在第一次打牌時，不會兩個都有")
        if self.ready_first_discard and self.is_dealer:
            raise WinInputError("flags.ready_first_discard", "an earthly ready is a non-dealer's declaration; "
                                                             "the dealer declaring with the first discard makes a "
                                                             "heavenly ready",
                                "地聽是閒家報聽；莊家打第一張牌時報聽是天聽")
        if len(self.flowers) == 8 and self.win_type in (WinType.DISCARD, WinType.ROB_KONG):
            raise WinInputError("flowers", "the eighth flower ends the hand at once (an eight-flowers win): no "
                                           f"later {self.win_type.value} win",
                                f"第八張花一出現就胡了（八仙過海），不會再有{win_type_zh(self.win_type)}")

    # --- views ----------------------------------------------------------------------------------

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == self.dealer

    @property
    def win_source(self) -> str:
        """The ``win_source`` of spec §3.2."""
        if self.win_type is WinType.SELF_DRAW:
            if self.replacement is Replacement.FLOWER:
                return "flower_replacement"
            return "kong_replacement" if self.replacement else "wall"
        return {"discard": "discard", "rob_kong": "robbed_kong"}.get(self.win_type.value, self.win_type.value)

    @property
    def is_last_discard(self) -> bool:
        return self.win_type is WinType.DISCARD and (self.last_discard or self.last_tile)

    def own_tiles(self) -> tuple[Tile, ...]:
        """Concealed tiles and meld tiles (four per kong), no flowers."""
        out = list(self.concealed)
        for m in self.melds:
            out.extend(m.tiles)
        return tuple(out)

    def all_tiles(self) -> tuple[Tile, ...]:
        return self.own_tiles() + self.flowers

    def hand(self) -> Hand:
        """The hand before the win (16 structural tiles), as a :class:`Hand`."""
        return Hand(self.concealed, self.melds, self.flowers, stage_free=True)

    def describe(self) -> str:
        """The hand in notation (spec §1.2), for error messages: ``123m… pung:222z@O 2f win=3m@self``, a discard's
        source seen from the winner (``win=3s@L``: from his 上家; a review read ``@S``, the discarder's seat wind, as
        a source the notation does not have)."""
        where = "self" if self.discarder is None else "LOR"[(self.seat_wind - self.discarder - 1) % 4]
        win = f" win={self.win_tile.code}@{where}" if self.win_tile is not None else f" {self.win_type.value}"
        return f"{self.hand()}{win}"

    # --- construction ---------------------------------------------------------------------------

    @classmethod
    def of(cls, concealed: str, win_tile: str | None, win_type: str | WinType = "discard", *,
           melds: Iterable[str] = (), flowers: str = "", **context: Any) -> Win:
        """``Win.of("123m456m234p678p45s88s", "3s", "discard", seat_wind="W", discarder="S")``."""
        return cls(
            concealed=_tiles(concealed, "concealed"),
            win_tile=_one_tile(win_tile, "win_tile"),
            win_type=_win_type(win_type),
            melds=tuple(_meld_text(m) for m in melds),
            flowers=_tiles(flowers, "flowers"),
            **context,
        )

    @classmethod
    def from_dict(cls, obj: Mapping[str, Any]) -> Win:
        """Build from the JSON object of ``companion tai`` (see the issue); errors name the field."""
        from companion.rules._win_json import win_kwargs

        return cls(**win_kwargs(obj))

    def to_dict(self) -> dict[str, Any]:
        from companion.rules._win_json import win_to_dict

        return win_to_dict(self)


_KONG_OF = {Replacement.CKONG: MeldKind.CKONG, Replacement.ADDKONG: MeldKind.ADDKONG,
            Replacement.KONG: MeldKind.KONG}


def _tiles(text: str, field: str) -> tuple[Tile, ...]:
    try:
        return parse_tiles(text, check=False)
    except NotationError as e:
        raise WinInputError(field, str(e), error_zh(e)) from None


def _one_tile(text: str | Tile | None, field: str) -> Tile | None:
    if text is None or isinstance(text, Tile):
        return text
    tiles = _tiles(text, field)
    if not tiles:
        return None
    if len(tiles) != 1:
        raise WinInputError(field, f"expected one tile, got “{text}”", f"只能寫一張牌，收到「{text}」")
    return tiles[0]


def _win_type(value: str | WinType) -> WinType:
    if isinstance(value, WinType):
        return value
    kind = win_type_named(value) if isinstance(value, str) else None
    if kind is None:
        raise win_type_error(value)
    return kind


def win_type_error(value: Any) -> WinInputError:
    """The error for a ``win_type`` that names no kind of win, the value said as JSON writes it."""
    names = ", ".join(w.value for w in WinType)
    return WinInputError("win_type", f"expected one of {names} (or its Chinese name), got {json_said(value)[0]}",
                         win_type_error_zh(value))


def _meld_text(text: str) -> Meld:
    try:
        return Meld.parse(text)
    except HandError as e:
        raise WinInputError("melds", str(e), error_zh(e)) from None


def win_type_error_zh(value: Any) -> str:
    """Chinese for a ``win_type`` that names no kind of win."""
    kinds = "、".join(f"{w.value}（{_WIN_TYPE_ZH[w.value]}）" for w in WinType)
    return f"胡法要寫 {kinds} 其中之一（也可以寫中文名稱），收到 {json_said(value)[1]}"


def replacement_error_zh(value: Any) -> str:
    """Chinese for a ``replacement_after`` that names no kind of replacement."""
    return f"補牌要寫 flower（補花）、ckong（暗槓）、addkong（加槓）或 kong（明槓），收到 {json_said(value)[1]}"

