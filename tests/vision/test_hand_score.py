"""Scoring a photographed winning hand: grouping by where tiles lie, repairs against the rules, the winning tile,
the whole reader on rendered photos, and ``companion score``."""

import argparse
import json
import random
from collections import Counter

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.hand import Meld, MeldKind
from companion.rules.profiles import load_profile, played_with
from companion.rules.scoring import replacement_named, score
from companion.rules.win import Win, WinType
from companion.tiles import Tile, format_tiles, parse_tiles
from companion.vision import hand_search
from companion.vision.hand_photo import Group, lay_out, shadowed
from companion.vision.hand_score import PhotoHandError, WayOut, check_context, score_photo
from companion.vision.read import Detections, TileReader
from training.synth.faces import CLEAN_STYLE
from training.synth.scene import SceneStyle
from training.synth.scene_hand import hand_photo

PROFILE = load_profile(None)
W, H = 30.0, 40.0


def laid(rows: list[tuple[float, list[str]]], readings: dict[int, list[tuple[str, float]]] | None = None,
         sideways: set[int] = frozenset()) -> Detections:  # type: ignore[assignment]
    """Detections of tiles laid in rows: each row (y, groups), a group's tiles side by side, a tile's width
    between groups. ``readings`` gives a tile (by its index) other readings, best first; ``sideways`` tiles
    lie turned."""
    readings = readings or {}
    obb, kind, sc, k3, s3, up = [], [], [], [], [], []
    for y, groups in rows:
        x = 50.0
        for g in groups:
            for t in parse_tiles(g, check=False):
                n = len(kind)
                turned = n in sideways
                w = H if turned else W
                obb.append([x + w / 2, y, W, H, 90.0 if turned else 0.0])
                opts = readings.get(n, [(t.code, 0.98), ("9p" if t != Tile.P9 else "8p", 0.01),
                                        ("7z" if t != Tile.Z7 else "6z", 0.005)])
                kind.append(int(Tile.from_code(opts[0][0])))
                up.append(t != Tile.UNKNOWN)
                sc.append(opts[0][1])
                k3.append([int(Tile.from_code(c)) for c, _ in opts])
                s3.append([p for _, p in opts])
                x += w + 1
            x += W
    return Detections(np.array(obb, np.float32), np.array(kind, np.int16), np.array(up, bool),
                      np.array(sc, np.float32), np.array(k3, np.int16), np.array(s3, np.float32), (2000, 1000))


def _row(gaps: list[float]) -> Detections:
    """One row of 4m faces, the gaps between neighbours given in tile widths (a gap per neighbour pair)."""
    xs = [50.0 + W / 2]
    for g in gaps:
        xs.append(xs[-1] + W + g * W)
    n = len(xs)
    return Detections(np.array([[x, 100.0, W, H, 0.0] for x in xs], np.float32), np.full(n, int(Tile.M4), np.int16),
                      np.ones(n, bool), np.full(n, 0.98, np.float32), np.tile(np.array([int(Tile.M4), 0, 1],
                      np.int16), (n, 1)), np.tile(np.array([0.98, 0.01, 0.01], np.float32), (n, 1)), (2000, 1000))


@pytest.mark.parametrize(("gaps", "groups"), [
    ([0.05] * 16 + [0.3], [17, 1]),  # the winning tile a centimetre apart (a review's, missed at a limit of 0.3)
    ([0.05] * 8 + [0.19] + [0.05] * 7, [17]),  # the widest gap the dev photos' rows showed between neighbours
    ([0.15] * 16 + [0.3], [18]),  # a row laid loosely: a third of a tile is no gap there
    ([0.15] * 16 + [0.6], [17, 1]),  # but half a tile and more still is
    ([0.6], [1, 1]),  # a gap or two have no usual gap to stand out from: the share of a tile alone decides
    ([0.02, 0.6], [2, 1]),
])
def test_a_row_is_cut_where_a_gap_stands_out(gaps: list[float], groups: list[int]) -> None:
    got = lay_out(_row(gaps))
    assert [len(g) for g in got.rows[0]] == groups


def test_a_row_with_the_winning_tile_apart_and_melds_in_front() -> None:
    dets = laid([(100, ["456m789m45s55z", "6s"]), (200, ["123m", "111z", "1f5f"])])
    got = score_photo(dets, {"win_type": "discard", "discarder": "S"}, PROFILE)
    truth = Win.of("456m789m45s55z", "6s", "discard", melds=["chow:123m", "pung:111z"], flowers="1f5f",
                   discarder="S")
    assert got.win == truth
    assert got.score == score(truth, PROFILE)
    assert got.marked and got.win_tiles == ((Tile.S6, got.score.hand_tai),)
    assert not got.repairs
    # the dealer is East by rule (dealer_east), not by assumption; a rule set seating the winds otherwise says it
    assert [n.en.split(":")[0] for n in got.doubts] == [
        "assumed the winner sits East, so he deals (the dealer sits East in these rules, and his tai counts in every "
        "payment)", "assumed the round is East", "assumed the dealer's streak is 0"]
    assert got.doubts[0].zh.startswith("假設胡牌的人坐東，也就是莊家（這套規則莊家坐東，每筆付款都加莊家台）")
    fixed = score_photo(dets, {"win_type": "discard", "discarder": "S"}, load_profile("wikibooks_base"))
    assert "assumed the dealer is East" in [n.en.split(":")[0] for n in fixed.doubts]



def test_a_winning_one_of_characters_is_reported_as_the_winning_tile() -> None:
    """一萬 is the tile numbered 0: the photo's JSON once gave its winning tile as null."""
    from companion.commands.score import photo_result

    dets = laid([(100, ["23m456m789s55z", "1m"]), (200, ["123p", "111z"])])
    got = score_photo(dets, {"win_type": "discard", "discarder": "S"}, PROFILE)
    assert got.marked and got.win.win_tile is Tile.M1
    result = photo_result("hand.jpg", dets, got, None, PROFILE)
    assert result["hand"]["win_tile"] == "1m" and result["win"]["win_tile"] == "1m"

def test_without_a_marked_winning_tile_every_one_is_scored_and_the_best_taken() -> None:
    dets = laid([(100, ["123m456m789m123p45s55z6s"])])
    got = score_photo(dets, {}, PROFILE)
    assert not got.marked
    kinds = sorted(set(parse_tiles("123m456m789m123p45s55z6s")))
    assert [t for t, _ in got.win_tiles] == kinds
    for tile, tai in got.win_tiles:  # each as the rules score it
        rest = list(parse_tiles("123m456m789m123p45s55z6s"))
        rest.remove(tile)
        assert tai == score(Win(tuple(rest), tile, "self_draw"), PROFILE).hand_tai  # type: ignore[arg-type]
    assert got.score.hand_tai == max(tai for _, tai in got.win_tiles)
    assert any("--win-tile" in n.en and "--win-tile" in n.zh for n in got.doubts)
    named = score_photo(dets, {}, PROFILE, win_tile=Tile.S6)
    assert named.named and not named.marked and named.win.win_tile == Tile.S6 and len(named.win_tiles) == 1
    with pytest.raises(PhotoHandError, match="no Red dragon among"):
        score_photo(dets, {}, PROFILE, win_tile=Tile.Z7)


def test_the_concealed_row_need_not_be_the_longest() -> None:
    """Four melds (12 tiles) and a concealed pair and winning tile: the melds' row is longer than the hand's."""
    dets = laid([(100, ["23p55z", "4p"]), (200, ["123m", "999p", "345s", "777s"])])
    got = score_photo(dets, {}, PROFILE)
    assert got.win.concealed == parse_tiles("23p55z") and got.win.win_tile == Tile.P4
    assert [m.kind for m in got.win.melds] == [MeldKind.CHOW, MeldKind.PUNG, MeldKind.CHOW, MeldKind.PUNG]


def test_melds_side_by_side_are_cut_and_a_concealed_kong_shows_backs() -> None:
    dets = laid([(100, ["456m789m4s", "4s"]), (200, ["0x77p0x555z234s"])])
    got = score_photo(dets, {}, PROFILE)
    assert [str(m) for m in got.win.melds] == ["ckong:7777p", "pung:555z", "chow:234s"]
    assert got.win.concealed == parse_tiles("456m789m4s") and got.win.win_tile == Tile.S4


def test_pale_backs_read_as_blank_white_dragons_at_a_kongs_ends_are_taken_as_backs_only_when_needed() -> None:
    # where a set's backs are pale, a concealed kong's face-down ends read as unsure 白板 (5z)
    unsure = {i: [("5z", 0.5), ("6z", 0.3), ("7z", 0.1)] for i in (8, 11)}
    dets = laid([(100, ["456m789m4s", "4s"]), (200, ["5z7p7p5z", "555z", "234s"])], unsure)
    got = score_photo(dets, {}, PROFILE)
    assert [str(m) for m in got.win.melds] == ["ckong:7777p", "pung:555z", "chow:234s"]
    assert any("blank white dragon" in n.en and "白板" in n.zh for n in got.doubts)
    # a sure 白板 is a tile: no kong is made of it
    sure = laid([(100, ["456m789m4s", "4s"]), (200, ["5z7p7p5z", "555z", "234s"])])
    with pytest.raises(PhotoHandError):
        score_photo(sure, {}, PROFILE)
    # a hand that is a win as read keeps its 白板, however unsure
    as_read = laid([(100, ["5z77p5z5z789m123s45s", "6s"]), (200, ["123p"])],
                   {i: [("5z", 0.5), ("6z", 0.3), ("7z", 0.1)] for i in (0, 3)})
    kept = score_photo(as_read, {}, PROFILE, win_tile=Tile.S6)
    assert kept.win.concealed.count(Tile.Z5) == 3 and not any("white dragon" in n.en for n in kept.doubts)


def test_three_backs_in_no_concealed_kong_are_tried_as_a_pung_of_blank_white_dragons() -> None:
    """A photo review: a set's 白板 has a blank face, and a pung of them was read as three backs; the hand was refused
    ("found 14 tiles … and 3 face down"). Taken as 白 when that makes the win, and said."""
    dets = laid([(100, ["66p23455s", "6p"]), (200, ["0x0x0x", "789s", "111z"]), (300, ["3f4f"])])
    got = score_photo(dets, {}, PROFILE)
    assert sorted(str(m) for m in got.win.melds) == ["chow:789s", "pung:111z", "pung:555z"]
    assert got.score.item("dragon_pung") is not None
    assert any("taken as white dragons" in n.en and "當作白板" in n.zh for n in got.doubts)
    # backs that make no win as 白 either: refused as before, naming the backs
    with pytest.raises(PhotoHandError, match="face down"):
        score_photo(laid([(100, ["66p23455s", "6p"]), (200, ["0x0x", "789s", "111z"])]), {}, PROFILE)


def test_a_flower_read_surely_enough_is_doubted_where_its_other_reading_scores_otherwise() -> None:
    """A photo review: a North winner's 冬 (4f, his 正花) read as 春 at 0.84, with no doubt said, paid a tai short."""
    rows = [(100, ["456m34s22255577z", "2s"]), (200, ["2222m"]), (300, ["1f7f"])]
    context = {"seat_wind": "N", "win_type": "discard", "discarder": "E"}
    misread = laid(rows, {18: [("1f", 0.84), ("4f", 0.056), ("8f", 0.01)]})
    got = score_photo(misread, context, PROFILE)
    assert got.win.flowers == (Tile.F1, Tile.F7) and got.score.hand_tai == 1
    (note,) = [n for n in got.doubts if "flower" in n.en]
    assert "were it Winter, the hand would be 2 tai, not 1" in note.en and "若其實是冬，這手是 2 台" in note.zh
    # an other reading that scores the same (夏 is no North flower either), or one too faint: nothing said
    for readings in ({18: [("1f", 0.84), ("2f", 0.1), ("4f", 0.01)]}, {18: [("1f", 0.84), ("5z", 0.1), ("4f", 0.01)]}):
        assert not any("flower" in n.en for n in score_photo(laid(rows, readings), context, PROFILE).doubts)


def test_a_face_up_kong_is_exposed_unless_the_player_says_it_was_added_or_concealed() -> None:
    dets = laid([(100, ["456m789m45s55z", "6s"]), (200, ["3333p", "123m"])])
    exposed = score_photo(dets, {}, PROFILE)
    assert str(exposed.win.melds[0]) == "kong:3333p"
    assert any("--kong 3p=addkong" in n.en and "--kong 3p=addkong" in n.zh for n in exposed.doubts)
    added = score_photo(dets, {"flags": {"after_kong": True}}, PROFILE, kongs={Tile.P3: MeldKind.ADDKONG})
    assert str(added.win.melds[0]) == "addkong:3333p" and added.score.item("kong_bloom") is not None
    assert not any("--kong" in n.en for n in added.doubts)


