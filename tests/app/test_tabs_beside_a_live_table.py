"""Tabs beside a live table, drawn without a browser (a page that runs work at once): Score a photo scores by the
table's rules as it plays them (its house rules) and its stakes, which the form says (another rule set picked, or
no table seated, scores as before); the Live tab's stakes form says when another phone changed the terms."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import flet as ft

from companion.app.house_rules import table_terms
from companion.app.live_model import LiveGame
from companion.app.photo_model import TABLE_RULES, PhotoContext, PhotoPanel, score_typed_hand
from companion.app.view_photo import PhotoSource, PhotoTab
from companion.app.words import Words, asked, ui
from companion.rules.settlement import Stakes
from companion.tiles import parse_tiles

HAND = "1112345678999m123p5m"
# the dealer (East, three in a row) draws his own winning tile: the dealer's tai count, and their streak
CONTEXT = {**PhotoContext().as_context(), "dealer": "E", "seat_wind": "E", "streak": 3}


class _Host:
    """A page that runs the tab's work at once, in English."""

    def __init__(self) -> None:
        self.scrolled: list[Any] = []  # the page's scrolls asked for (a form brought into sight)
        self.page: Any = SimpleNamespace(run_thread=lambda work: work(), run_task=self.scrolled.append)
        self.lang = "en"

    def t(self, words: Words) -> str:
        return words.en

    def render(self) -> None:
        pass

    def notice(self, words: Words) -> None:
        pass

    def clear_notice(self) -> None:
        pass


def _source() -> PhotoSource:
    def unused(*_: object) -> Any:
        raise AssertionError("no photo is read in these tests")
    return PhotoSource(demo=unused, read_file=unused, upload_dir=None)


def _texts(control: ft.Control) -> list[str]:
    """Every text the control shows, its children's included."""
    out: list[str] = []
    stack = [control]
    while stack:
        c = stack.pop()
        for name in ("value", "text"):
            v = getattr(c, name, None)
            if isinstance(v, str):
                out.append(v)
        for name in ("content", "controls", "options"):
            v = getattr(c, name, None)
            if isinstance(v, str):  # a button's words
                out.append(v)
            elif isinstance(v, list):
                stack += v
            elif v is not None and not isinstance(v, str):
                stack.append(v)
    return out


def _scored(tab: PhotoTab, typed: Callable[[], None]) -> PhotoPanel:
    typed()
    assert isinstance(tab.shown, PhotoPanel), tab.shown
    return tab.shown


def test_a_hand_is_scored_by_the_live_tables_house_rules_and_stakes(tmp_path: Path) -> None:
    game = LiveGame(tmp_path / "table.sqlite")
    tab = PhotoTab(_Host(), _source(), game)
    tab.context = PhotoContext(profile=TABLE_RULES, streak=3)
    nobody = _scored(tab, lambda: tab.score_typed(HAND))  # nobody seated yet: the default rules, the stakes picked
    assert nobody.total == score_typed_hand(HAND, CONTEXT).total
    assert ui("photo_table_none").en in _texts(tab._form())
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 50, 20, house={"streak_cap": "1"}) is None
    terms = table_terms(game.state)
    assert terms is not None
    at_table = _scored(tab, lambda: tab.score_typed(HAND))
    want = score_typed_hand(HAND, CONTEXT, Stakes(50, 20), terms.profile)
    assert isinstance(want, PhotoPanel) and at_table.total == want.total and at_table.dealer_tai == 3  # 1 + 2 x 1
    assert want.total != score_typed_hand(HAND, CONTEXT, Stakes(50, 20)).total  # the cap is what changed it
    form = _texts(tab._form())
    assert ui("photo_table_terms", terms=terms.words.zh, terms_en=terms.words.en).en in form
    assert "50/20" in form and "streak tai counted up to 1" in terms.words.en
    # another rule set picked: its own rules and the stakes picked, the table's left aside
    tab.set_context(profile="atawmj_2009")
    plain = tab.shown
    assert isinstance(plain, PhotoPanel) and plain.total == score_typed_hand(HAND, CONTEXT).total
    game.close()


def test_without_a_live_table_the_form_offers_the_rule_sets_only() -> None:
    tab = PhotoTab(_Host(), _source())
    assert tab.context.profile == PhotoContext().profile
    shown = _scored(tab, lambda: tab.score_typed(HAND))
    assert shown.total == score_typed_hand(HAND, PhotoContext().as_context()).total
    assert ui("photo_table_rules").en not in _texts(tab._form())


def test_a_table_never_used_is_not_made_by_the_score_tab(tmp_path: Path) -> None:
    path = tmp_path / "table.sqlite"
    game = LiveGame(path)
    tab = PhotoTab(_Host(), _source(), game)
    _scored(tab, lambda: tab.score_typed(HAND))
    assert ui("photo_table_none").en in _texts(tab._form())
    assert not path.exists() and not game.opened  # asking made no table (the Ledger keeps showing the replay)


