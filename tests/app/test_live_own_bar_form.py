"""A win form barred by its winner's own record entered since (his 相公 under ``wrong_count = dead_hand``, spec
§2.16): the typed hand comes back when the record is undone, several records name his own as his, and the form does
not say its tile "can no longer be won on" while it still can."""

from __future__ import annotations

from pathlib import Path

from companion.app.live_model import LiveGame, effective_events, undo_since_words
from companion.app.words import Words, ui
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
    right = ui("live_own_bar_right")
    assert gone == ui("live_claim_barred_only", why=bar.zh, why_en=bar.en, right=right.zh, right_en=right.en), gone
    assert "can no longer" not in gone.en and "不能再胡" not in gone.zh.replace(bar.zh, "")
    assert game.discard("5z") is None  # B plays on: now the 9m is dead
    bar = game.own_bar(at, 2, listed=False)  # (the entries since listed before it, the bar said alone)
    assert bar is not None
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert "can no longer be won on" in gone.en and gone.en.endswith(ui(
        "live_claim_barred_own", why=bar.zh, why_en=bar.en, right=right.zh, right_en=right.en).en), gone
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
    own = ui("live_own_bar_wrong_count")
    one = ui("live_own_bar_one", seat="C", own=own.zh, own_en=own.en, undo=undo.zh, undo_en=undo.en)
    assert bar == ui("live_own_bar_listed", what="A 相公（張數不對）、C 相公（張數不對）、D 相公（張數不對）",
                     what_en="A: wrong tile count; C: wrong tile count; D: wrong tile count", bar=one.zh,
                     bar_en=one.en), bar
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    right = ui("live_own_bar_right")
    assert gone == ui("live_claim_barred_only", why=bar.zh, why_en=bar.en, right=right.zh, right_en=right.en), gone
    assert gone.en.startswith("Entered since: A: wrong tile count; C: wrong tile count; D: wrong tile count. C's own")
    before = game.events()
    # (its refusal beside the same Cancel, said as the form's words say it: a final review found it missing there)
    refused = game.undo_since(at, seen=len(before), seat=2)
    assert refused == bar + ui("live_own_bar_cancel", right=right.zh, right_en=right.en), refused
    assert refused is not None and refused.zh.endswith("如果沒有記錯，請按「取消」") and gone.zh.endswith(
        "如果沒有記錯，請按「取消」"), (refused, gone)
    assert refused.en.endswith("If it was entered right, tap Cancel") and gone.en.endswith(
        "If it was entered right, tap Cancel"), (refused, gone)
    assert game.events() == before
    game.close()


# the bar said alone (after the list of entries a stale form shows) and after its own list of what was entered, in
# both languages, written out: a review read 「其中 C 自己的 C 相公（張數不對）：照規則…」 (no verb, C named twice) and
# "C's own (C: wrong tile count) bars this win"
_ONE_ZH = ("C 自己的{own}讓他這一局不能再胡，這裡的撤回不會為了記這個胡把它撤回。如果那一筆是記錯的，就用「撤回上一步」一步一步"
           "撤回：先撤回它之後記的，再撤回那一筆本身；撤回後這個表單會帶著已經打好的牌再打開")
_ONE_EN = ("C's own record ({own}) bars this win: by the rules C may not win for the rest of this hand, so undo here will "
           "not take it back to record this win. If it was entered by mistake, take it back with “Undo”, one entry at "
           "a time: the entries after it, then that record itself; this form then opens again with the tiles typed in "
           "it")
_MANY_ZH = ("C 自己的{own}讓他這一局不能再胡，這裡的撤回不會為了記這個胡把它們撤回。如果{those}都是記錯的，就用「撤回上一步」一步"
            "一步撤回：先撤回它們之後記的，再撤回{those}本身；撤回後這個表單會帶著已經打好的牌再打開")
_MANY_EN = ("C's own records ({own}) bar this win: by the rules C may not win for the rest of this hand, so undo here "
            "will not take them back to record this win. If they were entered by mistake, take them back with “Undo”, "
            "one entry at a time: the entries after them, then {those} themselves; this form then opens again "
            "with the tiles typed in it")