def test_a_concealed_kong_laid_touching_the_hands_row_is_its_own_meld() -> None:
    for row in (["456m789m123p45s55z0x77p0x", "6s"], ["0x7p7p0x456m789m123p45s55z", "6s"]):
        got = score_photo(laid([(100, row)]), {}, PROFILE)
        assert [str(m) for m in got.win.melds] == ["ckong:7777p"] and got.win.win_tile == Tile.S6, row
        assert got.win.concealed == parse_tiles("456m789m123p45s55z")


def test_a_sideways_tile_in_the_hands_row_makes_its_group_a_meld() -> None:
    dets = laid([(100, ["456m789m789p45s55z", "123m", "6s"])], sideways={13})
    assert lay_out(dets).rows[0][1].sideways
    got = score_photo(dets, {}, PROFILE, win_tile=Tile.S6)
    assert [str(m) for m in got.win.melds] == ["chow:123m"]


def test_a_lone_tile_boxed_across_the_row_is_the_winning_tile_set_apart_not_a_meld() -> None:
    # a real hand's 北 set apart at the row's end, boxed across the row and read unsure (a claimed tile lies beside
    # its meld's other tiles: a lone one is no meld); found by benchmarks.photo_score, refused before
    hand = "111m234s111z333z4z"
    dets = laid([(100, [hand, "2z"]), (200, ["555m"])], sideways={13},
                readings={13: [("2z", 0.46), ("1z", 0.08), ("4z", 0.05)]})
    assert lay_out(dets).rows[0][1].sideways
    got = score_photo(dets, {}, PROFILE)
    assert got.win.win_tile == Tile.Z4 and got.win.concealed == parse_tiles(hand)
    assert [str(m) for m in got.win.melds] == ["pung:555m"]
    (r,) = got.repairs
    assert (r.index, r.read, r.taken) == (13, Tile.Z2, Tile.Z4)
    # read right, it is simply the winning tile; alone in a row of its own too
    apart, own_row = [(100, [hand, "4z"]), (200, ["555m"])], [(100, [hand]), (200, ["555m"]), (300, ["4z"])]
    for rows, across in ((apart, 13), (own_row, 16)):
        got = score_photo(laid(rows, sideways={across}), {}, PROFILE)
        assert got.win.win_tile == Tile.Z4 and not got.repairs and [str(m) for m in got.win.melds] == ["pung:555m"]


def test_a_meld_cut_by_a_gap_beside_a_short_group_is_joined() -> None:
    # a claimed tile lying across the meld row, boxed short of it, left a gap wider than a group's (dev hands of
    # benchmarks.photo_score --sideways: 4p | 5p 6p, 5z 5z | 5z): a group of one or two tiles is no meld, so it joins
    # its neighbours; refused before
    hand = "123m456m23s55z"
    for melds, sideways, want in (
            (["4p", "56p", "777z"], {11}, ["chow:456p", "pung:777z"]),
            (["7z7z", "7z", "456p"], {13}, ["chow:456p", "pung:777z"]),
            (["456p", "7z", "7z7z"], {14}, ["chow:456p", "pung:777z"])):
        dets = laid([(100, [hand, "1s"]), (200, melds)], sideways=sideways)
        assert [len(g) for g in lay_out(dets).rows[1]] == [len(parse_tiles(m, check=False)) for m in melds]
        got = score_photo(dets, {}, PROFILE)
        assert got.win.win_tile == Tile.S1 and not got.repairs
        assert sorted(str(m) for m in got.win.melds) == want
    # groups of three or more stay apart; a short one joins both sides, keeping what lies across and the backs
    three, four = Group((0, 1, 2)), Group((3, 4, 5, 6), backs=2)
    assert hand_search.joined_short((three, four)) == [three, four]
    assert hand_search.joined_short((three, Group((3,), sideways=True), Group((4, 5)), Group((6, 7, 8)))) == [
        Group((0, 1, 2, 3, 4, 5), sideways=True), Group((6, 7, 8))]
    assert hand_search.joined_short((Group((0, 1)), four)) == [Group((0, 1, 3, 4, 5, 6), backs=2)]


def test_a_misread_that_breaks_the_hand_is_repaired_from_the_top_three() -> None:
    # the second 5z read as 6z at 0.48, 5z its second reading: as read, no win
    dets = laid([(100, ["123m456m789m123p45s55z", "6s"])],
                readings={15: [("6z", 0.48), ("5z", 0.41), ("7z", 0.05)]})
    got = score_photo(dets, {}, PROFILE)
    assert got.win.concealed.count(Tile.Z5) == 2
    (r,) = got.repairs
    assert (r.index, r.read, r.taken) == (15, Tile.Z6, Tile.Z5)
    assert any("read Green dragon (48% sure) as White dragon (41%)" in n.en for n in got.doubts)


def test_a_tile_none_of_whose_readings_fits_is_the_one_kind_that_makes_the_win() -> None:
    # the 8m read as 3p (0.3), its other readings 9p and 1z: no top-3 reading wins; as any kind, only 8m does
    dets = laid([(100, ["123m456m789m123p45s55z", "6s"])], readings={7: [("3p", 0.3), ("9p", 0.2), ("1z", 0.1)]})
    got = score_photo(dets, {}, PROFILE)
    assert [(r.index, r.read, r.taken, r.taken_p) for r in got.repairs] == [(7, Tile.P3, Tile.M8, 0.0)]
    assert any("did not name" in n.en and "沒有想到" in n.zh for n in got.doubts)


def test_a_claimed_tile_misread_surely_is_named_not_taken_and_a_concealed_tile_boxed_across_its_row() -> None:
    # a dev hand of benchmarks.photo_score --sideways: the concealed row's first 4p boxed as half a tile lying across
    # the row and read 2p (0.84; a second look offered 4p at 0.94), which made the row a meld group; and the 7s lying
    # across its chow read 6s at 0.96, with no 7s among its readings. The 6s was once taken as 7s, the kind the
    # classifier did not name: a tile read surely is never so taken (a hand one tile from a win was scored and paid);
    # the refusal names it and the kind that makes the win, for the player to correct it
    rows = [(100, ["44p678p11s", "1s"]), (200, ["689s", "222z", "123m"])]
    readings = {0: [("2p", 0.84), ("4p", 0.94), ("3z", 0.2)], 8: [("6s", 0.96), ("3z", 0.01), ("4z", 0.005)]}
    dets = laid(rows, readings, sideways={0, 8, 11, 14})
    assert lay_out(dets).rows[0][0].sideways
    with pytest.raises(PhotoHandError) as refused:
        score_photo(dets, {}, PROFILE)
    assert str(refused.value).startswith("not a win as read; it would be one if the 6 Bamboo (96% sure; row 2, "
                                         "tile 1) were 7 Bamboo, or the 9 Bamboo (98% sure; row 2, tile 3) were "
                                         "7 Bamboo: check those tiles")
    assert refused.value.zh.startswith("照讀到的不是胡牌；若第 2 列第 1 張的六條（96% 把握）其實是七條，或")
    assert refused.value.check == (8, 10)
    # corrected (the player's pick is read surely as what he says), the 2p is its second look's 4p, and it wins
    dets.kind[8], dets.score[8] = int(Tile.S7), 1.0
    got = score_photo(dets, {}, PROFILE)
    assert got.win.concealed == parse_tiles("44p678p11s") and got.win.win_tile == Tile.S1
    assert sorted(str(m) for m in got.win.melds) == ["chow:123m", "chow:789s", "pung:222z"]
    assert [(r.index, r.read, r.taken) for r in got.repairs] == [(0, Tile.P2, Tile.P4)]
    # the claimed tile read unsure: the least sure tiles are others, yet a tile lying across its row is tried as any
    # kind, and taken
    dets = laid([(100, ["44p678p11s", "1s"]), (200, ["689s", "222z", "123m"])],
                {1: [("4p", 0.6), ("1p", 0.2), ("3z", 0.1)], 2: [("6p", 0.7), ("9p", 0.2), ("3z", 0.05)],
                 3: [("7p", 0.7), ("1p", 0.2), ("3z", 0.05)], 8: [("6s", 0.46), ("3z", 0.01), ("4z", 0.005)]},
                sideways={8, 11, 14})
    got = score_photo(dets, {}, PROFILE)
    assert [(r.index, r.read, r.taken, r.taken_p) for r in got.repairs] == [(8, Tile.S6, Tile.S7, 0.0)]
    # where two kinds would each complete it (2p 3p and 1p or 4p), the hand is refused, not guessed, and the refusal
    # names the tile and the kinds for the player to tell which it is: read unsure ...
    dets = laid([(100, ["44p678p11s", "1s"]), (200, ["239p", "222z", "123m"])],
                {10: [("9p", 0.36), ("3z", 0.01), ("4z", 0.005)]}, sideways={10, 11, 14})
    with pytest.raises(PhotoHandError) as refused:
        score_photo(dets, {}, PROFILE)
    assert "the tile read 9 Dots (row 2, tile 3) would make a win as 1 Dot or 4 Dots: check which it is" \
        in str(refused.value)
    assert "第 2 列第 3 張（讀成九筒）當作一筒或四筒都能胡" in refused.value.zh
    assert hand_search.ambiguous(dets, lay_out(dets), hand_search.row_plans(lay_out(dets), set())) == (
        10, (Tile.P1, Tile.P4))
    # ... or surely
    dets.score[10] = dets.top3_score[10, 0] = 0.96
    with pytest.raises(PhotoHandError) as refused:
        score_photo(dets, {}, PROFILE)
    assert "it would be one if the 9 Dots (96% sure; row 2, tile 3) were 1 Dot or 4 Dots: check that tile" \
        in str(refused.value)
    assert hand_search.sure_fits(dets, lay_out(dets), hand_search.row_plans(lay_out(dets), set())) == [
        (10, (Tile.P1, Tile.P4))]


def test_a_hand_one_tile_read_surely_from_a_win_is_refused_naming_the_tile_never_scored() -> None:
    # a review's photo: 123456789m 23456p 19s with 7p set apart, the 9s read at 0.86 and nothing else among its
    # readings; it was scored 3 tai with the 9s taken as 1s, and paid; a 詐胡 at the table
    dets = laid([(100, ["123456789m23456p19s", "7p"])], readings={15: [("9s", 0.86), ("8s", 0.1), ("7s", 0.02)]})
    with pytest.raises(PhotoHandError) as refused:
        score_photo(dets, {}, PROFILE)
    said = str(refused.value)
    assert said.startswith("not a win as read; it would be one if the 9 Bamboo (86% sure; row 1, tile 16) were "
                           "1 Bamboo, or the 1 Bamboo (98% sure; row 1, tile 15) were 9 Bamboo: check those tiles")
    assert refused.value.zh.startswith("照讀到的不是胡牌；若第 1 列第 16 張的九條（86% 把握）其實是一條，或第 1 列第 15 張的"
                                       "一條（98% 把握）其實是九條，才是胡牌：請檢查那幾張牌")
    assert refused.value.check == (15, 14)
    # the winning tile set apart, read surely, is never the hand's only wait it is not (a near-miss photo: 7p at 0.83
    # taken as 3p, the one tile that completed 12456p)
    dets = laid([(100, ["123456789m12456p55s", "7p"])], readings={16: [("7p", 0.83), ("8p", 0.1), ("9p", 0.03)]})
    with pytest.raises(PhotoHandError) as refused:
        score_photo(dets, {}, PROFILE)
    assert "if the 7 Dots (83% sure; row 1, tile 17) were 3 Dots" in str(refused.value)
    assert 16 in refused.value.check


def test_an_unsure_box_inside_a_claimed_tile_lying_across_its_row_is_the_same_tile_boxed_twice() -> None:
    # dev hands of benchmarks.photo_score --sideways, refused before: the 6p across its pung boxed whole and again as
    # an upright 2p at 0.22 over part of it (6p 2p? 6p 6p: no meld of four)
    def twice(extra_score: float) -> Detections:
        dets = laid([(100, ["123m456m789m23s55z", "1s"]), (200, ["666p"])], sideways={14})
        claimed = dets.obb[14]
        box = np.array([[claimed[0] - 6, claimed[1] + 2, W * 0.8, H * 0.8, 0.0]], np.float32)
        return Detections(np.concatenate([dets.obb, box]), np.append(dets.kind, np.int16(Tile.P2)),
                          np.append(dets.face_up, True), np.append(dets.score, np.float32(extra_score)),
                          np.concatenate([dets.top3_kind, np.array([[Tile.P2, Tile.P4, Tile.Z2]], np.int16)]),
                          np.concatenate([dets.top3_score, np.array([[extra_score, 0.1, 0.05]], np.float32)]),
                          dets.image_size)

    dets = twice(0.22)
    assert shadowed(dets) == [17]
    got = score_photo(dets, {}, PROFILE)
    assert [str(m) for m in got.win.melds] == ["pung:666p"] and got.win.win_tile == Tile.S1
    assert 17 not in got.kinds
    (note,) = [n for n in got.doubts if "boxed twice" in n.en]
    assert "read 2 Dots" in note.en and "讀成二筒" in note.zh
    # read surer than the tile across the row, or beside it rather than inside, it is no shadow: a tile of its own,
    # never left out (beside, the one kind that makes a win of it is taken, and said)
    assert shadowed(twice(0.97)) == []
    beside = twice(0.22)
    beside.obb[17, 0] -= W
    assert shadowed(beside) == []
    kept = score_photo(beside, {}, PROFILE)
    assert 17 in kept.kinds and [(r.index, r.taken_p) for r in kept.repairs] == [(17, 0.0)]
    assert any("did not name" in n.en for n in kept.doubts)


