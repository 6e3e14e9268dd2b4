import re
from collections.abc import Callable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.hand import Hand, HandError, Meld, MeldKind, Source
from companion.tiles import NotationError, Tile


@pytest.mark.parametrize(
    "text",
    [
        "123m456p789s5z pung:555p@O ckong:7777m 15f",
        "chow:345p@L pung:222z@O kong:5555m@R addkong:3333s ckong:7777m 1m",
        "1112345678999m123p5z",
        "1112345678999m12p55z",
        "11z ckong:0000x pung:111m chow:123p chow:456s pung:999s@R",
    ],
)
def test_round_trip(text: str) -> None:
    h = Hand.parse(text)
    assert str(Hand.parse(str(h))) == str(h)
    assert Hand.parse(str(h)) == h
    assert eval(repr(h)) == h


def test_str_is_canonical() -> None:
    h = Hand.parse("5z 987s pung:555p@O 15f 654p 321m ckong:7777m")
    assert str(h) == "123m456p789s5z pung:555p@O ckong:7777m 15f"
    assert h.structural_count == 16 and h.is_waiting_size and h.sets_needed == 3


def test_meld_parse() -> None:
    m = Meld.parse("chow:534p@L")
    assert m.kind is MeldKind.CHOW and m.tiles == (Tile.P3, Tile.P4, Tile.P5) and m.source is Source.LEFT
    assert str(Meld.parse("added_kong:3333p")) == "addkong:3333p"
    assert Meld.parse("kong:5555m@R").is_kong and Meld.parse("ckong:7777m").is_called is False


@pytest.mark.parametrize(
    ("text", "fragment", "zh"),
    [
        ("chow:345p@O", "the player on the left (L)", "只能吃上家（L）打的牌"),
        ("chow:135p", "consecutive", "吃要同一花色的三張連號"),
        ("chow:891m", "consecutive", "吃要同一花色的三張連號"),
        ("chow:123z", "consecutive", "吃要同一花色的三張連號"),
        ("pung:123m", "identical", "碰要 3 張相同的牌"),
        ("pung:11m", "needs 3", "碰要 3 張牌，pung:11m 有 2 張"),
        ("kong:555m", "needs 4", "明槓要 4 張牌"),
        ("chow:12f3m", "flowers never", "花牌不能組成吃碰槓"),
        ("ckong:7777m@L", "no source", "暗槓沒有來源"),
        ("pung:000x", "0x", "只有暗槓可以蓋著寫（0x）"),
        ("peng:111m", "unknown meld kind", "不認得吃碰槓的種類"),
        ("pung:111m@X", "L, O or R", "吃碰槓的來源須是 L"),
        ("pung:111m@L@", "L, O or R", "吃碰槓的來源須是 L"),
        ("pung:11q", "unexpected character", "吃碰槓「pung:11q」的牌寫錯了：不認得這個字（「11q」的第 3 個字，「q」）"),
        ("pung:111", "without a suit", "數字後面要接花色字母"),
        # more copies than a set holds: a HandError too, not the tiles' own ValueError (`companion tai` stopped at
        # such a meld and lost its batch's other lines: a review)
        ("kong:55555z@O", "5 copies of 5z", "吃碰槓「kong:55555z@O」不成立：白板有 5 張，一副牌只有 4 張"),
        ("pung:111f@O", "3 copies of 1f", "春有 3 張，一副牌只有 1 張"),
    ],
)
def test_bad_melds(text: str, fragment: str, zh: str) -> None:
    """Each refusal says what is wrong in English and in Traditional Chinese (not a generic fallback)."""
    with pytest.raises(HandError, match=re.escape(fragment)) as e:
        Meld.parse(text)
    assert zh in e.value.zh


def test_a_bad_meld_is_quoted_as_typed() -> None:
    """Not with its tiles sorted: a review typed chow:891m@L and read chow:189m@L in the refusal."""
    with pytest.raises(HandError) as e:
        Meld.parse("chow:891m@L")
    assert str(e.value).endswith(": chow:891m@L") and e.value.zh.endswith("：chow:891m@L")


def test_english_of_a_chow_source_needs_no_chinese() -> None:
    with pytest.raises(HandError) as e:
        Meld.parse("chow:345p@R")
    assert "may only take the tile of the player on the left" in str(e.value)


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1111m1m23456789p5z", "copies"),
        ("111m23456789p5z pung:111m", "copies"),
        ("123m", "between turns"),
        ("123m456p789s1234z", "between turns"),
        ("1f1f 123m456p789s12345z", "copies"),
    ],
)
def test_bad_hands(text: str, fragment: str) -> None:
    with pytest.raises(ValueError, match=fragment):
        Hand.parse(text)