def test_a_stale_barred_form_lists_the_entries_once_and_names_the_winners_own_record_as_the_bar(
        tmp_path: Path) -> None:
    """A review: A's, C's and D's 相公 entered since C's form opened (dead_hand), then B played on: the form said
    "The table moved on…: … 1 more; C: …; D: …; B draws a tile; B discards the White dragon…", then again "Entered since:
    A: …; C: …; D: …" (A's named there, cut to "1 more" in the first, B's play left out), then "C's own (C: wrong tile
    count) bars this win". The entries are listed once, the bar says only which of C's records bars, with a verb."""
    game, at = _form_on_9m(tmp_path, "dead_hand")
    for seat in (0, 2, 3):
        assert game.wrong_count(seat, True) is None
    assert game.discard("5z") is None  # B draws and discards: the 9m is dead
    since = game.since(at)
    assert since is not None
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    bar_zh, bar_en = _ONE_ZH.format(own="相公（張數不對）"), _ONE_EN.format(own="wrong tile count")
    face = ui("live_claim_gone_tile", tile="九萬", tile_en="9 Characters")
    rule = ui("live_claim_gone_rule")
    said = ui("live_claim_gone", since=since[0].zh, since_en=since[0].en, what=face.zh, what_en=face.en, rule=rule.zh,
              rule_en=rule.en)
    right = ui("live_own_bar_right")
    assert gone == said + ui("live_claim_barred_own", why=bar_zh, why_en=bar_en, right=right.zh, right_en=right.en), gone
    assert gone.en.count("wrong tile count;") == 3 and "Entered since" not in gone.en and "之後記了" not in gone.zh
    assert gone.en.endswith("C's own record (wrong tile count) bars this win: by the rules C may not win for the rest "
                            "of this hand, so undo here will not take it back to record this win. If it was entered by "
                            "mistake, take it back with “Undo”, one entry at a time: the entries after it, then that "
                            "record itself; this form then opens again with the tiles typed in it. If it was entered "
                            "right, tap Cancel"), gone.en
    assert gone.zh.endswith("這個胡記不了。C 自己的相公（張數不對）讓他這一局不能再胡，這裡的撤回不會為了記這個胡把它撤回。"
                            "如果那一筆是記錯的，就用「撤回上一步」一步一步撤回：先撤回它之後記的，再撤回那一筆本身；撤回後"
                            "這個表單會帶著已經打好的牌再打開。如果沒有記錯，請按「取消」"), gone.zh
    game.close()


def test_a_barred_form_with_nothing_played_lists_every_record_then_says_which_of_his_bars(tmp_path: Path) -> None:
    """Nothing played since, records about others among them: one list of what was entered, then his own record
    that bars, said with a verb and his name once (a review: 「其中 C 自己的 C 相公（張數不對）：」)."""
    game, at = _form_on_9m(tmp_path, "dead_hand")
    for seat in (0, 2, 3):
        assert game.wrong_count(seat, True) is None
    bar = game.own_bar(at, 2)
    assert bar is not None
    assert bar.zh == ("之後記了 A 相公（張數不對）、C 相公（張數不對）、D 相公（張數不對），其中 "
                      + _ONE_ZH.format(own="相公（張數不對）")), bar.zh
    assert bar.en == ("Entered since: A: wrong tile count; C: wrong tile count; D: wrong tile count. "
                      + _ONE_EN.format(own="wrong tile count")), bar.en
    assert bar.zh.startswith("之後記了 A 相公（張數不對）、C 相公（張數不對）、D 相公（張數不對），其中 C 自己的相公（張數不對）"
                             "讓他這一局不能再胡，")
    right = ui("live_own_bar_right")
    assert game.claim_gone(at, 2, ev.WinKind.DISCARD) == ui("live_claim_barred_only", why=bar.zh, why_en=bar.en,
                                                            right=right.zh, right_en=right.en)
    game.close()


def test_his_own_record_alone_is_said_as_before(tmp_path: Path) -> None:
    """Only his own 相公 entered since: the one record named, the rule said (no "his own" repeated)."""
    game, at = _form_on_9m(tmp_path, "dead_hand")
    assert game.wrong_count(2, False) is None
    bar = game.own_bar(at, 2)
    assert bar is not None
    assert bar.zh.startswith("之後記了 C 相公（張數不對）：照規則 C 這一局不能再胡，") and "自己的" not in bar.zh, bar.zh
    assert bar.en.startswith("Entered since: C: wrong tile count. By the rules C may not win") and "own" not in bar.en
    game.close()