def test_a_tile_read_surely_is_never_swapped_for_its_second_guess_to_make_a_win() -> None:
    # a review's photo: 123456789p 112s 9s 4s 67m with 5m set apart, the 9s read at 0.87 and 3s its 0.06 second guess;
    # it was scored 3 tai with the 9s taken as 3s ("South pays North 60"), a hand one tile from a win: a 詐胡
    dets = laid([(100, ["123456789p1129s4s67m", "5m"])], readings={12: [("9s", 0.87), ("3s", 0.06), ("8s", 0.03)]})
    with pytest.raises(PhotoHandError) as refused:
        score_photo(dets, {}, PROFILE)
    assert str(refused.value).startswith("not a win as read; it would be one if the 9 Bamboo (87% sure; row 1, "
                                         "tile 13) were 3 Bamboo")
    assert 12 in refused.value.check
    # nor with a second guess that leaves it sure (0.87 less 0.3 is still over half)
    dets.top3_score[12, 1] = 0.3
    with pytest.raises(PhotoHandError):
        score_photo(dets, {}, PROFILE)
    # nor with a second guess far under a reading just over half: a review scored 0.74/0.25 and 0.62/0.13 3 tai
    for read_p, other_p in ((0.74, 0.25), (0.62, 0.13), (0.6, 0.35)):
        dets.score[12] = dets.top3_score[12, 0] = read_p
        dets.top3_score[12, 1] = other_p
        with pytest.raises(PhotoHandError):
            score_photo(dets, {}, PROFILE)
    # read unsure, or with a second guess close to the reading or likelier (a second look's offer), it is taken
    for read_p, other_p in ((0.45, 0.3), (0.55, 0.41), (0.6, 0.36), (0.8, 0.9)):
        dets.score[12] = dets.top3_score[12, 0] = read_p
        dets.top3_score[12, 1] = other_p
        got = score_photo(dets, {}, PROFILE)
        assert [(r.index, r.read, r.taken) for r in got.repairs] == [(12, Tile.S9, Tile.S3)]


def test_a_tile_the_player_corrected_is_never_named_back_as_sure_and_suspect() -> None:
    # a review's photo: 7m corrected with --tile (read then as the player says, at 100%) was named back: "or the
    # 7 Characters (100% sure; row 1, tile 15) were 6 Characters: check those tiles"
    dets = laid([(100, ["123456789m23456p19s", "7p"])], readings={15: [("9s", 0.86), ("8s", 0.1), ("7s", 0.02)]})
    picked = dets.corrected({14: Tile.S1})
    assert picked.picked is not None and picked.picked.tolist() == [i == 14 for i in range(len(dets))]
    assert picked.take(np.array([14, 15])).picked.tolist() == [True, False]  # type: ignore[union-attr]
    with pytest.raises(PhotoHandError) as refused:
        score_photo(picked, {}, PROFILE)
    # (the hand holds his correction: said of it, not "as read")
    assert str(refused.value).startswith("not a win with the tiles corrected; it would be one if the 9 Bamboo (86% "
                                         "sure; row 1, tile 16) were 1 Bamboo: check that tile")
    assert refused.value.corrected == (14,)
    assert "100%" not in str(refused.value) and "100%" not in refused.value.zh
    assert refused.value.check == (15,)
    with pytest.raises(ValueError, match="no tile 99"):
        dets.corrected({99: Tile.S1})


def test_nothing_called_keeps_a_kong_lying_face_up_as_a_concealed_kong() -> None:
    # a review: 1111m over 234m567m234p567p5s with 5s set apart, --concealed (with --kong 1m=ckong or without) was
    # refused as "found 18 tiles ... is a tile missing from the photo"
    dets = laid([(100, ["1111m"]), (200, ["234m567m234p567p5s", "5s"])])
    for kongs in ({}, {Tile.M1: MeldKind.CKONG}):
        got = score_photo(dets, {}, PROFILE, kongs=kongs, concealed=True)
        assert [str(m) for m in got.win.melds] == ["ckong:1111m"] and got.win.win_tile == Tile.S5
        assert got.score.hand_tai == score_photo(dets, {}, PROFILE, kongs={Tile.M1: MeldKind.CKONG}).score.hand_tai
        said = [n for n in got.doubts if "concealed kong turned up" in n.en]
        assert len(said) == (0 if kongs else 1) and (not said or "暗槓" in said[0].zh)
    with pytest.raises(PhotoHandError, match="^--kong 1m=addkong says the kong of 1 Character was added to a "
                                             "called pung, but --concealed says nothing was called: drop one") as refused:
        score_photo(dets, {}, PROFILE, kongs={Tile.M1: MeldKind.ADDKONG}, concealed=True)
    assert "加槓（碰了再槓）" in refused.value.zh and "門清" in refused.value.zh and "吃碰來的" not in refused.value.zh
    with pytest.raises(PhotoHandError, match="^--kong 1m=kong says the kong of 1 Character was made on a discard") \
            as refused:
        score_photo(dets, {}, PROFILE, kongs={Tile.M1: MeldKind.KONG}, concealed=True)
    assert "明槓（槓別人打出的牌）" in refused.value.zh


def test_nothing_called_takes_four_backs_said_blank_white_dragons_as_a_concealed_kong() -> None:
    # a review: four backs over 234m567m234p567p5s (5s apart) with --concealed were refused, advising --kong 5z=kong;
    # said so, the kong was refused as called ("but nothing was called"): the player means blank tiles
    dets = laid([(100, ["0x0x0x0x"]), (200, ["234m567m234p567p5s", "5s"])])
    got = score_photo(dets, {}, PROFILE, kongs={Tile.Z5: MeldKind.KONG}, blank_white=True, concealed=True)
    assert [str(m) for m in got.win.melds] == ["ckong:5555z"] and got.win.win_tile == Tile.S5
    assert got.score.hand_tai == score_photo(dets, {}, PROFILE, kongs={Tile.Z5: MeldKind.CKONG}, blank_white=True,
                                             concealed=True).score.hand_tai


def test_another_repair_that_also_wins_is_said_with_its_tai() -> None:
    # the last tile read 8s unsure (0.45): 5m (0.3) and 1z (0.15) both complete the hand, with different tai
    dets = laid([(100, ["123p456p789p222z11z55m8s"])], readings={16: [("8s", 0.45), ("5m", 0.3), ("1z", 0.15)]})
    got = score_photo(dets, {}, PROFILE)
    assert [(r.read, r.taken) for r in got.repairs] == [(Tile.S8, Tile.M5)]
    (note,) = [n for n in got.doubts if n.en.startswith("also a win")]
    rest = list(parse_tiles("123p456p789p222z111z55m"))
    tai = max(score(Win(tuple(rest[:k] + rest[k + 1:]), t, "self_draw"), PROFILE).hand_tai  # type: ignore[arg-type]
              for k, t in enumerate(rest))
    assert note.en == f"also a win, nearly as likely: 8 Bamboo as East wind (15%) (melds: none): {tai} tai; check the photo"
    assert "八條當作東" in note.zh and "吃碰槓：沒有" in note.zh


def test_a_photo_turned_a_quarter_or_askew_keeps_its_rows() -> None:
    flat = laid([(100, ["456m789m45s55z", "6s"]), (150, ["123m", "111z", "1f5f"])])
    truth = score_photo(flat, {}, PROFILE).win
    for degrees in (15.0, 30.0, 90.0, 180.0):
        a = np.radians(degrees)
        xy = flat.obb[:, :2] - 500
        turned = np.stack([xy[:, 0] * np.cos(a) + xy[:, 1] * np.sin(a), -xy[:, 0] * np.sin(a) + xy[:, 1] * np.cos(a)], 1)
        obb = np.concatenate([turned + 500, flat.obb[:, 2:4], (flat.obb[:, 4:] + degrees)], 1).astype(np.float32)
        dets = Detections(obb, flat.kind, flat.face_up, flat.score, flat.top3_kind, flat.top3_score, (3000, 3000))
        got = score_photo(dets, {}, PROFILE).win  # (the melds in the order the turned photo lists them)
        assert (got.concealed, got.win_tile, got.flowers, sorted(map(str, got.melds))) == \
            (truth.concealed, truth.win_tile, truth.flowers, sorted(map(str, truth.melds))), degrees


def test_an_unsure_tile_of_a_legal_reading_is_named_for_the_player_to_check() -> None:
    dets = laid([(100, ["123m456m789m123p45s55z", "6s"])], readings={4: [("5m", 0.42), ("8m", 0.3), ("3m", 0.2)]})
    got = score_photo(dets, {}, PROFILE)
    assert not got.repairs
    (note,) = [n for n in got.doubts if "unsure" in n.en]
    # a share players read; the tiles named as players say them, not in the notation (a review's "0x read unsure")
    assert note.en == "5 Characters read unsure (42% sure; or 8 Characters or 3 Characters): check it in the photo"
    assert note.zh == "五萬讀得不確定（42% 把握；也可能是八萬或三萬）：請對照照片"  # the tiles named as players say them


def test_a_fifth_copy_is_never_read() -> None:
    """The 4m of a 234m read as 1m keeps the shape complete (123m) but makes a fifth 1m beside the pung."""
    dets = laid([(100, ["123m423m456p789p5z", "5z"]), (200, ["111m"])],
                readings={3: [("1m", 0.55), ("4m", 0.40), ("7m", 0.02)]})
    got = score_photo(dets, {}, PROFILE)
    assert Counter(got.win.all_tiles())[Tile.M1] == 4
    # from its top three (0.40), not as a kind nobody named: the melds' row tried as the hand must not lose it
    assert [(r.index, r.read, r.taken, round(r.taken_p, 2)) for r in got.repairs] == [(3, Tile.M1, Tile.M4, 0.4)]


def test_a_tile_read_as_a_flower_in_the_hand_is_repaired_and_a_flower_beside_it_joins_the_flowers() -> None:
    # the 1s (a bird) read as the plum 5f: among the concealed tiles, its second reading makes the hand
    dets = laid([(100, ["123m456m789m123p11s55z", "5z"])], readings={13: [("5f", 0.45), ("1s", 0.35), ("1f", 0.1)]})
    got = score_photo(dets, {}, PROFILE)
    assert got.win.concealed.count(Tile.S1) == 2 and not got.win.flowers
    assert [(r.read, r.taken) for r in got.repairs] == [(Tile.F5, Tile.S1)]
    # a flower laid touching the end of the row is a flower
    beside = score_photo(laid([(100, ["123m456m789m123p11s55z", "5z2f"])]), {}, PROFILE)
    assert beside.win.flowers == (Tile.F2,) and beside.win.win_tile == Tile.Z5 and not beside.repairs


def test_a_winning_tile_not_set_apart_names_every_other_tile_with_its_tai() -> None:
    """A review: "the others 7-11" did not say which tile gave which total."""
    got = score_photo(laid([(100, ["123m456m789m123p444s55z"])]), {}, PROFILE)
    assert not got.marked and got.win_tiles
    best: dict[Tile, int] = {}
    for t, tai in got.win_tiles:
        best[t] = max(tai, best.get(t, 0))
    chosen = got.win.win_tile
    assert chosen is not None and best[chosen] == got.score.hand_tai == max(best.values())
    note = next(n for n in got.doubts if n.en.startswith("the winning tile is not set apart"))
    assert note.en.startswith(f"the winning tile is not set apart: scored as {chosen.en}, the most "
                              f"({got.score.hand_tai} tai); won on another tile: ")
    others = [(t, n) for t, n in best.items() if t != chosen]
    assert len(others) >= 2 and all(f"{t.en} {n} tai" in note.en and f"{t.zh} {n} 台" in note.zh for t, n in others)


