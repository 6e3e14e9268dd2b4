"""My hand: waits, why, draws and discards as the rules say, checked against brute force."""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.app.hand_model import HandFailed, HandPanel, after_discard, analyse, with_meld
from companion.app.words import Words, ui
from companion.hand import Hand, HandError, MeldKind
from companion.rules.efficiency import discard_options
from companion.rules.shanten import shanten
from companion.rules.shape import is_complete
from companion.tiles import NUM_KINDS, Tile, format_tiles, parse_tiles, zh_count


def _deal(seed: int, n: int) -> tuple[list[Tile], list[Tile]]:
    """``n`` tiles from a shuffled set, and 12 more as the tiles seen on the table."""
    wall = [Tile(k) for k in range(NUM_KINDS) for _ in range(4)]
    random.Random(seed).shuffle(wall)
    return wall[:n], wall[n:n + 12]


def _near_ready(seed: int) -> list[Tile]:
    """16 tiles that are often ready: four sets and a pair plus two from a chow, shuffled kinds."""
    rng = random.Random(seed)
    counts = [0] * NUM_KINDS
    tiles: list[Tile] = []
    while len(tiles) < 14:
        if rng.random() < 0.6:
            suit, rank = rng.randrange(3), rng.randrange(7)
            group = [Tile(suit * 9 + rank + i) for i in range(3)]
        else:
            group = [Tile(rng.randrange(NUM_KINDS))] * 3
        if all(counts[t] + group.count(t) <= 4 for t in group):
            for t in group:
                counts[t] += 1
            tiles += group
    tiles = tiles[:14]
    while len(tiles) < 16:
        t = Tile(rng.randrange(NUM_KINDS))
        if counts[t] < 4:
            counts[t] += 1
            tiles.append(t)
    return tiles


def _group_tiles(text: str) -> tuple[Tile, ...]:
    """A group as the English answer names it: ``345s``, or an honour's name (``East wind``, ``East wind x2``)."""
    name, _, times = text.partition(" x")
    honour = next((h for h in Tile if h.is_honour and h.en == name), None)
    if honour is not None:
        return (honour,) * (int(times) if times else 1)
    return parse_tiles(text)


@settings(max_examples=150)
@given(st.integers(0, 10_000), st.booleans())
def test_waits_and_their_reasons_match_brute_force(seed: int, near: bool) -> None:
    tiles, seen_tiles = _deal(seed, 16)
    if near:
        tiles = _near_ready(seed)
        seen_tiles = []
    result = analyse(format_tiles(tiles), format_tiles(seen_tiles))
    if isinstance(result, HandFailed):  # the seen tiles and the hand may hold a fifth copy together
        assert "5" in result.reason.en or "copies" in result.reason.en
        return
    hand = Hand(tuple(tiles))
    own = hand.own_counts()
    seen = [seen_tiles.count(Tile(k)) for k in range(NUM_KINDS)]
    brute = [Tile(k) for k in range(NUM_KINDS) if own[k] < 4 and is_complete(hand.add(Tile(k)))]
    assert [w.tile for w in result.waits] == [t.code for t in brute]
    for w in result.waits:
        t = Tile.from_code(w.tile)
        assert w.unseen == 4 - own[t] - seen[t]
        assert w.why
        for why in w.why:  # one sentence a shape: the partial chow and the tile make the chow it names
            if why in (ui("wait_why_pair", tile=t.zh, tile_en=t.said_en), ui("wait_why_pung", tile=t.zh,
                                                                               tile_en=t.said_en)):
                continue
            split = re.fullmatch(r"the hand split as (.*): (?:a lone (\S+) is left|a pair of (\S+) is left).*", why.en)
            if split:  # a pair or double-pung wait said with its split: the groups and what is left make the hand
                groups = split.group(1).split(" ")
                if all(re.fullmatch(r"\d+[mps]", g) for g in groups):
                    left = (t,) if split.group(2) else (t, t)
                    assert sorted([x for g in groups for x in _group_tiles(g)] + list(left)) == sorted(tiles)
                continue
            chow = re.fullmatch(r"(\d\d[mps]) (?:is open|can grow|has a gap).*: (\S+) (?:makes|fills it to make) the "
                                r"chow (\d{3}[mps]) \(an? (?:two-sided|edge|closed) wait\)(?:; the other end.*)?", why.en)
            assert chow, why.en
            assert chow.group(2) == t.said_en
            assert sorted(_group_tiles(chow.group(1)) + (t,)) == list(_group_tiles(chow.group(3)))
            assert " " not in why.zh and t.zh in why.zh
    if not brute and not result.headline.en.startswith("Not ready: all four"):
        s = shanten(hand)
        quads = [Tile(k) for k in range(NUM_KINDS) if hand.concealed_counts()[k] == 4 and Tile(k).is_honour]
        note = ui("four_honours_held", tile=quads[0].zh, tile_en=quads[0].said_en) if quads else Words("", "")
        assert result.headline.en.startswith(f"Not ready: {s} useful draw{'' if s == 1 else 's'} from ready{note.en}")
        assert result.headline.zh.startswith(f"未聽牌：還差{zh_count(s, '兩')}張才聽（{zh_count(s)}向聽）{note.zh}")  # 兩張, 二向聽
        assert ("pung plus one" in result.headline.en) == bool(quads)


@settings(max_examples=8)
@given(st.integers(0, 10_000))
def test_draws_that_bring_a_hand_closer_are_those_after_which_a_discard_lowers_its_shanten(seed: int) -> None:
    tiles, _ = _deal(seed, 16)
    result = analyse(format_tiles(tiles))
    assert isinstance(result, HandPanel)
    hand = Hand(tuple(tiles))
    s = shanten(hand)
    if s <= 0:
        return
    own = hand.own_counts()
    closer = {t for t, _ in result.draws}
    for k in range(NUM_KINDS):
        if own[k] >= 4:
            continue
        best = discard_options(hand.add(Tile(k)))[0].shanten
        assert (Tile(k).code in closer) == (best < s), Tile(k)
    assert all(n == 4 - own[Tile.from_code(t)] for t, n in result.draws)