@pytest.mark.parametrize(
    ("make", "fragment", "zh"),
    [
        (lambda: Hand.parse("123m456p789s1234z 0x"), "no 0x", "手牌要寫出每一張牌，不能有 0x"),
        (lambda: Hand.parse("123m456p789s1234z", sets=0), "at least one set, got sets=0", "一手牌至少要有 1 組（sets），收到 0"),
        (lambda: Hand.parse("1m chow:123p chow:456p chow:789p", sets=2), "3 melds but a hand has only 2 sets",
         "有 3 組吃碰槓，但一手牌只有 2 組"),
        (lambda: Hand((Tile.M1, Tile.F1), stage_free=True), "flowers are laid out", "花牌要亮出來補花，不能留在手牌：春"),
        (lambda: Hand((Tile.M1,), flowers=(Tile.F2, Tile.Z1), stage_free=True), "not flowers: 1z", "這些不是花牌：東"),
        (lambda: Hand.parse("1111m1m23456789p5z"), "5 copies of 1m", "一萬有 5 張，一副牌只有 4 張"),
        (lambda: Hand.parse("123m"), "16 between turns", "張數不對：3 張"),
        (lambda: Hand.parse("123m456p789s1z pung:555p@O ckong:7777m").remove(Tile.Z7), "7z is not in the concealed",
         "手牌（不含吃碰槓）裡沒有紅中"),
    ],
)
def test_every_refused_hand_says_why_in_chinese(make: Callable[[], object], fragment: str, zh: str) -> None:
    """No HandError falls back to the generic Chinese text: each names its own reason in both languages."""
    with pytest.raises(HandError) as e:
        make()
    assert fragment in str(e.value)
    assert e.value.zh.startswith(zh)


def test_bad_character_position_in_hand() -> None:
    with pytest.raises(NotationError) as e:
        Hand.parse("123m 45q")
    assert e.value.position == 7
    assert e.value.zh == "不認得這個字（「123m 45q」的第 8 個字，「q」）"  # the Chinese reason survives the re-raise


def test_sets_parameter() -> None:
    h = Hand.parse("123m456p789s1234z", sets=4)
    assert h.structural_count == 13 and h.sets_needed == 4
    with pytest.raises(HandError):
        Hand.parse("123m456p789s1234z")
    assert Hand.parse("12m", stage_free=True).structural_count == 2


def test_add_remove() -> None:
    h = Hand.parse("123m456p789s1z pung:555p@O ckong:7777m")
    assert str(h.add(Tile.Z1)) == "123m456p789s11z pung:555p@O ckong:7777m"
    with pytest.raises(HandError, match="not in the concealed"):
        h.remove(Tile.Z7)


kinds = st.sampled_from(range(34))


@given(st.lists(kinds, min_size=16, max_size=16), st.lists(st.sampled_from(range(34, 42)), unique=True))
def test_parse_str_round_trip(ids: list[int], flowers: list[int]) -> None:
    tiles = tuple(Tile(i) for i in ids)
    if any(tiles.count(t) > 4 for t in tiles):
        with pytest.raises(HandError):
            Hand(tiles, (), tuple(Tile(f) for f in flowers))
        return
    h = Hand(tiles, (), tuple(Tile(f) for f in flowers))
    assert Hand.parse(str(h)) == h


def test_a_bad_source_is_quoted_as_a_reader_quotes() -> None:
    """My hand with ``123m pung:555p@X 東東`` said ``收到 'X'`` (Python's quotes, a review): 「」 in Chinese, “ ” in
    English."""
    with pytest.raises(HandError) as e:
        Meld.parse("pung:555p@X")
    assert e.value.zh.endswith("收到「X」") and "'" not in e.value.zh
    assert str(e.value) == "meld source must be L, O or R, got “X” in “pung:555p@X”"


@pytest.mark.parametrize(
    ("text", "meld"),
    [
        ("碰:999p@O", "pung:999p@O"),  # the kind the error listed as valid was refused (a language review)
        ("槓:6666m@R", "kong:6666m@R"),
        ("明槓:6666m@下家", "kong:6666m@R"),
        ("吃:345p@上家", "chow:345p@L"),
        ("碰:222z@對家", "pung:222z@O"),
        ("加槓:3333p", "addkong:3333p"),
        ("暗槓:7777m", "ckong:7777m"),
        ("暗杠:7777m", "ckong:7777m"),
        ("碰：９９９ｐ＠Ｏ", "pung:999p@O"),  # a phone's full-width colon, digits and letters
    ],
)
def test_a_meld_in_chinese(text: str, meld: str) -> None:
    assert str(Meld.parse(text)) == meld


@pytest.mark.parametrize("text", ["pong:999p@O", "Pong:999p@O", "pon:999p@O", "ＰＯＮＧ：999p@O"])
def test_pong_is_a_pung(text: str) -> None:
    """Many English players write pong (it was refused as an unknown meld kind), some pon."""
    assert str(Meld.parse(text)) == "pung:999p@O"


def test_the_unknown_kind_lists_pong_too() -> None:
    with pytest.raises(HandError) as e:
        Meld.parse("peng:999p@O")
    assert "pung or pong" in str(e.value) and "pung 或 pong" in e.value.zh


