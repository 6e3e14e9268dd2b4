"""The wait quiz: every hand is ready, its answer is what brute force finds, and grading says what was missed."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from companion.app.hand_model import HandPanel, analyse
from companion.app.quiz_model import LESSONS, MIXED_UNTIL, THREES, WaitQuiz, grade, wait_quiz
from companion.hand import Hand
from companion.rules.shape import is_complete
from companion.rules.waits import WaitShape, structural_waits, wait_shapes
from companion.tiles import NUM_KINDS, Tile, parse_tiles


def _brute_waits(hand: tuple[str, ...]) -> list[str]:
    """Every kind that completes the hand and is not all in it already."""
    tiles = [Tile.from_code(c) for c in hand]
    held = Counter(tiles)
    return [Tile(k).code for k in range(NUM_KINDS) if held[Tile(k)] < 4
            and is_complete(Hand(tuple(sorted(tiles + [Tile(k)]))))]


def _quiz(hand: str) -> WaitQuiz:
    panel = analyse(hand)
    assert isinstance(panel, HandPanel)
    return WaitQuiz(0, tuple(t.code for t in parse_tiles(hand)), panel.waits)


@given(st.integers(min_value=1, max_value=100_000))
def test_every_quiz_hand_is_ready_and_its_answer_is_what_brute_force_finds(number: int) -> None:
    q = wait_quiz(number)
    assert len(q.hand) == 16 and max(Counter(q.hand).values()) <= 4
    assert [w.tile for w in q.waits] == _brute_waits(q.hand)
    assert all(w.why for w in q.waits)  # each wait says why


def test_the_same_number_gives_the_same_hand_and_most_hands_differ() -> None:
    assert wait_quiz(7) == wait_quiz(7)
    hands = {wait_quiz(n).hand for n in range(1, 41)}
    assert len(hands) == 40
    several = sum(len(wait_quiz(n).waits) > 1 for n in range(1, 41))
    assert several >= 20  # mostly hands with several waits: the ones beginners miss


def test_grading_names_what_was_missed_and_what_is_not_a_wait() -> None:
    q = wait_quiz(1)
    waits = [w.tile for w in q.waits]
    assert len(waits) > 1
    perfect = grade(q, set(waits))
    assert perfect.perfect and str(len(waits)) in perfect.verdict.en
    not_wait = next(Tile(k).code for k in range(34) if Tile(k).code not in waits)
    g = grade(q, {waits[0], not_wait})
    assert not g.perfect and g.right == (waits[0],) and g.missed == tuple(waits[1:]) and g.wrong == (not_wait,)
    assert Tile.from_code(not_wait).zh in g.verdict.zh and not_wait in g.verdict.en
    assert grade(q, set()).missed == tuple(waits)
    east = grade(q, {*waits, "1z"}) if "1z" not in waits else grade(q, {*waits, "5z"})
    honour = Tile.from_code(east.wrong[0])
    assert f"{honour.en} ({honour.code})" in east.verdict.en  # an honour by its name, not its code alone


def test_the_first_quizzes_start_with_one_or_two_waits_and_grow_harder_with_no_four_of_a_kind() -> None:
    """A teaching review: quiz 1 had five waits and all four 7s, 26 of the first 40 held four of a kind (a player
    would have made a concealed kong), and the number of waits came in no order."""
    counts = [len(wait_quiz(n).waits) for n in range(1, 41)]
    assert all(1 <= c <= 2 for c in counts[:5])
    assert all(2 <= c <= 3 for c in counts[5:12]) and all(3 <= c <= 4 for c in counts[12:20])
    assert all(c >= 4 for c in counts[20:])
    assert all(max(Counter(wait_quiz(n).hand).values()) <= 3 for n in range(1, 41))


@given(st.integers(min_value=1, max_value=100_000))
def test_no_quiz_holds_four_of_a_kind(number: int) -> None:
    assert max(Counter(wait_quiz(number).hand).values()) <= 3


def test_a_tile_that_fits_the_shape_but_is_all_in_the_hand_is_said_so() -> None:
    """A hand holding all four 6p, which a fifth would complete: picked, 6p is said to be all in the hand, not to
    fit no arrangement (a teaching review: the reason turned the lesson upside down); 1m fits none. (The quizzes
    no longer deal four of a kind; the grading still says it of such a hand.)"""
    from companion.app.hand_model import HandPanel, analyse

    hand = "2p3p4p6p6p6p6p7p7p8p8p9p9p1s2s3s"  # the old quiz 15: waits on 9p alone
    panel = analyse(hand)
    assert isinstance(panel, HandPanel) and [w.tile for w in panel.waits] == ["9p"]
    q = WaitQuiz(15, tuple(hand[i:i + 2] for i in range(0, 32, 2)), panel.waits)
    assert Counter(q.hand)["6p"] == 4 and "6p" not in [w.tile for w in q.waits]
    assert Tile.from_code("6p") in structural_waits(Hand.parse("".join(q.hand)))  # a fifth would complete it
    g = grade(q, {"6p", "1m"})
    why = dict(zip(g.wrong, g.wrong_why, strict=True))
    assert "四張六筒都在你自己手上" in why["6p"].zh and "all four are in your own hand" in why["6p"].en
    assert "排不成" in why["1m"].zh and "cannot be arranged" in why["1m"].en


@given(st.integers(1, 400))
def test_every_discard_quiz_is_a_drawn_hand_and_its_best_is_what_brute_force_finds(number: int) -> None:
    from companion.app.quiz_model import discard_quiz
    from companion.rules.shanten import shanten

    q = discard_quiz(number)
    tiles = [Tile.from_code(c) for c in q.hand]
    # no four of a kind: its best play may be a kong, which a discard quiz cannot grade
    assert len(tiles) == 17 and max(Counter(tiles).values()) <= 3 and not is_complete(Hand(tuple(tiles)))
    after = {}
    for t in set(tiles):  # brute force: the shanten each discard leaves
        rest = list(tiles)
        rest.remove(t)
        after[t.code] = shanten(Hand(tuple(rest)))
    assert {c.tile: c.shanten for c in q.choices} == after
    nearest = min(after.values())
    assert q.best and all(after[b] == nearest for b in q.best)
    assert len({(c.shanten, c.unseen) for c in q.choices}) >= 3  # a choice worth thinking about
    assert q.choices[0].shanten in (1, 2)  # one or two steps from ready after the best discard, as promised


def test_the_discard_quiz_is_the_same_for_a_number_and_grades_the_tap() -> None:
    import pytest

    from companion.app.quiz_model import discard_quiz, grade_discard

    q = discard_quiz(1)
    assert discard_quiz(1) == q and discard_quiz(2).hand != q.hand
    good = grade_discard(q, q.best[0])
    assert good.best and good.verdict.en == "Right! Discarding the West wind (3z) is the best play"
    worst = q.choices[-1].tile
    bad = grade_discard(q, worst)
    assert q.best == ("3z",) and not bad.best and \
        bad.verdict.en.startswith(f"Discarding {worst} is not the best: it leaves the hand ")
    with pytest.raises(ValueError, match="not in the quiz's hand"):
        grade_discard(q, next(f"{r}z" for r in range(1, 8) if f"{r}z" not in q.hand))


def test_the_quiz_says_a_tile_picked_is_not_a_wait_not_that_the_hand_is_not_ready() -> None:
    """A teaching review: 「紅框：不是聽牌」 read as "not a ready hand", and "no wait" is no English for a tile."""
    from companion.app.words import ui

    key = ui("quiz_key_wrong")
    assert key.zh == "紅框：不是要聽的牌" and key.en == "Red: picked, but not a wait"
    q = wait_quiz(1)
    g = grade(q, {next(Tile(k).code for k in range(34) if Tile(k).code not in [w.tile for w in q.waits])})
    assert g.wrong_why[0].en.startswith(f"{g.wrong[0]} is not a wait: ")


def test_the_grading_lines_name_an_honour_with_the_and_list_tiles_with_commas_and_and() -> None:
    """A teaching review read "discard Green dragon (6z)" (the app's English says "the Green dragon") and "not
    waits: 5m East wind (1z)", a list with no separators."""
    from companion.app.quiz_model import discard_quiz, grade_discard

    q = discard_quiz(3)
    assert q.best == ("5z",)  # (after the first three quizzes no lone tile is the answer)
    assert grade_discard(q, "9s").verdict.en == ("Discarding 9s is not the best: it leaves 8 tiles to improve the "
                                                 "hand; discarding the White dragon (5z) leaves 18")
    assert grade_discard(q, "5z").verdict.en == "Right! Discarding the White dragon (5z) is the best play"
    assert grade_discard(discard_quiz(4), "9p").verdict.en.endswith("discarding 6p or 6s leaves 19")
    three = discard_quiz(47)
    assert three.best == ("9m", "2m", "5m", "3p")
    said = grade_discard(three, "7m").verdict
    assert "; discarding 9m, 2m, 5m or 3p leaves " in said.en and "；打九萬、二萬、五萬、三筒的話還差兩張" in said.zh
    w = _quiz("1s1s1s2s2s4s4s4s5s5s7s7s7s8s8s8s")
    assert [x.tile for x in w.waits] == ["2s", "5s"]
    g = grade(w, {"5m", "1z", "7z"})
    assert g.verdict.en == "0 of 2 right. Missed: 2s and 5s; not waits: 5m, the East wind (1z) and the Red dragon (7z)"
    assert g.verdict.zh == "對了 0／2 種。漏了：二條、五條；多選：五萬、東、紅中"
    assert g.wrong_why[1].en.startswith("The East wind (1z) is not a wait: ")


def test_the_first_quizzes_are_one_lesson_a_shape_and_no_two_of_forty_share_waits_and_suits() -> None:
    """A teaching review: quiz 1 was a six-pung 雙碰 hand, not the clearest opening lesson, and quizzes 1 and 10
    (1s1s1s2s2s4s4s4s5s5s7s7s7s8s8s8s, 1s1s1s2s2s4s4s4s5s5s6s6s6s9s9s9s) near the same hand with the same answer."""
    from companion.rules.waits import WaitShape, wait_shapes

    lessons = [WaitShape.TWO_SIDED, WaitShape.EDGE, WaitShape.CLOSED, WaitShape.SINGLE, WaitShape.DOUBLE_PUNG]
    for number, shape in enumerate(lessons, 1):
        q = wait_quiz(number)
        hand = Hand(tuple(parse_tiles("".join(q.hand))))
        assert all(wait_shapes(hand, Tile.from_code(w.tile)) == (shape,) for w in q.waits), (number, q.hand)
        assert len(q.waits) == (2 if shape in (WaitShape.TWO_SIDED, WaitShape.DOUBLE_PUNG) else 1)
        if shape is not WaitShape.DOUBLE_PUNG:  # a hand of chows and a pair: no three of a kind
            assert max(Counter(q.hand).values()) <= 2
    assert [w.tile for w in wait_quiz(1).waits] == ["5m", "8m"]
    assert [why.zh for w in wait_quiz(1).waits for why in w.why] == [
        "六七萬兩頭都能接，摸到五萬成順子五六七萬（兩面）", "六七萬兩頭都能接，摸到八萬成順子六七八萬（兩面）"]
    said = [(tuple(w.tile for w in q.waits), frozenset(t[1] for t in q.hand if t[1] != "z"))
            for q in map(wait_quiz, range(1, 41))]
    assert len(set(said)) == 40
    assert wait_quiz(10) == wait_quiz(10) and wait_quiz(41) == wait_quiz(41)  # the same number, the same hand


def _runs(tiles: list[Tile]) -> list[list[Tile]]:
    """The tiles in runs of one suit, each rank next to the one before (an honour a run of its own kind)."""
    runs: list[list[Tile]] = []
    for t in sorted(tiles):
        last = runs[-1][-1] if runs else None
        if last is not None and (last == t or (t.is_suited and last.is_suited and last.suit == t.suit
                                               and t.rank - last.rank == 1)):
            runs[-1].append(t)
        else:
            runs.append([t])
    return runs


def test_every_lesson_hand_shows_each_set_and_the_partial_one_apart() -> None:
    """The lessons' hands are "each set plain to see": a beginner's review found quiz 1's two-sided 56m hidden in
    45566m, quiz 2 (edge) holding 445566p and quiz 3 (closed) 11223344566m, whose answer said "46m has a gap" of
    tiles nowhere apart. With any of its waits added, each lesson hand lies in runs that are each one chow, one pung
    or the pair, and without it the partial set is a run of its own (a closed wait's two tiles a gap apart)."""
    for number in range(1, len(LESSONS) + 1):
        q = wait_quiz(number)
        tiles = [Tile.from_code(c) for c in q.hand]
        for w in q.waits:
            wait = Tile.from_code(w.tile)
            for run in _runs(tiles + [wait]):
                kinds = Counter(run)
                chow = len(run) == 3 and len(kinds) == 3
                assert chow or (len(kinds) == 1 and len(run) in (2, 3)), (number, q.hand, w.tile, run)
            made = next(r for r in _runs(tiles + [wait]) if wait in r)
            partial = list(made)
            partial.remove(wait)
            near = [t for t in tiles if t.suit == wait.suit and t not in partial
                    and min(abs(t.rank - p.rank) for p in partial + [wait]) <= 1] if wait.is_suited else []
            assert not near, (number, q.hand, w.tile, near)


def test_the_chinese_not_a_wait_line_has_no_stray_spaces() -> None:
    """A teaching review read 「五萬 不是聽的牌：…」."""
    g = grade(_quiz("1s1s1s2s2s4s4s4s5s5s7s7s7s8s8s8s"), {"5m"})
    assert g.wrong_why[0].zh.startswith("五萬不是聽的牌：加進這手")


def test_the_quizzes_after_the_lessons_do_not_repeat_the_double_pung_lesson() -> None:
    """Quizzes 5, 6, 8 and 10 were all 雙碰 answers (10: 1s1s1s2s2s4s4s4s5s5s6s6s6s9s9s9s on 2s and 5s), one shape
    over and over right after its lesson (a final review): through MIXED_UNTIL no wait is a double pung only, and the
    quizzes stay the same for the same number."""
    for n in range(len(LESSONS) + 1, MIXED_UNTIL + 1):
        quiz = wait_quiz(n)
        hand = Hand(tuple(Tile.from_code(c) for c in quiz.hand))
        assert all(wait_shapes(hand, Tile.from_code(w.tile)) != (WaitShape.DOUBLE_PUNG,) for w in quiz.waits), n
    assert "".join(wait_quiz(10).hand) != "1s1s1s2s2s4s4s4s5s5s6s6s6s9s9s9s"
    assert "".join(wait_quiz(10).hand) == "2s2s2s3s4s4s5s5s5s6s6s7s7s8s9s9s"


def test_the_quizzes_after_the_lessons_mix_chows_and_pungs() -> None:
    """Quiz 6 was 1s3s3s3s4s4s4s6s6s6s7s7s8s8s9s9s, pung after pung (333s 444s 666s) just after the lessons, and 27
    of 40 seeds of it held three or four kinds three times (a review): through MIXED_UNTIL a quiz holds at most
    THREES kinds three times, later ones one more."""
    assert "".join(wait_quiz(6).hand) != "1s3s3s3s4s4s4s6s6s6s7s7s8s8s9s9s"
    for n in range(len(LESSONS) + 1, 81):
        held = Counter(wait_quiz(n).hand)
        assert sum(k >= 3 for k in held.values()) <= THREES + (n > MIXED_UNTIL), (n, wait_quiz(n).hand)


def test_the_discard_quizzes_answer_is_no_lone_tile_after_the_first_lessons() -> None:
    """A teaching review: 16 of the first 40 discard quizzes were answered by a lone honour (2, 3, 4, 5, 7, 9, 10,
    11: 6z, 4z, 2z, 6z, 5z, 1z, 1z, 3z), and many were ready at once though one or two steps from ready was
    promised. After the first lessons the answer keeps the wider of discards as near ready, none of them a tile
    held once with nothing beside it."""
    from companion.app.quiz_model import EASY_DISCARDS, discard_quiz

    for number in range(1, 41):
        q = discard_quiz(number)
        tiles = [Tile.from_code(c) for c in q.hand]
        assert q.choices[0].shanten in (1, 2), (number, q.hand)
        if number <= EASY_DISCARDS:
            continue
        for b in map(Tile.from_code, q.best):
            beside = [t for t in tiles if t != b and t.is_suited and t.suit == b.suit and abs(t.rank - b.rank) <= 2]
            assert tiles.count(b) > 1 or beside, (number, q.hand, q.best)
        near = {c.unseen for c in q.choices if c.shanten == q.choices[0].shanten}
        assert len(near) >= 2, (number, q.hand)  # a wider and a narrower way as near ready: a choice to weigh


def test_grading_a_worse_discard_says_why_with_the_numbers_of_the_choices() -> None:
    """A review: a wrong pick read "Discarding 3p is not the best: discard 6p or 6s", the reason only in each
    choice's line below. The grading now says what the pick leaves against the best: fewer tiles to improve the hand
    at the same distance from ready, or a useful draw more, in both languages, with the choices' numbers."""
    from companion.app.quiz_model import discard_quiz, grade_discard

    q = discard_quiz(4)
    assert q.best == ("6p", "6s")
    by = {c.tile: c for c in q.choices}
    assert (by["9p"].shanten, by["9p"].unseen, q.choices[0].unseen) == (1, 15, 19)
    fewer = grade_discard(q, "9p").verdict
    assert fewer.en == ("Discarding 9p is not the best: it leaves 15 tiles to improve the hand; discarding 6p or 6s "
                        "leaves 19")
    assert fewer.zh == "打九筒不是最好：進張只剩15張，打六筒、六條有19張"
    assert by["1p"].shanten == 2
    farther = grade_discard(q, "1p").verdict
    assert farther.en == ("Discarding 1p is not the best: it leaves the hand 2 useful draws from ready; discarding 6p "
                          "or 6s leaves it 1 useful draw from ready")
    assert farther.zh == "打一筒不是最好：還差兩張才聽（二向聽）；打六筒、六條的話還差一張才聽（一向聽）"


def test_some_discard_quizzes_are_two_from_ready_and_some_hold_one_suit_with_honours() -> None:
    """A review: all of quizzes 1-40 were one useful draw from ready after the best discard, though "one or two"
    was promised, all held two suits, and 11 held honours. Now the TWO_AWAY quizzes are two from ready (the rest
    one), the ONE_SUIT ones keep their suit tiles to one suit with honours beside, still with no lone tile for the
    answer, and the same number gives the same hand."""
    from companion.app.quiz_model import ONE_SUIT, SUIT_TILES, TWO_AWAY, discard_quiz

    far = {n: discard_quiz(n).choices[0].shanten for n in range(1, 41)}
    assert {n for n, s in far.items() if s == 2} == {11, 15, 19, 23, 27, 31, 35, 39} == {n for n in far if n in TWO_AWAY}
    assert all(s == 1 for n, s in far.items() if n not in TWO_AWAY)
    for n in (n for n in range(1, 81) if n in ONE_SUIT):
        q = discard_quiz(n)
        suits = {c[1] for c in q.hand if c[1] != "z"}
        assert len(suits) == 1 and any(c[1] == "z" for c in q.hand), (n, q.hand)
        assert sum(c[1] != "z" for c in q.hand) <= SUIT_TILES, (n, q.hand)  # (a bigger suit is slow to weigh)
    assert sum(any(c[1] == "z" for c in discard_quiz(n).hand) for n in range(1, 41)) >= 14
    assert "".join(discard_quiz(14).hand) == "2m2m3m4m4m4m5m6m6m6m7m7m4z4z7z7z7z"
    assert discard_quiz(14).best == ("6m",)