@settings(max_examples=15)
@given(st.integers(0, 10_000))
def test_a_drawn_hand_gets_the_discards_best_first(seed: int) -> None:
    tiles, seen = _deal(seed, 17)
    result = analyse(format_tiles(tiles), format_tiles(seen))
    assert isinstance(result, HandPanel)
    hand = Hand(tuple(tiles))
    if is_complete(hand):
        assert result.headline.en.startswith("A complete winning hand")
        return
    best = discard_options(hand, seen)  # every discard (the tab shows ADVICE_SHOWN, the rest on a tap)
    assert [c.tile for c in result.choices] == [o.discard.code for o in best]
    assert [c.reason.zh for c in result.choices] == [o.reason_zh for o in best]


def test_melds_flowers_and_chinese_input_are_read() -> None:
    result = analyse("四萬五萬 77p234789s kong:6666m@R pung:999p@O 1f")
    assert isinstance(result, HandPanel)
    assert [w.tile for w in result.waits] == ["3m"]  # the 6m are all in the own kong (rules §7 Example 14)
    assert result.melds == (("6m",) * 4, ("9p",) * 3) and result.flowers == ("1f",)
    concealed = analyse("123m456m789m12p55z ckong:6666z")  # a concealed kong as it lies: its ends face down
    assert isinstance(concealed, HandPanel) and concealed.melds == (("0x", "6z", "6z", "0x"),)
    # 獨聽 named with its shape, and why a two-sided partial waits on one kind (a beginner review read "兩面"
    # under a "獨聽" headline and found no reason)
    assert result.headline.en.endswith("(a single wait: two-sided with one end gone)")
    assert result.headline.zh.endswith("（獨聽：兩面只剩一頭）")
    (why,) = result.waits[0].why
    assert "另一頭六萬四張都在自己手上" in why.zh and "the other end, 6m, is all four in your own hand" in why.en


@pytest.mark.parametrize(("hand", "shape_zh", "shape_en"), [
    ("12m234s789s77p456p123m", "獨聽：邊張", "a single wait: edge"),
    ("13m234s789s77p456p123m", "獨聽：中洞", "a single wait: closed"),
    ("1z234s789s456p123m456p", "獨聽：單吊", "a single wait, on the pair"),
])
def test_a_single_wait_is_named_with_its_shape(hand: str, shape_zh: str, shape_en: str) -> None:
    """Spec §3.6: where 獨聽 applies the app names the shape: 邊張, 中洞 or 單吊 (on the pair: "a single wait: pair"
    read as a tangle, a teaching review)."""
    result = analyse(hand)
    assert isinstance(result, HandPanel) and len(result.waits) == 1
    assert result.headline.zh.endswith(f"（{shape_zh}）") and result.headline.en.endswith(f"({shape_en})")
    assert "死聽" not in result.headline.zh


def test_a_wait_whose_copies_are_all_visible_is_called_dead() -> None:
    """死聽: the hand is ready but every copy of its waits is on the table."""
    dead = analyse("12m234s789s77p456p123m", "3m3m3m")
    assert isinstance(dead, HandPanel) and [(w.tile, w.unseen) for w in dead.waits] == [("3m", 0)]
    assert "死聽" in dead.headline.zh and "dead wait" in dead.headline.en
    live = analyse("12m234s789s77p456p123m", "3m3m")
    assert isinstance(live, HandPanel) and "死聽" not in live.headline.zh and "dead" not in live.headline.en


def test_a_hand_whose_only_wait_is_all_in_it_lists_the_draws_that_make_it_ready() -> None:
    """All four 1m in the hand: a step from ready (spec §3.5), and, as for any hand not ready, the draws that bring
    it closer are listed (they had been left out); South is seen three times, so its last copy would leave a wait
    on South alone, all in sight: no draw that brings it closer (an audit)."""
    from companion.rules.waits import waits

    panel = analyse("1111m456p789p123s456s", "2z2z2z")
    assert isinstance(panel, HandPanel) and not panel.waits and "1m" in panel.headline.en
    hand = Hand.parse("1111m456p789p123s456s")
    drawn = dict(panel.draws)
    want = {}
    seen = {"2z": 3}

    def live(after: Hand, mine: list[int]) -> bool:
        return shanten(after) == 0 and any(4 - mine[w] - seen.get(w.code, 0) > 0 for w in waits(after))

    for k in range(NUM_KINDS):
        t = Tile(k)
        left = 4 - hand.own_counts()[k] - seen.get(t.code, 0)
        mine = list(hand.own_counts())
        mine[k] += 1  # with the tile drawn; the tile then discarded is in sight
        if left > 0 and any(live(Hand(tuple(sorted(_minus([*hand.concealed, t], d)))), mine)
                            for d in set(hand.concealed) | {t}):
            want[t.code] = left
    assert drawn == want and "2z" not in drawn and "1m" not in drawn and len(drawn) > 10


def _minus(tiles: list[Tile], t: Tile) -> list[Tile]:
    rest = list(tiles)
    rest.remove(t)
    return rest


def test_bad_input_is_refused_with_the_reason_in_both_languages() -> None:
    for text, needle in (("", "No tiles"), ("123m", "tiles"), ("11111m23456789p12s", "5"), ("1m9z", "9")):
        result = analyse(text)
        assert isinstance(result, HandFailed), text
        assert needle in result.reason.en and result.reason.zh and result.reason.zh != result.reason.en
    fifth = analyse("1112345678999m123p", "1m1m")
    assert isinstance(fifth, HandFailed) and "1m" in fifth.reason.en


