import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.tiles import (
    FACES,
    KINDS,
    CopyLimitError,
    NotationError,
    Tile,
    counts34,
    format_tiles,
    parse_tile,
    parse_tiles,
    plain_typed,
    tiles_from_counts,
    typed_with,
    typed_without_last,
)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("123m456p789s11z", "123m456p789s11z"),
        ("55z", "55z"),
        ("", ""),
        ("1m 2m 3m", "123m"),
        ("9s1m", "1m9s"),
        ("12345678f", "12345678f"),
        ("0000x", "0000x"),
        ("一萬二萬三萬", "123m"),
        ("伍萬 壹筒 玖條 參萬", "35m1p9s"),  # the numerals sets print (the product's own 5m picture: 伍萬)
        ("東東東", "111z"),
        ("五筒 三條 紅中 白板 青發", "5p3s567z"),
        ("春 梅 菊3 竹4", "1578f"),
        # 竹 and 菊 by the number printed on them, whichever plant carries it (spec §1.1)
        ("竹3", "7f"),
        ("竹4", "8f"),
        ("菊3", "7f"),
        ("菊4", "8f"),
        ("竹３ 梅1 蘭2 春1", "1567f"),
        ("梅1m", "1m5f"),  # a number a run goes on after is the run's
        # the suit as a character after digits, as Chinese writes a hand
        ("45萬234條789條77筒", "45m77p234789s"),
        ("1萬", "1m"),
        ("5万6饼7条8索9餅", "5m69p78s"),
        # the winds with 風
        ("東風 南風 西風 北風 东风", "11234z"),
        # a phone's full-width digits, letters and space
        ("４５ｍ\u3000６ｐ", "45m6p"),
    ],
)
def test_parse_and_format(text: str, canonical: str) -> None:
    assert format_tiles(parse_tiles(text)) == canonical


@pytest.mark.parametrize(("text", "position"), [("竹", 0), ("菊", 0), ("梅 竹", 2), ("竹1", 0), ("3菊", 1)])
def test_bamboo_and_chrysanthemum_need_their_printed_number(text: str, position: int) -> None:
    """Sets differ on which of 竹 and 菊 carries 3 (spec §1.1): a bare name was read as one code, and a West player's
    正花 could be lost unsaid. It is refused, saying how to write it, at the plant."""
    with pytest.raises(NotationError) as e:
        parse_tiles(text)
    assert e.value.position == position
    assert "number printed on them" in str(e.value) and "7f or 8f" in str(e.value)
    assert e.value.reason_zh.startswith("竹、菊要看牌上印的數字") and "竹3" in e.value.reason_zh
    assert not re.search("[\u4e00-\u9fff]", e.value.reason)


def test_a_full_width_error_names_the_character_as_typed() -> None:
    with pytest.raises(NotationError) as e:
        parse_tiles("４５ｑ")
    assert e.value.position == 2 and "(“ｑ”) in “４５ｑ”" in str(e.value)


def test_the_plants_still_show_by_name() -> None:
    assert (Tile.F7.zh, Tile.F8.zh) == ("菊", "竹")


def test_order_is_kept_by_parse() -> None:
    assert parse_tiles("3m1m") == (Tile.M3, Tile.M1)


@pytest.mark.parametrize(
    ("text", "position", "fragment", "zh"),
    [
        ("12q", 2, "unexpected character", "不認得這個字"),
        ("0m", 0, "rank 0", "萬子（m）只有 1-9，沒有 0"),
        ("8z", 0, "rank 8 does not exist in suit “z” (1-7)", "字牌（z）只有 1-7，沒有 8"),
        ("9f", 0, "rank 9", "花牌（f）只有 1-8，沒有 9"),
        ("123", 0, "without a suit", "數字後面要接花色字母"),
        ("12 3m", 0, "without a suit", "數字後面要接花色字母"),
        ("1東", 0, "without a suit", "數字後面要接花色字母"),
        ("m", 0, "no digits", "花色字母「m」前面沒有數字"),
        ("1x", 1, "“x” follows only 0 (0x, a face-down tile)", "x 只用在 0x"),
        ("123x456m", 3, "the suits are m, p, s, z and f", "x 只用在 0x（蓋著的牌）；花色字母是 m 萬"),  # a mistyped suit
        ("12m 3", 4, "without a suit", "數字後面要接花色字母"),
    ],
)
def test_notation_errors_name_the_position(text: str, position: int, fragment: str, zh: str) -> None:
    """The reason, the place and the text, in English (``str``) and in Traditional Chinese (``zh``)."""
    with pytest.raises(NotationError) as e:
        parse_tiles(text)
    assert e.value.position == position
    assert fragment in str(e.value)
    assert f"in “{text}”" in str(e.value) and "'" not in str(e.value)  # quoted as a reader quotes, not as Python
    assert e.value.reason_zh.startswith(zh) and e.value.zh.startswith(e.value.reason_zh)
    assert f"「{text}」的第 {position + 1} 個字，「{text[position]}」" in e.value.zh
    assert not any(word in e.value.zh for word in ("rank", "suit", "digit", "character", "written"))


