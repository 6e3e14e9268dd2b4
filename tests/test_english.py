"""English number agreement in filled-in messages ("1 tiles" -> "1 tile")."""

from companion.app.words import ui
from companion.english import agreed, all_four, the_tile
from companion.game.text import msg


def test_one_of_a_thing_is_singular_and_other_numbers_are_left() -> None:
    assert agreed("1 tiles (hidden)") == "1 tile (hidden)"
    assert agreed("not a draw yet: 1 tiles can still be drawn") == "not a draw yet: 1 tile can still be drawn"
    assert agreed("The last 1 copies in 1 stacks") == "The last 1 copy in 1 stack"
    for kept in ("21 tiles", "0 tiles", "11 tiles", "0.1 tiles", "1/4 tiles", "2 tiles", "1 tai", "x1 tiles"):
        assert agreed(kept) == kept


def test_the_messages_agree_in_both_halves() -> None:
    hidden = ui("tiles_hidden", n=1)
    assert hidden.en == "1 tile (hidden)" and hidden.zh == "1 張（未顯示）"
    assert ui("tiles_hidden", n=3).en == "3 tiles (hidden)"
    m = msg("no_draw_due", live=1)
    assert m.en == "not a draw yet: 1 tile can still be drawn" and "1 張" in m.zh


def test_a_calibration_of_one_crop_is_said_in_the_singular() -> None:
    """A calibration review read "1 kinds" in `companion calibrate`'s lines."""
    from companion.english import agreed

    assert agreed("calibrated 'x': 1 crops of 1 kinds / 已校正") == "calibrated 'x': 1 crop of 1 kind / 已校正"
    assert agreed("21 crops of 11 kinds") == "21 crops of 11 kinds"


def test_the_apps_words_and_the_games_messages_read_a_language_code_alike() -> None:
    """The app's words gave English only for exactly ``en`` and the game's messages Chinese only for ``zh...``: for
    ``en-US`` one read Chinese and the other English (a review). One rule now: ``zh...`` (any case) is Chinese."""
    from companion.app.words import Words
    from companion.game.text import Msg

    words, message = Words("中文", "English"), Msg("k", "中文", "English")
    for lang, want in (("zh", "中文"), ("zh-TW", "中文"), ("zh_Hant", "中文"), ("ZH-tw", "中文"), ("en", "English"),
                       ("en-US", "English"), ("EN", "English")):
        assert words.text(lang) == message.text(lang) == want, lang
    for lang in ("both", "ja", ""):
        assert words.text(lang) == message.text(lang), lang


def test_all_four_after_a_list_says_each_and_never_joins_with_and_twice() -> None:
    """A review read 「要的 一萬四萬 四張都在自己手上」 (no 、, and 四張 unclear after a list) and "1m and 4m and 7m"."""
    assert all_four(["一萬"], ["1m"]) == ("一萬四張", "all four 1m")
    assert all_four(["一萬", "四萬", "七萬"], ["1m", "4m", "7m"]) == ("一萬、四萬、七萬各四張",
                                                                  "all four of each of 1m, 4m and 7m")


def test_a_tile_takes_the_article_english_gives_it() -> None:
    """A review read "B discards the 5 Dots": a number tile goes without "the", an honour keeps it ("the East
    wind"), a flower is named as it is ("Spring"), a face-down tile is "a" one; ``begins`` starts a sentence."""
    from companion.tiles import Tile

    assert the_tile(Tile.from_code("5p")) == "5 Dots"
    assert the_tile(Tile.from_code("9m")) == "9 Characters"
    assert the_tile(Tile.from_code("6p"), "6p") == "6p"
    assert the_tile(Tile.from_code("1z")) == "the East wind"
    assert the_tile(Tile.from_code("5z"), Tile.from_code("5z").said_en) == "the White dragon (5z)"
    assert the_tile(Tile.from_code("1f")) == "Spring"
    assert the_tile(Tile.UNKNOWN) == "a face-down tile"
    assert the_tile(Tile.from_code("7z"), begins=True) == "The Red dragon"
    assert the_tile(Tile.from_code("3p"), begins=True) == "3 Dots"