def test_playing_the_advice_takes_the_tile_out_and_keeps_melds_and_flowers() -> None:
    drawn = "45m577p234789s kong:6666m@R pung:999p@O 1f"
    panel = analyse(drawn)
    assert isinstance(panel, HandPanel) and panel.choices
    best = panel.choices[0].tile
    after = after_discard(drawn, best)
    assert after.endswith(" kong:6666m@R pung:999p@O 1f") and len(after) < len(drawn)
    played = analyse(after)
    assert isinstance(played, HandPanel) and played.waits  # the best discard made it ready: its waits show
    with pytest.raises(HandError):
        after_discard(drawn, "1z")  # not in the hand


def test_a_tile_tapped_after_a_meld_is_a_word_of_its_own() -> None:
    from companion.app.hand_model import with_tile

    played = after_discard("45m577p234789s kong:6666m@R pung:999p@O", "7p")
    assert with_tile(played, "3m") == "45m57p234789s kong:6666m@R pung:999p@O 3m"
    assert isinstance(analyse(with_tile(played, "3m")), HandPanel)  # it reads (a 17-tile hand again)
    assert with_tile("45m5", "7p") == "45m57p" and with_tile("", "1m") == "1m"
    assert with_tile("45m ckong:7777m ", "3m") == "45m ckong:7777m 3m"


def test_a_meld_key_then_a_tile_lays_the_meld_down_and_backspace_takes_it_whole() -> None:
    from companion.app.hand_model import MELD_KEYS, with_meld, without_last
    from companion.hand import MeldKind

    assert with_meld("45m77p", MeldKind.PUNG, "9p") == "45m77p pung:999p"
    assert with_meld("", MeldKind.KONG, "6m") == "kong:6666m"
    assert with_meld("45m ", MeldKind.CKONG, "7z") == "45m ckong:7777z"
    assert with_meld("45m", MeldKind.CHOW, "3s") == "45m chow:345s"
    for kind in MELD_KEYS:  # every meld laid down reads back as that meld
        hand = Hand.parse(str(with_meld("", kind, "2s")), stage_free=True)
        assert [m.kind for m in hand.melds] == [kind] and not hand.concealed
    for code in ("8m", "9p", "1z", "7z"):  # no run starts there: said, in both languages
        said = with_meld("45m", MeldKind.CHOW, code)
        assert said == ui("hand_meld_chow_bad") and said.zh and said.en
    assert with_meld("45m", MeldKind.PUNG, "1f") == ui("hand_meld_flower")
    assert without_last("45m pung:999p") == "45m" and without_last("pung:999p") == ""
    assert without_last("45m pung:999p 3m").rstrip() == "45m pung:999p"  # a tile after a meld: that tile
    assert without_last("45m77p") == "45m7p" and without_last("456m") == "45m" and without_last("45m6p") == "45m"
    assert without_last("1f") == "" and without_last("45m 1") == "45m " and without_last("") == ""


def test_a_player_from_another_game_is_told_what_this_one_differs_in() -> None:
    """A beginner review: seven pairs got no word that they are no win here, and 14 tiles only a count."""
    pairs = analyse("11223344556677m88p9p")
    assert isinstance(pairs, HandPanel) and "沒有七對、八對的胡法" in pairs.headline.zh
    assert "no seven- or eight-pairs win" in pairs.headline.en
    riichi = analyse("11223344556677m")
    assert isinstance(riichi, HandFailed) and "日本麻將或國標麻將" in riichi.reason.zh and "Japanese" in riichi.reason.en
    plain = analyse("1122334455m66778p")  # 15 tiles: no other game's size, no such word
    assert isinstance(plain, HandFailed) and "Japanese" not in plain.reason.en
    assert "pairs" not in analyse("12m234s789s77p456p123m3m").headline.en  # type: ignore[union-attr]


def test_a_kong_better_than_every_discard_is_said_first() -> None:
    """A beginner review: the discard list called 打東 最佳選擇 while the kong below it was as good and a draw more."""
    panel = analyse("123m456m789p567s1111z3z")
    assert isinstance(panel, HandPanel) and [(k.tile, k.better) for k in panel.kongs] == [("1z", True)]
    assert panel.headline.zh.endswith("；先暗槓東更好：一樣接近聽牌，還多摸一張")
    assert panel.headline.en.endswith("; better still, a concealed kong of the East wind: as near ready, and a draw more")
    added = analyse("3m123p456p789s55s78s pung:333m@O")  # "an added kong" (a review read "a added kong")
    assert isinstance(added, HandPanel) and "better still, an added kong of 3m" in added.headline.en
    worse = analyse("4444m6m345p678p123s55z7z")  # the fourth 4m is worth more beside 6m: no such word
    assert isinstance(worse, HandPanel) and worse.kongs and not any(k.better for k in worse.kongs)
    assert "更好" not in worse.headline.zh


@pytest.mark.parametrize(("seen", "key", "kind"), [("blah", "seen_bad", ""), ("3m3m3m3m3m", "seen_bad", "三萬"),
                                                   ("9p9p", "seen_too_many", "九筒")])
def test_a_fault_in_the_seen_tiles_is_said_to_be_theirs(seen: str, key: str, kind: str) -> None:
    """The hand is right; the seen tiles are wrong alone (not notation, a fifth copy) or with the hand (its pung of
    9p and two more seen): the words name that field, in both languages (a review read "this hand cannot be
    read")."""
    hand = "45m77p234789s kong:6666m@R pung:999p@O 1f"
    assert isinstance(analyse(hand), HandPanel)
    failed = analyse(hand, seen)
    assert isinstance(failed, HandFailed)
    said = failed.reason
    assert said.zh.startswith(ui(key, why="", why_en="").zh) and said.en.startswith(ui(key, why="", why_en="").en)
    assert "這手牌讀不懂" not in said.zh and "hand cannot be read" not in said.en
    assert kind in said.zh