def test_several_of_his_own_records_are_said_in_the_plural(tmp_path: Path) -> None:
    """Two 相公 of C's entered since (the second after A's), and B plays on: the bar names both, in the plural. (A
    second 相公 of his is refused now, LiveGame.wrong_count: a log from before holds them, entered here past it.)"""
    game, at = _form_on_9m(tmp_path, "dead_hand")
    for seat in (2, 0, 2):
        assert game._enter(None, [ev.WrongCount(seat=seat, big=True)]) is None
    bar = game.own_bar(at, 2)
    assert bar is not None
    assert bar.zh == ("之後記了 C 相公（張數不對）、A 相公（張數不對）、C 相公（張數不對），其中 "
                      + _MANY_ZH.format(own=" 2 筆相公（張數不對）", those="那兩筆")), bar.zh
    assert bar.en == ("Entered since: C: wrong tile count; A: wrong tile count; C: wrong tile count. "
                      + _MANY_EN.format(own="2 wrong tile counts", those="those two records")), bar.en
    assert game.discard("5z") is None
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert gone.en.endswith(". " + _MANY_EN.format(own="2 wrong tile counts", those="those two records")
                            + ". If they were entered right, tap Cancel"), gone.en
    assert gone.zh.endswith("。" + _MANY_ZH.format(own=" 2 筆相公（張數不對）", those="那兩筆") + "。如果都沒有記錯，請按「取消」"), \
        gone.zh
    game.close()


def test_a_false_win_played_dead_is_named_as_the_bar_and_a_warning_only_count_is_not(tmp_path: Path) -> None:
    """Under ``warn_only`` a 相公 bars nothing; C's 詐胡 played dead (``continue_dead``) does: the bar names it alone,
    then, with a 相公 that bars too (dead_hand), both, in the order entered."""
    for rule, own_zh, own_en, many in (("warn_only", "詐胡", "false win", False),
                                       ("dead_hand", "相公（張數不對）和詐胡", "a wrong tile count and a false win",
                                        True)):
        game = LiveGame(tmp_path / f"{rule}.sqlite", seed=5)
        assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10,
                          house={"first_dealer": "east_deals", "wrong_count": rule,
                                 "false_win_after": "continue_dead"}) is None
        assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
        assert game.discard("9m") is None
        at = game.offer().at
        assert game.wrong_count(2, True) is None and game.wrong_count(3, True) is None
        assert game.false_win(2) is None
        bar = game.own_bar(at, 2)
        assert bar is not None
        zh, en = (_MANY_ZH, _MANY_EN) if many else (_ONE_ZH, _ONE_EN)
        assert bar.zh == ("之後記了 C 相公（張數不對）、D 相公（張數不對）、C 詐胡，其中 "
                          + zh.format(own=own_zh, those="那兩筆")), bar.zh
        assert bar.en == ("Entered since: C: wrong tile count; D: wrong tile count; C: false win. "
                          + en.format(own=own_en, those="those two records")), bar.en
        game.close()


def test_his_own_correction_of_an_earlier_hand_is_listed_but_not_said_to_bar(tmp_path: Path) -> None:
    """C's tiles of hand 1 corrected (改正胡牌), then C's 相公 entered, while C's form is open in hand 2: the
    correction is his own record too, but only the 相公 bars his win, and only it is named as the bar."""
    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10,
                      house={"first_dealer": "east_deals", "wrong_count": "dead_hand"}) is None
    assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
    assert game.discard("9m") is None and game.win(2, ev.WinKind.DISCARD, HAND) is None  # hand 1: C on A's 9m
    assert game.throw((1, 2, 4)) is None and game.discard("9m") is None  # hand 2: B's 9m
    at = game.offer().at
    assert any(c.seat == 2 and c.kind is ev.WinKind.DISCARD for c in game.offer().wins)
    assert game.correct_win(1, 2, "111p222p333p123s456s9m") is None and game.wrong_count(2, True) is None
    bar = game.own_bar(at, 2)
    assert bar is not None
    assert bar.zh.endswith("，其中 " + _ONE_ZH.format(own="相公（張數不對）")) and "改正第 1 把 C" in bar.zh, bar.zh
    assert bar.en.endswith(". " + _ONE_EN.format(own="wrong tile count")) and "corrected" in bar.en, bar.en
    game.close()


# --- a change review's second read of the barred form (every sentence written out, both languages) ---

