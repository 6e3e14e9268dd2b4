"""The Learn tab: every tai item with its meaning and an example scored live (:mod:`companion.app.learn_model`),
a wait quiz (:mod:`companion.app.quiz_model`), and the dealer's dice and the wall (:mod:`companion.app.wall_model`)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import flet as ft

from companion.app.learn_model import LearnItem, house_worths, learn_items
from companion.app.quiz_model import DiscardGrade, QuizGrade, discard_quiz, grade, grade_discard, wait_quiz
from companion.app.ui_kit import (
    ACCENT,
    CARD,
    FELT,
    GREY,
    ID_LEARN_TITLE,
    ID_LEARN_TOTAL,
    TILE_W,
    Host,
    bring_into_view,
    drop_down,
    ident,
    key_row,
    label,
    meld_tiles,
    on_tap,
    scroll_key,
    tile,
    tile_key,
    tile_name,
    tiles,
)
from companion.app.view_wall import wall_map
from companion.app.wall_model import dice_lesson
from companion.app.words import SEP, Words, ui
from companion.tiles import Tile

__all__ = ["LearnTab"]


def _verdict(t: Callable[[Words], str], buttons: list[ft.Control], streak: int, prefix: str,
             graded: tuple[Words, bool] | None, answer_key: str) -> list[ft.Control]:
    """A quiz's buttons with the streak, then (once answered) the verdict and the heading of the answer."""
    if streak:
        buttons.append(label(t(ui("quiz_streak", n=streak)), 13, colour=FELT))
    out: list[ft.Control] = [ft.Row(buttons, spacing=8, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
    if graded is not None:
        verdict, good = graded
        out += [ident(f"{prefix}-verdict", label(t(verdict), 15, bold=True, colour=FELT if good else ACCENT)),
                label(t(ui(answer_key)), 13, bold=True, colour=FELT)]
    return out


QUIZ_KEY_GAP = 2
QUIZ_KEYS_WIDE = 9 * 34 + 8 * QUIZ_KEY_GAP
"""The wait quiz's row of a suit's keys at most this wide: nine keys of a 28 px tile in a 3 px frame, as on a 390 px
phone; on a 360 px phone's card (312 px inside) nine of 33 px, where at a fixed width each suit's 九 wrapped onto a
line of its own (the four rows took seven)."""
ID_LEARN_DEALER = "learn-dealer-total"  # the dealer tai's sum, under its own rows
ID_LEARN_HOUSE = "learn-house"  # the item's worth under each house rule set saved
NARROW = 700
"""A page narrower than this (a phone) is scrolled to what a tap opened below the chips."""
LEARN_CARD = "learn-card"


class LearnTab:
    def __init__(self, host: Host) -> None:
        self.host = host
        self.item = "seat_flower"
        # the tab opens on what a winning hand is: it opened on 正花, and nothing on the beginner's path said what a
        # win was, nor a chow, a pung or a pair (a beginner review)
        self.mode = "basics"  # or "tai", "quiz", "discard", "dice"
        self.quiz = wait_quiz(1)
        self.picked: set[str] = set()
        self.graded: QuizGrade | None = None
        self.streak = 0
        self.dice = (2, 3, 5)
        self.dquiz = discard_quiz(1)
        self.dgrade: DiscardGrade | None = None
        self.dstreak = 0
        self._rng = random.Random()

    def pick(self, item_id: str) -> None:
        self.item = item_id
        self.host.render()
        page = self.host.page
        if 0 < (page.width or 0) < NARROW:  # on a phone the card lies under 9-14 rows of chips, below the screen: a
            bring_into_view(page, LEARN_CARD)  # tap seemed to do nothing (a beginner review)

    def show(self, mode: str) -> None:
        self.mode = mode
        self.host.render()

    def toggle(self, code: str) -> None:
        if self.graded is None:
            self.picked ^= {code}
            self.host.render()

    def check(self) -> None:
        self.graded = grade(self.quiz, self.picked)
        self.streak = self.streak + 1 if self.graded.perfect else 0
        self.host.render()

    def next_quiz(self) -> None:
        self.quiz, self.picked, self.graded = wait_quiz(self.quiz.number + 1), set(), None
        self.host.render()

    def discard(self, code: str) -> None:
        if self.dgrade is None:  # one answer a hand
            self.dgrade = grade_discard(self.dquiz, code)
            self.dstreak = self.dstreak + 1 if self.dgrade.best else 0
            self.host.render()

    def next_discard(self) -> None:
        self.dquiz, self.dgrade = discard_quiz(self.dquiz.number + 1), None
        self.host.render()

    def set_die(self, i: int, value: int) -> None:
        dice = list(self.dice)
        dice[i] = value
        self.dice = (dice[0], dice[1], dice[2])
        self.host.render()

    def roll(self) -> None:
        self.dice = (self._rng.randint(1, 6), self._rng.randint(1, 6), self._rng.randint(1, 6))
        self.host.render()

    def build(self) -> ft.Control:
        t = self.host.t

        def mode_button(mode: str, key: str) -> ft.Control:
            chosen = self.mode == mode
            return ident(f"learn-mode-{mode}", ft.Button(
                content=t(ui(key)), on_click=lambda: self.show(mode),
                style=ft.ButtonStyle(bgcolor=FELT if chosen else None, color="#ffffff" if chosen else None)))

        modes = ft.Row([mode_button("basics", "learn_basics"), mode_button("tai", "learn_tai"),
                        mode_button("quiz", "learn_quiz"),
                        mode_button("discard", "learn_discard"), mode_button("dice", "learn_dice")], spacing=8,
                       wrap=True)
        bodies = {"basics": self._basics, "quiz": self._quiz, "discard": self._discard, "dice": self._dice}
        body = bodies.get(self.mode, self._tai)()
        return ft.Column([modes, body], spacing=10)

    def _basics(self) -> ft.Control:
        """The first lesson: five sets and a pair, each kind of set with its tiles, a whole winning hand, and what
        ready and a wait mean."""
        t = self.host.t
        small = TILE_W["meld"]
        rows: list[ft.Control] = [ident("basics-intro", label(t(ui("basics_intro")), 14))]
        for key, codes in (("basics_chow", "2m3m4m"), ("basics_pung", "5p5p5p"), ("basics_kong", "7s7s7s7s"),
                           ("basics_pair", "1z1z")):
            rows.append(ident(f"basics-{key.removeprefix('basics_')}", ft.Row(
                [ft.Container(tiles(t, [codes[i:i + 2] for i in range(0, len(codes), 2)], small),
                              width=4 * (small + 1)),  # (the words of the four rows in line)
                 ft.Container(label(t(ui(key)), 13), expand=True)],
                spacing=10, vertical_alignment=ft.CrossAxisAlignment.CENTER)))
        rows.append(label(t(ui("basics_example")), 13, bold=True, colour=FELT))
        sets = ("2m3m4m", "6m7m8m", "5p5p5p", "7s8s9s", "1z1z1z")  # and the pair, 9s: one held, one won on
        hand: list[ft.Control] = [meld_tiles(t, [c[i:i + 2] for i in range(0, len(c), 2)]) for c in sets]
        hand += [ft.Row([tile(t, "9s", small), ft.Column(
            [tile(t, "9s", small), label(t(ui("learn_won_on")), 11, colour=ACCENT)], spacing=0, tight=True,
            horizontal_alignment=ft.CrossAxisAlignment.CENTER)], spacing=1, tight=True,
            vertical_alignment=ft.CrossAxisAlignment.START)]
        rows.append(ident("basics-hand", ft.Row(hand, spacing=6, run_spacing=6, wrap=True,
                                                vertical_alignment=ft.CrossAxisAlignment.START)))
        quiz, tai = ui("learn_quiz"), ui("learn_tai")
        rows.append(ident("basics-ready", label(t(ui("basics_ready", quiz=quiz.zh, quiz_en=quiz.en, tai=tai.zh,
                                                     tai_en=tai.en)), 13)))
        return ft.Container(ft.Column(rows, spacing=8), bgcolor=CARD, padding=14, border_radius=8)

    def _discard(self) -> ft.Control:
        t = self.host.t
        q, graded = self.dquiz, self.dgrade
        best = set(q.best)

        def key(i: int, code: str) -> ft.Control:
            colour, width = "#d0c8b0", 1
            if graded is not None and code in best:
                colour, width = FELT, 3
            elif graded is not None and code == graded.picked:
                colour, width = ACCENT, 3
            said = None if graded is None else "dq_tile_best" if code in best else \
                "dq_tile_picked" if code == graded.picked else None
            return quiz_key(f"dq-{i}", t(tile_name(code)), graded is not None and code == graded.picked,
                            None if said is None else t(ui(said)), ft.Container(
                                tile(t, code, TILE_W["hand"]), padding=4 - width, border_radius=4,
                                border=ft.Border.all(width, colour),  # the same size either way
                                on_click=None if graded is not None else on_tap(self.discard, code)))

        rows: list[ft.Control] = [label(t(ui("dq_intro", n=q.number)), 14, bold=True),
                                  ft.Row([key(i, c) for i, c in enumerate(q.hand)], spacing=1, wrap=True)]
        buttons: list[ft.Control] = [ident("dq-next", ft.OutlinedButton(content=t(ui("quiz_next")),
                                                                        on_click=self.next_discard))]
        rows += _verdict(t, buttons, self.dstreak, "dq", None if graded is None else (graded.verdict, graded.best), "dq_all")
        if graded is not None:
            for c in q.choices:
                mine = c.tile == graded.picked
                rows.append(ft.Row([tile(t, c.tile, TILE_W["wait"]), ft.Container(label(t(c.reason), 12, bold=mine,
                                                                          colour=ACCENT if mine and not graded.best
                                                                          else None), expand=True)],
                                   spacing=8, vertical_alignment=ft.CrossAxisAlignment.START))
        return ft.Container(ft.Column(rows, spacing=6), bgcolor=CARD, padding=14, border_radius=8)

    def _dice(self) -> ft.Control:
        t = self.host.t
        lesson = dice_lesson(self.dice)

        def die(i: int) -> ft.Control:
            def picked(e: Any) -> None:
                self.set_die(i, int(e.control.value))

            return drop_down(f"die-{i}", ft.Dropdown(value=str(self.dice[i]), width=80, dense=True, on_select=picked,
                                                     options=[ft.DropdownOption(key=str(n), text=str(n))
                                                              for n in range(1, 7)]), t(ui("die_n", n=i + 1)))

        rows: list[ft.Control] = [
            label(t(ui("dice_intro")), 14),
            ft.Row([die(0), die(1), die(2), ident("dice-roll", ft.Button(content=t(ui("dice_roll")), height=44,
                                                                         on_click=self.roll))],
                   spacing=8, wrap=True, vertical_alignment=ft.CrossAxisAlignment.CENTER)]
        rows += [ident(f"dice-step-{i}", label(f"{i + 1}. {t(w)}", 14 if i == 0 else 13, bold=i == 0))
                 for i, w in enumerate(lesson.steps)]
        pictures = ft.Row([
            ft.Column([label(t(lesson.caption), 13, bold=True, colour=FELT), wall_map(t, lesson.before, lines=False)],
                      spacing=6, tight=True),
            ft.Column([label(t(ui("dice_after")), 13, bold=True, colour=FELT), wall_map(t, lesson.after)],
                      spacing=6, tight=True)], spacing=24, run_spacing=16, wrap=True,
            vertical_alignment=ft.CrossAxisAlignment.START)
        rows.append(ident("dice-pictures", pictures))
        return ft.Container(ft.Column(rows, spacing=6), bgcolor=CARD, padding=14, border_radius=8)

    def _quiz(self) -> ft.Control:
        t = self.host.t
        q, graded = self.quiz, self.graded
        rows: list[ft.Control] = [label(t(ui("quiz_intro", n=q.number)), 14, bold=True),
                                  ident("quiz-shape", label(t(ui("quiz_shape_hint")), 13, colour=GREY)),
                                  ft.Row([tile(t, c, TILE_W["hand"]) for c in q.hand], spacing=1, wrap=True)]
        waits = {w.tile for w in q.waits}

        def key(code: str) -> ft.Control:
            chosen = code in self.picked
            colour = "#d0c8b0"
            if graded is not None and (chosen or code in waits):
                colour = FELT if code in waits and chosen else ACCENT if chosen else "#e0b040"
            elif chosen:
                colour = FELT
            width = 3 if chosen or (graded is not None and code in waits) else 1
            # the same size chosen or not (the row never re-wraps under the finger); nine fit a phone's width
            said = None
            if graded is not None and (chosen or code in waits):
                said = "quiz_key_right" if code in waits and chosen else "quiz_key_wrong" if chosen else "quiz_key_missed"
            return quiz_key(f"quiz-{code}", t(tile_name(code)), chosen, None if said is None else t(ui(said)),
                            tile_key(t, code, on_click=lambda: self.toggle(code), padding=3 - width,
                                     border_radius=4, border=ft.Border.all(width, colour)))

        for suit in "mpsz":  # a suit to a row on a 360 px phone too (:data:`QUIZ_KEYS_WIDE`)
            rows.append(key_row([key(f"{r}{suit}") for r in range(1, 10 if suit != "z" else 8)], QUIZ_KEY_GAP,
                                QUIZ_KEYS_WIDE))
        if graded is not None:  # what the frames' colours say (a review found no key to them)
            rows.append(ft.Row([_swatch(FELT, t(ui("quiz_key_right"))), _swatch("#e0b040", t(ui("quiz_key_missed"))),
                                _swatch(ACCENT, t(ui("quiz_key_wrong")))], spacing=12, wrap=True))
        buttons: list[ft.Control] = [ident("quiz-check", ft.Button(content=t(ui("quiz_check")), on_click=self.check,
                                                                   disabled=graded is not None)),
                                     ident("quiz-next", ft.OutlinedButton(content=t(ui("quiz_next")),
                                                                          on_click=self.next_quiz))]
        rows += _verdict(t, buttons, self.streak, "quiz", None if graded is None else (graded.verdict, graded.perfect),
                         "quiz_answer")
        if graded is not None:
            for w in q.waits:  # with the copies unseen, as My hand says them (a beginner review found none here)
                rows.append(ft.Row([tile(t, w.tile, TILE_W["wait"]),
                                    ident(f"quiz-left-{w.tile}", label(t(ui("left", n=w.unseen)), 12)),
                                    ft.Column([label(t(x), 13) for x in w.why], spacing=1, expand=True)],
                                   spacing=10, vertical_alignment=ft.CrossAxisAlignment.START))
            # why a tile picked is no wait (the waits alone left a beginner guessing)
            for code, why in zip(graded.wrong, graded.wrong_why, strict=True):
                rows.append(ident(f"quiz-not-{code}", ft.Row(  # the reason in a column that takes the row's room, as
                    # the waits' reasons above do: a plain text in a row ran past a phone's edge, cut (a review)
                    [tile(t, code, TILE_W["wait"]), ft.Column([label(t(why), 13, colour=ACCENT)], spacing=1, expand=True)],
                    spacing=10, vertical_alignment=ft.CrossAxisAlignment.START)))
        return ft.Container(ft.Column(rows, spacing=6), bgcolor=CARD, padding=14, border_radius=8)

    def _tai(self) -> ft.Control:
        t = self.host.t
        # by what they are worth under the default rules, the rule book's order among equals; the items those
        # rules do not count come last (a beginner review found the catalogue's order hard to scan)
        items = sorted(learn_items(), key=lambda i: (i.value == 0, i.value))
        chosen = next((i for i in items if i.id == self.item), items[0])

        def chip(item: LearnItem) -> ft.Control:
            mine = item.id == chosen.id
            return ident(f"learn-{item.id}", ft.Container(
                label(t(item.name), 13, bold=mine, colour="#ffffff" if mine else None),
                # 41 px high, a finger's target (33 px had been measured on a phone)
                bgcolor=FELT if mine else CARD, padding=ft.Padding.symmetric(horizontal=10, vertical=10),
                border_radius=14, border=ft.Border.all(1, "#d0c8b0"), on_click=lambda: self.pick(item.id)))

        chips = ft.Row([chip(i) for i in items], wrap=True, spacing=6, run_spacing=6)
        return ft.Column([label(t(ui("learn_intro")), 13), chips,
                          ft.Container(self._card(chosen), key=scroll_key(LEARN_CARD))], spacing=10)

    def _card(self, item: LearnItem) -> ft.Control:
        t = self.host.t
        worth = t(ui("learn_worth", n=item.value)) if item.value else t(ui("learn_off"))
        rows: list[ft.Control] = [
            ident(ID_LEARN_TITLE, label(t(item.heading), 20, bold=True, colour=ACCENT)),
            label(f"{t(item.kind)}{t(SEP)}·{t(SEP)}{worth}", 13, colour=GREY),
            label(t(item.explain), 15)]
        # the links in the body's colour, the warnings in red (all in red, the links read as warnings: a review)
        notes = [(w, None) for w in item.links] + [(w, ACCENT) for w in item.warnings]
        rows += [ident(f"learn-link-{i}", label(t(w), 13, colour=colour)) for i, (w, colour) in enumerate(notes)]
        if item.by_profile:
            worths = [label(f"{t(name)} {n}", 12, colour=GREY if n == 0 else None) for name, n in item.by_profile]
            rows.append(ft.Row([label(t(ui("learn_by_profile")), 12, bold=True), *worths], spacing=14, wrap=True))
        house = house_worths(item.id)  # the house rule sets saved, as they are now (Settings, --save-profile)
        if house:
            worths = [label(f"{t(name)} {n}", 12, colour=GREY if n == 0 else None) for name, n in house]
            rows.append(ident(ID_LEARN_HOUSE, ft.Row([label(t(ui("learn_by_house")), 12, bold=True), *worths],
                                                     spacing=14, wrap=True)))
        ex = item.example
        if ex is None:
            rows.append(label(t(ui("learn_no_example")), 13))
            return ft.Container(ft.Column(rows, spacing=6), bgcolor=CARD, padding=14, border_radius=8)
        rows.append(ft.Divider())
        rows.append(label(f"{t(ui('learn_example'))}{t(SEP)}{t(ex.profile)}", 14, bold=True, colour=FELT))
        hand: list[ft.Control] = [tile(t, c, TILE_W["hand"]) for c in ex.concealed]
        if ex.win_tile:
            win = Tile.from_code(ex.win_tile)
            tip = t(ui("photo_win_tile", tile=win.zh, tile_en=win.en))
            # named, not only set apart: a phone shows no tooltip (a beginner review)
            hand += [ft.Container(width=8), ft.Column([tile(t, ex.win_tile, TILE_W["hand"], tip),
                                                       label(t(ui("learn_won_on")), 11, colour=ACCENT)],
                                                      spacing=0, tight=True,
                                                      horizontal_alignment=ft.CrossAxisAlignment.CENTER)]
        rows.append(ft.Row(hand, spacing=1, wrap=True, vertical_alignment=ft.CrossAxisAlignment.START))
        extra: list[ft.Control] = [label(t(ui("learn_called")), 12)] if ex.melds else []
        extra += [meld_tiles(t, m) for m in ex.melds]
        if ex.flowers:
            extra += [ft.Container(width=6), label(t(ui("flowers")), 12), tiles(t, ex.flowers, TILE_W["meld"])]
        if extra:
            rows.append(ft.Row(extra, spacing=8, wrap=True))
        rows.append(label(t(ex.setting), 13, colour=GREY))
        rows.append(label(t(ex.note), 14))
        rows.append(label(t(ui("learn_scores")), 13, bold=True, colour=FELT))
        if not ex.items:  # an item these rules do not count: its example scores nothing (an empty list read as a gap);
            # a dealer item's example scores the dealer tai alone, below (莊家, 連莊 and 拉莊 said "these rules do not
            # count this item" above their own dealer rows: a change review)
            rows.append(label(t(ui("learn_scores_hand_none" if ex.dealer_items else "learn_scores_none")), 13,
                              colour=GREY))

        def item_rows(items: tuple[tuple[Words, int, bool], ...]) -> list[ft.Control]:
            return [ft.Row([ft.Container(label(t(words), 13, bold=taught, colour=ACCENT if taught else None),
                                         width=220), label(str(tai), 13, bold=taught)]) for words, tai, taught in items]

        rows += item_rows(ex.items)
        rows += [label(t(w), 11, colour=GREY) for w in ex.house]
        rows.append(ident(ID_LEARN_TOTAL, label(t(ui("learn_total", hand=ex.hand_tai)), 14, bold=True)))
        if ex.dealer_items:  # a block of its own, its own sum: in the hand's list the rows did not add up to the
            # hand's total (a beginner review)
            rows.append(label(t(ui("learn_dealer_block")), 13, bold=True, colour=FELT))
            rows += item_rows(ex.dealer_items)
            rows.append(ident(ID_LEARN_DEALER, label(t(ui("learn_dealer_total", dealer=ex.dealer_tai)), 14, bold=True)))
        return ft.Container(ft.Column(rows, spacing=6), bgcolor=CARD, padding=14, border_radius=8)


def _swatch(colour: str, text: str) -> ft.Control:
    """A frame's colour and what it means."""
    return ft.Row([ft.Container(width=14, height=14, border=ft.Border.all(3, colour), border_radius=3),
                   label(text, 12)], spacing=4, tight=True)


def quiz_key(identifier: str, name: str, chosen: bool, grade: str | None, key: ft.Control) -> ft.Control:
    """A quiz's tile key as a screen reader meets it: a button named by the tile, picked or not, and once graded
    what its frame's colour says (the keys had no role and no name, only a picture labelled "1m", a review)."""
    return ft.Semantics(identifier=identifier, button=True, label=name, selected=chosen, value=grade, content=key)
