"""The Learn tab's quizzes. The wait quiz: a ready hand, the player picks the tiles it waits on, and the answer says
why. The discard quiz: a hand just after a draw, the player taps the discard that keeps it fastest, and every
discard's result is shown (:func:`~companion.rules.efficiency.discard_options`, the advice the Table and My hand tabs
give).

Plain Python, no flet. Each quiz is made from its number (the same number, the same hand): five sets and a pair
drawn from one set of tiles, one tile taken out, so the hand is ready by construction; the answer is what
:func:`~companion.app.hand_model.analyse` says of it (each wait with the partial set it completes and its shape),
the same analysis the My hand tab gives. Early quizzes keep to one or two suits, where waits come several at a
time and are easy to miss.
"""

from __future__ import annotations

import functools
import random
from collections import Counter
from dataclasses import dataclass

from companion.app.hand_model import HandPanel, WaitWhy, analyse
from companion.app.words import Words, shanten_words, ui
from companion.english import listed, the_tile
from companion.hand import Hand
from companion.rules.efficiency import discard_options
from companion.rules.shanten import shanten
from companion.rules.shape import is_complete
from companion.rules.waits import WaitShape, structural_waits, wait_shapes
from companion.tiles import Tile

__all__ = ["WaitQuiz", "QuizGrade", "wait_quiz", "waits_wanted", "grade", "DiscardQuiz", "DiscardChoice", "DiscardGrade",
           "discard_quiz", "grade_discard"]

SUITS = "mps"


@dataclass(frozen=True, slots=True)
class WaitQuiz:
    number: int
    hand: tuple[str, ...]  # 16 tile codes, sorted
    waits: tuple[WaitWhy, ...]  # the answer, with why


@dataclass(frozen=True, slots=True)
class QuizGrade:
    right: tuple[str, ...]
    missed: tuple[str, ...]
    wrong: tuple[str, ...]
    verdict: Words
    wrong_why: tuple[Words, ...] = ()  # why each tile of ``wrong`` is not a wait

    @property
    def perfect(self) -> bool:
        return not self.missed and not self.wrong


def waits_wanted(number: int) -> range:
    """How many waits quiz ``number`` has: one or two at first, then more, a step every few quizzes (a teaching
    review: quiz 1 had five waits, and the 40 first came in no order of difficulty)."""
    if number <= 5:
        return range(1, 3)
    if number <= 12:
        return range(2, 4)
    if number <= 20:
        return range(3, 5)
    return range(4, 10)


LESSONS = ((WaitShape.TWO_SIDED, 2), (WaitShape.EDGE, 1), (WaitShape.CLOSED, 1), (WaitShape.SINGLE, 1),
           (WaitShape.DOUBLE_PUNG, 2))
"""Quizzes 1-5, one shape each with its plain number of waits (a teaching review: quiz 1 was a six-pung 雙碰 hand,
not the clearest opening lesson); each in all three suits, the first four in a hand of chows and a pair with no
three of a kind, every set :data:`APART` from the others of its suit."""

APART = 2
"""In a lesson's hand, the empty ranks at least between two sets (or the pair) of one suit, so each set is plain to
see, the partial one too, and stays apart with its wait added: a beginner's review found quiz 1's two-sided 56m
hidden in 45566m, quiz 2 holding 445566p and quiz 3's closed 46m in 11223344566m, two chows laid over each other."""

PATTERNS = ("s", "m", "p", "m", "p", "s", "mp", "ps", "ms")
"""The suits of quiz ``n``: ``PATTERNS[(n - 1) % 9]``, mostly one suit, where waits come several at a time."""

MIXED_UNTIL = 12
"""Quizzes after the lessons up to this one have no wait that is a double pung only: quizzes 5, 6, 8 and 10 were
all 雙碰 hands, 10 of pungs in one suit, one shape over and over just after its lesson (a final review)."""

THREES = 2
"""Quizzes after the lessons up to :data:`MIXED_UNTIL` hold at most this many kinds three times, later ones one more.
A suit's sets drawn one by one (a pung at odds of 0.35, chows overlapping: 789s twice reads 778899s) made most
one-suit hands pung after pung: quiz 6 was 1s 333s 444s 666s 778899s, and 27 of 40 seeds of it held three or four
kinds three times, where the quizzes after the lessons should mix chows and pungs (a review)."""

BLOCK = 40
"""No two quizzes of a run of 40 (1-40, 41-80, ...) have the same waits in the same suits (a teaching review: quiz
1 and quiz 10 were near the same hand with the same answer, 2s and 5s)."""


