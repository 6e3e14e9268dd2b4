"""Discard options: each option agrees with shanten and waits, the order is best first, reasons in zh/en."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

import companion
from companion.commands.demo import EXAMPLES, explain
from companion.hand import Hand, HandError, Meld, MeldKind, Source
from companion.rules.efficiency import DiscardOption, discard_options, kong_options
from companion.rules.shanten import shanten
from companion.rules.waits import wait_counts
from companion.tiles import CopyLimitError, Tile, parse_tiles

_SETS = [(k, k, k) for k in range(34)] + [(k, k + 1, k + 2) for k in range(27) if k % 9 <= 6]


def test_the_ready_discard_comes_first() -> None:
    options = discard_options(Hand.parse("45m345p678p123s999s55z7z"), visible="3m")
    best = options[0]
    assert best.discard is Tile.Z7 and best.is_ready
    assert [(i.tile, i.unseen) for i in best.improvements] == [(Tile.M3, 3), (Tile.M6, 4)]
    assert best.unseen == 7
    assert "紅中" in best.reason_zh and "三萬" in best.reason_zh and "最佳" in best.reason_zh
    assert best.reason("en").startswith("Discard the Red dragon (7z; a lone honour): ready") and "best" in best.reason_en
    assert all(o.shanten >= 1 for o in options[1:])
    assert "more useful draw than the best needs" in options[1].reason_en and "多一向聽" in options[1].reason_zh


def test_reasons_say_what_the_discard_gives_up() -> None:
    options = {o.discard.code: o for o in discard_options(Hand.parse("111m46m78m13p99p2s789s15z"))}
    assert "(breaks a pung)" in options["1m"].reason_en and "拆刻子" in options["1m"].reason_zh
    assert "(breaks a pair)" in options["9p"].reason_en and "拆對子" in options["9p"].reason_zh
    assert "; a lone honour)" in options["5z"].reason_en and "孤張字牌" in options["5z"].reason_zh
    assert "(a lone tile)" in options["2s"].reason_en
    # 4m beside 678m: the best split is 111m 678m with 4m left over (not 46m + 78m), so it breaks nothing
    assert "(a spare tile)" in options["4m"].reason_en and "多出的一張" in options["4m"].reason_zh
    assert "(breaks a partial set)" in options["1p"].reason_en and "拆搭子" in options["1p"].reason_zh
    # one of four copies: the other three stay a pung, so it does not break one (a learner was told it did)
    four = {o.discard.code: o for o in discard_options(Hand.parse("1111m46m78m13p99p2s789s5z"))}
    assert "(the fourth copy: the pung stays whole; it could be a concealed kong)" in four["1m"].reason_en
    assert "刻子不拆；也可以暗槓" in four["1m"].reason_zh
    chow = {o.discard.code: o for o in discard_options(Hand.parse("345m345p678p123s99s55z7z"))}
    assert "(breaks a chow)" in chow["4m"].reason_en and "拆順子" in chow["4m"].reason_zh


def test_a_tile_beside_a_whole_chow_is_spare_and_two_chows_are_no_pairs() -> None:
    """What a discard breaks is read from the best split, not from the tile's neighbours (a teaching review): in
    4567m the 4m and the 7m are spare (567m or 456m stays), the 5m and 6m break a chow; 334455m is two chows, so
    each of its tiles breaks a chow, not a pair."""
    run = {o.discard.code: o for o in discard_options(Hand.parse("4567m123p456p789s11z67z"))}
    assert [run[c].reason_en.split(":")[0] for c in ("4m", "5m", "6m", "7m")] == [
        "Discard 4m (a spare tile)", "Discard 5m (breaks a chow)", "Discard 6m (breaks a chow)",
        "Discard 7m (a spare tile)"]
    assert run["7m"].reason_zh.startswith("打七萬（多出的一張）")
    two = {o.discard.code: o for o in discard_options(Hand.parse("334455m123p456p789s17z"))}
    assert all("(breaks a chow)" in two[c].reason_en and "拆順子" in two[c].reason_zh for c in ("3m", "4m", "5m"))


def test_a_tile_held_three_or_two_times_breaks_the_pung_or_pair_a_best_split_keeps() -> None:
    """Discard quiz 4 called 6p of 5p666p77p "a spare tile" (a review): one best split leaves a 6p over (567p 66p
    7p), but another keeps 666p as good, and the discard breaks the pung the player sees; the 9p of 99p, a pair
    the best split keeps, read "a spare tile" too."""
    options = {o.discard.code: o for o in discard_options(Hand.parse("1p2p3p5p6p6p6p7p7p9p9p5s5s6s6s6s7s"))}
    assert options["6p"].reason_en.startswith("Discard 6p (breaks a pung)")
    assert options["6p"].reason_zh.startswith("打六筒（拆刻子）")
    assert options["9p"].reason_en.startswith("Discard 9p (breaks a pair)")
    assert options["5p"].reason_en.startswith("Discard 5p (a spare tile)")  # held once: spare beside 666p 77p


def test_one_option_per_distinct_tile() -> None:
    hand = Hand.parse("111m456m789m123p456p9s1z")
    assert sorted(o.discard for o in discard_options(hand)) == sorted(set(hand.concealed))


def test_a_complete_hand_still_ranks_its_discards() -> None:
    options = discard_options(Hand.parse("123m456m789m123p456p99s"))
    assert options[0].shanten == 0


def test_needs_a_drawn_hand() -> None:
    with pytest.raises(HandError, match="after a draw"):
        discard_options(Hand.parse("45m345p678p123s999s55z"))


def test_visible_tiles_cannot_exceed_four_copies() -> None:
    with pytest.raises(CopyLimitError, match="7z"):
        discard_options(Hand.parse("45m345p678p123s999s55z7z"), visible="7777z")


def test_demo_notes_match_the_analysis() -> None:
    # the demo's explanations state facts about these hands: keep them true
    by_hand = {e.hand: e for e in EXAMPLES}
    scattered = discard_options(Hand.parse("12478m3569p23788s157z"))
    assert scattered[0].discard.is_honour
    best = [o.discard.code for o in scattered if (o.ranked_shanten, o.unseen) == (scattered[0].ranked_shanten,
                                                                                  scattered[0].unseen)]
    assert sorted(best) == ["1z", "5z", "7z", "9p"]  # as its note says, and the demo shows all four
    shown = explain(next(e for e in EXAMPLES if e.hand == "12478m3569p23788s157z"), "en")
    assert any(line.startswith("   4. Discard 9p") for line in shown) and "the 9p has no 7p or 8p beside it" in shown[-1]
    assert "12478m3569p23788s157z" in by_hand
    last_step = discard_options(Hand.parse("45m345p678p123s999s55z7z"))
    assert [o.discard for o in last_step if o.shanten == 0] == [Tile.Z7]
    (only,) = wait_counts(Hand.parse(EXAMPLES[0].hand))
    assert only[0] is Tile.M3


@st.composite
def drawn_hands(draw: st.DrawFn) -> tuple[Hand, tuple[Tile, ...]]:
    sets = draw(st.integers(1, 5))
    n_melds = draw(st.integers(0, sets - 1))
    groups = [draw(st.sampled_from(_SETS)) for _ in range(sets)]
    melds = []
    for g in groups[:n_melds]:
        if g[0] == g[1]:
            melds.append(Meld(MeldKind.PUNG, (Tile(g[0]),) * 3, Source.OPPOSITE))
        else:
            melds.append(Meld(MeldKind.CHOW, tuple(map(Tile, g)), Source.LEFT))
    pair = draw(st.integers(0, 33))
    concealed = [t for g in groups[n_melds:] for t in g] + [pair, pair]
    for _ in range(draw(st.integers(0, 4))):
        concealed[draw(st.integers(0, len(concealed) - 1))] = draw(st.integers(0, 33))
    own = [0] * 34
    for t in [*concealed, *(t for m in melds for t in m.tiles)]:
        own[t] += 1
    assume(max(own) <= 4)
    visible = tuple(Tile(k) for k in range(34) for _ in range(min(draw(st.integers(0, 2)), 4 - own[k])))
    return Hand(tuple(map(Tile, concealed)), tuple(melds), (), sets=sets), visible


def _rank_key(o: DiscardOption) -> tuple[int, int, int]:
    """A ready hand with every winning tile in sight cannot win: it ranks as one step from ready."""
    return (1 if o.dead_waits else o.shanten, -o.unseen, -len(o.improvements))


def _live_ready(hand: Hand, visible: tuple[Tile, ...]) -> bool:
    """Some discard of the drawn ``hand`` leaves it ready on a wait with a copy unseen, the tile discarded in sight
    (brute force)."""
    return any(n > 0 for d in set(hand.concealed) for _, n in wait_counts(hand.remove(d), (*visible, d)))


@given(drawn_hands())
def test_options_agree_with_shanten(case: tuple[Hand, tuple[Tile, ...]]) -> None:
    """Every option against brute force: its shanten, and the draws that improve it: those that lower the shanten;
    a step from ready with tiles in sight, those after which some discard leaves a wait with a copy unseen; ready,
    the waits; ready with every wait in sight (死聽), the draws after which a discard leaves a live wait."""
    hand, visible = case
    options = discard_options(hand, visible)
    own = hand.own_counts()
    seen = [visible.count(Tile(k)) for k in range(34)]
    assert [_rank_key(o) for o in options] == sorted(_rank_key(o) for o in options)
    assert min(o.shanten for o in options) == max(shanten(hand), 0)
    for o in options:
        after = hand.remove(o.discard)
        assert o.shanten == shanten(after)
        gone = (*visible, o.discard)  # the tile discarded is in sight
        left = [t for t in range(34) if 4 - own[t] - seen[t] > 0]
        better = [t for t in range(34) if own[t] - (t == o.discard) < 4 and shanten(after.add(Tile(t))) < o.shanten]
        waits = [(t, n) for t, n in wait_counts(after, gone)] if o.shanten == 0 else []
        if o.shanten == 0 and not any(n for _, n in waits):
            assert o.dead_waits == tuple(t for t, _ in waits)
            want = [t for t in left if _live_ready(after.add(Tile(t)), gone)]
        elif o.shanten == 0:
            assert not o.dead_waits
            want = [int(t) for t, _ in waits]
        elif o.shanten == 1 and visible:
            want = [t for t in better if t in left and _live_ready(after.add(Tile(t)), gone)]
        else:  # further off: the kinds that lower it with a copy left to draw
            want = [t for t in better if t in left]
        assert [int(i.tile) for i in o.improvements] == want
        assert all(i.unseen == 4 - own[i.tile] - seen[i.tile] for i in o.improvements)
        assert o.reason_zh.startswith("打" + o.discard.zh) and o.reason_en.startswith(f"Discard {o.discard.code}" if o.discard.is_suited else f"Discard the {o.discard.en} ({o.discard.code}; ")


def test_a_ready_hand_with_every_wait_in_sight_ranks_by_the_draws_that_mend_it() -> None:
    """死聽 (a teaching review): discarding 1z leaves a wait on 3p 6p, all in sight; 14 unseen draws (1p 2p 4p 5p 9p)
    let a discard leave a live wait, against 11 after the best of the hands a step from ready, whose draws that
    lead only to a dead wait no longer count. It had ranked last, "21 tiles fewer than the best"."""
    options = discard_options(Hand.parse("123m456m789m123p45p99p1z"), "333p6666p")
    best = options[0]
    assert best.discard.code == "1z" and best.dead_waits == (Tile.P3, Tile.P6) and best.is_ready
    assert [i.tile.code for i in best.improvements] == ["1p", "2p", "4p", "5p", "9p"] and best.unseen == 14
    assert options[1].shanten == 1 and options[1].unseen == 11
    assert "nothing left to win on; 5 kinds (1p, 2p, 4p, 5p and 9p; 14 tiles unseen) make it ready on a live wait" \
        in best.reason_en and "就能改聽還有牌的" in best.reason_zh


def test_a_kind_all_in_sight_improves_no_hand_steps_from_ready() -> None:
    """A teaching review: five steps from ready with the four 2m on the table, the advice said "25 kinds improve it
    (2m …)", and its JSON "2m": 0, as it already did not a step from ready."""
    hand = Hand.parse("13m25p79p468s1133z567z9m")
    free, seen = discard_options(hand)[0], discard_options(hand, "2222m")[0]
    assert free.shanten == seen.shanten >= 2 and Tile.M2 in {i.tile for i in free.improvements}
    assert {i.tile for i in seen.improvements} == {i.tile for i in free.improvements} - {Tile.M2}
    assert all(i.unseen > 0 for i in seen.improvements) and "2m" not in seen.reason_en.split("(")[1].split(")")[0]