def test_my_hands_meld_keys_lay_a_meld_down_with_two_taps() -> None:
    """A meld key, then a tile: the meld laid down in the hand (a beginner on a phone could only type
    ``pung:999p``); a tile that makes no such meld is said, the key stays armed; the key again disarms it."""
    from companion.app.view_hand import HandTab
    from tests.app.test_photo_picks import _tapped
    from tests.app.test_tabs_beside_a_live_table import _Host, _texts

    tab = HandTab(_Host())
    tab.set_hand("45m77p234789s")
    drawn = tab.build()
    _tapped(drawn, "hand-meld-kong")
    assert ui("hand_meld_armed_kong").en in _texts(tab.meld_box)  # what the next tap does
    _tapped(drawn, "hand-key-6m")
    assert tab.hand.value == "45m77p234789s kong:6666m" and tab.meld is None
    assert ui("hand_meld_armed_kong").en not in _texts(tab.meld_box)
    _tapped(drawn, "hand-meld-chow")
    _tapped(drawn, "hand-key-9p")  # no run starts at 9
    assert ui("hand_meld_chow_bad").en in _texts(tab.meld_box) and tab.hand.value.endswith("kong:6666m")
    _tapped(drawn, "hand-key-7p")  # still armed
    assert tab.hand.value == "45m77p234789s kong:6666m chow:789p" and tab.meld is None
    _tapped(drawn, "hand-meld-pung")
    _tapped(drawn, "hand-meld-pung")  # the key again: disarmed, the next tile is a tile
    assert tab.meld is None
    _tapped(drawn, "hand-meld-pung")
    _tapped(drawn, "hand-key-1f")  # a flower with a key armed: never melded, tapped in, the key let go
    assert tab.hand.value == "45m77p234789s kong:6666m chow:789p 1f" and tab.meld is None
    result = analyse(tab.hand.value)
    assert isinstance(result, HandPanel) and len(result.melds) == 2 and result.waits
    tab.set_hand("45m77p234789s")
    tab.target = tab.visible  # the tiles seen focused last: the meld still goes to the hand, and what follows too
    _tapped(drawn, "hand-meld-pung")
    _tapped(drawn, "hand-key-9p")
    assert tab.hand.value == "45m77p234789s pung:999p" and tab.target is tab.hand and not tab.visible.value


def test_a_hand_that_cannot_be_read_says_how_tiles_are_written() -> None:
    """A newcomer typed "east" and read "unexpected character ('e')" with no word of 1z or 東."""
    result = analyse("east")
    assert isinstance(result, HandFailed)
    assert result.reason.en.endswith(ui("notation_hint").en) and "1z-4z" in result.reason.en
    assert result.reason.zh.endswith(ui("notation_hint").zh) and "東南西北" in result.reason.zh
    # Chinese input said in both languages (the English hint did not mention it, a change review)
    assert "一二三萬" in result.reason.zh and "written in Chinese characters are read too" in result.reason.en


def test_an_end_held_whole_is_said_of_that_shape_not_of_the_hand() -> None:
    """An audit: "so this is the only wait" was said of 3m in a hand that waits on 3m and 5m (444m 5m)."""
    result = analyse("4445m123p456p789p kong:6666m@R")
    assert isinstance(result, HandPanel) and [w.tile for w in result.waits] == ["3m", "5m"]
    why = next(w for w in result.waits if w.tile == "3m").why
    assert any("6m" in y.en and "alone" in y.en for y in why)
    assert not any("only wait" in y.en or "只聽這一種" in y.zh for w in result.waits for y in w.why)


def test_a_draw_that_makes_the_hand_ready_only_on_tiles_all_in_sight_brings_it_no_closer() -> None:
    """An audit: 1m (one unseen) was listed as a draw that brings it closer, though after it the hand waits only on a
    1m whose copies are all seen or held. Every draw listed leaves a ready hand with a wait not all in sight."""
    hand, seen_text = "9999m666z ckong:2222p addkong:8888s kong:7777m@R", "111334888m11134455577p23334s1123457z"
    result = analyse(hand, seen_text)
    assert isinstance(result, HandPanel) and result.draws and "1m" not in [code for code, _ in result.draws]
    from companion.rules.waits import waits

    base = Hand.parse(hand)
    seen = [parse_tiles(seen_text).count(Tile(k)) for k in range(NUM_KINDS)]
    for code, _left in result.draws:
        drawn = base.add(Tile.from_code(code))
        live = False
        mine = drawn.own_counts()  # the tile then discarded is in sight
        for d in set(drawn.concealed):
            rest = list(drawn.concealed)
            rest.remove(d)
            after = Hand(tuple(rest), base.melds, base.flowers)
            live |= shanten(after) == 0 and any(4 - mine[w] - seen[w] > 0 for w in waits(after))
        assert live, code


def test_a_kind_with_no_copy_left_is_no_improvement_even_with_nothing_seen() -> None:
    """An audit: discarding the fourth 1m listed 1m itself among the kinds that improve the hand, with none left."""
    options = discard_options(Hand.parse("1111288999m999p5z chow:456p@L 45f"))
    fourth = next(o for o in options if o.discard == Tile.from_code("1m"))
    assert fourth.shanten == 1 and Tile.from_code("1m") not in [i.tile for i in fourth.improvements]
    assert all(i.unseen > 0 for o in options if o.shanten <= 1 for i in o.improvements)