@pytest.mark.parametrize("unsure", [3, 4])
def test_a_hand_read_with_many_unsure_tiles_says_first_that_it_is_likely_wrong(unsure: int) -> None:
    hand = "123m456m789m123p44s55z"
    readings = {i: [(t.code, 0.4), ("9p", 0.3), ("7z", 0.2)] for i, t in enumerate(parse_tiles(hand)[:unsure])}
    got = score_photo(laid([(100, [hand, "4s"])], readings), {}, PROFILE)
    first = got.doubts[0]
    assert first.en.startswith(f"{unsure} of the hand's 17 tiles were read unsure") == (unsure >= 4)
    assert (first.zh == f"這手 17 張牌裡有 {unsure} 張讀得不確定或被改讀：這個結果很可能不對；請逐張對照照片，或拍近一點") \
        == (unsure >= 4)


def test_what_cannot_be_a_hand_is_refused_with_the_reason() -> None:
    with pytest.raises(PhotoHandError, match="found 9 tiles") as e:
        score_photo(laid([(100, ["123m456m789m"])]), {}, PROFILE)
    assert "17" in e.value.zh
    with pytest.raises(PhotoHandError, match="found 9 tiles besides the flowers, in 2 rows of 6 and 3") as e:
        score_photo(laid([(100, ["123m456m"]), (200, ["789m3f"])]), {}, PROFILE)
    assert "分成 2 列，各 6、3 張" in e.value.zh and e.value.reading is not None
    assert e.value.reading[0] == "row 1: 1m 2m 3m 4m 5m 6m; row 2: 7m 8m 9m 3f"  # (no parentheses in parentheses)
    with pytest.raises(PhotoHandError, match="^no tile found in the photo, only 2 flowers:") as e:
        score_photo(laid([(100, ["1f2f"])]), {}, PROFILE)
    assert "照片裡沒找到牌（只有 2 張花牌）" in e.value.zh
    # a tile the reader was unsure of: another reading might win, so the photo is at fault
    unsure = {3: [("7m", 0.4), ("1m", 0.3), ("9m", 0.2)]}
    with pytest.raises(PhotoHandError, match="no reading of the photo is a winning hand") as e:
        score_photo(laid([(100, ["13579m13579p1357s1z2z", "3z"])], unsure), {}, PROFILE)
    assert "不是胡牌" in e.value.zh and e.value.way_out is WayOut.CLOSER  # (each surface says how, in its own terms)
    assert "(read, row by row, ? = unsure: row 1: 1m 3m 5m 7m? 9m 1p 3p 5p 7p 9p 1s 3s 5s 7s 1z 2z | 3z)" in str(e.value)
    assert "（逐列讀到，？= 不確定：第 1 列：一萬 三萬" in e.value.zh
    # every tile read surely: the hand is no win (a review's was told to photograph it closer)
    with pytest.raises(PhotoHandError, match="^every tile was read surely, and no arrangement of them is a winning "
                                             "hand: check the tiles") as e:
        score_photo(laid([(100, ["13579m13579p1357s1z2z", "3z"])]), {}, PROFILE)
    assert e.value.way_out is WayOut.CORRECT_TILE and "每張牌都讀得很確定，但怎麼排都不是胡牌：" in e.value.zh
    # never a word of a false win from a photo: at a table 詐胡 is a penalty, and a photo cannot tell
    assert "詐胡" not in e.value.zh and "false win" not in str(e.value)


def test_a_robbed_kong_with_no_marked_tile_skips_the_tiles_the_winner_cannot_have_robbed() -> None:
    # 5z is held twice, so it cannot be the robbed tile; the others are scored
    dets = laid([(100, ["123m456m789m123p46s55z5s"])])
    got = score_photo(dets, {"win_type": "rob_kong", "discarder": "S"}, PROFILE)
    assert Tile.Z5 not in [t for t, _ in got.win_tiles] and got.win.win_type.value == "rob_kong"


def test_a_hand_of_melds_and_a_pair_laid_as_two_lone_tiles() -> None:
    """全求人: five melds in front, the tile held and the winning tile each lying alone."""
    dets = laid([(100, ["5z"]), (100 + 2 * H, ["5z"]), (200 + 3 * H, ["123m", "456p", "789s", "111z", "222z"])])
    got = score_photo(dets, {"win_type": "discard", "discarder": "S"}, PROFILE)
    assert got.win.concealed == (Tile.Z5,) and got.win.win_tile == Tile.Z5 and len(got.win.melds) == 5


def test_an_instant_win_shows_sixteen_tiles_and_no_winning_tile() -> None:
    """八仙過海 (spec §3.1, §4.2): the hand of 16 between turns and the eight flowers, scored as the rules do."""
    dets = laid([(100, ["123m456m789m123p45s55z"]), (200, ["1f2f3f4f5f6f7f8f"])])
    got = score_photo(dets, {"win_type": "eight_flowers"}, PROFILE)
    truth = Win(parse_tiles("123m456m789m123p45s55z"), None, "eight_flowers",  # type: ignore[arg-type]
                flowers=parse_tiles("1f2f3f4f5f6f7f8f"))
    assert got.win == truth and got.score == score(truth, PROFILE) and got.win_index == -1


def test_instant_wins_pass_the_context_check_and_their_kind_is_read_as_tai_reads_it() -> None:
    for context in ({"win_type": "four_kongs"}, {"win_type": "seven_flowers_rob", "discarder": "S", "seat_wind": "W"},
                    {"win_type": "EIGHT_FLOWERS"}):
        check_context(context)  # no winning tile is asked of them
    dets = laid([(100, ["123m456m789m123p45s55z"]), (200, ["1f2f3f4f5f6f7f8f"])])
    assert score_photo(dets, {"win_type": "EIGHT_FLOWERS"}, PROFILE).score.hand_tai > 0


def test_a_named_winning_tile_other_than_the_one_set_apart_is_said() -> None:
    dets = laid([(100, ["123m456m789m123p45s55z", "6s"])])
    got = score_photo(dets, {}, PROFILE, win_tile=Tile.S4)
    assert got.win.win_tile == Tile.S4 and got.named and not got.marked
    assert any(n.en == "the tile set apart is 6 Bamboo, but 4 Bamboo was named: scored as named" for n in got.doubts)


def test_impossible_piles_are_refused_early_with_the_reason() -> None:
    hand = ["123m456m789m123p45s55z", "6s"]
    with pytest.raises(PhotoHandError, match="9 flowers found: a set has 8") as e:
        score_photo(laid([(100, hand), (200, ["1f2f3f4f5f6f7f8f1f"])]), {}, PROFILE)
    assert "8 張" in e.value.zh
    with pytest.raises(PhotoHandError, match="4 tiles lie face down: turn one tile of a concealed kong") as e:
        score_photo(laid([(100, ["456m789m45s55z", "6s"]), (200, ["123m", "0x0x0x0x"])]), {}, PROFILE)
    assert "暗槓請翻開一張" in e.value.zh
    # nothing face up at all (a review's photo of a cup read as eight backs): no hand, not a kong to turn over
    with pytest.raises(PhotoHandError, match="no face-up tile found, only 8 that look face down") as e:
        score_photo(laid([(100, ["0x0x0x0x"]), (200, ["0x0x0x0x"])]), {}, PROFILE)
    assert "沒找到翻開的牌" in e.value.zh and "暗槓" not in e.value.zh
    # one back alone (a review's photo of a 白板 read 0x) was "no tile found" beside the face-down tile it showed
    with pytest.raises(PhotoHandError, match="^no face-up tile found, only 1 that looks face down") as e:
        score_photo(laid([(100, ["0x"])]), {}, PROFILE)
    assert "沒找到翻開的牌，只有 1 張看起來是蓋著的" in e.value.zh
    with pytest.raises(PhotoHandError, match="^no tile found in the photo, only 2 flowers and 1 face down") as e:
        score_photo(laid([(100, ["1f2f"]), (300, ["0x"])]), {}, PROFILE)
    assert "照片裡沒找到牌（只有 2 張花牌、1 張蓋著的牌）" in e.value.zh
    # a few backs beside far too few faces (a review's screenshot: list rows boxed as backs) are no kong to turn over
    with pytest.raises(PhotoHandError, match=r"found 3 tiles besides the flowers \(and 6 face down\)") as e:
        score_photo(laid([(100, ["123m"]), (200, ["0x0x0x0x0x0x"])]), {}, PROFILE)
    assert "暗槓" not in e.value.zh and "另有 6 張蓋著" in e.value.zh
    # hundreds of "tiles" (a page of text): said without reading them all out
    with pytest.raises(PhotoHandError, match="found 45 tiles .*: is this a photo of one laid-down hand[?]$") as e:
        score_photo(laid([(100, ["123456789m123456789p123456789s"]), (300, ["123456789m123456789p"])]), {}, PROFILE)
    assert len(str(e.value)) < 400 and "這是一手攤開的牌的照片嗎" in e.value.zh


def test_stray_backs_are_left_out_and_said() -> None:
    dets = laid([(100, ["123m456m789m123p45s55z", "6s"]), (200, ["0x"])])
    got = score_photo(dets, {}, PROFILE)
    assert got.win.win_tile == Tile.S6
    assert any("face-down" in n.en for n in got.doubts)


def _random_win(rng: random.Random) -> Win:
    counts: Counter[Tile] = Counter()
    tiles = [t for t in Tile if t.is_known and not t.is_flower]

    def take(group: list[Tile]) -> bool:
        if any(counts[t] + group.count(t) > 4 for t in group):
            return False
        counts.update(group)
        return True

    sets: list[list[Tile]] = []
    while len(sets) < 5:
        t = rng.choice(tiles)
        if rng.random() < 0.5 and t.is_suited and t.rank <= 7:
            g = [t, Tile(t + 1), Tile(t + 2)]
        else:
            g = [t] * (4 if rng.random() < 0.1 else 3)
        if take(g):
            sets.append(g)
    while not take([pair := rng.choice(tiles)] * 2):
        pass
    n_melds = rng.randint(0, 3)
    melds = []
    for g in sets[:n_melds]:
        kind = (MeldKind.CHOW if g[0] != g[1] else MeldKind.PUNG if len(g) == 3
                else rng.choice([MeldKind.KONG, MeldKind.CKONG]))
        melds.append(Meld(kind, tuple(g)))
    concealed = [t for g in sets[n_melds:] for t in (g[:3] if len(g) == 4 else g)] + [pair, pair]
    kongs_in_hand = [g for g in sets[n_melds:] if len(g) == 4]
    for g in kongs_in_hand:  # a fourth copy held in the hand would be a kong declared: keep it out
        counts[g[0]] -= 1
    win_tile = rng.choice(concealed)
    concealed.remove(win_tile)
    flowers = tuple(rng.sample([t for t in Tile if t.is_flower], rng.randint(0, 3)))
    return Win(tuple(concealed), win_tile, "self_draw", melds=tuple(melds), flowers=flowers)  # type: ignore[arg-type]


def _laid_win(win: Win) -> Detections:
    melds = ["".join(("0x" if m.kind is MeldKind.CKONG and k in (0, 3) else t.code) for k, t in enumerate(m.tiles))
             for m in win.melds]
    front = melds + (["".join(t.code for t in win.flowers)] if win.flowers else [])
    rows = [(100.0, ["".join(t.code for t in win.concealed), win.win_tile.code])]  # type: ignore[union-attr]
    return laid(rows + ([(200.0, front)] if front else []))


@settings(max_examples=60)
@given(st.integers(0, 2**32 - 1))
def test_any_laid_down_win_read_right_scores_as_the_rules_score_it(seed: int) -> None:
    truth = _random_win(random.Random(seed))
    got = score_photo(_laid_win(truth), {}, PROFILE)
    assert not got.repairs
    assert got.win == truth
    assert got.score == score(truth, PROFILE)


def test_a_rendered_photo_of_a_laid_down_hand_is_read_and_scored() -> None:
    truth = Win.of("456m789m45s55z", "6s", "discard", melds=["chow:123m@L", "pung:111z@O"], flowers="1f5f",
                   discarder="S")
    frame, _ = hand_photo(truth, SceneStyle(CLEAN_STYLE), seed=1)
    got = score_photo(TileReader().read(frame, tiled=True), {"win_type": "discard", "discarder": "S"}, PROFILE)
    # a photo does not show who supplied a meld's tile: the sources are not read
    assert got.win == Win.of("456m789m45s55z", "6s", "discard", melds=["chow:123m", "pung:111z"],
                             flowers="1f5f", discarder="S")
    assert got.score.hand_tai == score(truth, PROFILE).hand_tai