def wait_quiz(number: int) -> WaitQuiz:
    """Quiz ``number`` (from 1): always the same ready hand for the same number, with :func:`waits_wanted` waits,
    and never four of a kind in hand (a player holding four would have made a concealed kong of them; as in the
    discard quiz). Quizzes 1-5 are :data:`LESSONS`; no two quizzes of a :data:`BLOCK` share waits and suits."""
    return _wait_quiz(number)


@functools.lru_cache(maxsize=256)
def _wait_quiz(number: int) -> WaitQuiz:
    rng = random.Random(f"wait-quiz-{number}")
    lesson = LESSONS[number - 1] if number <= len(LESSONS) else None
    suits = "mps" if lesson else PATTERNS[(number - 1) % len(PATTERNS)]  # a lesson: each set plain to see
    honours = lesson is None and number % 4 == 0  # now and then a pung of honours too
    wanted = range(lesson[1], lesson[1] + 1) if lesson else waits_wanted(number)
    chows = lesson is not None and lesson[0] is not WaitShape.DOUBLE_PUNG
    taken = set() if lesson else _taken(number, suits)
    while True:
        tiles = _complete_hand(rng, suits, honours, most=2 if chows else 3, chows=1.0 if chows else 0.65,
                               apart=APART if lesson else -1)
        tiles.remove(rng.choice(tiles))
        if {t.code[1] for t in tiles if t.is_suited} != set(suits):
            continue
        panel = analyse("".join(t.code for t in tiles))
        if not isinstance(panel, HandPanel) or len(panel.waits) not in wanted:
            continue
        waits = tuple(w.tile for w in panel.waits)
        if waits in taken:
            continue
        hand = Hand(tuple(tiles))
        if lesson and any(wait_shapes(hand, Tile.from_code(w)) != (lesson[0],) for w in waits):
            continue
        if not lesson and number <= MIXED_UNTIL and any(
                wait_shapes(hand, Tile.from_code(w)) == (WaitShape.DOUBLE_PUNG,) for w in waits):
            continue
        if not lesson and sum(n >= 3 for n in Counter(tiles).values()) > THREES + (number > MIXED_UNTIL):
            continue
        return WaitQuiz(number, tuple(t.code for t in sorted(tiles)), panel.waits)


def _taken(number: int, suits: str) -> set[tuple[str, ...]]:
    """The waits of the earlier quizzes of ``number``'s run of :data:`BLOCK` in the same suits."""
    first = (number - 1) // BLOCK * BLOCK + 1
    return {tuple(w.tile for w in _wait_quiz(n).waits) for n in range(first, number)
            if PATTERNS[(n - 1) % len(PATTERNS)] == suits}


def _complete_hand(rng: random.Random, suits: str, honours: bool, most: int = 4, chows: float = 0.65,
                   apart: int = -1) -> list[Tile]:
    """Five sets and a pair (17 tiles) that one set of tiles can hold, with at most ``most`` copies of a kind; a
    suit set a chow with chance ``chows`` (else a pung). With ``apart`` of 0 or more, at least that many empty ranks
    lie between two sets (or a set and the pair) of one suit."""
    while True:
        used: Counter[Tile] = Counter()
        out: list[Tile] = []
        groups = tries = 0
        while groups < 5 and tries < 100:  # (sets laid apart may leave no room for a fifth: start again)
            tries += 1
            if honours and groups == 0:
                t = Tile.from_code(f"{rng.randint(1, 7)}z")
                group = [t, t, t]
            else:
                suit = rng.choice(suits)
                if rng.random() < chows:
                    start = rng.randint(1, 7)
                    group = [Tile.suited(suit, start + k) for k in range(3)]
                else:
                    t = Tile.suited(suit, rng.randint(1, 9))
                    group = [t, t, t]
            if all(used[t] + group.count(t) <= most for t in group) and _room(used, group, apart):
                used.update(group)
                out += group
                groups += 1
        pair = Tile.suited(rng.choice(suits), rng.randint(1, 9))
        if groups == 5 and used[pair] <= most - 2 and _room(used, [pair], apart):
            return out + [pair, pair]


def _room(used: Counter[Tile], group: list[Tile], apart: int) -> bool:
    """``group`` lies at least ``apart`` empty ranks from every suit tile of ``used`` of its suit (always, below 0)."""
    return apart < 0 or not any(u.is_suited and u.suit == t.suit and abs(u.rank - t.rank) <= apart
                                for t in group if t.is_suited for u in used)