def test_a_stale_barred_form_names_every_record_and_never_hides_a_single_entry(tmp_path: Path) -> None:
    """A review: A's, C's and D's 相公 entered (dead_hand), then B played: the list read 「……另 1 筆、C 相公…」 /
    "… 1 more; C: …", A's record named nowhere, and "1 more" saving nothing. A stretch of one is shown."""
    game, at = _form_on_9m(tmp_path, "dead_hand")
    for seat in (0, 2, 3):
        assert game.wrong_count(seat, True) is None
    assert game.discard("5z") is None
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert gone.zh == (
        "在你填這個胡的時候，牌桌已經往下記了：A 相公（張數不對）、C 相公（張數不對）、D 相公（張數不對）、B 摸一張牌、"
        "B 打白板。九萬已經不能再胡（下一家摸牌後，這張牌就過了），這個胡記不了。C 自己的相公（張數不對）讓他這一局不能再胡，"
        "這裡的撤回不會為了記這個胡把它撤回。如果那一筆是記錯的，就用「撤回上一步」一步一步撤回：先撤回它之後記的，再撤回那一筆"
        "本身；撤回後這個表單會帶著已經打好的牌再打開。如果沒有記錯，請按「取消」"), gone.zh
    assert gone.en == (
        "The table moved on while this form was open: A: wrong tile count; C: wrong tile count; D: wrong tile count; "
        "B draws a tile; B discards the White dragon. 9 Characters can no longer be won on (once the next player draws, "
        "the discard is dead), so this win cannot be recorded. C's own record (wrong tile count) bars this win: by the "
        "rules C may not win for the rest of this hand, so undo here will not take it back to record this win. If it "
        "was entered by mistake, take it back with “Undo”, one entry at a time: the entries after it, then that record "
        "itself; this form then opens again with the tiles typed in it. If it was entered right, tap Cancel"), gone.en
    game.close()


def test_the_records_stay_in_a_long_list_of_entries_since(tmp_path: Path) -> None:
    """A's and C's 相公, then B, C and D play (8 entries since): the records matter most, and are kept in the list
    (the last 4 alone hid them both among "… 4 more"); the play between them and the last entries is counted."""
    game, at = _form_on_9m(tmp_path, "dead_hand")
    assert game.wrong_count(0, True) is None and game.wrong_count(2, True) is None
    for tile in ("5z", "6z", "7z"):
        assert game.discard(tile) is None
    since = game.since(at)
    assert since is not None
    assert since[0].zh == "A 相公（張數不對）、C 相公（張數不對）、……另 4 筆、D 摸一張牌、D 打紅中", since[0].zh
    assert since[0].en == ("A: wrong tile count; C: wrong tile count; … 4 more; D draws a tile; D discards the Red dragon"), \
        since[0].en
    game.close()


def test_his_two_records_are_said_with_articles_and_as_those_two(tmp_path: Path) -> None:
    """C's 相公 (dead_hand) and then his 詐胡 played dead: a review read "C's own records (2 wrong tile counts and
    false win)" with no article, 「…讓 C 這一局不能再胡」 naming C twice, and 「那幾筆」 of two records."""
    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10,
                      house={"first_dealer": "east_deals", "wrong_count": "dead_hand",
                             "false_win_after": "continue_dead"}) is None
    assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
    assert game.discard("9m") is None
    at = game.offer().at
    assert game.wrong_count(2, True) is None and game.false_win(2) is None
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert gone.zh == (
        "之後記了 C 相公（張數不對）、C 詐胡，其中 C 自己的相公（張數不對）和詐胡讓他這一局不能再胡，這裡的撤回不會為了記這個胡"
        "把它們撤回。如果那兩筆都是記錯的，就用「撤回上一步」一步一步撤回：先撤回它們之後記的，再撤回那兩筆本身；撤回後這個表單"
        "會帶著已經打好的牌再打開。如果都沒有記錯，請按「取消」"), gone.zh
    assert gone.en == (
        "Entered since: C: wrong tile count; C: false win. C's own records (a wrong tile count and a false win) bar this "
        "win: by the rules C may not win for the rest of this hand, so undo here will not take them back to record this "
        "win. If they were entered by mistake, take them back with “Undo”, one entry at a time: the entries after them, "
        "then those two records themselves; this form then opens again with the tiles typed in it. If they were entered "
        "right, tap Cancel"), gone.en
    game.close()


def test_a_second_wrong_count_of_a_seat_that_may_not_win_already_is_refused(tmp_path: Path) -> None:
    """A review: under dead_hand C's 相公 was entered twice (大 then 小), both taken, and his barred form said "2 wrong
    tile counts"; a second 詐胡 is refused ("C has already made a false win"). A 相公 bars his win and does nothing else
    (spec §2.16): the second is refused, said why, nothing logged; so is one after his 詐胡 played dead. Under
    warn_only (only a warning) a second is taken."""
    game, _ = _form_on_9m(tmp_path, "dead_hand")
    assert game.wrong_count(2, True) is None
    before = game.events()
    again = game.wrong_count(2, False)
    assert again == Words("C 已經記過相公，這一局本來就不能再胡，不用再記一次",
                          "C already has a wrong tile count entered and may not win for the rest of this hand: it need "
                          "not be entered again"), again
    assert game.events() == before and game.wrong_count(0, False) is None  # (A's first is taken)
    game.close()
    game = LiveGame(tmp_path / "dead.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10,
                      house={"first_dealer": "east_deals", "wrong_count": "dead_hand",
                             "false_win_after": "continue_dead"}) is None
    assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
    assert game.false_win(2) is None
    before = game.events()
    dead = game.wrong_count(2, True)
    assert dead == Words("C 已詐胡、這一局陪打，本來就不能再胡，不用再記相公",
                         "C made a false win and plays dead this hand, so cannot win anyway: no wrong tile count is "
                         "needed"), dead
    assert game.events() == before
    game.close()
    (tmp_path / "warn").mkdir()
    game, _ = _form_on_9m(tmp_path / "warn", "warn_only")
    assert game.wrong_count(2, True) is None and game.wrong_count(2, False) is None
    game.close()