def test_the_score_is_worked_out_again_when_the_table_changes_its_stakes(tmp_path: Path) -> None:
    game = LiveGame(tmp_path / "table.sqlite")
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10) is None
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None
    tab = PhotoTab(_Host(), _source(), game)
    before = _scored(tab, lambda: tab.score_typed(HAND))
    assert game.change_terms(100, 50) is None
    tab.open()  # the tab shown again: its score follows the table
    after = tab.shown
    want = score_typed_hand(HAND, PhotoContext().as_context(), Stakes(100, 50))
    assert isinstance(after, PhotoPanel) and isinstance(want, PhotoPanel)
    assert after.payments == want.payments != before.payments
    game.close()


def test_a_phone_typing_new_stakes_is_told_when_another_changes_them_first(tmp_path: Path) -> None:
    """Two phones have the Live tab's fold open; one applies 50/20 while the other has typed 40: the other's form
    shows the table's new terms and says why its 40 is gone."""
    from companion.app.view_live import LiveTab
    from companion.game import events as ev

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10) is None
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None and game.throw((2, 2, 4)) is None
    assert game.discard("5p") is None
    assert game.win((game.state.dealer + 1) % 4, ev.WinKind.DISCARD, "123m456m789m123s46p55z") is None
    tab = LiveTab(_Host(), game)
    moved = ui("live_terms_moved").en
    assert moved not in _texts(tab._terms(game.offer()))
    tab.terms_open = True
    tab.terms_stakes[0].value = "40"  # typed, not applied
    assert game.change_terms(50, 20) is None  # by the other phone
    shown = _texts(tab._terms(game.offer()))
    assert moved in shown and (tab.terms_stakes[0].value, tab.terms_stakes[1].value) == ("50", "20")
    assert game.change_terms(60, 20) is None  # again, with nothing typed here since: nothing to tell
    assert tab._terms(game.offer()) is not None and not tab.terms_moved
    game.close()


def _two_hands(tmp_path: Path) -> LiveGame:
    """A table two hands on, each won on the first discard by the seat after the next, waiting on 4p6p."""
    from companion.game import events as ev

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10) is None
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None
    for _ in range(2):
        assert game.throw((2, 2, 4)) is None
        dealer = game.state.dealer
        assert game.discard("9s") is None and game.discard("5p") is None
        assert game.win((dealer + 2) % 4, ev.WinKind.DISCARD, "123m456m789m123s46p55z") is None
    return game


def test_the_ledger_tab_puts_a_recorded_win_right_and_the_balances_after_follow(tmp_path: Path) -> None:
    """Hand 1's winner was entered waiting on 4p6p (獨聽) where he had 3p4p: corrected from the Ledger tab a hand
    on, hand 1 pays as it should and hand 2's balances carry the difference; a correction that is no hand says
    why."""
    from companion.app.ledger_model import ledger_panel
    from companion.app.view_ledger import LedgerTab
    from companion.game import events as ev
    from companion.game.session import ledger_of

    game = _two_hands(tmp_path)
    before = ledger_of(game.state)
    host = _Host()
    tab = LedgerTab(host, SimpleNamespace(), game)  # type: ignore[arg-type]
    assert tab.showing_live
    panel = ledger_panel(game.state)
    assert panel is not None
    (shown,) = panel.rows[0].shown
    assert shown.concealed == "123456789m46p123s55z" and shown.tile == "5p" and not shown.self_drawn
    texts = _texts(tab.build())
    assert ui("ledger_fix", player=shown.player).en in texts
    # each hand's dice and seat winds (spec §6.7: a review found them in the CSV only)
    row = panel.rows[0]
    assert row.dice > 0 and row.winds is not None
    assert any(f"dice {row.dice}" in x and f"seat winds: {row.winds.en}" in x for x in texts)
    tab.open_fix(1, shown)
    assert len(host.scrolled) == 1  # the form brought into sight (a phone showed its first line at the bottom)
    assert ui("ledger_fix_intro", player=shown.player, n=1).en in _texts(tab.build())
    tab.fix_concealed.value = "123m456m789m123s34p5z"  # one tile short
    tab.save_fix(shown)
    assert tab.fixing == (0, 1, shown.seat) and tab.fix_error is not None and "15" in tab.fix_error.en
    assert ledger_of(game.state) == before  # nothing recorded
    tab.fix_concealed.value = "123m456m789m123s34p55z"
    tab.save_fix(shown)
    assert tab.fixing is None and tab.fix_error is None
    after = ledger_of(game.state)
    assert after.entries[0].lines[0].hand_tai == before.entries[0].lines[0].hand_tai - 1  # no 獨聽 now
    assert after.entries[0].transfers != before.entries[0].transfers
    assert after.entries[1].transfers == before.entries[1].transfers
    diff = {p: dict(after.entries[0].balances)[p] - v for p, v in before.entries[0].balances}
    assert dict(after.entries[1].balances) == {p: v + diff[p] for p, v in before.entries[1].balances}
    assert isinstance(game.events()[-1], ev.WinCorrected) and "改正第 1 把" in game.frame().recent[0].zh
    # a form left open while another phone puts the same win right is not saved over it: it closes and says why
    panel = ledger_panel(game.state)
    assert panel is not None
    (shown,) = panel.rows[0].shown
    tab.open_fix(1, shown)
    assert game.correct_win(1, shown.seat, "123m456m789m123s46p55z") is None  # the other phone (back as it was)
    tab.fix_concealed.value = "123m456m789m789s34p55z"
    tab.save_fix(shown)
    assert tab.fixing is None and tab.fix_error == ui("ledger_fix_moved")
    assert ui("ledger_fix_moved").en in _texts(tab.build())  # said where the form was, once it has closed
    assert game.state.results[0].outcome.winners[0].concealed == tuple(parse_tiles("123m456m789m123s46p55z"))
    panel = ledger_panel(game.state)
    assert panel is not None and panel.rows[0].shown[0].corrected and not panel.rows[1].shown[0].corrected
    assert ui("ledger_fixed_pics", player=shown.player).en in _texts(tab.build())  # then the hand in pictures
    # another phone's entry redraws this phone's ledger while it is on screen
    drawn: list[int] = []
    tab.listener.redraw = lambda: drawn.append(1)  # type: ignore[method-assign]
    tab.attach()
    tab.visible = True
    assert game.correct_win(1, shown.seat, "123m456m789m123s34p55z") is None
    tab.visible = False
    assert game.correct_win(1, shown.seat, "123m456m789m123s46p55z") is None
    tab.detach()
    assert drawn == [1]
    game.close()


