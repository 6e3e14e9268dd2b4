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
    assert not h.is_concealed
    assert Hand.parse("123m456p789s5z ckong:5555s ckong:1111z").is_concealed


def test_meld_parse() -> None:
    m = Meld.parse("chow:534p@L")
    assert m.kind is MeldKind.CHOW and m.tiles == (Tile.P3, Tile.P4, Tile.P5) and m.source is Source.LEFT
    assert str(Meld.parse("added_kong:3333p")) == "addkong:3333p"
    assert Meld.parse("kong:5555m@R").is_kong and Meld.parse("ckong:7777m").is_called is False


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("chow:345p@O", "上家"),
        ("chow:135p", "consecutive"),
        ("chow:891m", "consecutive"),
        ("chow:123z", "consecutive"),
        ("pung:123m", "identical"),
        ("pung:11m", "needs 3"),
        ("kong:555m", "needs 4"),
        ("ckong:7777m@L", "no source"),
        ("pung:000x", "0x"),
        ("pong:111m", "unknown meld kind"),
        ("pung:111m@X", "L, O or R"),
        ("pung:111m@L@", "L, O or R"),
        ("pung:11q", "unexpected character"),
    ],
)
def test_bad_melds(text: str, fragment: str) -> None:
    with pytest.raises(HandError, match=fragment):
        Meld.parse(text)


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


def test_bad_character_position_in_hand() -> None:
    with pytest.raises(NotationError) as e:
        Hand.parse("123m 45q")
    assert e.value.position == 7


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