def test_a_wait_all_in_the_own_hand_names_an_honour_in_english() -> None:
    """A review read "all four 1z it needs" on My hand where the command line says East wind (1z)."""
    panel = analyse("1111z234m567m789p234s")
    assert isinstance(panel, HandPanel)
    assert "all four East winds (1z) it needs" in panel.headline.en and "東" in panel.headline.zh


def test_a_hand_tapped_in_tile_by_tile_says_how_far_it_is_not_a_fault() -> None:
    """A beginner review tapped a hand in on the palette and read "this hand cannot be read" at every tap."""
    short = analyse("pung:999p 12m")
    assert isinstance(short, HandFailed)
    assert short.reason == ui("hand_so_far", n=5, need=11)
    assert short.reason.en.startswith("5 tiles so far, 11 to go")
    fifth = analyse("11111m")  # a real fault is still said as one
    assert isinstance(fifth, HandFailed) and fifth.reason.zh.startswith("這手牌讀不懂")
    thirteen = analyse("1112345678999m")  # and the size of another game's hand, said on the way
    assert isinstance(thirteen, HandFailed) and thirteen.reason.en.endswith("Japanese or Chinese-official hand")


def test_a_tile_discarded_joins_the_tiles_seen_but_never_as_a_fifth_copy() -> None:
    """A views review: after "Discard it" a wait of the discarded kind counted one copy too many; the same discard
    tried again after the hand was typed anew would have counted it twice (a fifth copy, the hand refused)."""
    from companion.app.hand_model import with_seen

    after = "45m577p234789s kong:6666m@R pung:999p@O"
    assert with_seen("1z", after, "9s") == "1z 9s"
    assert with_seen("", after, "9s") == "9s"
    assert with_seen("9s9s9s", after, "9s") == "9s9s9s"  # the hand holds one: four already
    assert with_seen("not tiles", after, "9s") == "not tiles"


@pytest.mark.parametrize("hand", ["12478m3569p23788s15z 12345678f", "45m234s789s77p kong:6666m@R pung:999p@O 12345678f",
                                  "45m234s789s77p5p kong:6666m@R pung:999p@O 12345678f"])
def test_my_hand_says_first_that_all_eight_flowers_have_won(hand: str) -> None:
    """A beginner holding all eight flowers was told only how far his tiles are from ready (a teaching review)."""
    panel = analyse(hand, "")
    assert isinstance(panel, HandPanel)
    assert panel.headline.zh.startswith(ui("eight_flowers_won").zh) and panel.headline.en.startswith("All eight flowers")
    seven = analyse(hand.replace("12345678f", "1234567f"), "")
    assert isinstance(seven, HandPanel) and "八仙" not in seven.headline.zh


def test_a_complete_hand_with_all_eight_flowers_is_said_complete_with_their_tai_added() -> None:
    panel = analyse("123m456m789m123s45p55z6p 12345678f", "")  # (it said "if you play on: a win!")
    assert isinstance(panel, HandPanel) and panel.complete
    assert panel.headline == ui("hand_complete") + ui("eight_flowers_too")


def test_my_hand_and_the_seat_it_follows_outlive_the_server_restarting(tmp_path: Path, monkeypatch: Any) -> None:
    """A game-night review: a reload kept My hand's typed hand and the seat it followed (the page's session stays on
    the server), a restart of the laptop's server lost both (every session goes). They are kept in the phone's
    browser, and a new page starts from them: the seat followed again where the same player sits in it at the same
    table, its tiles seen as the table is now. At another table nothing comes back, nor on a new game kept under the
    same file name (a change review: the hand and the tiles seen of last week's table.sqlite came back, its "left"
    counts with them)."""
    from companion.app import browser_store
    from companion.app.live_model import LiveGame
    from companion.app.view_hand import HandTab
    from tests.app.test_live_tab_moves import _Phone
    from tests.app.test_photo_picks import _tapped
    from tests.app.test_tabs_beside_a_live_table import _texts

    monkeypatch.setattr(browser_store, "WAITS", (0.0,))
    kept: dict[str, object] = {}  # the phone's browser's storage

    class Browser:
        async def set(self, key: str, value: str) -> bool:
            kept[key] = value
            return True

        async def get(self, key: str) -> object:
            return kept.get(key)

    def page(game: LiveGame) -> HandTab:
        tab = HandTab(_Phone(), game)
        tab.prefs = Browser()  # type: ignore[assignment]
        tab.attach()
        return tab

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10, house={"first_dealer": "east_deals"}) is None
    assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
    tab = page(game)
    _tapped(tab.build(), "hand-from-live-0")
    tab.set_hand("123m456m789m111z55s67s")
    assert game.discard("9s") is None and game.discard("5s") is None
    seen = game.seen_by(0)
    assert seen is not None and tab.visible.value == seen[1] and tab.following == 0
    game.close()  # the server stops, and starts again on the same table
    again = LiveGame(tmp_path / "table.sqlite")
    assert again.discard("8s") is None  # entered once it is back, before the phone reconnects
    tab = page(again)
    seen = again.seen_by(0)
    assert seen is not None and seen[1] == "589s"
    assert (tab.hand.value, tab.following, tab.visible.value) == ("123m456m789m111z55s67s", 0, seen[1])
    assert tab.summary.content is not None  # analysed: its headline under the fields
    assert any(ui("hand_following", seat="A").en == text for text in _texts(tab.build()))
    again.close()
    other = LiveGame(tmp_path / "other.sqlite", seed=5)  # another table: nothing of this one's
    assert other.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10, house={"first_dealer": "east_deals"}) is None
    assert other.choose_dealer() is None and other.throw((1, 2, 3)) is None
    tab = page(other)
    assert (tab.hand.value, tab.visible.value, tab.following) == ("", "", None)
    other.close()
    for name in ("table.sqlite", "other.sqlite"):  # next week: a new game in a new table.sqlite, the same players
        for made in tmp_path.glob(name + "*"):
            made.unlink()
    week = LiveGame(tmp_path / "table.sqlite", seed=6)
    assert week.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10, house={"first_dealer": "east_deals"}) is None
    assert week.choose_dealer() is None and week.throw((2, 3, 4)) is None
    tab = page(week)
    assert (tab.hand.value, tab.visible.value, tab.following) == ("", "", None)
    week.close()
    kept.clear()  # a hand typed with no table open comes back, wherever
    lone = page(None)  # type: ignore[arg-type]
    lone.set_hand("123m456m789m111z55s67s")
    lone = page(None)  # type: ignore[arg-type]
    assert lone.hand.value == "123m456m789m111z55s67s"