def test_the_correction_form_says_what_recording_it_would_change_before_the_tap(tmp_path: Path) -> None:
    """A host saw a correction's new tai and balances only once it was recorded: the form now says them as the
    tiles are typed (what the recording then says, to the number), or why it would be refused; nothing is
    recorded until the tap."""
    from companion.app.ledger_model import correction_said, ledger_panel
    from companion.app.view_ledger import LedgerTab
    from companion.game.session import ledger_of

    game = _two_hands(tmp_path)
    tab = LedgerTab(_Host(), SimpleNamespace(), game)  # type: ignore[arg-type]
    panel = ledger_panel(game.state)
    assert panel is not None
    (shown,) = panel.rows[0].shown
    tab.open_fix(1, shown)
    assert tab.fix_preview.content is None  # the tiles as recorded: nothing to say yet
    before, log = ledger_of(game.state), len(game.events())
    tab.fix_concealed.value = "123m456m789m123s34p5z"  # one tile short
    tab._fix_typed()
    (said,) = _texts(tab.fix_preview)
    assert said.startswith("This cannot be recorded") and "15" in said
    tab.fix_concealed.value = "123m456m789m123s34p55z"  # 3p4p: no 獨聽
    tab._fix_typed()
    (preview,) = _texts(tab.fix_preview)
    assert ledger_of(game.state) == before and len(game.events()) == log  # said, not recorded
    assert ui("ledger_fix_preview_no", why="", why_en="").en not in preview
    was = ledger_panel(game.state)
    tab.save_fix(shown)
    assert tab.fixing is None and tab.fix_error is None
    assert preview == correction_said(was, ledger_panel(game.state), 1, "ledger_fix_preview").en  # as recorded
    assert re.search(r"[A-D] [+-]\d+ to [+-]\d+", preview)  # the balances that move, with their numbers
    # a form left open while another phone puts the same win right: the preview says the tap would be refused
    panel = ledger_panel(game.state)
    assert panel is not None
    (shown,) = panel.rows[0].shown
    tab.open_fix(1, shown)
    assert game.correct_win(1, shown.seat, "123m456m789m123s46p55z") is None  # the other phone
    tab.fix_concealed.value = "123m456m789m789s34p55z"
    tab._fix_typed()
    assert _texts(tab.fix_preview) == [ui("ledger_fix_preview_no", why=ui("ledger_fix_moved").zh,
                                          why_en=ui("ledger_fix_moved").en).en]
    game.close()


def test_the_form_keeps_only_what_the_way_of_winning_allows_and_the_dealer_sits_east() -> None:
    """A beginner review: 地胡 left set after switching to 放槍 failed the next score; a dealer set South under the
    rules that seat him East gave the wrong 門風."""
    tab = PhotoTab(_Host(), _source())
    _scored(tab, lambda: tab.score_typed(HAND))
    tab.set_context(moment="earthly", seat_wind="S")
    tab.set_context(win_type="discard", discarder="W")
    assert tab.context.moment == "" and isinstance(tab.shown, PhotoPanel)  # ordinary again, and scored
    tab.set_context(dealer="S")  # the form's box is disabled; a stale value is still scored as East
    east = score_typed_hand(HAND, {**tab.context.as_context(), "dealer": "E"})
    assert isinstance(tab.shown, PhotoPanel) and isinstance(east, PhotoPanel) and tab.shown.items == east.items