def grade(quiz: WaitQuiz, picked: set[str]) -> QuizGrade:
    waits = [w.tile for w in quiz.waits]
    right = tuple(t for t in waits if t in picked)
    missed = tuple(t for t in waits if t not in picked)
    wrong = tuple(sorted((t for t in picked if t not in waits), key=lambda c: Tile.from_code(c)))
    if not missed and not wrong:
        verdict = ui("quiz_perfect", n=len(waits))
    else:
        verdict = ui("quiz_graded", right=len(right), n=len(waits), missed=_names(missed).zh,
                     missed_en=_names(missed).en, wrong=_names(wrong).zh, wrong_en=_names(wrong).en)
    return QuizGrade(right, missed, wrong, verdict, tuple(_not_a_wait(quiz, code) for code in wrong))


def _not_a_wait(quiz: WaitQuiz, code: str) -> Words:
    """Why ``code`` is not a wait of the quiz's hand: no arrangement takes it, or one does but the player holds all
    four (spec §3.5; a teaching review: such a tile was said to fit no arrangement, the lesson turned upside down)."""
    face = Tile.from_code(code)
    said = the_tile(face, face.said_en, begins=True)
    if face in structural_waits(Hand.parse("".join(quiz.hand))):
        return ui("quiz_not_wait_own", tile=face.zh, tile_en=said)
    return ui("quiz_not_wait", tile=face.zh, tile_en=said)


def _the(t: Tile) -> str:
    """A tile in an English sentence: a suit tile by its code (``6p``), an honour by its name and code, with "the"
    as the app's other lines say it (``the Green dragon (6z)``): "1z" tells a beginner nothing, and a review read
    "discard Green dragon (6z)"."""
    return the_tile(t, t.said_en)


def _listed(tiles: list[Tile], last: str) -> Words:
    """Tiles named in a list: 五萬、東 / ``5m and the East wind (1z)`` (a review read "5m East wind (1z)", no
    separators); ``last`` joins the last two in English ("and", "or")."""
    return Words("、".join(t.zh for t in tiles), listed([_the(t) for t in tiles], last))


def _names(codes: tuple[str, ...]) -> Words:
    if not codes:
        return Words("無", "none")
    return _listed([Tile.from_code(c) for c in codes], "and")


# --- the discard quiz -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DiscardChoice:
    tile: str
    shanten: int  # after this discard (0: ready)
    unseen: int  # copies of the tiles that would improve it (the waits, when ready)
    reason: Words


@dataclass(frozen=True, slots=True)
class DiscardQuiz:
    number: int
    hand: tuple[str, ...]  # 17 tile codes, sorted
    choices: tuple[DiscardChoice, ...]  # every distinct discard, best first

    @property
    def best(self) -> tuple[str, ...]:
        """Every discard as good as the first: as near ready, with as many tiles to improve it."""
        top = self.choices[0]
        return tuple(c.tile for c in self.choices if (c.shanten, c.unseen) == (top.shanten, top.unseen))


@dataclass(frozen=True, slots=True)
class DiscardGrade:
    picked: str
    best: bool
    verdict: Words


EASY_DISCARDS = 3
"""Discard quizzes up to this one may be answered by a lone tile, a first lesson (throw the loner, often an
honour); later ones never are: 16 of the first 40 were a lone honour (a teaching review), a choice that needed no
thought."""


TWO_AWAY = range(11, 10**9, 4)
"""Discard quizzes 11, 15, 19, ... are two useful draws from ready after the best discard, the others one: all of
the first 40 were one (a review), though two away is where the choice of discard matters most to a beginner."""

ONE_SUIT = range(14, 10**9, 8)
"""Discard quizzes 14, 22, 30, ... keep their suit tiles to one suit, with a pung and a pair of honours beside
before the swaps (混一色-style; the others hold two suits): seventeen tiles of one suit alone are nearly always
ready or complete (1 in 300 was a step from ready, about 0.4 s a quiz to find), and all of the first 40 held two
suits (a review)."""


SUIT_TILES = 12
"""A :data:`ONE_SUIT` quiz holds at most this many tiles of its suit: the shanten tables hold a suit of up to 12,
and a larger one is worked out tile by tile (quizzes 1-40 and the imports took 1.3 s of CPU with 13 to 15, 1.1 s with 12
at most, 0.9 s before the one-suit and two-away quizzes came)."""


def discard_quiz(number: int) -> DiscardQuiz:
    """Discard quiz ``number`` (from 1): always the same hand for the same number. A winning hand of two suits
    (one, with honours, at :data:`ONE_SUIT`) with two of its tiles (three at :data:`TWO_AWAY`) swapped for others
    beside its tiles, so it is one step from ready after the best discard (two at :data:`TWO_AWAY`; a review found
    most ready at once) and its discards differ; after the first :data:`EASY_DISCARDS` the best is no lone tile,
    and the discards as near ready differ in the tiles that improve them: the answer weighs partial sets and keeps
    the wider wait."""
    return _discard_quiz(number)