def _words_in(x: object) -> list[Words]:
    """Every :class:`Words` a panel carries, however deep (its headline, each wait's why, each choice's reason)."""
    if isinstance(x, Words):
        return [x]
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return [w for f in dataclasses.fields(x) for w in _words_in(getattr(x, f.name))]
    if isinstance(x, tuple | list):
        return [w for item in x for w in _words_in(item)]
    return []


@pytest.mark.parametrize("seed", range(12))
def test_my_hands_notes_built_outside_the_words_table_carry_no_chinese_in_english(seed: int) -> None:
    """The words table's check keeps Chinese out of the app's English; My hand's reasons (the discard advice, the
    kongs, the waits) are built by the rules' code, out of its reach: held to the same, on hands drawn and
    between turns (a wording review found such notes in the photo tab)."""
    cjk = re.compile(r"[\u4e00-\u9fff]")
    for n in (16, 17):
        tiles, seen = _deal(seed, n)
        panel = analyse(format_tiles(tiles), format_tiles(seen))
        said = _words_in(panel)
        assert said and not [w.en for w in said if w.en and cjk.search(w.en)], panel


def test_four_of_an_honour_held_between_turns_are_said_to_be_no_pung_plus_one() -> None:
    """A teaching review: four East held between turns read only "1 step from ready"; four of an honour concealed
    can be no pung and one (spec §3.1): only a concealed kong, or a discard."""
    panel = analyse("1111z 23m 456p 789s 55s 22z")
    assert isinstance(panel, HandPanel) and not panel.waits
    said = ui("four_honours_held", tile="東", tile_en=Tile.from_code("1z").said_en)
    assert panel.headline.zh.endswith(said.zh) and panel.headline.en.endswith(said.en)
    assert "暗槓" in said.zh and "concealed kong" in said.en and "pung plus one" in said.en
    four_suited = analyse("1111m 23m 456p 789s 55s 22z")  # four 1m may be a pung and a chow's 1m: nothing to say
    assert isinstance(four_suited, HandPanel) and said.en not in four_suited.headline.en


def test_a_pair_wait_on_an_honour_is_said_as_a_lone_tile_waiting_for_its_partner() -> None:
    """A teaching review read "Red dragon + Red dragon (7z) makes Red dragon x2 (pair wait)"; now "a lone Red dragon
    (7z) waits for its partner to make the pair", 單吊紅中."""
    result = analyse("7z234s789s456p123m456p")
    assert isinstance(result, HandPanel) and [w.tile for w in result.waits] == ["7z"]
    (why,) = result.waits[0].why
    assert why.en == "a lone Red dragon (7z) waits for its partner to make the pair"
    assert why.zh.startswith("單吊紅中：")


@pytest.mark.parametrize(("hand", "tile", "zh", "en"), [
    ("45m123p456p789p123s55s", "3m", "四五萬兩頭都能接，摸到三萬成順子三四五萬（兩面）",
     "45m is open at both ends: 3m makes the chow 345m (a two-sided wait)"),
    ("12m123p456p789p123s55s", "3m", "一二萬只能接一頭，摸到三萬成順子一二三萬（邊張）",
     "12m can grow at one end only: 3m makes the chow 123m (an edge wait)"),
    ("46m123p456p789p123s55s", "5m", "四六萬中間缺一張，摸到五萬成順子四五六萬（中洞）",
     "46m has a gap in the middle: 5m fills it to make the chow 456m (a closed wait)"),
    ("22s55s123p456p789p123m", "2s", "兩張二條再摸一張二條成刻子（雙碰）",
     "a pair of 2s and a third 2s make a pung (a double-pung wait)"),
    ("7s123p456p789p123m456m", "7s", "單吊七條：手上一張七條，等另一張七條湊成一對",
     "a lone 7s waits for its partner to make the pair"),
])
def test_each_wait_shape_is_said_in_a_plain_sentence(hand: str, tile: str, zh: str, en: str) -> None:
    """A teaching review read 「二條二條 加 二條 成 二條二條二條（雙碰）」, stray spaces and no sentence; each shape now
    says what the partial set is and what the tile makes of it, in both languages."""
    result = analyse(hand)
    assert isinstance(result, HandPanel)
    (why,) = next(w for w in result.waits if w.tile == tile).why
    assert (why.zh, why.en) == (zh, en)


def test_waits_all_in_the_own_hand_are_listed_with_each_in_both_languages() -> None:
    """``1111234444m456p789s`` waits in shape on 1m and 4m, all four of each its own: My hand read 「要的 一萬四萬
    四張都在自己手上」 and "all four 1m and 4m" (a final review)."""
    panel = analyse("1111234444m456p789s")
    assert isinstance(panel, HandPanel)
    assert "要的一萬、四萬各四張都在自己手上" in panel.headline.zh
    assert "all four of each of 1m and 4m it needs" in panel.headline.en