def test_the_bundled_photo_replaces_a_typed_hand_in_its_field_too(tmp_path: Path) -> None:
    """A review scored a hand typed (sent from My hand), then pressed "Bundled photo": the photo was scored, but
    the typed hand stayed in its field, as if it were still the hand scored."""
    from companion.app.photo_model import PhotoFailed

    demo = PhotoFailed("demo.jpg", Words("讀不到", "unreadable"))
    tab = PhotoTab(_Host(), PhotoSource(demo=lambda: (demo, {}), read_file=lambda *_: demo, upload_dir=None))
    _scored(tab, lambda: tab.score_typed(HAND))
    assert tab.typed_field.value == HAND
    tab.use_demo()
    assert tab.typed is None and tab.typed_field.value == "" and tab.shown is demo


def test_a_false_win_or_a_wrong_count_is_recorded_on_a_second_tap(tmp_path: Path) -> None:
    """詐胡 charges a player every other's payment, and sat a finger's width from 相公: a tap asks, a second records,
    and cancel records nothing."""
    from companion.app.view_live import LiveTab
    from companion.game import events as ev
    from companion.game.state import OutcomeKind
    from tests.app.test_photo_picks import _tapped

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10) is None
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None and game.throw((2, 2, 4)) is None
    tab = LiveTab(_Host(), game)
    n = len(game.events())
    _tapped(tab._penalties(game.offer()), "live-false_win-2")
    assert len(game.events()) == n and tab.penalty == ("false_win", 2, n)
    asked = tab._penalties(game.offer())
    assert ui("live_penalty_sure", what="C 詐胡", what_en="C: false win").en in _texts(asked)
    _tapped(asked, "live-penalty-no")
    assert tab.penalty is None and len(game.events()) == n
    _tapped(tab._penalties(game.offer()), "live-false_win-2")
    _tapped(tab._penalties(game.offer()), "live-penalty-yes")
    assert tab.penalty is None and isinstance(game.events()[-1], ev.FalseWin) and game.events()[-1].seat == 2
    out = game.state.outcome
    assert out is not None and out.kind is OutcomeKind.FALSE_WIN
    game.close()


def test_a_win_of_an_earlier_session_is_put_right_from_its_fold(tmp_path: Path) -> None:
    """A money review: once the players sat down again, a win of the session before could not be put right (the
    correction named a hand of the session under way, and the Ledger showed the earlier one as a line). Its hands
    now fold out under the Ledger, each with its correction, and the night's totals follow."""
    from companion.app.ledger_model import ledger_panel, session_panel
    from companion.app.view_ledger import LedgerTab
    from companion.game import events as ev
    from companion.game.session import session_ledgers, total_balances

    game = _two_hands(tmp_path)
    assert game.start(("E", "F", "G", "H"), "atawmj_2009", 50, 20) is None  # seated again
    before = session_ledgers(game.state)
    tab = LedgerTab(_Host(), SimpleNamespace(), game)  # type: ignore[arg-type]
    earlier = session_panel(game.state, 1)
    assert earlier is not None and ledger_panel(game.state) is not None
    (shown,) = earlier.rows[0].shown
    texts = _texts(tab.build())
    assert texts.count(ui("ledger_fix", player=shown.player).en) >= 1  # in the first session's fold
    assert game.correct_win(1, shown.seat, "123m456m789m123s34p55z") is not None  # hand 1 of this session: none
    tab.open_fix(1, shown, session=1)
    assert tab.fixing == (1, 1, shown.seat)
    tab.fix_concealed.value = "123m456m789m123s34p55z"  # 3p4p: no 獨聽
    tab._fix_typed()
    assert _texts(tab.fix_preview)  # what it would change, said before the tap
    tab.save_fix(shown)
    assert tab.fixing is None and tab.fix_error is None and tab.fix_done is not None
    fixed = game.events()[-1]
    assert isinstance(fixed, ev.WinCorrected) and fixed.session == 1 and ev.to_dict(fixed)["session"] == 1
    after = session_ledgers(game.state)
    assert after[0].entries[0].lines[0].hand_tai == before[0].entries[0].lines[0].hand_tai - 1
    assert after[0].balances != before[0].balances and after[1] == before[1]  # this session's money as it was
    assert sum(total_balances(after).values()) == 0 and game.state.players == ("E", "F", "G", "H")
    assert game.undo() is None and session_ledgers(game.state) == before  # and undo takes it back
    game.close()