def test_parse_visible_notation_and_tiles_alike() -> None:
    hand = Hand.parse("45m345p678p123s999s55z7z")
    assert discard_options(hand, "36m") == discard_options(hand, parse_tiles("36m"))


def _modules_with_examples() -> list[str]:
    """Every module of the package whose docstrings show examples that run (a review found 7 of 11 never run; the
    vision modules' examples need a model and a photo, and say +SKIP)."""
    root = Path(companion.__file__).parent
    return sorted(".".join(("companion", *p.relative_to(root).with_suffix("").parts)).removesuffix(".__init__")
                  for p in root.rglob("*.py") if any(">>>" in line and "+SKIP" not in line
                                                     for line in p.read_text("utf-8").splitlines()))


def test_the_examples_are_found_in_the_core_modules() -> None:
    assert {"companion.tiles", "companion.hand", "companion.rules.scoring", "companion.rules.settlement",
            "companion.rules.shanten"} <= set(_modules_with_examples())


@pytest.mark.parametrize("module", _modules_with_examples())
def test_docstring_examples(module: str) -> None:
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0, result


def test_a_hand_that_may_kong_is_offered_the_kong_beside_its_discards() -> None:
    """A beginner review: the fourth copy of a called pung was advised away as 孤張字牌, and four held copies were
    never offered as a concealed kong."""
    from companion.rules.efficiency import kong_options

    added = Hand.parse("45m345p678p123s99s 5z pung:555z@L")
    (k,) = kong_options(added)
    assert k.added and k.tile is Tile.Z5 and str(k.hand) == "45m345678p12399s addkong:5555z@L"
    assert k.reason_zh.startswith("加槓白板：槓完補一張牌，聽三萬、六萬") and "多摸一張" in k.reason_zh
    assert k.reason_en.startswith("Added kong of the White dragon (5z): a replacement draw follows; ready, waiting on 3m and 6m")
    fourth = next(o for o in discard_options(added) if o.discard is Tile.Z5)
    assert "可以加槓" in fourth.reason_zh and "孤張" not in fourth.reason_zh and "added kong" in fourth.reason_en
    held = Hand.parse("4444m56m345p678p123s55z")
    (k,) = kong_options(held)
    assert not k.added and str(k.hand) == "56m345678p123s55z ckong:4444m"
    # ready either way, but on 7m alone (the 4m are all his): fewer tiles than discarding 3p, and it says so
    assert [i.tile for i in k.improvements] == [Tile.M7] and "少6張進張" in k.reason_zh and "6 tiles fewer" in k.reason_en
    assert not kong_options(Hand.parse("45m345p678p123s999s55z7z"))