def test_companion_score_reads_a_phone_photo_over_the_pixel_limit(tmp_path, capsys, monkeypatch) -> None:
    from companion.vision.image_file import MAX_PIXELS

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    truth = Win.of("456m789m45s55z", "6s", "discard", melds=["chow:123m@L", "pung:111z@O"], discarder="S")
    frame, _ = hand_photo(truth, SceneStyle(CLEAN_STYLE), size=(1280, 960), seed=1)
    photo = tmp_path / "win-50mp.jpg"  # a 48-50 MP phone's photo: decoded at half size, not refused
    cv2.imwrite(str(photo), cv2.resize(frame, (1280 * 6, 960 * 6), interpolation=cv2.INTER_CUBIC),
                [cv2.IMWRITE_JPEG_QUALITY, 90])
    assert MAX_PIXELS < 1280 * 6 * 960 * 6
    assert main(["score", str(photo), "--json", "--discarder", "S"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["hand"]["concealed"] == "456789m45s55z" and out["hand"]["win_tile"] == "6s"


def test_companion_score_prints_the_hand_and_its_tai(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    truth = Win.of("456m789m4s", "4s", "self_draw", melds=["ckong:7777p", "pung:555z@R", "chow:234s@L"])
    frame, _ = hand_photo(truth, SceneStyle(CLEAN_STYLE), seed=3)
    photo = tmp_path / "win.png"
    cv2.imwrite(str(photo), frame)
    assert main(["score", str(photo), "--json", "--annotate", str(tmp_path / "a.png")]) == 0
    said = capsys.readouterr()
    assert "尚未校正牌組" in said.err  # said once: a calibration of one's own set cuts the misreads
    out = json.loads(said.out)
    assert out["hand"] == {"concealed": "456789m4s", "melds": ["ckong:7777p", "pung:555z", "chow:234s"],
                           "flowers": "", "win_tile": "4s", "win_tile_set_apart": True, "win_tile_named": False}
    assert Win.from_dict(out["win"]) == Win.of("456m789m4s", "4s", "self_draw",
                                               melds=["ckong:7777p", "pung:555z", "chow:234s"])  # tai's input
    assert out["hand_tai"] == score(Win.of("456m789m4s", "4s", "self_draw",
                                           melds=["ckong:7777p", "pung:555z", "chow:234s"]), PROFILE).hand_tai
    assert out["total"] is None and [p["payer"] for p in out["payments"]] == ["S", "W", "N"]
    drawn = cv2.imread(str(tmp_path / "a.png"))  # the photo, with the legend's strip below it
    assert drawn.shape[1:] == frame.shape[1:] and frame.shape[0] < drawn.shape[0] < frame.shape[0] * 1.2
    assert main(["score", str(photo), "--json", "--kong", "5p=addkong", "--kong", "7p=ckong"]) == 0
    said = capsys.readouterr()  # a --kong of no kong in the hand is said; the other is taken
    assert "--kong 5p" in said.err and "--kong 7p" not in said.err
    assert json.loads(said.out)["hand"]["melds"][0] == "ckong:7777p"
    assert main(["score", str(photo), "--lang", "en", "--seat", "S", "--streak", "2",
                 "--stakes", "30/10"]) == 0
    text = capsys.readouterr().out
    assert "read from the photo — concealed 456789m4s ｜ melds ckong:7777p pung:555z chow:234s ｜ flowers - ｜ " \
        "win 4s (set apart)" in text and "dealer continuation 2" in text and "assumed the round is East" in text
    assert "East → South" in text and " = " in text


def test_companion_score_refuses_bad_options_and_reports_bad_photos(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    for bad, said in ((["--context", "[1]"], "JSON 物件"), (["--context", '{"concealed": "1m"}'], "concealed"),
                      (["--win-tile", "1f"], "1f"), (["--win-tile", "9x"], "x 只用在 0x"), (["--stakes", "30"], "底／台"), (["--threads", "0"], "--threads"),
                      (["--discarder", "E"], "假設的東"), (["--streak", "-2"], "--streak -2：連莊數 N 不能小於 0"), (["--streak", "100"], "連莊超過 99 把"),
                      (["--context", '{"flags": {"bogus": true}}'], "flags.bogus"),
                      (["--context", '{"last_tile": true}'], '這是旗標，要寫在 "flags" 裡'),
                      (["--seat", "S", "--context", '{"flags": {"heavenly": true}}'], "這套規則莊家坐東"),
                      (["--dealer", "N"], "莊家一定是東"), (["--context", '{"dealer": "S"}'], "莊家一定是東")):
        assert main(["score", "x.jpg", *bad]) == 2
        assert said in capsys.readouterr().err
    empty = tmp_path / "blank.png"
    cv2.imwrite(str(empty), np.full((300, 400, 3), 90, np.uint8))
    drawn = tmp_path / "read.png"
    assert main(["score", str(tmp_path / "missing.jpg"), str(empty), "--json", "--lang", "en",
                 "--annotate", str(drawn)]) == 1
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [o["file"] for o in lines] == [str(tmp_path / "missing.jpg"), str(empty)]
    missing = str(tmp_path / "missing.jpg")  # the reason alone after "cannot read", the file named in both languages
    assert lines[0]["error"] == {"message": f"{missing}: cannot read this photo: no such file",
                                 "message_zh": f"{missing}：無法讀取這張照片：找不到這個檔案"}
    assert "no tile found in the photo" in lines[1]["error"]["message"] and "reading" not in lines[1]["error"]
    assert "照片裡沒找到牌" in lines[1]["error"]["message_zh"]
    # a photo refused is still drawn as read (a review got no picture when it needed one most); one per photo read
    assert not (tmp_path / "read-1.png").exists() and cv2.imread(str(tmp_path / "read-2.png")).shape[1] == 400


def test_companion_score_never_draws_over_a_photo_and_fails_when_it_cannot_draw(tmp_path, capsys,
                                                                                monkeypatch) -> None:
    """A review's ``--annotate`` named its own photo, which was replaced by the drawing; a drawing that could not be
    written was said, and the run ended 0."""
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    truth = Win.of("456m789m4s", "4s", "self_draw", melds=["ckong:7777p", "pung:555z@R", "chow:234s@L"])
    frame, _ = hand_photo(truth, SceneStyle(CLEAN_STYLE), seed=3)
    photo = tmp_path / "win.png"
    cv2.imwrite(str(photo), frame)
    before = photo.read_bytes()
    (tmp_path / "d.png").mkdir()
    for out, said in ((photo, "would write over the photo"), (tmp_path / "no" / "a.png", "does not exist"),
                      (tmp_path / "d.png", "is a folder"), (tmp_path / "a.txt", "cannot write .txt images")):
        assert main(["score", str(photo), "--lang", "en", "--annotate", str(out)]) == 2
        assert said in capsys.readouterr().err
    assert photo.read_bytes() == before
    monkeypatch.setattr(cv2, "imwrite", lambda *a, **k: False)
    assert main(["score", str(photo), "--json", "--annotate", str(tmp_path / "a.png")]) == 1
    said = capsys.readouterr()
    assert json.loads(said.out)["hand"]["win_tile"] == "4s" and "無法寫入" in said.err  # scored, and said


def test_the_demo_scores_its_bundled_photo_as_the_hand_it_was_rendered_from(capsys) -> None:
    """``companion demo`` ends by scoring ``companion/assets/demo/win_hand.jpg`` (``training/render_demo_hand.py``);
    ``win_hand.json`` beside it is the hand it was rendered from."""
    from importlib import resources

    truth = Win.from_dict(json.loads((resources.files("companion") / "assets" / "demo" / "win_hand.json")
                                     .read_text(encoding="utf-8")))
    assert main(["demo", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    photo = out[out.index("== Scoring a photographed winning hand"):]
    expected = score(truth, PROFILE)
    unsourced = Win(truth.concealed, truth.win_tile, truth.win_type, truth.seat_wind, truth.round_wind,
                    tuple(Meld(m.kind, m.tiles) for m in truth.melds), truth.flowers, truth.dealer, truth.streak,
                    truth.discarder)  # a photo does not show who supplied a meld's tile
    concealed = format_tiles(sorted(unsourced.concealed)) + " " + format_tiles(unsourced.flowers)
    # (as `tai --explain` says a hand in words: a chow only ever called from the left, a teacher's review)
    how = {MeldKind.CHOW: "called from the left", MeldKind.PUNG: "called"}
    melds = ", ".join(f"{'kong' if m.kind.is_kong else m.kind.value} {format_tiles(m.tiles)} "
                      f"({how.get(m.kind, m.kind.en)})" for m in unsourced.melds)
    assert f"Hand: {concealed}; melds: {melds}" in photo
    assert f"Hand total {expected.hand_tai} tai" in photo
    assert f"win {truth.win_tile.code} (set apart)" in photo  # type: ignore[union-attr]
    assert "!" not in photo  # nothing repaired, nothing assumed


def test_companion_score_takes_a_wind_in_lower_case(capsys) -> None:
    """A review typed --seat s and was refused: E, S, W, N are taken in either case."""
    from companion.commands.score import context_of, register

    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(["score", "x.jpg", "--seat", "s", "--discarder", "w", "--round", "n", "--dealer", "e"])
    assert context_of(args) == {"seat_wind": "S", "round_wind": "N", "dealer": "E", "discarder": "W",
                                 "win_type": "discard"}


def test_a_back_lying_across_its_row_is_no_concealed_kongs() -> None:
    """A review's upside-down photo: the felt between two melds (green, as the set's backs) was boxed as a back lying
    across the row, beside a pung of 9s, and the pung was scored as a concealed kong. A concealed kong's four stand
    in the row (none is claimed), so such a back is no kong's: the pung stays a pung."""
    hand = ["123m456m789m5z", "5z"]
    dets = laid([(100, hand), (300, ["999s0x", "234s"])], sideways={14})
    assert dets.kind[14] == int(Tile.UNKNOWN) and dets.obb[14, 4] == 90.0
    got = score_photo(dets, {}, PROFILE)
    assert sorted(str(m) for m in got.win.melds) == ["chow:234s", "pung:999s"]
    # the same back standing in the row still makes that group a concealed kong
    standing = score_photo(laid([(100, hand), (300, ["999s0x", "234s"])]), {}, PROFILE)
    assert sorted(str(m) for m in standing.win.melds) == ["chow:234s", "ckong:9999s"]


def test_four_backs_lying_together_are_a_concealed_kong_face_down_never_white_dragons() -> None:
    """A photo review: a concealed kong laid with all four tiles face down was read as a fully exposed kong of white
    dragons (三元牌 +1 tai, "blank in this set" said of a set whose 白板 is framed). Its kind cannot be seen, so it is
    refused, asking for one of its tiles turned up."""
    rows = [(100, ["123456789m5p", "5p"]), (200, ["0x0x0x0x", "999s"])]
    dets = laid(rows)
    assert lay_out(dets).hidden == ((11, 12, 13, 14),)
    with pytest.raises(PhotoHandError, match="^4 tiles lie face down: turn one tile of a concealed kong face up") as e:
        score_photo(dets, {}, PROFILE)
    assert "暗槓請翻開一張" in e.value.zh and "白板" not in e.value.zh.split("；若這是牌面空白的白板")[0]  # (only as the way out
    # for a set whose 白板 is blank: test_four_backs_refused_say_how_to_score_blank_white_dragons)
    # the kong touching the melds' other group, or in a row of its own: the same
    for other in ([(100, ["123456789m5p", "5p"]), (200, ["999s"]), (300, ["0x0x0x0x"])],):
        with pytest.raises(PhotoHandError, match="turn one tile of a concealed kong face up"):
            score_photo(laid(other), {}, PROFILE)
    # one of them turned up: the concealed kong it is, with no note of white dragons
    got = score_photo(laid([(100, ["123456789m5p", "5p"]), (200, ["0x2z0x0x", "999s"])]), {}, PROFILE)
    assert [str(m) for m in got.win.melds] == ["ckong:2222z", "pung:999s"]
    assert not any("white dragon" in n.en for n in got.doubts)


def test_backs_taken_as_white_dragons_claim_nothing_of_the_set() -> None:
    """The note said "blank in this set" with nothing in the photo to show it (a review's set has a framed 白板)."""
    dets = laid([(100, ["66p23455s", "6p"]), (200, ["0x0x0x", "789s", "111z"]), (300, ["3f4f"])])
    (note,) = [n for n in score_photo(dets, {}, PROFILE).doubts if "white dragons" in n.en]
    assert "in this set" not in note.en and "這副牌" not in note.zh
    assert "only then is the hand a win" in note.en and "這樣才是胡牌" in note.zh


SEVEN = [(100, ["123m789m234p5p", "5p"]), (200, ["777s", "345s"]), (300, ["1f2f3f4f5f6f7f"])]


def test_an_instant_win_never_makes_a_surely_read_or_concealed_tile_the_missing_flower() -> None:
    """A photo review: seven flowers and 17 tiles, with 八仙過海 asked, were paid 8 tai: the 1m in the middle of the
    concealed row, read at 85%, was taken as the eighth flower (any one tile as the missing flower fits alone)."""
    for readings in ({}, {0: [("1m", 0.85), ("8f", 0.05), ("2m", 0.01)]}):  # the classifier's own 8f too
        with pytest.raises(PhotoHandError) as e:
            score_photo(laid(SEVEN, readings), {"win_type": "eight_flowers"}, PROFILE)
        assert str(e.value).startswith("Eight flowers needs 8 flowers, and the photo shows 7 (read: ")
        assert e.value.zh.startswith("八仙過海要有 8 張花，照片裡只有 7 張（讀到：")
        assert "8f" not in str(e.value) and "竹" not in e.value.zh
    # even an unsure tile of the concealed row: flowers lie apart from it
    unsure = {5: [("9m", 0.3), ("8m", 0.2), ("7m", 0.1)]}
    with pytest.raises(PhotoHandError, match="^Eight flowers"):
        score_photo(laid(SEVEN, unsure), {"win_type": "eight_flowers"}, PROFILE)
    # 七搶一 with seven flowers but 17 tiles: refused by the count (16), not a false win
    with pytest.raises(PhotoHandError) as e:
        score_photo(laid(SEVEN), {"win_type": "seven_flowers_rob", "discarder": "S"}, PROFILE)
    assert str(e.value).startswith("found 17 tiles besides the flowers, in 2 rows of 11 and 6: a winning hand shows "
                                   "16") and "false win" not in str(e.value)
    assert "詐胡" not in e.value.zh and "胡牌的手牌應有 16 張" in e.value.zh
    # a photo with two flowers names those two, and no flower it does not show (the 5p set apart was the 8f)
    two = [(100, ["123m789m234p5p", "5p"]), (200, ["777s", "345s"]), (300, ["1f5f"])]
    with pytest.raises(PhotoHandError) as e:
        score_photo(laid(two), {"win_type": "eight_flowers"}, PROFILE)
    assert "shows 2" in str(e.value) and "flowers: 1f 5f)" in str(e.value) and "8f" not in str(e.value)
    assert "花：春 梅）" in e.value.zh
    # the eight flowers beside 18 tiles: the count is what is wrong, said so (16, or 17 with the replacement)
    eight = [(100, ["123m789m234p59p", "5p"]), (200, ["777s", "345s"]), (300, ["1f2f3f4f5f6f7f8f"])]
    with pytest.raises(PhotoHandError, match="^found 18 tiles besides the flowers.*shows 16 or 17 [(]16 between "
                                             "turns, 17 with the eighth flower's replacement") as e:
        score_photo(laid(eight), {"win_type": "eight_flowers"}, PROFILE)
    assert "false win" not in str(e.value) and "詐胡" not in e.value.zh
    assert "胡牌的手牌應有 16 或 17 張（輪與輪之間的 16 張，或加上第八張花的補牌共 17 張" in e.value.zh


EIGHT = (300, ["1f2f3f4f5f6f7f8f"])


def test_eight_flowers_with_the_replacement_drawn_are_17_tiles_scored_as_companion_tai_scores_them() -> None:
    """八仙過海's holder may have drawn the eighth flower's replacement (spec §4.2, §6.3): 17 tiles. A photo review's
    eight flowers and a complete hand of 17 scored 16 tai as a self-draw, and were refused ("a winning hand shows
    16") with 八仙過海 said. Complete, the hand is scored with 8 added; not, 8 flat; as ``companion tai`` does."""
    context = {"win_type": "eight_flowers"}
    flowers = parse_tiles("1f2f3f4f5f6f7f8f")
    melds = (Meld(MeldKind.PUNG, parse_tiles("777s")), Meld(MeldKind.CHOW, parse_tiles("345s")))
    # the replacement set apart: scored as the hand it completes, 8 added (as without the context)
    apart = laid([(100, ["123m789m234p5p", "5p"]), (200, ["777s", "345s"]), EIGHT])
    got = score_photo(apart, context, PROFILE)
    truth = Win(parse_tiles("123m789m234p5p"), Tile.P5, "eight_flowers", melds=melds,  # type: ignore[arg-type]
                flowers=flowers)
    assert got.win == truth and got.score == score(truth, PROFILE) and got.marked
    assert got.win_index == 10 and "eight_flowers" in [i.id for i in got.score.items]
    assert got.score.hand_tai == score_photo(apart, {}, PROFILE).score.hand_tai == 16
    # none set apart: the tile companion tai takes (the one of the 17 that scores most), said
    whole = laid([(100, ["123m789m234p55p"]), (200, ["777s", "345s"]), EIGHT])
    got = score_photo(whole, context, PROFILE)
    typed = Win(parse_tiles("123m789m234p55p"), None, "eight_flowers", melds=melds,  # type: ignore[arg-type]
                flowers=flowers)
    tai = score(replacement_named(typed, PROFILE), PROFILE)
    assert got.win == tai.win and got.score == tai and not got.marked and got.win.win_tile == Tile.M2
    (note,) = [n for n in got.doubts if "replacement" in n.en]
    assert note.en == (f"the eighth flower's replacement is not set apart: taken as 2 Characters, the tile of the 17 "
                       f"that scores most ({tai.hand_tai} tai); --win-tile names it")
    assert note.zh == f"第八張花的補牌沒有分開擺：當作二萬，17 張裡台數最多的一張（{tai.hand_tai} 台）；可用 --win-tile 指定"
    named = score_photo(whole, context, PROFILE, win_tile=Tile.P5)
    assert named.win.win_tile == Tile.P5 and named.named and named.score.hand_tai == 16
    # 17 tiles that complete nothing: a standalone 八仙過海, 8 flat, no winning tile
    got = score_photo(laid([(100, ["123m789m234p56p"]), (200, ["777s", "345s"]), EIGHT]), context, PROFILE)
    assert got.win.win_tile is None and got.win_index == -1 and len(got.win.concealed) == 11
    assert [(i.id, i.tai) for i in got.score.items] == [("eight_flowers", 8)] and got.score.hand_tai == 8
    # compounding switched off: 8 flat, as companion tai pays it
    flat = played_with(PROFILE, {"eight_flowers_compound": False})
    got = score_photo(whole, context, flat)
    assert got.score.hand_tai == 8 and got.win.win_tile is None
    # 16 still: the hand between turns
    assert score_photo(laid([(100, ["123m789m234p5p"]), (200, ["777s", "345s"]), EIGHT]), context,
                       PROFILE).score.hand_tai == 8


def test_the_count_refusal_of_an_instant_win_says_the_counts_of_its_kind() -> None:
    """七搶一 is won between turns on another player's flower: 16; 四槓 ends the hand at the fourth kong: 16 (spec
    §4.4); 八仙過海 16 or 17 (above). Each said in both languages."""
    seven = [(100, ["123m789m234p5p", "5p"]), (200, ["777s", "345s"]), (300, ["1f2f3f4f5f6f7f"])]
    with pytest.raises(PhotoHandError) as e:
        score_photo(laid(seven), {"win_type": "seven_flowers_rob", "discarder": "S", "seat_wind": "W"}, PROFILE)
    assert str(e.value).startswith("found 17 tiles besides the flowers, in 2 rows of 11 and 6: a winning hand shows "
                                   "16 (16 between turns, the eighth flower robbed from another player; one more per "
                                   "kong)")
    assert "胡牌的手牌應有 16 張（輪與輪之間的 16 張，第八張花是搶別家的；每槓多一張）" in e.value.zh
    kongs = [(100, ["12345p"]), (200, ["1111m", "2222s", "3333z", "4444z"])]
    with pytest.raises(PhotoHandError) as e:
        score_photo(laid(kongs), {"win_type": "four_kongs"}, PROFILE)
    assert str(e.value).startswith("found 21 tiles besides the flowers, in 2 rows of 5 and 16: a winning hand shows "
                                   "16 (16 between turns: the fourth kong ends the hand, before its replacement; one "
                                   "more per kong)")
    assert "胡牌的手牌應有 16 張（輪與輪之間的 16 張：第四個槓就胡，不補牌；每槓多一張）" in e.value.zh
    got = score_photo(laid([(100, ["1234p"]), (200, ["1111m", "2222s", "3333z", "4444z"])]), {"win_type": "four_kongs"},
                      load_profile("wikibooks_base"))  # (四槓 is off by default)
    assert got.win.win_type.value == "four_kongs" and got.score.hand_tai == 8


def test_an_unsure_tile_among_the_flowers_may_still_be_the_eighth() -> None:
    """What the instant win's limits leave: a flower laid with the others, read unsure as another tile."""
    rows = [(100, ["123m789m234p5p"]), (200, ["777s", "345s"]), (300, ["1f2f3f4f5f6f7f8f"])]
    got = score_photo(laid(rows, {22: [("9s", 0.3), ("3z", 0.2), ("4z", 0.1)]}), {"win_type": "eight_flowers"}, PROFILE)
    assert len(got.win.flowers) == 8 and [(r.read, r.taken) for r in got.repairs] == [(Tile.S9, Tile.F7)]


def test_a_not_a_win_from_the_rules_names_the_hand_in_chinese_as_in_english(tmp_path, capsys, monkeypatch) -> None:
    """The command said the hand in English ("not a win: 123789m… eight_flowers: …") and only the reason in Chinese."""
    import companion.commands.score as score_command

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    sixteen = laid([(100, ["123m789m234p5p"]), (200, ["777s", "345s"]), (300, ["1f2f3f4f5f6f7f"])])

    class Reader:
        classifier = argparse.Namespace(calibration=None)

        def read(self, image: np.ndarray, tiled: bool = False) -> Detections:
            return sixteen

    monkeypatch.setattr(score_command, "_reader", lambda args: Reader())
    photo = tmp_path / "seven.png"
    cv2.imwrite(str(photo), np.full((60, 80, 3), 90, np.uint8))
    assert main(["score", str(photo), "--context", '{"win_type": "eight_flowers"}']) == 1
    err = capsys.readouterr().err
    # the notation said to be notation, and how it was won in words (a wording review read "eight_flowers" here)
    assert "不是胡牌（手牌記法：123789m2345p pung:777s chow:345s 1234567f，八仙過海）：八仙過海需要八張花" in err
    assert main(["score", str(photo), "--lang", "en", "--context", '{"win_type": "eight_flowers"}']) == 1
    assert "not a win: 123789m2345p pung:777s chow:345s 1234567f eight_flowers: " in capsys.readouterr().err


def test_a_tile_lying_alone_away_from_a_winning_hand_is_left_out_and_said() -> None:
    """A photo review: a discard lying 8 cm from a hand read exactly right made it "a false win? (詐胡？)"."""
    hand = [(100, ["123m789m234p5p", "5p"]), (200, ["777s", "345s", "1f5f"])]
    alone = score_photo(laid(hand), {}, PROFILE)
    for strays in (["9p"], ["9p", "3z"]):
        dets = laid([*hand, *((400 + 150 * k, [t]) for k, t in enumerate(strays))])
        got = score_photo(dets, {}, PROFILE)
        assert got.win == alone.win and got.score == alone.score and got.marked
        (note,) = [n for n in got.doubts if "lying alone" in n.en]
        names = [Tile.from_code(t) for t in strays]
        said = "a tile lying alone away from the hand was left out" if len(strays) == 1 else \
            f"{len(strays)} tiles lying alone away from the hand were left out"  # (no "1 tile(s)": a review)
        assert note.en.startswith(f"{said} (read {', '.join(t.en for t in names)})")
        assert ("without it; check that it is no part" if len(strays) == 1 else
                "without them; check that they are no part") in note.en
        assert f"（讀成{'、'.join(t.zh for t in names)}）" in note.zh
        first = len(laid(hand).kind)
        assert not set(range(first, first + len(strays))) & set(got.kinds)
    # a hand that is no win with the tile left out either: refused by the count, the lone tile asked about
    bad = laid([(100, ["123m789m234p5p", "6p"]), (200, ["777s", "345s", "1f5f"]), (400, ["9p"])])
    with pytest.raises(PhotoHandError) as e:
        score_photo(bad, {}, PROFILE)
    assert str(e.value).startswith("found 18 tiles besides the flowers, in 3 rows of 11, 6 and 1: a winning hand "
                                   "shows 17") and "is a tile lying apart no part of the hand?" in str(e.value)
    assert "false win" not in str(e.value) and "詐胡" not in e.value.zh and "單獨擺著的牌" in e.value.zh


def test_eighteen_tiles_with_none_lying_apart_are_refused_by_the_count() -> None:
    dets = laid([(100, ["123m789m234p59p", "5p"]), (200, ["777s", "345s"])])
    with pytest.raises(PhotoHandError) as e:
        score_photo(dets, {}, PROFILE)
    assert str(e.value).startswith("found 18 tiles besides the flowers, in 2 rows of 12 and 6: a winning hand shows 17")
    assert "false win" not in str(e.value) and "詐胡" not in e.value.zh and "湊不出這個張數" in e.value.zh


def test_unsure_boxes_lying_alone_on_a_patterned_table_are_left_out() -> None:
    """A photo review: two unsure 5z boxes on a checkerboard's squares, each a row of its own far from a hand read
    exactly right, made the hand refused."""
    unsure = {0: [("5z", 0.3), ("6z", 0.2), ("7z", 0.1)], 1: [("5z", 0.3), ("6z", 0.2), ("7z", 0.1)]}
    rows = [(20, ["5z"]), (500, ["5z"]), (150, ["79m456p11s", "8m"]), (250, ["345s", "789m", "123p", "1f7f"])]
    got = score_photo(laid(rows, unsure), {}, PROFILE)
    truth = score_photo(laid(rows[2:]), {}, PROFILE)
    assert got.win == truth.win and got.score == truth.score and 0 not in got.kinds and 1 not in got.kinds
    assert any(n.en.startswith("2 tiles lying alone away from the hand were left out (read White dragon, White dragon)")
               for n in got.doubts)
    assert not any("read unsure" in n.en for n in got.doubts)  # (left out, not doubted)


def test_english_notes_name_a_face_down_tile_and_never_the_notation() -> None:
    """A review read "0x read unsure (49% sure; or 5z)" in English where the Chinese said 暗牌 and 白板."""
    dets = laid([(100, ["456m789m4s", "4s"]), (200, ["0x77p0x", "555z", "234s"])],
                {11: [("0x", 0.49), ("5z", 0.3), ("6z", 0.1)]})
    dets.face_up[11] = True  # a box the back check was unsure of
    got = score_photo(dets, {}, PROFILE)
    (note,) = [n for n in got.doubts if "unsure" in n.en]
    assert note.en == "a face-down tile read unsure (49% sure; or White dragon or Green dragon): check it in the photo"
    for n in got.doubts:  # no tile in the notation but an option's (--kong 5z=…)
        words = n.en.replace("--kong", "").split()
        assert not any(len(w) == 2 and w[0].isdigit() and w[1] in "mpszfx" for w in words), n.en


def test_an_unsure_flower_says_the_tai_it_would_change() -> None:
    """A photo review: East's own 1f read 7f at 34% got a bare "check it", where a surer flower's note says the
    tai its other reading would give."""
    rows = [(100, ["123m789m234p5p", "5p"]), (200, ["777s", "345s"]), (300, ["7f8f"])]
    got = score_photo(laid(rows, {17: [("7f", 0.34), ("1m", 0.3), ("1f", 0.2)]}), {}, PROFILE)
    truth = Win.of("123m789m234p5p", "5p", "self_draw", melds=["pung:777s", "chow:345s"], flowers="1f8f")
    then, now = score(truth, PROFILE).hand_tai, got.score.hand_tai
    assert then != now
    (note,) = [n for n in got.doubts if "unsure" in n.en]
    assert note.en == (f"Chrysanthemum read unsure (34% sure; or 1 Character or Spring); were it Spring, the hand "
                       f"would be {then} tai, not {now}: check it in the photo")
    assert f"若其實是春，這手是 {then} 台，不是 {now} 台" in note.zh
    # one whose other flower scores the same says so
    same = score_photo(laid(rows, {17: [("7f", 0.34), ("6f", 0.3), ("1m", 0.2)]}), {}, PROFILE)
    (note,) = [n for n in same.doubts if "unsure" in n.en]
    assert f"were it Orchid, the hand would still be {now} tai" in note.en and f"這手還是 {now} 台" in note.zh


def test_lone_tiles_whose_leaving_out_wins_either_way_but_differently_are_asked_about() -> None:
    """A product review: a hand of several waits, its winning tile 1z pushed into a row of its own and a discard 5z
    lying alone too, was scored by whichever lay farther (won on 1z 5 tai, or on 5z 4 tai), the other win unsaid."""
    hand = (100, ["123m456m789m123p11z55z"])
    for near, far in (("1z", "5z"), ("5z", "1z")):
        with pytest.raises(PhotoHandError) as e:
            score_photo(laid([hand, (300, [near]), (700, [far])]), {}, PROFILE)
        en, zh = str(e.value), e.value.zh
        assert en.startswith("the hand is a win whichever tile lying alone is left out, and not the same win:")
        for left, won in (("East wind", "White dragon"), ("White dragon", "East wind")):
            assert f"without {left}: won on {won}, " in en
        assert "不算東：胡白板，" in zh and "不算白板：胡東，" in zh
        assert "which is no part of the hand? take it away and photograph the hand again" in en
        assert "哪一張不是這手牌的？請把它拿開再拍一次" in zh
    # two copies of the winning tile lying alone: either left out, the same win, scored and said
    one = score_photo(laid([hand, (300, ["1z"])]), {}, PROFILE)
    got = score_photo(laid([hand, (300, ["1z"]), (700, ["1z"])]), {}, PROFILE)
    assert got.win == one.win and got.score == one.score
    (note,) = [n for n in got.doubts if "lying alone" in n.en]
    assert note.en.endswith(f"; left out instead, East wind gives the same win ({one.score.hand_tai} tai)")
    assert note.zh.endswith(f"；改成不算東也是一樣的胡牌（{one.score.hand_tai} 台）")


@pytest.mark.parametrize("melds", ["0x0x0x0x999s", "999s0x0x0x0x"])
def test_four_backs_touching_another_meld_are_a_concealed_kong_face_down(melds: str) -> None:
    """A product review: the face-down kong pushed against the pung was still filled in as an exposed kong of 白
    (+1 tai for a kind the photo does not show); only a group of exactly four backs was refused."""
    dets = laid([(100, ["123456789m5p", "5p"]), (200, [melds])])
    backs = tuple(i for i in range(len(dets)) if dets.kind[i] == int(Tile.UNKNOWN))
    assert lay_out(dets).hidden == (backs,)
    with pytest.raises(PhotoHandError, match="^4 tiles lie face down: turn one tile of a concealed kong face up") as e:
        score_photo(dets, {}, PROFILE)
    assert "暗槓請翻開一張" in e.value.zh
    # a kong between two melds: the melds either side stay apart
    dets = laid([(100, ["123456789m5p", "5p"]), (200, ["999s0x0x0x0x123s"])])
    assert [len(g) for g in lay_out(dets).rows[1]] == [3, 3]


def test_four_backs_refused_say_how_to_score_blank_white_dragons() -> None:
    """A product review: a set whose 白板 are blank, its kong of 白 lying face up, was told to turn a tile face up,
    which cannot be done, with no way out. The refusal says how; --kong 5z=kong scores them as white dragons."""
    dets = laid([(100, ["123456789m5p", "5p"]), (200, ["0x0x0x0x", "999s"])])
    with pytest.raises(PhotoHandError) as e:
        score_photo(dets, {}, PROFILE)
    assert str(e.value).split(" (read:")[0].endswith("turn one tile of a concealed kong face up so its kind shows")
    assert e.value.zh.split("（讀到")[0].endswith("暗槓請翻開一張，讓它的牌面看得到")
    assert e.value.way_out is WayOut.BLANK_KONG  # said by each surface (the command: --kong 5z=kong), before the reading
    assert e.value.said(("; X", "；X"))[0].split(" (read:")[0].endswith("its kind shows; X")
    # (not from a kongs map naming every kind, as the app's 槓上開花 gives: said of 白 alone)
    assert not any(m.tile == Tile.Z5 for m in _wins_or_none(dets, {t: MeldKind.ADDKONG for t in Tile if t.is_known}))
    got = score_photo(dets, {}, PROFILE, kongs={Tile.Z5: MeldKind.KONG}, blank_white=True)
    assert sorted(str(m) for m in got.win.melds) == ["kong:5555z", "pung:999s"]
    truth = Win.of("123456789m5p", "5p", "self_draw", melds=["kong:5555z", "pung:999s"])
    assert got.score == score(truth, PROFILE)
    (note,) = [n for n in got.doubts if "white dragon" in n.en]
    assert note.en.startswith("4 face-down tile(s) taken as white dragons, as --kong 5z said")
    assert note.zh.startswith("4 張蓋著的牌照 --kong 5z 當作白板")
    # said as a concealed kong of 白: scored so
    ck = score_photo(dets, {}, PROFILE, kongs={Tile.Z5: MeldKind.CKONG}, blank_white=True)
    assert sorted(str(m) for m in ck.win.melds) == ["ckong:5555z", "pung:999s"]


def _wins_or_none(dets: Detections, kongs: dict[Tile, MeldKind]) -> tuple[Meld, ...]:
    """The melds of the photo's hand as scored with ``kongs``; none where it is refused."""
    try:
        return score_photo(dets, {}, PROFILE, kongs=kongs).win.melds
    except PhotoHandError:
        return ()


def test_companion_score_kong_5z_scores_four_backs_as_blank_white_dragons(tmp_path, capsys, monkeypatch) -> None:
    """The refusal's way out for a set whose 白板 is blank (a product review) works as it says."""
    import companion.commands.score as score_command

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    dets = laid([(100, ["123456789m5p", "5p"]), (200, ["0x0x0x0x", "999s"])])
    reader = argparse.Namespace(read=lambda image, tiled: dets, classifier=argparse.Namespace(calibration=None))
    monkeypatch.setattr(score_command, "_reader", lambda args: reader)
    photo = tmp_path / "white.png"
    cv2.imwrite(str(photo), np.full((60, 80, 3), 90, np.uint8))
    assert main(["score", str(photo), "--json"]) == 1
    assert "--kong 5z=kong" in capsys.readouterr().err
    assert main(["score", str(photo), "--json", "--kong", "5z=kong"]) == 0
    said = capsys.readouterr()
    assert "--kong 5z" not in said.err  # taken, not "ignored"
    assert sorted(json.loads(said.out)["hand"]["melds"]) == ["kong:5555z", "pung:999s"]


@pytest.mark.parametrize(("exposure", "lamp"), [(0.15, False), (0.3, False), (0.15, True)])
def test_an_underexposed_photo_of_the_demo_hand_scores_as_the_demo_photo_does(tmp_path, capsys,
                                                                               exposure: float, lamp: bool) -> None:
    """A review's demo photo at 15% exposure (the tiles still legible) was refused with "found 2 tiles besides the
    flowers": the detector never learnt such a dark table. Its levels are stretched first, and it scores the same
    hand as the photo itself; also with a lamp in the picture (a change review's: 1.25% of it clipped white was
    taken for the photo's light, and the hand was read as 3 tiles)."""
    from importlib import resources

    demo = resources.files("companion") / "assets" / "demo" / "win_hand.jpg"
    dark = (cv2.imread(str(demo)).astype(np.float32) * exposure).astype(np.uint8)
    if lamp:
        cv2.circle(dark, (dark.shape[1] - 100, 100), 70, (255, 255, 255), -1)
    path = tmp_path / "dark.jpg"
    cv2.imwrite(str(path), dark)
    assert main(["score", str(demo), "--json", "--lang", "en", "--no-calibration"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert main(["score", str(path), "--json", "--lang", "en", "--no-calibration"]) == 0, capsys.readouterr().err
    got = json.loads(capsys.readouterr().out)
    assert got["hand"] == plain["hand"] and got["hand_tai"] == plain["hand_tai"]


def test_the_levels_of_a_photo_in_ordinary_light_are_left_as_they_are() -> None:
    from importlib import resources

    from companion.vision.read import levels_stretched

    demo = cv2.imread(str(resources.files("companion") / "assets" / "demo" / "win_hand.jpg"))
    assert levels_stretched(demo) is demo
    black = np.zeros((40, 40, 3), np.uint8)
    assert levels_stretched(black) is black  # nothing to stretch
    dim = (demo * 0.2).astype(np.uint8)
    assert np.percentile(levels_stretched(dim).max(axis=2), 99.5) > 200


def test_a_photo_too_dark_to_score_says_it_is_dark_in_both_languages(tmp_path, capsys) -> None:
    """A review's dark photo was refused with "found 2 tiles" alone. Where a refused photo is dark, the refusal says
    so, in English and Chinese, in the command and in the app; a photo in ordinary light is refused as before."""
    from companion.app.photo_model import PhotoFailed, score_photo_file

    dark, light = tmp_path / "dark.jpg", tmp_path / "light.jpg"
    cv2.imwrite(str(dark), np.full((480, 640, 3), 18, np.uint8))  # no tile, and dark
    cv2.imwrite(str(light), np.full((480, 640, 3), 150, np.uint8))
    assert main(["score", str(dark), str(light), "--no-calibration", "--lang", "en"]) == 1
    lines = capsys.readouterr().err.splitlines()
    said = {f: [x for x in lines if f in x] for f in ("dark.jpg", "light.jpg")}
    assert any("the photo is too dark: take it again in more light" in x for x in said["dark.jpg"])
    assert not any("too dark" in x for x in said["light.jpg"])
    assert main(["score", str(dark), "--json", "--no-calibration"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert "too dark" in error["message"] and "照片太暗" in error["message_zh"]
    shown = score_photo_file(dark, {})
    assert isinstance(shown, PhotoFailed)
    assert "the photo is too dark" in shown.reason.en and "照片太暗" in shown.reason.zh
    shown = score_photo_file(light, {})
    assert isinstance(shown, PhotoFailed) and "too dark" not in shown.reason.en


def test_a_fifth_copy_read_surely_is_said_as_such_before_any_word_of_a_win() -> None:
    # a review's h6: five 5m, every tile read surely, was refused as "no arrangement of them is a winning hand (a
    # false win?)", which at a table means a penalty; a set has four, so one of them is misread
    dets = laid([(100, ["55555789m23456p678s", "7p"])])
    with pytest.raises(PhotoHandError) as refused:
        score_photo(dets, {}, PROFILE)
    said = str(refused.value)
    assert said.startswith("5 Characters read five times; a set has four (row 1, tiles 1, 2, 3, 4, 5): one of them "
                           "is another tile: check them against the photo")
    assert "false win" not in said and "詐胡" not in refused.value.zh
    assert refused.value.zh.startswith("五萬讀到 5 張，一副牌只有 4 張（第 1 列第 1、2、3、4、5 張）：其中有讀錯的")
    assert refused.value.check == (0, 1, 2, 3, 4)


# --- a review of photographed hands: two stray tiles in one row, a hand without its winning tile, all eight flowers


def test_two_stray_tiles_apart_in_one_row_in_front_of_the_hand_are_left_out() -> None:
    """A review's 7z and 9m two tiles apart in a row in front of a winning hand made it "a false win? (詐胡？)", where
    five tiles apart (each a row of its own) they were left out and the hand scored."""
    hand = [(100, ["123456m234678p4588s", "3s"])]
    alone = score_photo(laid(hand), {}, PROFILE)
    got = score_photo(laid([*hand, (300, ["7z", "9m"])]), {}, PROFILE)
    assert got.win == alone.win and got.score == alone.score and got.marked
    assert any(n.en.startswith("2 tiles lying alone away from the hand were left out (read Red dragon, 9 Characters)")
               for n in got.doubts)


HAND16 = "123456m234678p4588s"  # waits on 3s and 6s


def test_a_photo_without_its_winning_tile_says_so_with_the_waits() -> None:
    """A review's 16 tiles (the winning discard still in the river) were refused "a winning hand shows 17", the way
    out none, a --tile example."""
    for rows in ([(100, [HAND16])], [(100, ["123456m4588s"]), (200, ["234p", "678p"])]):
        with pytest.raises(PhotoHandError) as e:
            score_photo(laid(rows), {"discarder": "N"}, PROFILE)
        assert e.value.way_out is WayOut.WIN_TILE and e.value.waits == (Tile.S3, Tile.S6)
        assert str(e.value).startswith("found 16 tiles: the winning tile is not in the photo (a "
                                       "winning hand shows 16 and the winning tile); as read, the hand waits on 3 "
                                       "Bamboo or 6 Bamboo: lay the winning tile beside the hand and photograph it "
                                       "again (read: row 1:")
        assert e.value.zh.startswith("找到 16 張：照片裡沒有胡的那張（胡牌要有 16 張加胡的那張）；照讀到的，"
                                     "這手聽三條、六條：請把胡的那張放在手牌旁邊再拍一次（讀到：")


@pytest.mark.parametrize("rows", [[(100, [HAND16])], [(100, ["123456m4588s"]), (200, ["234p", "678p"])]])
def test_the_winning_tile_named_completes_a_photo_of_sixteen(rows: list[tuple[float, list[str]]]) -> None:
    context = {"discarder": "N"}
    got = score_photo(laid(rows), context, PROFILE, Tile.S3)
    typed = Win.from_dict({**context, "win_type": "discard", "concealed": "123456m4588s" + (
        "" if len(rows) > 1 else "234678p"), "melds": [] if len(rows) == 1 else ["chow:234p", "chow:678p"],
        "flowers": "", "win_tile": "3s", "seat_wind": "E", "round_wind": "E", "dealer": "E", "streak": 0})
    assert got.win == typed and got.score == score(typed, PROFILE)
    assert got.named and not got.marked and got.win_index == -1 and got.win_tiles == ((Tile.S3, got.score.hand_tai),)
    assert any(n.en == "the winning tile, 3 Bamboo, is not in the photo: scored as named" for n in got.doubts)
    assert any(n.zh == "照片裡沒有胡的那張三條：照指定的計" for n in got.doubts)
    # a tile named that the hand does not wait on: said, with its waits
    with pytest.raises(PhotoHandError) as e:
        score_photo(laid(rows), context, PROFILE, Tile.S9)
    assert str(e.value).startswith("the winning tile named, 9 Bamboo, is not in the photo, and the hand is no win on "
                                   "it: as read, the hand waits on 3 Bamboo or 6 Bamboo")
    assert e.value.zh.startswith("指定胡的那張九條不在照片裡，而這手胡九條不是胡牌：照讀到的，這手聽三條、六條")
    # a photo of 17 with a tile named is scored as before: the tile among them
    whole = score_photo(laid([(100, [HAND16, "3s"])]), context, PROFILE, Tile.S3)
    assert whole.win_index >= 0 and whole.marked and whole.named


def test_the_command_line_names_its_win_tile_option_for_a_photo_without_its_winning_tile() -> None:
    from companion.commands.score import advised, refusal_fields

    dets = laid([(100, [HAND16])])
    with pytest.raises(PhotoHandError) as e:
        score_photo(dets, {"discarder": "N"}, PROFILE)
    en, zh = advised(e.value, dets)
    assert "photograph it again, or name it with --win-tile (e.g. --win-tile 3s) (read: row 1:" in en
    assert "請把胡的那張放在手牌旁邊再拍一次，或用 --win-tile 指定（例如 --win-tile 3s）（讀到：" in zh
    assert "--tile" not in en.replace("--win-tile", "")
    fields = refusal_fields(e.value, dets)
    assert fields["way_out"] == "win_tile" and fields["waits"] == ["3s", "6s"]


def test_all_eight_flowers_and_sixteen_tiles_score_as_eight_flowers() -> None:
    """A review's 16 tiles and eight flowers were refused "a winning hand shows 17" with no word of the flowers, and
    scored 八仙過海 only with an undocumented --context."""
    rows = [(100, [HAND16]), (200, ["12345678f"])]
    for context in ({}, {"win_type": "self_draw"}):  # (the app's form says self-drawn by default)
        got = score_photo(laid(rows), context, PROFILE)
        said = score_photo(laid(rows), {**context, "win_type": "eight_flowers"}, PROFILE)
        assert got.win.win_type is WinType.EIGHT_FLOWERS and got.score == said.score
        assert any(n.en.startswith("all eight flowers and 16 tiles: scored as Eight flowers, won on the eighth "
                                   "flower; ") and n.zh.startswith("全部八張花和 16 張牌：當作八仙過海計") for n in got.doubts)
    # on a discard the winning tile is missing, and the flowers are named
    with pytest.raises(PhotoHandError) as e:
        score_photo(laid(rows), {"discarder": "N"}, PROFILE)
    assert e.value.way_out is WayOut.WIN_TILE and "; with all eight flowers it is Eight flowers, won on the eighth " \
        "flower, not on a discard" \
        in str(e.value) and "；八張花都到齊就是八仙過海，不是胡別人打的牌" in e.value.zh
    with pytest.raises(PhotoHandError) as e:
        score_photo(laid([(100, [HAND16]), (200, ["1234567f"])]), {}, PROFILE)
    assert "with seven flowers, the eighth robbed from another player, it is Seven rob one" in str(e.value)
    assert "七張花、第八張是搶別家的，就是七搶一" in e.value.zh


SIXTEEN = "123m456m789m123p45p55s"  # waits on 3p and 6p


def test_a_flower_read_twice_beside_sixteen_tiles_is_named_first_not_a_hand_waiting_on_nothing() -> None:
    """A review's 16 tiles with 1234f and 5677f were refused "as read, no tile completes the hand … (e.g. --win-tile
    3s); with seven flowers, … Seven rob one": the hand waits on 3p and 6p, and the photo holds eight flowers."""
    dets = laid([(100, [SIXTEEN]), (200, ["1234f"]), (300, ["5677f"])])
    with pytest.raises(PhotoHandError) as e:
        score_photo(dets, {}, PROFILE)
    assert e.value.way_out is WayOut.CORRECT_TILE and not e.value.waits
    assert str(e.value).startswith("Chrysanthemum read twice; a set has one (flowers 7, 8)")
    assert e.value.zh.startswith("菊讀到 2 張，一副牌只有 1 張（花牌第 7、8 張）")
    assert sorted(e.value.check) == [22, 23] and "Seven rob one" not in str(e.value)
    # a hand no tile completes is not told to name its winning tile (there is none to name)
    with pytest.raises(PhotoHandError) as e:
        score_photo(laid([(100, ["1379m1379p1379s1234z"])]), {"discarder": "N"}, PROFILE)
    assert e.value.way_out is WayOut.CORRECT_TILE and not e.value.waits
    assert "no tile completes the hand: check the tiles" in str(e.value) and "lay the winning" not in str(e.value)
    assert "照讀到的，沒有一張牌能讓這手胡：請檢查讀到的牌" in e.value.zh
    # seven flowers are said only where seven lie there
    with pytest.raises(PhotoHandError) as e:
        score_photo(laid([(100, [SIXTEEN]), (200, ["1234567f"])]), {"discarder": "N"}, PROFILE)
    assert e.value.waits == (Tile.P3, Tile.P6) and "it is Seven rob one" in str(e.value)
    assert str(e.value).startswith("found 16 tiles besides the flowers: ")


def test_all_eight_flowers_scored_as_eight_flowers_name_seven_rob_one_and_its_way_out() -> None:
    """A 七搶一 winner lays the robbed eighth flower with his seven: a review's was scored 八仙過海 saying only
    "scored as Eight flowers"."""
    got = score_photo(laid([(100, [SIXTEEN]), (200, ["1234f"]), (300, ["5678f"])]), {}, PROFILE)
    note = next(n for n in got.doubts if n.en.startswith("all eight flowers"))
    assert got.win.win_type is WinType.EIGHT_FLOWERS and note.way_out is WayOut.SEVEN_ROB_ONE
    assert "Seven rob one" in note.en and "七搶一" in note.zh and note.to_dict()["way_out"] == "seven_rob_one"
    said = score_photo(laid([(100, [SIXTEEN]), (200, ["1234f"]), (300, ["5678f"])]),
                       {"win_type": "seven_flowers_rob", "discarder": "N"}, PROFILE)
    assert said.win.win_type is WinType.SEVEN_FLOWERS_ROB


def test_a_winning_tile_named_that_is_not_in_the_photo_asks_who_discarded_it() -> None:
    """A review's 16 tiles with --win-tile 3p were scored self-drawn, paid by all three: a self-drawn tile would lie
    in the photo, so the tile named is a discard, and whose is asked."""
    from companion.rules.win import WinInputError

    dets = laid([(100, [SIXTEEN])])
    with pytest.raises(WinInputError) as e:
        score_photo(dets, {}, PROFILE, Tile.P3)
    assert e.value.field == "discarder" and "3 Dots, is not in the photo" in e.value.reason
    assert "請指定放槍的人" in e.value.zh
    assert score_photo(dets, {"discarder": "W"}, PROFILE, Tile.P3).win.win_type is WinType.DISCARD
    assert score_photo(dets, {"win_type": "self_draw"}, PROFILE, Tile.P3).win.win_type is WinType.SELF_DRAW


def test_one_tile_lying_alone_is_it_in_chinese() -> None:
    got = score_photo(laid([(100, [HAND16, "3s"]), (300, ["9m"])]), {}, PROFILE)
    note = next(n for n in got.doubts if n.en.startswith("a tile lying alone"))
    assert "不算它才是胡牌；請確認它不是" in note.zh and "它們" not in note.zh