def test_the_win_form_says_which_typed_character_it_cannot_read(tmp_path: Path) -> None:
    """A README review typed 1m2m3x into the win form and was told only "Those tiles cannot be read yet"; My hand,
    the Ledger's correction and the command line name the character."""
    from companion.app.live_offer import WinChance
    from companion.app.view_live import LiveTab
    from companion.game import events as ev

    tab = LiveTab(_Host(), LiveGame(tmp_path / "table.sqlite"))
    chance = WinChance(seat=1, kind=ev.WinKind.DISCARD, tile="5m", shown=16, hidden_kongs=0, label=Words("胡", "Win"))
    tab.concealed.value = "1m2m3x"
    (said,) = _texts(tab._typed(chance))
    assert said.startswith("Those tiles cannot be read yet: “x” follows only 0") and "character 6" in said
    tab.concealed.value = "1m1m1m1m1m"
    assert "5 copies of 1m" in _texts(tab._typed(chance))[0]
    tab.concealed.value = "123m456m789m123p45s66z7z"  # 17 of 16: said, not only in red
    assert _texts(tab._typed(chance))[0] == "17 of 16 tiles, 1 too many:"


def _labels(control: ft.Control) -> list[str]:
    """What a screen reader says of each tile picture in the control, in order."""
    out: list[str] = []
    stack = [control]
    while stack:
        c = stack.pop(0)
        if isinstance(c, ft.Image) and c.semantics_label:
            out.append(c.semantics_label)
        for name in ("content", "controls"):
            v = getattr(c, name, None)
            if isinstance(v, list):
                stack = v + stack
            elif isinstance(v, ft.Control):
                stack.insert(0, v)
    return out


def test_the_correction_form_shows_the_melds_names_the_tiles_and_drops_a_stale_refusal(tmp_path: Path) -> None:
    """An English host review: the form's "As recorded:" left out the winner's pung of East; a refusal named the hand
    in the notation ("123456789m47p55z + 5p"); "Not allowed: as recorded: nothing to correct" stayed above the
    field once other tiles were typed, under a preview refusing them for another reason; the Live tab's note and
    the CSV's Corrections column said the corrected hand in the notation too."""
    import csv
    import io

    from companion.app.ledger_model import ledger_csv, ledger_panel
    from companion.app.view_ledger import LedgerTab
    from companion.game import events as ev
    from companion.hand import MeldKind

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10) is None
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None
    assert game.throw((2, 2, 4)) is None
    winner = (game.state.dealer + 2) % 4
    assert game.discard("1z") is None and game.claim(winner, MeldKind.PUNG) is None  # a pung of East
    assert game.discard("9s") is None and game.discard("5p") is None
    assert game.win(winner, ev.WinKind.DISCARD, "123m456m789m46p55z") is None
    name = game.state.players[winner]
    panel = ledger_panel(game.state)
    assert panel is not None
    (shown,) = panel.rows[0].shown
    assert shown.melds == (("1z", "1z", "1z"),)
    tab = LedgerTab(_Host(), SimpleNamespace(), game)  # type: ignore[arg-type]
    tab.open_fix(1, shown)
    form = tab.build()
    recorded = next(c for c in _idents(form) if c.identifier == f"ledger-fix-recorded-1-{winner}")
    assert _labels(recorded) == [*(f"{k} Characters" if k > 1 else "1 Character" for k in range(1, 10)), "4 Dots",
                                 "6 Dots", "White dragon", "White dragon", "5 Dots", *["East wind"] * 3]
    assert ui("ledger_fix_intro", player=name, n=1).en.startswith(f"Correct the tiles {name} showed when winning hand 1:")
    # the tiles as recorded, tapped: refused; other tiles typed: that refusal goes, the preview says why these fail
    tab.save_fix(shown)
    assert tab.fix_error == Words("跟記下的一樣，沒有要改的", "as recorded: nothing to correct")
    tab.build()
    assert _texts(tab.fix_error_box) == ["Not allowed: as recorded: nothing to correct"]
    tab.fix_concealed.value = "123m456m789m47p55z"
    tab._fix_typed()
    assert tab.fix_error is None and tab.fix_error_box.content is None
    refused = (f"{name}'s hand is not a winning shape: 1 2 3 4 5 6 7 8 9 Characters, 4 7 Dots, 2 White dragons + "
               "5 Dots (it is not ready: no tile completes it)")
    assert _texts(tab.fix_preview) == [f"This cannot be recorded: {refused}"]
    tab.save_fix(shown)
    assert tab.fix_error is not None and tab.fix_error.en == refused
    assert tab.fix_error.zh == (f"{name} 的牌不成胡：一萬 二萬 三萬 四萬 五萬 六萬 七萬 八萬 九萬 四筒 七筒 白板 白板，胡五筒"
                                "（這手還沒聽牌）")
    tab.fix_concealed.value = "123m456m789m34p55z"
    tab._fix_typed()
    tab.save_fix(shown)
    assert tab.fixing is None and tab.fix_error is None
    said = (f"{name}'s tiles shown in hand 1 corrected: 1 2 3 4 5 6 7 8 9 Characters, 3 4 Dots, 2 White dragons")
    assert game.frame().recent[0].en == said
    row = next(r for r in csv.reader(io.StringIO(ledger_csv(game.state))) if r and r[0] == "1")
    assert row[5] == (f"已改正：{name} 攤開的牌是 一萬 二萬 三萬 四萬 五萬 六萬 七萬 八萬 九萬 三筒 四筒 白板 白板 / "
                      f"Corrected: {name} showed 1 2 3 4 5 6 7 8 9 Characters, 3 4 Dots, 2 White dragons")
    game.close()