def test_one_tile_is_expected_in_both_languages() -> None:
    with pytest.raises(NotationError) as e:
        Tile.from_code("12m")
    assert "expected exactly one tile, got 2" in str(e.value) and e.value.zh.startswith("應為一張牌，收到 2 張")


def test_a_copy_limit_says_it_in_chinese_too() -> None:
    with pytest.raises(CopyLimitError) as e:
        parse_tiles("11111m")
    assert e.value.zh == "一萬有 5 張，一副牌只有 4 張" and "5 copies of 1m" in str(e.value)


def test_the_bamboo_flower_is_not_named_like_the_bamboo_suit() -> None:
    assert Tile.F8.zh == "竹" and Tile.F8.en == "Bamboo flower"
    assert Tile.S1.en == "1 Bamboo" and Tile.M1.en == "1 Character" and Tile.P5.en == "5 Dots"  # not "1 Characters"
    names = [t.en for t in FACES]
    assert len(set(names)) == len(names)
    assert not any(t.en.endswith("Bamboo") for t in FACES if not t.is_suited)


def test_an_english_sentence_names_a_suit_tile_by_its_code_and_an_honour_or_flower_by_its_name_too() -> None:
    assert Tile.P6.said_en == "6p" and Tile.EAST.said_en == "East wind (1z)" and Tile.F8.said_en == "Bamboo flower (8f)"
    # every such name reads back as the tile: by its code, or by the code in its brackets
    for t in FACES:
        assert parse_tile(t.said_en.rsplit("(", 1)[-1].rstrip(")")) == t


@pytest.mark.parametrize("text", ["11111m", "11f", "5z5z5z5z5z"])
def test_copy_limits(text: str) -> None:
    with pytest.raises(CopyLimitError, match="copies"):
        parse_tiles(text)
    assert parse_tiles(text, check=False)


def test_properties() -> None:
    assert Tile.M1.suit == "m" and Tile.M1.rank == 1 and Tile.M1.is_terminal
    assert Tile.Z1 is Tile.EAST and Tile.EAST.is_wind and Tile.EAST.is_honour
    assert Tile.Z7.is_dragon and Tile.Z7.zh == "紅中" and Tile.Z7.en == "Red dragon"
    assert Tile.P5.zh == "五筒" and Tile.S3.zh == "三條" and Tile.M1.zh == "一萬"
    assert Tile.F1.zh == "春" and Tile.F5.zh == "梅" and Tile.F5.flower_seat == 1 and Tile.F8.flower_seat == 4
    assert Tile.F3.is_season and Tile.F6.is_plant and Tile.F6.max_copies == 1
    assert not Tile.UNKNOWN.is_known and Tile.UNKNOWN.code == "0x"
    assert Tile.M9.next_in_suit() is None and Tile.M8.next_in_suit() == Tile.M9
    assert parse_tile("紅中") == Tile.RED
    assert len(KINDS) == 34 and len(FACES) == 42
    assert eval(repr(Tile.P3)) == Tile.P3


def test_every_face_round_trips_by_code_and_name() -> None:
    for t in FACES:
        assert parse_tile(t.code) == t
        assert Tile.from_code(t.code) == t
    for t in KINDS:
        assert parse_tiles(t.zh) == (t,)


multisets = st.lists(st.sampled_from(list(FACES) + [Tile.UNKNOWN]), max_size=30).filter(
    lambda ts: all(ts.count(t) <= t.max_copies for t in set(ts))
)


@given(multisets)
def test_round_trip(tiles: list[Tile]) -> None:
    text = format_tiles(tiles)
    assert sorted(parse_tiles(text)) == sorted(tiles)
    assert format_tiles(parse_tiles(text)) == text


@given(st.lists(st.integers(0, 4), min_size=34, max_size=34))
def test_counts_round_trip(counts: list[int]) -> None:
    assert counts34(tiles_from_counts(counts)) == counts


