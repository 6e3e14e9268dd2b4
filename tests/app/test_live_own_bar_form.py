"""A win form barred by its winner's own record entered since (his 相公 under ``wrong_count = dead_hand``, spec
§2.16): the typed hand comes back when the record is undone, several records name his own as his, and the form does
not say its tile "can no longer be won on" while it still can."""

from __future__ import annotations

from pathlib import Path

from companion.app.live_model import LiveGame, effective_events, undo_since_words
from companion.app.words import ui
from companion.game import events as ev

HAND = "123p456p789p123s456s9m"


def _form_on_9m(tmp_path: Path, rule: str) -> tuple[LiveGame, int]:
    """C's win form opened on A's 9m, the hand typed in it (kept as the form's draft)."""
    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10,
                      house={"first_dealer": "east_deals", "wrong_count": rule}) is None
    assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
    assert game.discard("9m") is None
    at = game.offer().at
    assert any(c.seat == 2 and c.kind is ev.WinKind.DISCARD for c in game.offer().wins)
    game.keep_draft(at, 2, "discard", (HAND, "", ""))
    return game, at


def test_undoing_the_winners_own_record_brings_his_typed_hand_back(tmp_path: Path) -> None:
    """A review: the barred form said to take C's 相公 back with the Live tab's Undo "then come back to this form";
    the first Undo closed the form, and once the 相公 was undone C's win button opened an empty form, the 17 tiles kept
    under the old table only. The table back as the form's, the draft answers it again, and the tab opens the form
    with them."""
    from companion.app.view_live import ID_LIVE_UNDO, LiveTab
    from tests.app.test_live_tab_moves import _Phone
    from tests.app.test_photo_picks import _tapped

    game, at = _form_on_9m(tmp_path, "dead_hand")
    assert game.wrong_count(2, True) is None and game.discard("5z") is None  # other phones: C's 相公, B plays on
    assert game.own_bar(at, 2) is not None
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    tab.build()
    assert game.undo() is None  # B's discard
    assert game.draft(game.offer().at, 2, "discard") is None  # (not the form's table yet: nothing moved)
    tab.build()
    _tapped(tab.bottom_bar(), ID_LIVE_UNDO)  # C's 相公, on this phone's bar
    assert tab.error is None
    assert effective_events(game.events()) == effective_events(game.events()[:at])
    now = game.offer().at
    assert now != at and game.draft(now, 2, "discard") == (HAND, "", "")
    assert tab.win is not None and tab.win.seat == 2 and tab.win_at == now and tab.concealed.value == HAND
    assert game.win(2, ev.WinKind.DISCARD, HAND, at=now) is None
    game.close()


def test_a_table_not_back_as_the_forms_keeps_the_draft_where_it_was(tmp_path: Path) -> None:
    """An undo that leaves the table other than the form's moves no draft: a form begun elsewhere is not filled."""
    game, at = _form_on_9m(tmp_path, "dead_hand")
    assert game.wrong_count(0, True) is None and game.wrong_count(2, True) is None
    assert game.undo() is None  # C's 相公 taken back, A's stands
    assert game.draft(game.offer().at, 2, "discard") is None and game.draft(at, 2, "discard") == (HAND, "", "")
    game.close()


def test_several_records_taken_back_name_the_winners_own_as_his(tmp_path: Path) -> None:
    """A review: under ``warn_only``, A's 相公 then C's own entered since C's form opened; the warning under the undo
    said "these records about players: A: …; C: …", C's never said to be the winner's own."""
    game, at = _form_on_9m(tmp_path, "warn_only")
    assert game.wrong_count(0, True) is None and game.wrong_count(2, True) is None and game.discard("5z") is None
    since = game.since(at)
    assert since is not None
    button = undo_since_words(since[1])
    also = game.undo_also(at, 2)
    assert also == ui("live_undo_since_also_many_own", button=button.zh, button_en=button.en, seat="C",
                      what="A 相公（張數不對）、C 相公（張數不對）", what_en="A: wrong tile count; C: wrong tile count"), also
    assert "C's own" in also.en and "C 自己的" in also.zh
    assert game.undo_also(at, 1) == ui("live_undo_since_also_many", button=button.zh, button_en=button.en,
                                       what="A 相公（張數不對）、C 相公（張數不對）",
                                       what_en="A: wrong tile count; C: wrong tile count")  # (B's form: none his)
    game.close()