def test_a_hand_typed_in_chinese_reads_as_its_notation() -> None:
    """Digits and a suit character (45萬), melds by their Chinese kind and source, full-width: every entry point reads
    hands with Hand.parse, so each takes them."""
    assert Hand.parse("45萬234條789條77筒 槓:6666m@下家 碰:999p@對家") == \
        Hand.parse("45m234s789s77p kong:6666m@R pung:999p@O")
    assert Hand.parse("４５ｍ２３４ｓ７８９ｓ７７ｐ　ｋｏｎｇ：６６６６ｍ＠Ｒ　碰：９９９ｐ＠Ｏ 竹3") == \
        Hand.parse("45m234s789s77p kong:6666m@R pung:999p@O 7f")


def test_a_full_width_hand_error_names_the_place_typed() -> None:
    with pytest.raises(NotationError) as e:
        Hand.parse("１２３ｍ　４５ｑ")
    assert e.value.position == 7 and e.value.zh.endswith("（「１２３ｍ　４５ｑ」的第 8 個字，「ｑ」）")


def test_a_bare_plant_in_a_hand_is_refused_at_it() -> None:
    text = "45m234s789s77p kong:6666m@R pung:999p@O 竹"
    with pytest.raises(NotationError) as e:
        Hand.parse(text)
    assert e.value.position == text.index("竹") and e.value.reason_zh.startswith("竹、菊要看牌上印的數字")


@pytest.mark.parametrize("text", ["槓:7777s", "杠：7777s", "槓:7777s "])
def test_a_bare_kong_without_a_source_is_asked_which_kong(text: str) -> None:
    """A review: 槓:7777s was read as a discard kong (1 tai in a tai line) where 暗槓:7777s scores 3: 槓 alone does
    not say which, so it is asked, in both languages."""
    with pytest.raises(HandError) as e:
        Meld.parse(text)
    assert "明槓" in e.value.zh and "暗槓" in e.value.zh
    assert "exposed kong (kong:" in str(e.value) and "concealed kong (ckong:" in str(e.value)
    with pytest.raises(HandError):
        Hand.parse(f"123m {text}", stage_free=True)


@pytest.mark.parametrize(("text", "meld"), [
    ("槓:7777s@O", "kong:7777s@O"), ("槓：7777s＠上家", "kong:7777s@L"), ("明槓:7777s", "kong:7777s"),
    ("暗槓:7777s", "ckong:7777s"), ("补杠:6666m", "addkong:6666m"), ("补槓:6666m", "addkong:6666m"),
    ("碰:999p@對面", "pung:999p@O"), ("碰:999p@对面", "pung:999p@O")])
def test_the_chinese_names_a_player_types_for_a_meld_are_read(text: str, meld: str) -> None:
    """A review: 补杠 was refused though 杠 is taken, and @對面 (the seat across) though 對家 is."""
    assert str(Meld.parse(text)) == meld


@pytest.mark.parametrize(("text", "quoted", "quoted_zh"), [
    ("碰：９９ｑ＠Ｏ", "(“ｑ”) in “９９ｑ”", "「９９ｑ」的第 3 個字，「ｑ」"),
    ("碰：999p＠Ｘ", "got “Ｘ”", "收到「Ｘ」")])
def test_a_meld_error_quotes_what_was_typed(text: str, quoted: str, quoted_zh: str) -> None:
    """A review: 碰：９９ｑ＠Ｏ was told of 「99q」, and ＠Ｘ of 「X」: text the player never typed."""
    with pytest.raises(HandError) as e:
        Meld.parse(text)
    assert quoted in str(e.value) and quoted_zh in e.value.zh


def test_a_bare_kong_asks_for_its_chinese_name_quoted() -> None:
    """A review: 「請寫明槓（…）或暗槓」 read as 'please state the 槓'; the names to write are quoted."""
    with pytest.raises(HandError) as e:
        Meld.parse("槓:6666m")
    assert "請寫成「明槓」（槓別人打出的牌）或「暗槓」，或寫出來源" in e.value.zh
    assert "(kong:, from a discard) or a concealed kong (ckong:), or give its source" in str(e.value)


def test_score_kong_option_asks_which_kong_a_bare_kong_is() -> None:
    """score --kong 5p=槓 was read as an exposed kong (2 tai less than a concealed one, unsaid)."""
    from companion.commands._io import OptionError
    from companion.commands.score import kongs_of

    with pytest.raises(OptionError) as e:
        kongs_of(["5p=槓"])
    assert "沒說是哪一種槓：請寫成「明槓」（槓別人打出的牌）或「暗槓」" in e.value.zh and "來源" not in e.value.zh
    assert "or a concealed kong (ckong)" in str(e.value) and "@L" not in str(e.value)
    assert kongs_of(["5p=暗槓", "6p=明槓"]) == {Tile.P5: MeldKind.CKONG, Tile.P6: MeldKind.KONG}