def test_every_tile_is_true_even_the_one_numbered_zero() -> None:
    """一萬 is ``Tile.M1 == 0``: as a bare ``int`` it would be false, and ``name if tile else ""`` (a tile that may be
    missing) dropped it: the live table's prompt said "阿明 打了 ：" for a discarded 一萬."""
    assert all(bool(t) for t in Tile) and Tile.M1 == 0 and Tile.M1 + 1 == Tile.M2
    assert [t for t in (Tile.M1, None, Tile.P1) if t] == [Tile.M1, Tile.P1]



def test_capital_suit_letters_read_as_small_ones() -> None:
    """A beginner review typed 1M on a phone and was refused."""
    assert parse_tiles("123M 45P 6S 77Z 1F 0X") == parse_tiles("123m 45p 6s 77z 1f 0x")


def test_a_hand_is_named_in_english_grouped_by_suit() -> None:
    """An English host review read refusals naming a hand "123456789m46p123s55z + 4z": English names, grouped so
    that a sixteen-tile hand stays a line."""
    from companion.tiles import format_en, list_en

    assert format_en(parse_tiles("55z123s46p123456789m")) == ("1 2 3 4 5 6 7 8 9 Characters, 4 6 Dots, 1 2 3 Bamboo, "
                                                             "2 White dragons")
    assert format_en(parse_tiles("1m5p1s444z7z1f8f")) == ("1 Character, 5 Dots, 1 Bamboo, 3 North winds, Red dragon, "
                                                         "Spring, Bamboo flower")
    assert format_en(()) == ""
    assert list_en(parse_tiles("3m6m"), "or") == "3 Characters or 6 Characters"
    assert list_en(parse_tiles("1z2z3z")) == "East wind, South wind and West wind"
    assert list_en(parse_tiles("9p")) == "9 Dots"


@pytest.mark.parametrize(("text", "said_zh", "said_en"), [
    ("竹34m", "請在 竹3 後面空一格（竹3 4m），或寫 7f", "put a space after the flower's 3, or write 7f"),
    ("123m 菊44p", "請在 菊4 後面空一格（菊4 4p），或寫 8f", "put a space after the flower's 4, or write 8f"),
    ("竹 3", "中間不留空格：竹3，或寫 7f", "with no space between them, or write 7f"),
    ("菊\u30004", "中間不留空格：菊4，或寫 8f", "with no space between them, or write 8f")])
def test_a_plant_with_its_number_says_what_kept_it_from_being_read(text: str, said_zh: str, said_en: str) -> None:
    """A review: 竹34m (竹3 then a tapped 4m) and 竹 3 were told to add the number after the name, as the player had."""
    with pytest.raises(NotationError) as e:
        parse_tiles(text)
    assert said_zh in e.value.zh and said_en in str(e.value) and "add the number" not in str(e.value)
    assert not re.search("[\u4e00-\u9fff]", e.value.reason)


def test_the_winds_are_read_with_either_script_for_either_half() -> None:
    """A review: 东風 and 東风 (a keyboard switching scripts mid-word) were refused at the second character."""
    assert format_tiles(parse_tiles("东風 東风 南风 西風")) == "1123z"


def test_digits_without_a_suit_say_the_suit_characters_are_taken_too() -> None:
    """A review: 45萬6 was told to add m p s z f x, though 萬 (in the same text) is taken as well."""
    with pytest.raises(NotationError) as e:
        parse_tiles("45萬6")
    assert "萬" in e.value.reason_zh and "筒" in e.value.reason_zh and "條" in e.value.reason_zh
    assert "or its Chinese character" in e.value.reason  # (the English said a suit letter only)


@pytest.mark.parametrize("text", ["竹3m", "竹 3m", "菊 4p", "竹 34m"])
def test_a_bare_plant_before_a_tile_says_its_number_is_missing(text: str) -> None:
    """A review: 竹3m was told to write 竹3 m (then refused: m has no digits), 竹 3m to write 竹3 (the 3 is 3m's)."""
    with pytest.raises(NotationError) as e:
        parse_tiles(text)
    assert "請在名字後面加上印的數字" in e.value.zh and "add the number after the name" in str(e.value)
    assert "空一格" not in e.value.zh and "不留空格" not in e.value.zh and "runs on" not in str(e.value)


@pytest.mark.parametrize(("typed", "code", "joined"), [
    ("春1", "2m", "春1 2m"), ("秋3", "5z", "秋3 5z"), ("梅1", "1m", "梅1 1m"), ("竹3", "4m", "竹3 4m"),
    ("春１", "2m", "春１ 2m"), ("45m 碰：999p", "5m", "45m 碰：999p 5m"), ("45m pung:999p@O ", "5m", "45m pung:999p@O 5m"),
    ("45m", "6m", "45m6m"), ("東", "1z", "東1z"), ("", "1m", "1m")])