def _idents(control: ft.Control) -> list[Any]:
    """The controls named for the browser tests (a Semantics identifier), the control's own included."""
    out: list[Any] = []
    stack = [control]
    while stack:
        c = stack.pop()
        if getattr(c, "identifier", None):
            out.append(c)
        for name in ("content", "controls"):
            v = getattr(c, name, None)
            if isinstance(v, list):
                stack += v
            elif isinstance(v, ft.Control):
                stack.append(v)
    return out


def test_the_live_tables_rules_are_named_as_seated_once_the_file_of_their_name_says_otherwise(
        tmp_path: Path, monkeypatch: Any) -> None:
    """A review edited the house set a table was seated under (seat flower 2 to 1): Score a photo scored the demo
    hand 5 tai by the table's rules and 3 by the file's, each card saying "Scored with: Friday house", and the Live
    tab's and the Ledger's heads said "rules Friday house" of the table's. Once the file of that name says otherwise
    (edited, or deleted), the table's are named "Friday house (as seated)" on the three; the file's own, and the
    table's while the file is as seated, by the name alone."""
    from companion.app.house_rules import rules_named
    from companion.app.ledger_model import ledger_panel
    from companion.rules.profiles._store import save_profile

    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))
    house = tmp_path / "home8.toml"
    house.write_text('id = "home8"\nname_zh = "週五家規"\nname_en = "Friday house"\ninherits = "atawmj_2009"\n'
                     '[tai]\nseat_flower = 2\n[switches]\ntai_cap = 8\n', encoding="utf-8")
    saved = save_profile(house)
    game = LiveGame(tmp_path / "table.sqlite")
    assert game.start(("A", "B", "C", "D"), "home8", 30, 10) is None
    typed = "345m678p234s22z pung:777z@O chow:123m@L 26f"  # won on 8p from North by South: 正花 2 × 2 as seated
    tab = PhotoTab(_Host(), _source(), game)
    tab.context = PhotoContext(profile=TABLE_RULES, win_type="discard", discarder="N", seat_wind="S")
    plain, seated = Words("計算規則：週五家規", "Scored with: Friday house"), \
        Words("計算規則：週五家規（入座時的版本）", "Scored with: Friday house (as seated)")

    def heads() -> tuple[str, str, str]:
        """The Live tab's head (the table's terms), the Ledger's, and the card's line of the rules it scored with."""
        terms, panel = table_terms(game.state), ledger_panel(game.state)
        assert terms is not None and panel is not None
        card = [x for c in tab._scored_by() for x in _texts(c)]
        return terms.words.en, panel.stakes.en, card[0]

    _scored(tab, lambda: tab.score_typed(typed))
    assert heads() == ("stakes 30 + 10 a tai, rules Friday house",) * 2 + (plain.en,)  # the file as seated
    # the host edits the set: an item's tai, and a rule of the table the table kept as it was (the Ledger's head read
    # it against the file, and said "house rules: The dealer keeps the deal after a draw: yes" of its own rule set)
    saved.write_text(saved.read_text(encoding="utf-8").replace("seat_flower = 2", "seat_flower = 1")
                     .replace("tai_cap = 8", "tai_cap = 8\ndraw_keeps_deal = false"), encoding="utf-8")
    table = _scored(tab, lambda: tab.score_typed(typed))
    assert heads() == ("stakes 30 + 10 a tai, rules Friday house (as seated)",) * 2 + (seated.en,)
    assert rules_named(game.state.profile) == Words("週五家規（入座時的版本）", "Friday house (as seated)")
    assert ui("rs_scored_with", name=rules_named(game.state.profile).zh, name_en="").zh == seated.zh
    tab.set_context(profile="home8")  # the file itself: its own name, its own tai
    by_file = tab.shown
    assert isinstance(by_file, PhotoPanel) and by_file.total != table.total
    assert [x for c in tab._scored_by() for x in _texts(c)][0] == plain.en
    assert rules_named("home8") == Words("週五家規", "Friday house")
    saved.unlink()  # deleted: the table's still scored as seated, and said so
    tab.set_context(profile=TABLE_RULES)
    assert heads() == ("stakes 30 + 10 a tai, rules Friday house (as seated)",) * 2 + (seated.en,)
    game.close()