def test_a_pair_or_double_pung_reason_is_true_of_the_hand_it_is_said_of() -> None:
    """Quiz 11's hand holds three 3m and two 6m: the reasons read 「單吊三萬：手上一張三萬」 and both "a lone 6m" and
    "a pair of 6m" (a final review). Where the hand holds more of the tile than the shape says, the split is said."""
    panel = analyse("2m3m3m3m4m4m4m5m5m6m6m7m8m9m9m9m")
    assert isinstance(panel, HandPanel)
    why = {w.tile: w.why for w in panel.waits}
    assert not any("手上一張" in w.zh for w in why["3m"])
    assert any(w.zh.startswith("拆成二三四萬、三四五萬、四五六萬、六七八萬、九九九萬，剩一張三萬單吊") for w in why["3m"])
    assert any(w.en.startswith("the hand split as 234m 345m 456m 678m 999m: a lone 3m") for w in why["3m"])
    lone_six = [w for w in why["6m"] if "lone 6m" in w.en]
    assert lone_six and all(w.en.startswith("the hand split as ") for w in lone_six)
    assert "a pair of 6m and a third 6m make a pung (a double-pung wait)" in [w.en for w in why["6m"]]
    assert any(w.en.startswith("the hand split as") and "a pair of 9m is left" in w.en for w in why["9m"])
    single = analyse("123m456m789m234p789s5z")  # one 4p held: the plain sentence stays
    assert isinstance(single, HandPanel)
    assert single.waits[0].why[0].zh.startswith("單吊白板：手上一張白板")


def test_backspace_takes_one_tile_of_a_hand_written_as_chinese_writes_it() -> None:
    """45萬 reads as 45m (the notation takes a suit character after digits); backspace left 45, which reads as
    nothing, and took one character of a meld typed with a Chinese keyboard's colon."""
    from companion.app.hand_model import without_last

    assert without_last("77p 45萬") == "77p 4萬" and without_last("45萬 6萬") == "45萬"
    assert without_last("45m 碰：999p") == "45m"
    for typed in ("77p 45萬", "123條", "45萬 6萬"):
        assert parse_tiles(without_last(typed)) == parse_tiles(typed)[:-1]


def test_a_hand_typed_on_a_phone_or_in_chinese_is_analysed_as_its_notation() -> None:
    """Full-width ４５ｍ, 45萬, 東風 and 碰：999p@對家 were refused by My hand (only the Live tab folded them)."""
    typed = analyse("４５ｍ２３４ｓ７８９ｓ７７ｐ　槓：６６６６ｍ＠下家 碰:999p@對家")
    chinese = analyse("45萬234條789條77筒 槓:6666m@R 碰:999p@O")
    plain = analyse("45m234s789s77p kong:6666m@R pung:999p@O")
    assert isinstance(plain, HandPanel) and typed == chinese == plain


@pytest.mark.parametrize(("typed", "code", "hand"), [
    ("45m234s789s77p 碰：999p", "5m", "455m77p234789s pung:999p"), ("123m 梅1", "1m", "1123m 5f"),
    ("123m 春1", "2m", "1223m 1f"), ("123m 竹3", "4m", "1234m 7f")])
def test_a_tile_tapped_after_a_meld_or_a_numbered_flower_is_its_own(typed: str, code: str, hand: str) -> None:
    """A review: 5m tapped after 碰：999p (a Chinese keyboard's colon) joined the meld (「碰要 3 張牌…有 4 張」); 1m
    tapped after 梅1 read as 梅 11m, an extra 1m unsaid; 4m after 竹3 was refused."""
    from companion.app.hand_model import with_tile

    assert str(Hand.parse(with_tile(typed, code), stage_free=True)) == hand


def test_others_melds_in_the_seen_tiles_count_their_tiles() -> None:
    """The seen field asks for others' melds too: written as the hand writes its own (a review's pung:333m@L was
    "cannot be read": the p of pung), a meld counts its tiles; one written wrong is said to be the seen tiles'."""
    hand = "45m77p234789s kong:6666m@R pung:999p@O"
    typed = analyse(hand, "pung:333m@L")
    assert isinstance(typed, HandPanel) and [(w.tile, w.unseen) for w in typed.waits] == [("3m", 1)]
    failed = analyse(hand, "chow:356m@L")
    assert isinstance(failed, HandFailed)
    assert failed.reason.zh.startswith("「桌上看得到的牌」讀不懂：吃要同一花色的三張連號")
    assert failed.reason.en.startswith("The tiles seen on the table cannot be read: a chow is three consecutive")


def test_a_better_kong_of_an_honour_is_said_with_its_article() -> None:
    """The headline's kong of an honour reads as its line does ("Added kong of the East wind"), where it said "an
    added kong of East wind"; a suit tile stays by its code."""
    honour = analyse("chow:123m chow:456m pung:111z kong:9999s chow:789m 1z5p")
    assert isinstance(honour, HandPanel)
    assert "an added kong of the East wind: as near ready" in honour.headline.en
    assert "先加槓東更好" in honour.headline.zh
    suit = analyse("chow:123m chow:456m pung:777p kong:9999s chow:789m 1z7p")
    assert isinstance(suit, HandPanel) and "an added kong of 7p: as near ready" in suit.headline.en