@functools.lru_cache(maxsize=256)
def _discard_quiz(number: int) -> DiscardQuiz:
    rng = random.Random(f"discard-quiz-{number}")
    one_suit = number in ONE_SUIT
    # two suits, or one with five honours: seventeen tiles of one suit are nearly always ready or complete (1 in 300
    # was a step from ready)
    suits = rng.choice(SUITS) if one_suit else "".join(rng.sample(SUITS, 2))
    away = 2 if number in TWO_AWAY else 1
    while True:
        tiles = _complete_hand(rng, suits, one_suit or number % 5 == 0)
        if one_suit:  # the pair an honour too: the suit holds 12 tiles, not 14 (:data:`SUIT_TILES`)
            tiles[-2:] = [Tile.from_code(f"{rng.choice([r for r in range(1, 8) if f'{r}z' != tiles[0].code])}z")] * 2
        for _ in range(away + 1):
            tiles.remove(rng.choice(tiles))
        while len(tiles) < 17:
            t = _beside(rng, tiles) if number > EASY_DISCARDS or rng.random() < 0.8 else \
                Tile.from_code(f"{rng.randint(1, 7)}z")
            if tiles.count(t) < 4:
                tiles.append(t)
        hand = Hand(tuple(sorted(tiles)))
        if one_suit and sum(t.is_suited for t in tiles) > SUIT_TILES:
            continue
        if is_complete(hand) or max(tiles.count(t) for t in tiles) == 4:
            continue  # four of a kind may be a concealed kong, which is no discard (a review saw one graded so)
        if shanten(hand) != away:  # (the best discard's: weighed before the slower options)
            continue
        options = discard_options(hand)
        results = {(o.shanten, o.unseen) for o in options}
        if len(results) < 3 or options[0].shanten != away:  # a choice worth thinking about, as far from ready
            continue
        best = [o for o in options if (o.shanten, o.unseen) == (options[0].shanten, options[0].unseen)]
        near = {o.unseen for o in options if o.shanten == options[0].shanten}
        if number > EASY_DISCARDS and (len(near) < 2 or any(_lone(tiles, o.discard) for o in best)):
            continue
        return DiscardQuiz(number, tuple(t.code for t in hand.concealed), tuple(
            DiscardChoice(o.discard.code, o.shanten, o.unseen, Words(o.reason_zh, o.reason_en)) for o in options))


def _beside(rng: random.Random, tiles: list[Tile]) -> Tile:
    """A tile beside one of ``tiles``: a copy of it, or a suit tile up to two from it (a tile joining nothing made
    the quiz's answer plain to see)."""
    t = rng.choice(tiles)
    if t.is_honour:
        return t
    step = rng.choice((-2, -1, 0, 1, 2))
    return Tile.suited(t.suit, min(9, max(1, t.rank + step)))


def _lone(tiles: list[Tile], x: Tile) -> bool:
    """``x`` is a lone tile of ``tiles`` (an honour, a terminal or any other): held once, and no suit tile up to two
    from it, a discard plain to see."""
    if tiles.count(x) != 1:
        return False
    return x.is_honour or not any(t != x and t.is_suited and t.suit == x.suit and abs(t.rank - x.rank) <= 2
                                  for t in tiles)


def grade_discard(quiz: DiscardQuiz, picked: str) -> DiscardGrade:
    """The player's discard ``picked`` against the best ones, and why: how far from ready it leaves the hand, or
    how many tiles would improve it, beside the best discard's."""
    mine = next((c for c in quiz.choices if c.tile == picked), None)
    if mine is None:
        raise ValueError(f"{picked} is not in the quiz's hand {''.join(quiz.hand)}")
    names = _listed([Tile.from_code(c) for c in quiz.best], "or")
    tile = Tile.from_code(picked)
    if picked in quiz.best:
        return DiscardGrade(picked, True, ui("dq_best", tile=tile.zh, tile_en=_the(tile)))
    top = quiz.choices[0]
    said = {"tile": tile.zh, "tile_en": _the(tile), "best": names.zh, "best_en": names.en}
    if mine.shanten > top.shanten:  # why, in the numbers of the choices' lines (it said only what to discard, a review)
        best = shanten_words(top.shanten)
        verdict = ui("dq_worse_farther", **said, **shanten_words(mine.shanten), best_far=best["far"],
                     best_far_en=best["far_en"])
    else:
        verdict = ui("dq_worse_fewer", **said, mine=mine.unseen, top=top.unseen)
    return DiscardGrade(picked, False, verdict)