@given(drawn_hands())
def test_kong_options_agree_with_shanten(case: tuple[Hand, tuple[Tile, ...]]) -> None:
    from companion.rules.efficiency import kong_options

    hand, visible = case
    counts = hand.concealed_counts()
    pungs = {m.tiles[0] for m in hand.melds if m.kind is MeldKind.PUNG}
    options = kong_options(hand, visible)
    assert {(k.tile, k.added) for k in options} == {(Tile(t), False) for t in range(34) if counts[t] == 4} | {
        (t, True) for t in pungs if counts[t]}
    seen = [visible.count(Tile(k)) for k in range(34)]
    for k in options:
        after = k.hand
        assert after.is_waiting_size and len(after.melds) == len(hand.melds) + (not k.added)
        assert sorted(after.all_tiles()) == sorted(hand.all_tiles())
        assert k.shanten == shanten(after)
        own = after.own_counts()
        better = [t for t in range(34) if own[t] < 4 and shanten(after.add(Tile(t))) < k.shanten]
        if k.shanten == 1:  # a step from ready: only draws after which some discard waits on a tile not all in sight
            better = [t for t in better if 4 - own[t] - seen[t] > 0 and _live_after(after, Tile(t), own, seen)]
        elif k.shanten >= 2:  # further off: a kind all in sight improves nothing
            better = [t for t in better if 4 - own[t] - seen[t] > 0]
        assert [int(i.tile) for i in k.improvements] == better
        assert all(i.unseen == 4 - own[i.tile] - seen[i.tile] for i in k.improvements)