def test_a_tapped_tile_is_read_as_the_tile_tapped(typed: str, code: str, joined: str) -> None:
    """A review: 春1 then a tapped 2m read as 春 12m (an extra 1m, unsaid); 竹3 then 4m was refused; a tile tapped
    after a meld typed with a Chinese keyboard's colon (碰：999p) joined the meld."""
    assert typed_with(typed, code) == joined
    assert parse_tiles(" ".join(joined.split()[-1:]), check=False)[-1] == Tile.from_code(code)
    if ":" not in plain_typed(joined):
        assert parse_tiles(joined) == parse_tiles(typed) + (Tile.from_code(code),)


@pytest.mark.parametrize(("typed", "left"), [
    ("東風", ""), ("白板", ""), ("竹3", ""), ("梅1", ""), ("一萬", ""), ("123m 東風", "123m"), ("东風", ""),
    ("４５ｍ", "４ｍ"), ("45M", "4M"), ("45ｍ", "4ｍ"), ("45萬", "4萬"), ("77p 45萬", "77p 4萬"), ("45萬 6萬", "45萬"),
    ("123m", "12m"), ("1m", ""), ("春１", ""), ("45m 碰：999p", "45m"), ("45m pung:999p@O", "45m"), ("0x", ""),
    ("1m, ", ""), ("", "")])
def test_backspace_takes_the_last_tile_whole_however_it_was_typed(typed: str, left: str) -> None:
    """A review: My hand's backspace took 東風 to 東, 白板 to 白, 竹3 to 竹 (then refused), ４５ｍ to ４５, while Live's
    took them whole: the two had drifted; both go back with this one."""
    from companion.app.hand_model import without_last
    from companion.app.live_model import without_last_tile

    assert typed_without_last(typed) == left == without_last(typed) == without_last_tile(typed)
    if typed.strip() and ":" not in plain_typed(typed):
        assert parse_tiles(left) == parse_tiles(typed)[:-1]


@pytest.mark.parametrize(("text", "canonical"), [
    ("一二三萬四五六筒七八九條東東南南南", "123m456p789s11222z"),
    ("二五八萬 東風", "258m1z"),
    ("壹貳參万", "123m"),
    ("伍陸柒條 三四五餅", "345p567s"),
    ("九萬一二三筒", "9m123p"),
])
def test_a_run_of_chinese_numerals_says_its_suit_once(text: str, canonical: str) -> None:
    """A first-hour review typed 一二三萬四五六筒 (as Chinese writes a hand, and as 45萬 is read) and was refused at
    一 ("unexpected character"); only 一萬二萬三萬 was read."""
    assert format_tiles(parse_tiles(text)) == canonical


@pytest.mark.parametrize(("text", "position"), [("一二三", 0), ("一", 0), ("一二三萬四", 4)])
def test_chinese_numerals_without_their_suit_are_said_so(text: str, position: int) -> None:
    """Numerals that no suit follows are refused as digits without their suit, at where they start, in both
    languages (not as an unknown character)."""
    with pytest.raises(NotationError) as e:
        parse_tiles(text)
    assert e.value.position == position
    assert "without a suit" in str(e.value) and "花色" in e.value.zh


@pytest.mark.parametrize(("text", "position"), [("1二3萬", 0), ("12一萬", 0), ("二3萬", 0), ("東 一2萬", 2)])
def test_digits_and_chinese_numerals_in_one_run_are_said_not_to_mix(text: str, position: int) -> None:
    """A change review: 1二3萬 was blamed on "digits without a suit letter" at its 1, though a suit follows; it is
    said that digits and numerals are not mixed in one run, where the run starts, in both languages."""
    with pytest.raises(NotationError) as e:
        parse_tiles(text)
    assert e.value.position == position
    assert "not mixed in one run" in str(e.value) and "without a suit" not in str(e.value)
    assert "混寫" in e.value.zh and "接花色" not in e.value.zh


@pytest.mark.parametrize(("typed", "left"), [("一二三萬", "一二萬"), ("一二萬", "一萬"), ("東 一二萬", "東 一萬"),
                                             ("一二三萬東", "一二三萬")])
def test_backspace_takes_one_numeral_of_a_run_keeping_its_suit(typed: str, left: str) -> None:
    """As 45萬 goes back to 4萬, 一二三萬 goes back to 一二萬 (not to 一二, which reads as no tile)."""
    assert typed_without_last(typed) == left
    assert parse_tiles(left) == parse_tiles(typed)[:-1]
