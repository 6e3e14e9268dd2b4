"""A run of tiles written with Chinese numerals before one suit character, as a Chinese player writes a hand
(一二三萬 as 123萬 is): it was refused at its first character, "unexpected character 一", where 123萬 and 一萬二萬三萬
were both read (a review of the Score-a-photo tab's typed hand)."""

from __future__ import annotations

import pytest

from companion.tiles import NotationError, format_tiles, parse_tiles, typed_without_last


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("一二三萬", "123m"),
        ("一二三萬四五六筒七八九條東東", "123m456p789s11z"),
        ("伍陸柒萬", "567m"),  # the numerals sets print
        ("一萬二萬三萬", "123m"),  # one tile at a time, as before
        ("1二3萬", "123m"),
    ],
)
def test_a_run_of_chinese_numerals_takes_the_suit_after_it(text: str, canonical: str) -> None:
    assert format_tiles(parse_tiles(text)) == canonical


@pytest.mark.parametrize(("text", "position"), [("一二三", 0), ("一 二萬", 0), ("東一二", 1)])
def test_numerals_with_no_suit_after_them_are_still_refused(text: str, position: int) -> None:
    with pytest.raises(NotationError) as e:
        parse_tiles(text)
    assert e.value.position == position


def test_going_back_takes_one_numeral_of_the_run() -> None:
    """My hand's and Live's back key: the last tile of 一二三萬 is 三萬, and the run keeps its suit."""
    assert typed_without_last("一二三萬") == "一二萬"
    assert format_tiles(parse_tiles(typed_without_last("一二萬"))) == "1m"
    assert typed_without_last("一萬二萬") == "一萬"