def test_a_form_barred_only_by_its_winners_own_record_gives_the_bar_as_its_reason(tmp_path: Path) -> None:
    """A review: only C's own 相公 entered since (dead_hand), nothing played: the form said "The 9 Characters can no
    longer be won on" before the bar, which was false: the 9m is still live and C is barred. The bar alone is said;
    once the table plays on, the tile's passing is said again."""
    game, at = _form_on_9m(tmp_path, "dead_hand")
    assert game.wrong_count(2, True) is None
    bar = game.own_bar(at, 2)
    assert bar is not None
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert gone == ui("live_claim_barred_only", why=bar.zh, why_en=bar.en), gone
    assert "can no longer" not in gone.en and "不能再胡" not in gone.zh.replace(bar.zh, "")
    assert game.discard("5z") is None  # B plays on: now the 9m is dead
    bar = game.own_bar(at, 2)
    assert bar is not None
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert "can no longer be won on" in gone.en and gone.en.endswith(ui("live_claim_barred", why=bar.zh,
                                                                         why_en=bar.en).en), gone
    game.close()


def test_a_second_phones_empty_form_takes_the_hand_an_undo_brought_back_rather_than_delete_it(tmp_path: Path) -> None:
    """Two phones with C's win form open, the first types the hand, C's 相公 is entered and then undone: the draft
    is moved to the table brought back; the second phone's form, following the table, saved its own empty fields
    there, which deleted the hand (a review): it now takes the kept hand."""
    from companion.app.view_live import ID_LIVE_UNDO, LiveTab
    from tests.app.test_live_tab_moves import _Phone
    from tests.app.test_photo_picks import _tapped

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10,
                      house={"first_dealer": "east_deals", "wrong_count": "dead_hand"}) is None
    assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
    assert game.discard("9m") is None
    second = LiveTab(_Phone(), game)  # type: ignore[arg-type]
    second.visible = True
    _tapped(second.build(), "live-win-2-discard")  # opened first, left empty
    first = LiveTab(_Phone(), game)  # type: ignore[arg-type]
    first.visible = True
    _tapped(first.build(), "live-win-2-discard")
    first.concealed.value = HAND
    first._typing()
    assert game.wrong_count(2, True) is None  # C's 相公
    first.build()
    second.build()
    _tapped(first.bottom_bar(), ID_LIVE_UNDO)
    now = game.offer().at
    assert game.draft(now, 2, "discard") == (HAND, "", "")  # moved with the table brought back
    second.build()  # the second phone's next render follows the table
    assert game.draft(now, 2, "discard") == (HAND, "", "") and second.concealed.value == HAND
    game.close()


def test_a_barred_only_form_names_every_record_entered_since_not_the_winners_own_alone(tmp_path: Path) -> None:
    """A review: A's 相公, C's own, then D's entered since C's form opened (dead_hand), nothing played: the form's
    reason said "Entered since: C: wrong tile count", A's and D's never named, where the way out it gives (undo the
    entries after it, then that record) needs D's. Every record is named in the order entered, C's said as the bar;
    the undo still takes nothing back."""
    game, at = _form_on_9m(tmp_path, "dead_hand")
    for seat in (0, 2, 3):
        assert game.wrong_count(seat, True) is None
    bar = game.own_bar(at, 2)
    undo = ui("live_undo")
    assert bar == ui("live_since_own_bar_among", seat="C", what="A 相公（張數不對）、C 相公（張數不對）、D 相公（張數不對）",
                     what_en="A: wrong tile count; C: wrong tile count; D: wrong tile count",
                     own="C 相公（張數不對）", own_en="C: wrong tile count", undo=undo.zh, undo_en=undo.en), bar
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert gone == ui("live_claim_barred_only", why=bar.zh, why_en=bar.en), gone
    assert gone.en.startswith("Entered since: A: wrong tile count; C: wrong tile count; D: wrong tile count. C's own")
    before = game.events()
    assert game.undo_since(at, seen=len(before), seat=2) == bar and game.events() == before
    game.close()