def _live_after(hand: Hand, drawn: Tile, own: list[int], seen: list[int]) -> bool:
    """Some discard after drawing ``drawn`` leaves ``hand`` ready on a wait with a copy neither its own nor seen."""
    from companion.rules.waits import structural_waits

    full = hand.add(drawn)
    for d in set(full.concealed):
        rest = Hand(full.remove(d).concealed, hand.melds, hand.flowers, hand.sets)
        if shanten(rest) == 0 and any(4 - own[w] - (w == drawn) - seen[w] > 0 for w in structural_waits(rest)):
            return True
    return False


def test_at_a_tie_a_guest_wind_goes_before_an_honour_whose_pung_scores() -> None:
    """Three lone honours tied: a wind that scores nothing goes first, the dragons (三元牌) after; a table that
    knows the seat and the round keeps those winds too (a teaching review: East went before the red dragon)."""
    hand = Hand.parse("12478m3569p23788s157z")
    assert [o.discard.code for o in discard_options(hand)[:3]] == ["1z", "5z", "7z"]
    east_seat = discard_options(hand, valued=(Tile.Z1, Tile.Z5, Tile.Z6, Tile.Z7))
    assert [o.discard.code for o in east_seat[:3]] == ["1z", "5z", "7z"]  # all three score: tile order
    east_only = discard_options(hand, valued=(Tile.Z1,))
    assert [o.discard.code for o in east_only[:3]] == ["5z", "7z", "1z"]