def test_the_correction_form_offers_the_kongs_the_win_named_and_records_them_put_right(tmp_path: Path) -> None:
    """A review: a win's face-down kong typed wrong could not be put right; the form had the concealed tiles and the
    drawn tile only. It now has a field for the kongs the win named, filled with them (none where the win had no kong
    face down); left blank it says each needs its kind, a fifth copy is refused before the tap, and the kinds typed
    by name are recorded with the tiles."""
    from companion.app.ledger_model import ledger_panel
    from companion.app.view_ledger import LedgerTab
    from companion.game import events as ev
    from companion.game.session import ledger_of
    from companion.tiles import Tile
    from tests.app.test_ledger_model import _kong_won

    game, winner = _kong_won(tmp_path)
    panel = ledger_panel(game.state)
    assert panel is not None
    (shown,) = panel.rows[0].shown
    tab = LedgerTab(_Host(), SimpleNamespace(), game)  # type: ignore[arg-type]
    tab.open_fix(1, shown)
    assert tab.fix_kongs.value == "8p" and tab.fix_concealed.value == shown.concealed
    assert "ledger-fix-kongs" in [c.identifier for c in _idents(tab.build())]
    assert tab.fix_kongs.label == ui("ledger_fix_kongs", n=1).en == "Concealed kongs shown at the win (1, one tile each)"
    before, log = ledger_of(game.state), len(game.events())
    tab.fix_kongs.value = ""
    tab._fix_typed()
    needed = asked("live_win_kongs_needed", n=1, got=0)
    assert _texts(tab.fix_preview) == [needed.en]  # (as a blank drawn tile is said)
    tab.save_fix(shown)
    assert tab.fix_error == needed and ledger_of(game.state) == before and len(game.events()) == log
    tab.fix_kongs.value = "1p"  # one was discarded: a fifth copy
    tab._fix_typed()
    assert _texts(tab.fix_preview) == ["This cannot be recorded: 1 Dot (1p): 5 copies would be on the table, a set "
                                       "holds 4"]
    tab.fix_kongs.value = "東"  # by name, as a phone may type it
    tab._fix_typed()
    (preview,) = _texts(tab.fix_preview)
    assert preview.startswith("If recorded:") and "Round-wind pung" in preview
    tab.save_fix(shown)
    assert tab.fixing is None and tab.fix_error is None and ledger_of(game.state) != before
    last = game.events()[-1]
    assert isinstance(last, ev.WinCorrected) and last.kongs == (Tile.Z1,) and last.seat == winner
    game.close()
    plain = _two_hands(tmp_path / "plain")  # no kong face down: no field for one
    panel = ledger_panel(plain.state)
    assert panel is not None
    (shown,) = panel.rows[0].shown
    assert shown.kongs == ()
    tab = LedgerTab(_Host(), SimpleNamespace(), plain)  # type: ignore[arg-type]
    tab.open_fix(1, shown)
    assert "ledger-fix-kongs" not in [c.identifier for c in _idents(tab.build())]
    plain.close()


def test_the_ledger_shows_the_replay_until_a_live_game_is_seated(tmp_path: Path) -> None:
    """A fresh demo's Ledger had 「記錄中的牌局」 picked and said only 「還沒有人入座」, the demo's four finished hands
    behind the other button (a review). Until a live game is seated the replay's ledger shows; once one is, the live
    one; a pick of the player's stands either way."""
    from companion.app.table_model import GameReplay
    from companion.app.view_ledger import LedgerTab
    from companion.app.view_table import TableTab

    game = LiveGame(tmp_path / "table.sqlite")
    game.open()
    host = _Host()
    replay = GameReplay.demo()
    table = TableTab(host, replay, Words("", ""))  # type: ignore[arg-type]
    table.index = len(replay) - 1
    tab = LedgerTab(host, table, game)  # type: ignore[arg-type]
    assert game.opened and not tab.showing_live
    texts = _texts(tab.build())
    assert ui("ledger_none").en not in texts and ui("step", i=table.index, n=len(replay) - 1).en in texts
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10) is None
    assert tab.showing_live
    tab.pick(False)
    assert not tab.showing_live
    game.close()


def test_the_correction_form_sends_the_kongs_only_where_they_were_changed(tmp_path: Path) -> None:
    """The form sent its kongs field whenever the win had a kong face down, even as recorded: a correction of the
    concealed tiles alone was recorded as the kongs' too, and the Live tab and the undo button said "; concealed
    kongs: 8 Dots" as if the kong had been put right."""
    from companion.app.ledger_model import ledger_panel
    from companion.app.view_ledger import LedgerTab
    from companion.game import events as ev
    from tests.app.test_ledger_model import _kong_won

    game, _ = _kong_won(tmp_path)
    panel = ledger_panel(game.state)
    assert panel is not None
    (shown,) = panel.rows[0].shown
    tab = LedgerTab(_Host(), SimpleNamespace(), game)  # type: ignore[arg-type]
    tab.open_fix(1, shown)
    tab.fix_concealed.value = "123m456m789s345p5s"  # the concealed tiles alone
    tab._fix_typed()
    (preview,) = _texts(tab.fix_preview)
    assert preview.startswith("If recorded:")
    tab.save_fix(shown)
    assert tab.fix_error is None
    last = game.events()[-1]
    assert isinstance(last, ev.WinCorrected) and last.kongs == ()
    assert "concealed kongs" not in game.frame().recent[0].en and "暗槓" not in game.undo_what().zh
    game.close()


