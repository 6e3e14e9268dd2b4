"""Waits (spec §3.5) and wait shapes (§3.6): table-driven, and against a brute force."""

from __future__ import annotations

import pytest
from brute_force import SETS, brute_complete, complete_six_sets_of_one_suit
from hypothesis import assume, given
from hypothesis import strategies as st

from companion.hand import Hand, HandError, Meld, MeldKind, Source
from companion.rules.shape import Group, GroupKind
from companion.rules.waits import (
    WaitShape,
    is_ready,
    structural_waits,
    wait_counts,
    wait_shape,
    wait_shapes,
    waits,
)
from companion.tiles import CopyLimitError, Tile, parse_tiles


def codes(tiles: tuple[Tile, ...]) -> str:
    return " ".join(t.code for t in tiles)


# (hand, sets, real waits, structural waits if different)
CASES = [
    ("12m345p678p123s999s55z", 5, "3m", None),  # edge 12 -> 3
    ("89m345p678p123s999s55z", 5, "7m", None),  # edge 89 -> 7
    ("13m345p678p123s999s55z", 5, "2m", None),  # closed
    ("45m345p678p123s999s55z", 5, "3m 6m", None),  # two-sided
    ("123m456m789p123s999s7z", 5, "7z", None),  # single on an honour
    ("123m456m789p123s55z66z", 5, "5z 6z", None),  # double pung on honours
    ("1112345678999m123p", 5, "1m 2m 3m 4m 5m 6m 7m 8m 9m", None),  # nine-sided, 16 tiles
    ("1112345678999m", 4, "1m 2m 3m 4m 5m 6m 7m 8m 9m", None),
    ("1234m789m789p123s456s", 5, "1m 4m", None),  # 1234: 1 or 4 (never 獨聽)
    ("2345678m345p678p123s", 5, "2m 5m 8m", None),
    ("1112223334445m", 4, "2m 3m 4m 5m 6m", None),
    ("123m456m789m11z22z33z4z", 5, "", None),  # three pairs: not ready
    ("1111m234m", 2, "4m", "1m 4m"),  # the 1m wait needs a fifth copy
    ("1111z234m", 2, "", "1z"),  # four honours: never a win
    ("45m234s789s77p kong:6666m@R pung:999p@O 1f", 5, "3m", "3m 6m"),  # spec §7 Example 14
    ("4m pung:444m@O chow:123p@L chow:456p@L pung:777s@R pung:111z@O", 5, "", "4m"),  # only wait exhausted
    ("5m pung:444m@O chow:123p@L chow:456p@L pung:777s@R pung:111z@O", 5, "5m", None),  # five melds, single
    ("23m55z chow:123p@L chow:456p@L pung:777s@R ckong:1111z", 5, "1m 4m", None),
    ("78m123p999s55z addkong:9999m pung:222z@L", 5, "6m", "6m 9m"),  # 9m: all four in the kong
    ("45m345p678p123s55z pung:999s@O", 5, "3m 6m", None),  # one meld
    ("45m123s55z chow:345p@L chow:678p@L pung:999s@R", 5, "3m 6m", None),  # three melds
    ("12m3m3m", 1, "3m", None),  # 1233m with one set: 123 + 33
]


def _parse(text: str, sets: int) -> Hand:
    return Hand.parse(text, sets=sets)


@pytest.mark.parametrize(("text", "sets", "real", "structural"), CASES)
def test_waits_table(text: str, sets: int, real: str, structural: str | None) -> None:
    hand = _parse(text, sets)
    assert codes(waits(hand)) == codes(parse_tiles(real) if real else ())
    expected = structural if structural is not None else real
    assert codes(structural_waits(hand)) == codes(parse_tiles(expected) if expected else ())
    assert is_ready(hand) == bool(real)


@pytest.mark.parametrize(
    ("text", "tile", "shapes"),
    [
        ("12m345p678p123s999s55z", "3m", [WaitShape.EDGE]),
        ("89m345p678p123s999s55z", "7m", [WaitShape.EDGE]),
        ("13m345p678p123s999s55z", "2m", [WaitShape.CLOSED]),
        ("45m345p678p123s999s55z", "6m", [WaitShape.TWO_SIDED]),
        ("123m456m789p123s999s7z", "7z", [WaitShape.SINGLE]),
        ("123m456m789p123s55z66z", "6z", [WaitShape.DOUBLE_PUNG]),
        ("1234m789m789p123s456s", "4m", [WaitShape.SINGLE]),
        ("1112345678999m", "3m", [WaitShape.TWO_SIDED, WaitShape.EDGE]),
        ("1112345678999m", "1m", [WaitShape.TWO_SIDED, WaitShape.DOUBLE_PUNG]),
        ("123m456m789m11z22z33z4z", "1z", []),
    ],
)
def test_wait_shapes(text: str, tile: str, shapes: list[WaitShape]) -> None:
    sets = 4 if text == "1112345678999m" else 5
    assert list(wait_shapes(_parse(text, sets), Tile.from_code(tile))) == shapes


@pytest.mark.parametrize(
    ("kind", "low", "win", "shape"),
    [
        (GroupKind.CHOW, "1m", "3m", WaitShape.EDGE),
        (GroupKind.CHOW, "7m", "7m", WaitShape.EDGE),
        (GroupKind.CHOW, "1m", "1m", WaitShape.TWO_SIDED),  # 23 waiting 1 or 4
        (GroupKind.CHOW, "7p", "9p", WaitShape.TWO_SIDED),  # 78 waiting 6 or 9
        (GroupKind.CHOW, "2s", "3s", WaitShape.CLOSED),
        (GroupKind.PUNG, "5z", "5z", WaitShape.DOUBLE_PUNG),
        (GroupKind.PAIR, "9s", "9s", WaitShape.SINGLE),
    ],
)
def test_wait_shape_of_a_placement(kind: GroupKind, low: str, win: str, shape: WaitShape) -> None:
    assert wait_shape(Group(kind, Tile.from_code(low)), Tile.from_code(win)) is shape
    assert shape.zh and shape.en