def test_at_a_tie_a_fourth_copy_is_kept_for_a_concealed_kong() -> None:
    """A teaching review: four East and a lone red dragon, both discards a step from ready on 12 tiles; the fourth
    East was ranked first, though keeping it leaves the four for a concealed kong (a draw more)."""
    options = discard_options(Hand.parse("1111z23m456p789s55s22z7z"))
    assert [o.discard.code for o in options[:2]] == ["7z", "1z"]
    assert (options[0].shanten, options[0].unseen) == (options[1].shanten, options[1].unseen)


def test_a_kongs_improvements_leave_out_draws_that_lead_only_to_dead_waits() -> None:
    """An audit: a kong a step from ready counted 1p as improving it, though after 1p the hand waits only on tiles
    all in sight; the discards it is weighed against leave such draws out."""
    (kong,) = kong_options(Hand.parse("1155556788m2334p ckong:5555p"), visible="79m1122289p1799s15z")
    assert kong.tile == Tile.from_code("5m") and kong.shanten == 1
    tiles = [i.tile.code for i in kong.improvements]
    assert "1p" not in tiles and {"6m", "9m"} <= set(tiles) and all(i.unseen > 0 for i in kong.improvements)


def test_a_discard_leaving_a_wait_all_in_the_players_own_hand_says_why_it_is_a_step_away() -> None:
    """Spec §3.5: 1111m and a lone 1m wait only on a fifth 1m. A teaching review read "1 step from ready … 118 tiles"
    and could not tell why it ranked below a wait of 4 tiles."""
    options = {o.discard.code: o for o in discard_options(Hand.parse("11112m456p789p123s555z"))}
    two = options["2m"]
    assert two.shanten == 1 and "（聽的一萬四張都在自己手上）" in two.reason_zh
    assert "1 useful draw from ready (its wait is in the player's own hand: all four 1m)" in two.reason_en
    assert "own hand" not in options["9p"].reason_en  # a step away for want of a set: nothing of the kind said


def test_a_wait_all_in_the_own_hand_is_said_where_nothing_improves_the_hand_either() -> None:
    """After discarding 1p, 2235p is ready in shape on 4p, all four of them the player's own (pung 444p, chow 456p),
    and every tile that would improve it is in sight: the reason said only the latter (a teaching review)."""
    hand = Hand.parse("1p2p2p3p5p chow:456p@L pung:444p@L kong:9999p@R pung:333p@L")
    seen = "1m1m3m3m4m6m6m8m8m8m9m1p2p2p5p5p6p7p7p7p7p8p8p1s1s1s2s2s2s3s3s4s4s5s6s6s7s8s8s8s9s9s1z1z2z2z3z4z4z4z5z5z6z6z7z"
    one = next(o for o in discard_options(hand, seen) if o.discard == Tile.from_code("1p"))
    assert not one.improvements and one.shanten == 1  # (ready in shape on a tile it cannot draw: a step away)
    assert "四筒四張都在自己手上" in one.reason_zh and "its wait is in the player's own hand: all four 4p" in one.reason_en


def test_at_a_full_tie_a_fourth_copy_of_a_suit_tile_goes_last_too() -> None:
    """The docstring said a fourth copy goes last and then "an honour first", read as if for honours alone (a teaching
    review): four 1s at a tie with 4s are kept, 4s first, as four East are kept."""
    options = discard_options(Hand.parse("355789m16p111134779s"))
    four, other = next(o for o in options if o.discard is Tile.S1), next(o for o in options if o.discard is Tile.S4)
    assert (four.shanten, four.unseen, len(four.improvements)) == (other.shanten, other.unseen, len(other.improvements))
    assert [o.discard for o in options].index(Tile.S4) < [o.discard for o in options].index(Tile.S1)