class _Heard(_Host):
    """A page that keeps what it said at the foot of the screen."""

    def __init__(self) -> None:
        super().__init__()
        self.said: list[Words] = []

    def notice(self, words: Words) -> None:
        self.said.append(words)


def test_a_phone_typing_names_is_told_when_another_seats_the_table_first(tmp_path: Path) -> None:
    """A game-night review: phones A and B on the Live tab of an empty table; B types four names, A seats the table
    with others; B's form gave way to the dice prompt and its names were gone without a word. Now B is told who
    was seated (at the foot and above the prompt, until the table moves on); A, and a phone that typed nothing or
    the same names, are told nothing."""
    from companion.app.view_live import ID_LIVE_SEATED_ELSEWHERE, LiveTab

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    hosts = [_Heard() for _ in range(4)]
    a, b, idle, same = (LiveTab(h, game) for h in hosts)
    for tab in (a, b, idle, same):
        assert ID_LIVE_SEATED_ELSEWHERE not in [c.identifier for c in _idents(tab.build())]  # the seating form
    for tab, names in ((a, "ABCD"), (b, ["Wu", "Lin", "Chen", "Huang"]), (same, "ABCD")):
        for field, name in zip(tab.names, names, strict=True):
            field.value = name
    a._start(game.offer().at)
    assert a.error is None and game.state.players == ("A", "B", "C", "D")
    said = ui("live_seated_elsewhere", names="A、B、C、D", names_en="A, B, C, D")
    assert said.en == "Another phone seated the table: A, B, C, D (the names typed here were not used)"
    shown = b.build()
    assert hosts[1].said == [said] and said.en in _texts(shown)
    assert ID_LIVE_SEATED_ELSEWHERE in [c.identifier for c in _idents(shown)]
    for k, tab in ((0, a), (2, idle), (3, same)):
        assert said.en not in _texts(tab.build()) and said not in hosts[k].said
    assert said.en in _texts(b.build()) and hosts[1].said == [said]  # drawn again: said once at the foot
    assert game.choose_dealer((3, 5, 6), (1, 1, 2)) is None  # the table moves on: old news
    assert said.en not in _texts(b.build()) and b.seated_elsewhere is None
    game.close()


def test_names_apart_only_by_their_case_are_refused_at_seating_but_an_old_log_keeps_them(tmp_path: Path) -> None:
    """A review seated "Bob" and "bob", and the ledger read "Bob pays bob": the Live tab's seating refuses them,
    naming both; a log that seated them before (its rule keeps a name's case) still replays as kept."""
    from companion.app.view_live import LiveTab
    from companion.game import events as ev
    from companion.game.check import replay
    from companion.game.session import switches_for
    from companion.rules.profiles import load_profile
    from companion.rules.profiles._store import rules_text

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    why = ui("live_names_case", one="Bob", two="bob")
    assert why.en == "\u201cBob\u201d and \u201cbob\u201d differ only in letter case and read as one player: give " \
                     "names that tell them apart"
    assert game.start(["Bob", "bob", "Carol", "Dave"], "atawmj_2009", 30, 10) == why
    tab = LiveTab(_Host(), game)
    tab.build()
    for field, name in zip(tab.names, ["Carol", "Bob", "Dave", " BOB "], strict=True):
        field.value = name
    tab._start(game.offer().at)
    assert tab.error == ui("live_names_case", one="Bob", two="BOB") and not game.state.players
    assert "Not allowed: \u201cBob\u201d and \u201cBOB\u201d differ only in letter case" in " ".join(_texts(tab.build()))
    chosen = load_profile("atawmj_2009")
    old = ev.Seated(players=("Bob", "bob", "Carol", "Dave"), switches=switches_for("atawmj_2009"), base=30,
                    per_tai=10, profile=chosen.id, rules=rules_text(chosen))
    assert replay([old]).players == ("Bob", "bob", "Carol", "Dave")
    game.close()


def test_the_correction_preview_asks_for_one_winning_tile_and_does_not_refuse(tmp_path: Path) -> None:
    """A change review: two tiles typed as the tile drawn were said 「這樣記不下來：請輸入胡的那一張牌（一張）」 /
    "This cannot be recorded: Enter the winning tile (one tile)", the refusal wrapper the Live form no longer puts
    on an entry it still lacks."""
    from companion.app.ledger_model import ledger_panel
    from companion.app.view_ledger import LedgerTab
    from tests.app.test_ledger_model import _kong_won

    game, _ = _kong_won(tmp_path)
    panel = ledger_panel(game.state)
    assert panel is not None
    (shown,) = panel.rows[0].shown
    tab = LedgerTab(_Host(), SimpleNamespace(), game)  # type: ignore[arg-type]
    tab.open_fix(1, shown)
    assert shown.self_drawn  # (the form's tile field is a self-draw's)
    tab.fix_tile.value = "5m6m"
    tab._fix_typed()
    assert _texts(tab.fix_preview) == [asked("live_win_tile").en]
    game.close()