def test_wait_shape_names() -> None:
    assert [s.zh for s in WaitShape] == ["兩面", "邊張", "中洞", "單吊", "雙碰"]
    assert WaitShape.CLOSED.name_in("en") == "closed"


def test_wait_shape_rejects_a_tile_outside_the_group() -> None:
    with pytest.raises(ValueError, match="4m"):
        wait_shape(Group(GroupKind.CHOW, Tile.M1), Tile.M4)


def test_wait_counts_subtract_own_and_visible_tiles() -> None:
    hand = _parse("45m234s789s77p kong:6666m@R pung:999p@O", 5)
    assert wait_counts(hand) == ((Tile.M3, 4),)
    assert wait_counts(hand, "3m3m 1z") == ((Tile.M3, 2),)
    assert wait_counts(hand, [Tile.M3] * 4) == ((Tile.M3, 0),)
    two_sided = _parse("45m345p678p123s999s55z", 5)
    assert wait_counts(two_sided, "6m") == ((Tile.M3, 4), (Tile.M6, 3))
    edge = _parse("12m345p678p123m999s55z", 5)  # one 3m in the hand already
    assert wait_counts(edge, "") == ((Tile.M3, 3),)


def test_wait_counts_reject_impossible_visible_tiles() -> None:
    edge = _parse("12m345p678p123m999s55z", 5)
    with pytest.raises(CopyLimitError, match="3m"):
        wait_counts(edge, "3333m")
    # a fifth copy of a kind that is not a wait is as impossible (it once passed unnoticed)
    with pytest.raises(CopyLimitError, match=r"5 copies of 5z"):
        wait_counts(edge, "555z")
    with pytest.raises(CopyLimitError, match=r"5 copies of 9m"):
        wait_counts(edge, "99999m")


def test_waits_need_a_waiting_hand() -> None:
    with pytest.raises(HandError, match="between turns"):
        waits(_parse("123m456m789m123p456p99s", 5))


# --- properties against the brute force -------------------------------------------------------------



@st.composite
def waiting_hands(draw: st.DrawFn) -> Hand:
    """Hands between turns: a complete hand with some sets melded, one concealed tile taken away,
    and sometimes a tile or two swapped, so ready and not-ready hands both come up."""
    sets = draw(st.integers(1, 5))
    groups = [draw(st.sampled_from(SETS)) for _ in range(sets)]
    pair = draw(st.integers(0, 33))
    n_melds = draw(st.integers(0, sets))
    melds = []
    for g in groups[:n_melds]:
        if g[0] == g[1]:
            kind = draw(st.sampled_from([MeldKind.PUNG, MeldKind.KONG, MeldKind.ADDKONG, MeldKind.CKONG]))
            tiles = (Tile(g[0]),) * kind_size(kind)
            src = None if kind in (MeldKind.ADDKONG, MeldKind.CKONG) else Source.OPPOSITE
            melds.append(Meld(kind, tiles, src))
        else:
            melds.append(Meld(MeldKind.CHOW, tuple(Tile(t) for t in g), Source.LEFT))
    concealed = [t for g in groups[n_melds:] for t in g] + [pair, pair]
    del concealed[draw(st.integers(0, len(concealed) - 1))]
    for _ in range(draw(st.integers(0, 2))):
        concealed[draw(st.integers(0, len(concealed) - 1))] = draw(st.integers(0, 33))
    own = [0] * 34
    for t in concealed:
        own[t] += 1
    for m in melds:
        for t in m.tiles:
            own[t] += 1
    assume(max(own) <= 4)
    return Hand(tuple(Tile(t) for t in concealed), tuple(melds), (), sets=sets)


def kind_size(kind: MeldKind) -> int:
    return 4 if kind.is_kong else 3


@given(waiting_hands())
def test_waits_match_brute_force(hand: Hand) -> None:
    counts = hand.concealed_counts()
    own = hand.own_counts()
    structural = []
    for t in range(34):
        counts[t] += 1
        if brute_complete(counts, hand.sets_needed):
            structural.append(Tile(t))
        counts[t] -= 1
    assert structural_waits(hand) == tuple(structural)
    assert waits(hand) == tuple(t for t in structural if own[t] < 4)
    assert is_ready(hand) == any(own[t] < 4 for t in structural)
    assert [t for t, _ in wait_counts(hand)] == list(waits(hand))
    for t, unseen in wait_counts(hand):
        assert unseen == 4 - own[t] > 0
        assert wait_shapes(hand, t)  # every real wait shows some shape


@st.composite
def big_one_suit_hands(draw: st.DrawFn) -> Hand:
    """Six sets (19 tiles between turns) mostly in one suit: groups beyond the tables' five sets."""
    tiles = complete_six_sets_of_one_suit(draw)
    del tiles[draw(st.integers(0, len(tiles) - 1))]
    assume(max(tiles.count(k) for k in set(tiles)) <= 4)
    return Hand(tuple(map(Tile, tiles)), sets=6)


@given(big_one_suit_hands())
def test_waits_beyond_the_tables_match_brute_force(hand: Hand) -> None:
    counts = hand.concealed_counts()
    structural = []
    for t in range(34):
        counts[t] += 1
        if brute_complete(counts, 6):
            structural.append(Tile(t))
        counts[t] -= 1
    assert structural_waits(hand) == tuple(structural)
    assert waits(hand) == tuple(t for t in structural if hand.own_counts()[t] < 4)