def test_three_of_his_records_are_those_records(tmp_path: Path) -> None:
    """Two 相公 of C's (a log from before a second was refused) and his 詐胡 played dead: 「那幾筆」, "a false win"
    after the count (a review read "2 wrong tile counts and false win")."""
    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10,
                      house={"first_dealer": "east_deals", "wrong_count": "dead_hand",
                             "false_win_after": "continue_dead"}) is None
    assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
    assert game.discard("9m") is None
    at = game.offer().at
    for big in (True, False):
        assert game._enter(None, [ev.WrongCount(seat=2, big=big)]) is None
    assert game.false_win(2) is None
    bar = game.own_bar(at, 2)
    assert bar is not None
    assert bar.zh == ("之後記了 C 相公（張數不對）、C 相公（張數不對）、C 詐胡，其中 "
                      + _MANY_ZH.format(own=" 2 筆相公（張數不對）和詐胡", those="那幾筆")), bar.zh
    assert bar.en == ("Entered since: C: wrong tile count; C: wrong tile count; C: false win. "
                      + _MANY_EN.format(own="2 wrong tile counts and a false win", those="those records")), bar.en
    game.close()


def test_the_live_tab_offers_no_wrong_count_the_table_would_refuse(tmp_path: Path) -> None:
    """A review: C's 相公 entered (dead_hand), the Live tab still offered C's 大相公 and 小相公 and asked "are you sure",
    and only the confirm tap was refused ("C already has a wrong tile count entered…"). The offer asks what
    LiveGame.wrong_count asks (wrong_count_refusal): C's 相公 buttons go, his 詐胡 stays (the tracker takes it); after
    the undo they are back; under warn_only (a warning only) a second is offered and taken; after his 詐胡 played dead
    he is offered nothing."""
    from companion.app.view_live import LiveTab
    from tests.app.test_live_tab_moves import _Phone
    from tests.app.test_tabs_beside_a_live_table import _idents

    def drawn(game: LiveGame) -> set[str]:
        tab = LiveTab(_Phone(), game)
        return {c.identifier for c in _idents(tab._penalties(game.offer()))}

    def offered(game: LiveGame, seat: int) -> set[str]:
        return {k for k in ("false_win", "big", "small") if f"live-{k}-{seat}" in drawn(game)}

    game, _ = _form_on_9m(tmp_path, "dead_hand")
    assert game.offer().wrong_counts == (0, 1, 2, 3) and offered(game, 2) == {"false_win", "big", "small"}
    assert game.wrong_count(2, True) is None
    o = game.offer()
    assert o.penalties == (0, 1, 2, 3) and o.wrong_counts == (0, 1, 3), o
    assert offered(game, 2) == {"false_win"} and offered(game, 0) == {"false_win", "big", "small"}
    n = len(game.events())
    assert game.wrong_count(2, False) is not None and len(game.events()) == n  # (the one not offered: refused)
    assert game.undo() is None
    assert game.offer().wrong_counts == (0, 1, 2, 3) and offered(game, 2) == {"false_win", "big", "small"}
    game.close()

    (tmp_path / "warn").mkdir()
    game, _ = _form_on_9m(tmp_path / "warn", "warn_only")
    assert game.wrong_count(2, True) is None
    assert game.offer().wrong_counts == (0, 1, 2, 3) and offered(game, 2) == {"false_win", "big", "small"}
    assert game.wrong_count(2, False) is None
    game.close()

    game = LiveGame(tmp_path / "dead.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10,
                      house={"first_dealer": "east_deals", "wrong_count": "dead_hand",
                             "false_win_after": "continue_dead"}) is None
    assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
    assert game.false_win(2) is None
    o = game.offer()
    assert 2 not in o.penalties and 2 not in o.wrong_counts and offered(game, 2) == set(), o
    assert game.wrong_count(2, True) is not None
    game.close()