def test_a_pair_wait_on_a_tile_inside_a_run_is_said_with_the_split() -> None:
    """3456789m waits on 3m, 6m and 9m, each as a pair wait: "a lone 3m waits for its partner" had a review look
    for a lone 3m in the run and find none. A tile with a neighbour in its suit is said with the split that leaves
    it over; one with none (7s beside 123p …) is still "a lone 7s"."""
    panel = analyse("3456789m123p456p789p")
    assert isinstance(panel, HandPanel) and [w.tile for w in panel.waits] == ["3m", "6m", "9m"]
    why = {w.tile: w.why for w in panel.waits}
    assert [w.en for w in why["3m"]] == ["the hand split as 456m 789m 123p 456p 789p: a lone 3m is left, waiting for "
                                         "its partner to make the pair"]
    assert [w.zh for w in why["3m"]] == ["拆成四五六萬、七八九萬、一二三筒、四五六筒、七八九筒，剩一張三萬單吊，等另一張三萬湊成一對"]
    assert not any("手上一張" in w.zh or w.en.startswith("a lone") for ws in why.values() for w in ws)
    lone = analyse("7s123p456p789p123m456m")
    assert isinstance(lone, HandPanel) and [w.en for w in lone.waits[0].why] == [
        "a lone 7s waits for its partner to make the pair"]


@pytest.mark.parametrize(("typed", "kind", "code", "laid"), [
    ("45m234s789s77p66m999p 1z", MeldKind.PUNG, "6m", "45m234s789s77p999p 1z pung:666m"),  # a claim: 17, to discard
    ("45m234s789s77p666m999p", MeldKind.KONG, "6m", "45m234s789s77p999p kong:6666m"),
    ("45m234s789s77p6666m999p", MeldKind.CKONG, "6m", "45m234s789s77p999p ckong:6666m"),  # then the replacement
    ("1112345678999m35p1z", MeldKind.CHOW, "3p", "1112345678999m1z chow:345p"),  # 16 tiles: a claim of 4p
    # 16 tiles holding 3m 4m 5m: the 3m tapped is the one claimed, 4m and 5m come from the hand (it laid the chow
    # beside all three: "19 tiles")
    ("345m234s789s77p999p11z", MeldKind.CHOW, "3m", "3m234s789s77p999p11z chow:345m"),
    ("1112345678m123p", MeldKind.PUNG, "9m", "1112345678m123p pung:999m"),  # none held: a meld made before
    ("45m77p 1z", MeldKind.CHOW, "3m", "45m77p 1z chow:345m"),  # not 16 tiles: a chow made before, typed in
    # a concealed kong of three held, the fourth just drawn and not typed: the three (it read "7 copies of 6m")
    ("111666m234p567s789s1z", MeldKind.CKONG, "6m", "111m234p567s789s1z ckong:6666m"),
    # an exposed kong tapped with all four held: no fifth was claimed, it is the concealed kong ("5 copies")
    ("1116666m234p567s789s1z", MeldKind.KONG, "6m", "111m234p567s789s1z ckong:6666m"),
    # a kong tapped onto the pung laid down: the pung made an added kong, the fourth taken where typed ("7 copies")
    ("pung:666m 111m234p567s789s1z", MeldKind.KONG, "6m", "111m234p567s789s1z addkong:6666m"),
    ("pung:666m@O 1116m234p567s789s1z", MeldKind.KONG, "6m", "111m234p567s789s1z addkong:6666m"),
    ("pung:666m 111m234p567s789s1z", MeldKind.ADDKONG, "6m", "111m234p567s789s1z addkong:6666m"),
    # the tiles left as the player wrote them, not rewritten into codes and reordered (a change review)
    ("一一一萬六六萬二三四筒567s789s東東", MeldKind.PUNG, "6m", "一一一萬二三四筒567s789s東東 pung:666m"),
    ("一二三萬、六六萬二三四筒567s789s東東", MeldKind.PUNG, "6m", "一二三萬、二三四筒567s789s東東 pung:666m"),
    ("567s789s東東二三四筒一二三萬、六六萬", MeldKind.PUNG, "6m", "567s789s東東二三四筒一二三萬 pung:666m"),
    ("碰:666m@O 一一一萬六萬二三四筒567s789s東 1f", MeldKind.KONG, "6m",
     "一一一萬二三四筒567s789s東 1f addkong:6666m"),
    ("45m 6m6m 77p 234s789s999p1z", MeldKind.PUNG, "6m", "45m 77p 234s789s999p1z pung:666m"),
])
def test_a_meld_tapped_onto_the_tiles_it_is_made_of_takes_them_from_the_hand(
        typed: str, kind: MeldKind, code: str, laid: str) -> None:
    """At the table a player types his hand, then claims 6m: 碰 and 6m laid pung:666m beside the 66m still in the
    hand, "5 copies of 6m" (8 for a concealed kong of the four held, the very kong the advice offers). The tiles a
    meld is made of now leave the hand, and what is left is read."""
    assert with_meld(typed, kind, code) == laid
    if len(typed) > 10:  # a whole hand: read, its waits or its discards
        assert isinstance(analyse(laid), HandPanel), analyse(laid)


@pytest.mark.parametrize("after", ["hand-key-1f", "hand-key-7p"])
def test_backspace_after_a_tile_tapped_past_a_meld_still_gives_the_melds_tiles_back(after: str) -> None:
    """碰 6m, then a flower (or the tile drawn), then backspace twice: the tile went, then the meld went and the pair
    it took did not come back (a change review). The hand is now as it was typed."""
    from companion.app.view_hand import HandTab
    from tests.app.test_photo_picks import _tapped
    from tests.app.test_tabs_beside_a_live_table import _Host

    tab = HandTab(_Host())
    tab.set_hand("45m234s789s77p66m999p")
    drawn = tab.build()
    _tapped(drawn, "hand-meld-pung")
    _tapped(drawn, "hand-key-6m")
    assert tab.hand.value == "45m234s789s77p999p pung:666m"
    _tapped(drawn, after)
    _tapped(drawn, "hand-backspace")
    assert tab.hand.value == "45m234s789s77p999p pung:666m"
    _tapped(drawn, "hand-backspace")
    assert tab.hand.value == "45m234s789s77p66m999p"
