"""The Live tab on one phone while other phones move the table on, drawn without a browser: a refusal shown is about
the table it was made on, and a win form left open answers the table and tile it was opened on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from companion.app.live_model import LiveGame
from companion.app.view_live import ID_LIVE_ERROR, LiveTab
from companion.app.words import Words, asked, ui
from tests.app.test_tabs_beside_a_live_table import _Host, _idents, _texts


class _Phone(_Host):
    """A page that counts what it said at the foot of the screen, and runs work sent to its loop at once."""

    def __init__(self) -> None:
        super().__init__()
        self.page.run_task = self._run
        self.page.scroll_to = self._scroll
        self.said: list[Words] = []

    async def _scroll(self, **_: Any) -> None:
        pass

    def _run(self, work: Any, *args: Any) -> None:
        import asyncio

        asyncio.run(work(*args))

    def notice(self, words: Words) -> None:
        self.said.append(words)

    def clear_notice(self) -> None:
        self.said.clear()


def _table(tmp_path: Path, multi_win: str = "nearest") -> LiveGame:
    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10,
                      house={"first_dealer": "east_deals", "multi_win": multi_win}) is None
    assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
    return game


def test_a_refusal_goes_once_another_phone_moves_the_table_on(tmp_path: Path) -> None:
    """A review: a phone refused a second Spring went on showing "Not allowed: Spring (1f)…", on the page and at its
    foot, under the prompt of a discard two entries later, as if the next seat's Spring had been refused."""
    game = _table(tmp_path)
    phone = _Phone()
    tab = LiveTab(phone, game)
    tab.visible = True
    tab.attach()
    assert game.discard("9m") is None
    seat = game.offer().draw_seat
    assert seat is not None and game.draw() is None
    assert game.flower(seat, "1f") is None
    tab._do(lambda: game.flower(seat, "1f", at=len(game.events())))  # the same Spring again: refused
    assert tab.error is not None and phone.said
    refused = tab._refused(tab.error).en
    assert refused in _texts(tab.build())  # shown on the table it was made on, however often drawn
    assert refused in _texts(tab.build()) and phone.said
    assert game.discard("7p") is None  # another phone
    page = tab.build()
    assert refused not in _texts(page) and not any(c.identifier == ID_LIVE_ERROR for c in _idents(page))
    assert tab.error is None and not phone.said  # at the foot too
    # out of sight (another tab shown), the refusal goes all the same
    tab._do(lambda: game.flower(seat, "1f", at=len(game.events())))
    assert tab.error is not None and phone.said
    tab.visible = False
    assert game.discard("6p") is None
    assert tab.error is None and not phone.said
    tab.detach()
    game.close()


def test_a_win_form_left_open_says_its_tile_is_dead_and_undoes_the_entries_since_to_record_it(tmp_path: Path) -> None:
    """A review's form, left open on A's 9m while another phone entered B's draw and 8m, kept asking to "look, then
    tap again": it says the 9m can no longer be won on, Record is off, and its undo button takes the entries since
    back, the form open as it was filled, to record the win."""
    from companion.app.view_live import ID_LIVE_UNDO_SINCE, ID_LIVE_WIN_GONE, ID_LIVE_WIN_OK
    from companion.game import events as ev
    from tests.app.test_photo_picks import _tapped

    game, tab, _ = _form_on_9m(tmp_path)
    assert game.discard("8m") is None  # another phone
    page = tab.build()
    shown = {c.identifier: c for c in _idents(page)}
    gone = game.claim_gone(tab.win_at, 2, ev.WinKind.DISCARD)
    assert gone.en in _texts(shown[ID_LIVE_WIN_GONE]) and shown[ID_LIVE_WIN_OK].content.disabled
    preview = " ".join(_texts(shown["live-win-preview"]))
    assert preview.startswith("On 9 Characters, a win: the hand is worth 17 tai") and "not a winning" not in preview
    _tapped(page, ID_LIVE_UNDO_SINCE)
    assert tab.error is None and tab.win is not None and tab.concealed.value == "123p456p789p123s456s9m"
    page = tab.build()
    shown = {c.identifier: c for c in _idents(page)}
    assert ID_LIVE_WIN_GONE not in shown and not shown[ID_LIVE_WIN_OK].content.disabled
    assert tab.win_at == len(game.events())
    _tapped(page, ID_LIVE_WIN_OK)
    out = game.state.outcome
    assert tab.error is None and out is not None and [w.seat for w in out.winners] == [2]
    game.close()


def _form_on_9m(tmp_path: Path, multi_win: str = "nearest") -> tuple[LiveGame, LiveTab, int]:
    """C's win form open on A's 9m, the hand typed."""
    from tests.app.test_photo_picks import _tapped

    game = _table(tmp_path, multi_win)
    assert game.discard("9m") is None
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    tab.build()
    _tapped(tab.build(), "live-win-2-discard")
    assert tab.win is not None and tab.win.tile == "9m"
    tab.concealed.value = "123p456p789p123s456s9m"
    tab._typing()
    return game, tab, tab.win_at


def test_a_win_form_left_open_while_a_nearer_seat_won_says_that_win_comes_first(tmp_path: Path) -> None:
    """A review: C's form, left open while another phone entered B's win on the same 9m (B is A's 下家), offered to
    undo B's win "if the win was called in time" and record C's; under 截胡 B wins whether or not C called in time,
    so the form says B's win comes first and offers Cancel only."""
    from companion.app.view_live import ID_LIVE_UNDO_SINCE, ID_LIVE_WIN_GONE, ID_LIVE_WIN_OK
    from companion.game import events as ev

    game, tab, at = _form_on_9m(tmp_path)
    assert game.win(1, ev.WinKind.DISCARD, "123p456p789p123s456s9m", at=at) is None  # another phone
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert gone == ui("live_claim_first", winner="B", tile="九萬", tile_en="9 Characters")
    assert "B" in gone.zh and "截胡" in gone.zh and "B has already won on 9 Characters" in gone.en
    assert game.win(2, ev.WinKind.DISCARD, "123p456p789p123s456s9m", at=at) == gone
    shown = {c.identifier: c for c in _idents(tab.build())}
    assert gone.en in _texts(shown[ID_LIVE_WIN_GONE]) and shown[ID_LIVE_WIN_OK].content.disabled
    assert ID_LIVE_UNDO_SINCE not in shown and "live-win-cancel" in shown
    out = game.state.outcome
    assert out is not None and [w.seat for w in out.winners] == [1]
    game.close()


def test_a_win_form_left_open_while_another_seat_won_is_a_second_winner_under_all(tmp_path: Path) -> None:
    """Under ``multi_win = all`` the tracker takes C's win beside B's: the form says so and records it."""
    from companion.app.view_live import ID_LIVE_WIN_BESIDE, ID_LIVE_WIN_OK
    from companion.game import events as ev
    from tests.app.test_photo_picks import _tapped

    game, tab, at = _form_on_9m(tmp_path, "all")
    assert game.win(1, ev.WinKind.DISCARD, "123p456p789p123s456s9m", at=at) is None  # another phone
    beside = game.claim_beside(at, 2, ev.WinKind.DISCARD)
    assert beside == Words("B 已經胡了九萬：這個胡記下來，是第二家胡（一炮多響）",
                           "B has already won on 9 Characters: this win is recorded as the second winner "
                           "(several winners on one discard)")
    page = tab.build()
    shown = {c.identifier: c for c in _idents(page)}
    assert beside.en in _texts(shown[ID_LIVE_WIN_BESIDE]) and not shown[ID_LIVE_WIN_OK].content.disabled
    _tapped(page, ID_LIVE_WIN_OK)
    out = game.state.outcome
    assert tab.error is None and out is not None and [w.seat for w in out.winners] == [1, 2]
    game.close()


def test_a_win_form_whose_discard_was_taken_back_says_so(tmp_path: Path) -> None:
    """A review: the form said the table "moved on" (往下記了) and the 9m "can no longer be won on" where another phone
    had taken the 9m back."""
    from companion.game import events as ev

    game, tab, at = _form_on_9m(tmp_path)
    assert game.undo() is None  # another phone
    assert game.claim_gone(at, 2, ev.WinKind.DISCARD) == ui("live_claim_taken_back", tile="九萬",
                                                               tile_en="9 Characters")
    assert game.discard("9m") is None  # entered again: the form records on it
    assert game.claim_at(at, 2, ev.WinKind.DISCARD) is not None
    game.close()


def test_a_win_form_left_open_past_its_hands_end_never_undoes_the_result(tmp_path: Path) -> None:
    """A review: a form left open past the end of its hand offered "Undo the 67 later entries", and one tap took back
    the finished hand's result and the next deal. The form's undo never reaches back across a hand's end: it says
    so, offers Cancel only, and a tap refused leaves every entry standing."""
    from companion.app.view_live import ID_LIVE_UNDO_SINCE, ID_LIVE_WIN_GONE
    from companion.game import events as ev

    game, tab, at = _form_on_9m(tmp_path)
    assert game.discard("8m") is None  # other phones: B discards 8m, D wins on it (the hand's end)
    assert game.win(3, ev.WinKind.DISCARD, "123p456p789p123s456s8m") is None
    assert game.state.outcome is not None
    entered = len(game.events())
    ended = ui("live_since_hand_over")
    for dealt in (False, True):  # the win alone, then the next hand dealt too
        if dealt:
            assert game.throw((2, 3, 4)) is None
        entered = len(game.events())
        assert game.since(at) is None and game.undo_since(at) == ended and len(game.events()) == entered
        gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
        assert ended.en in gone.en and ended.zh in gone.zh and ui("live_undo_since_one").en not in gone.en
        shown = {c.identifier: c for c in _idents(tab.build())}
        assert ID_LIVE_UNDO_SINCE not in shown and ended.en in " ".join(_texts(shown[ID_LIVE_WIN_GONE]))
    assert len(game.state.results) == 1  # D's win stands
    game.close()


def test_a_win_form_undoes_a_stated_number_of_entries_at_most(tmp_path: Path) -> None:
    """A form left open while the hand went on for more than UNDO_SINCE_MOST taps offers no undo that takes them all
    back (one tap could take back most of a hand): it says how many it would take back at most."""
    from companion.app.live_model import UNDO_SINCE_MOST
    from companion.app.view_live import ID_LIVE_UNDO_SINCE
    from companion.game import events as ev

    game, tab, at = _form_on_9m(tmp_path)
    faces = iter(f"{n}{s}" for s in "mps" for n in range(1, 10))
    for _ in range(UNDO_SINCE_MOST):
        while game.discard(next(faces)) is not None:  # (one the seat may hold)
            pass
    since = game.since(at)
    assert since is not None and since[1] == UNDO_SINCE_MOST
    while game.discard(next(faces)) is not None:
        pass
    entered, most = len(game.events()), ui("live_since_too_many", n=UNDO_SINCE_MOST)
    assert game.since(at) is None and game.undo_since(at) == most and len(game.events()) == entered
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert most.en in gone.en and most.zh in gone.zh and f"at most {UNDO_SINCE_MOST}" in gone.en
    assert ID_LIVE_UNDO_SINCE not in {c.identifier for c in _idents(tab.build())}
    game.close()


def test_a_win_forms_undo_tapped_after_another_phones_entry_is_refused(tmp_path: Path) -> None:
    """A review: the form's button read "Undo the later entry"; another phone's discard landed before the tap, and
    the tap took back both, the other phone's too, saying nothing. The button carries the table it was drawn on,
    as every Live button does: refused with "the table was just updated", nothing taken back."""
    from companion.app.live_model import effective_events
    from companion.app.view_live import ID_LIVE_UNDO_SINCE
    from tests.app.test_photo_picks import _tapped

    game, tab, at = _form_on_9m(tmp_path)
    assert game.discard("8m") is None  # another phone
    page = tab.build()
    shown = {c.identifier: c for c in _idents(page)}
    assert _texts(shown[ID_LIVE_UNDO_SINCE]) == [ui("live_undo_since_one").en]
    assert game.discard("7p") is None  # another phone, before this one's tap arrives
    entered = effective_events(game.events())
    _tapped(page, ID_LIVE_UNDO_SINCE)  # the button as it was drawn
    assert tab.error == ui("live_moved") and effective_events(game.events()) == entered
    _tapped(tab.build(), ID_LIVE_UNDO_SINCE)  # drawn again, it says 2 and takes back 2
    assert tab.error is None and effective_events(game.events()) == effective_events(game.events()[:at])
    game.close()


def test_a_win_forms_undo_path_is_played_out_on_the_entries_since_only(tmp_path: Path, monkeypatch: Any) -> None:
    """A review measured since() and claim_gone() at 55-140 ms on a long log, on every render of a stale form and
    under the table lock: each tap's undo worked the whole log's effective events out again. The log is read whole
    a fixed number of times however many taps the form is behind, and a render's second ask reads it not at all."""
    from companion.app import live_model

    game, _, at = _form_on_9m(tmp_path)
    for tile in ("8m", "7m", "6m", "5m", "4m", "3m", "2m", "1m"):
        assert game.discard(tile) is None  # other phones
    read: list[int] = []
    whole = live_model.effective_events

    def counted(events: Any) -> list[Any]:
        read.append(len(events))
        return whole(events)

    monkeypatch.setattr(live_model, "effective_events", counted)
    since = game.since(at)
    assert since is not None and since[1] == 8
    assert len(read) <= 3, read  # (it was 8 taps + 2)
    read.clear()
    assert game.since(at) == since and read == []
    game.close()


def test_a_win_form_left_open_past_a_win_on_another_discard_of_its_face_never_undoes_it(tmp_path: Path) -> None:
    """A review: C's form on A's 9m, left open while the table went round and D won on B's later 9m (the hand's
    end), took D's win for its rival, a win on its tile, by the face alone: it offered "Undo the 6 later entries",
    and one tap took back D's win and the five taps before it. A's 9m died at B's draw (spec §2.9): the form says
    the hand ended and offers Cancel only, and the model refuses the undo too."""
    from companion.app.view_live import ID_LIVE_UNDO_SINCE, ID_LIVE_WIN_GONE
    from companion.game import events as ev

    game, tab, at = _form_on_9m(tmp_path)
    for tile in ("1z", "2z", "3z", "4z", "9m"):  # other phones: B C D A discard, then B discards a second 9m
        assert game.discard(tile) is None
    assert game.win(3, ev.WinKind.DISCARD, "123p456p789p123s456s9m") is None  # D wins on B's 9m
    assert game.state.outcome is not None
    entered, ended = len(game.events()), ui("live_since_hand_over")
    shown = {c.identifier: c for c in _idents(tab.build())}
    assert ID_LIVE_UNDO_SINCE not in shown and ended.en in " ".join(_texts(shown[ID_LIVE_WIN_GONE]))
    assert game.undo_since(at, seen=entered) == ended and len(game.events()) == entered
    assert game.state.outcome is not None and [w.seat for w in game.state.outcome.winners] == [3]
    game.close()


def _to_the_last_discard(game: LiveGame, declined: bool) -> None:
    """Discards until the table offers the 流局 (``declined``: the next seat's declining the last tile)."""
    faces = [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)]
    k = 0
    while not (game.offer().decline_seat is not None if declined else game.offer().exhaustive):
        while game.discard(faces[k % len(faces)]) is not None:  # (one the seat may hold)
            k += 1
        k += 1


def test_a_win_form_on_the_last_discard_undoes_the_draw_entered_over_it_and_records(tmp_path: Path) -> None:
    """A review: a form open on the last discard (河底撈魚) could no longer record once another phone entered the
    流局, or the next seat's declining the last tile: it said the hand had ended and offered Cancel only. The draw
    happens only if nobody wins on that discard (spec §2.7, §2.13): it is the entry the win replaces, as the next
    seat's draw is, so the form names it, undoes it, and records the win."""
    from companion.app.live_model import undo_since_words
    from companion.game.state import OutcomeKind

    for declined in (False, True):
        game = _table(tmp_path / str(declined))
        _to_the_last_discard(game, declined)
        at, chance = len(game.events()), game.offer().wins[0]
        assert (game.decline() if declined else game.exhaustive()) is None
        assert game.state.outcome is not None and game.state.outcome.kind is (
            OutcomeKind.DECLINED if declined else OutcomeKind.DRAW)
        since = game.since(at)
        assert since is not None and since[1] == 1, since
        assert ("declines the last tile" if declined else "Exhaustive draw") in since[0].en
        gone = game.claim_gone(at, chance.seat, chance.kind)
        assert since[0].en in gone.en and since[0].zh in gone.zh and undo_since_words(1).en in gone.en
        assert game.undo_since(at, seen=len(game.events())) is None and game.state.outcome is None
        assert game.win(chance.seat, chance.kind, "123p456p789p123s456s" + str(chance.tile), at=at) is None
        out = game.state.outcome
        assert out is not None and out.kind is OutcomeKind.WIN and [w.seat for w in out.winners] == [chance.seat]
        game.close()


def test_a_win_form_barred_by_its_hands_end_names_the_entries_that_ended_it(tmp_path: Path) -> None:
    """A review: a form whose undo may not reach back said "more entries were made since" / 「之後又記了好幾步」 even
    of a single entry, never naming the false win that ended the hand, and dropped "(once the next player draws,
    the discard is dead)" where B had drawn. It names the entries as an unbarred form does, the clause where a draw
    was entered."""
    from companion.game import events as ev

    for drew in (False, True):
        game = _table(tmp_path / str(drew))
        assert game.discard("9m") is None
        at = len(game.events())
        if drew:
            assert game.draw() is None  # B draws: A's 9m is dead
        assert game.false_win(3) is None  # D's false win voids the hand
        assert game.state.outcome is not None
        gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
        ended, rule, vague = ui("live_since_hand_over"), ui("live_claim_gone_rule"), ui("live_claim_on")
        assert ended.en in gone.en and ended.zh in gone.zh
        assert vague.en not in gone.en and vague.zh not in gone.zh, gone
        assert "D: false win" in gone.en and ("B draws a tile" in gone.en) is drew, gone.en
        assert "D" in gone.zh and "詐胡" in gone.zh.split("。")[0], gone.zh
        assert (rule.en in gone.en and rule.zh in gone.zh) is drew, gone
        game.close()


def test_a_win_form_left_open_past_a_win_on_a_later_tile_of_its_face_says_the_hand_ended(tmp_path: Path) -> None:
    """A review: C's form on A's 9m, left open while B drew and discarded another 9m and A won on it, said A's win
    "comes first (截胡: the nearest claimant after the discarder wins)"; 截胡 is about claimants on one discard, and
    A won on another: the form says the hand ended, naming A's win, and offers Cancel only."""
    from companion.app.view_live import ID_LIVE_UNDO_SINCE, ID_LIVE_WIN_GONE
    from companion.game import events as ev

    game, tab, at = _form_on_9m(tmp_path)
    assert game.discard("9m") is None  # another phone: B draws and discards a second 9m
    assert game.win(0, ev.WinKind.DISCARD, "123p456p789p123s456s9m") is None  # A wins on B's 9m
    gone, ended = game.claim_gone(at, 2, ev.WinKind.DISCARD), ui("live_since_hand_over")
    assert ended.en in gone.en and ended.zh in gone.zh and "A wins on 9 Characters, discarded by B" in gone.en
    assert "截胡" not in gone.zh and "nearest claimant" not in gone.en, gone
    shown = {c.identifier: c for c in _idents(tab.build())}
    assert ID_LIVE_UNDO_SINCE not in shown and ended.en in " ".join(_texts(shown[ID_LIVE_WIN_GONE]))
    game.close()


def test_a_win_form_whose_own_win_another_phone_recorded_says_so_and_offers_no_undo(tmp_path: Path) -> None:
    """A review: C's form on A's 9m, left open while another phone recorded C's win on it, said the 9m "can no
    longer be won on" and offered to undo that win, to record whatever this phone typed in its place. It says the
    win is recorded already and offers Cancel only; the win stands."""
    from companion.app.view_live import ID_LIVE_UNDO_SINCE, ID_LIVE_WIN_GONE
    from companion.game import events as ev

    game, tab, at = _form_on_9m(tmp_path)
    assert game.win(2, ev.WinKind.DISCARD, "123p456p789p123s456s9m") is None  # another phone records C's win
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert gone == ui("live_claim_recorded", winner="C")
    shown = {c.identifier: c for c in _idents(tab.build())}
    assert ID_LIVE_UNDO_SINCE not in shown and gone.en in " ".join(_texts(shown[ID_LIVE_WIN_GONE]))
    out = game.state.outcome
    assert out is not None and [w.seat for w in out.winners] == [2]
    game.close()


def test_a_self_draw_form_whose_win_another_phone_recorded_says_so(tmp_path: Path) -> None:
    """The self-draw counterpart of the form above said "the hand ended, tap Cancel" where the discard form offered
    undo (a review: the two disagreed): both say the win is recorded already."""
    from companion.game import events as ev

    game = _table(tmp_path)
    dealer = game.state.dealer
    for tile in ("1z", "2z", "3z", "4z"):
        assert game.discard(tile) is None
    assert game.draw() is None
    at = len(game.events())
    assert any(c.seat == dealer and c.kind is ev.WinKind.SELF_DRAW for c in game.offer().wins)
    assert game.win(dealer, ev.WinKind.SELF_DRAW, "123m456m789m123p456p7s", "7s") is None  # another phone
    assert game.claim_gone(at, dealer, ev.WinKind.SELF_DRAW) == ui("live_claim_recorded", winner="A")
    assert not game.recorded(at, (dealer + 1) % 4, ev.WinKind.SELF_DRAW)
    game.close()



@pytest.mark.parametrize("later", [3, 20])  # 20: more taps than the form's undo path plays out
def test_a_win_form_barred_by_its_hands_end_lists_the_entry_that_ended_it_however_many_follow(
        tmp_path: Path, later: int) -> None:
    """A review: a form barred by its hand's end listed the last 4 entries since, so once the next hand had been dealt
    and played a little, the entry that ended the form's hand (D's win) fell off the list, while the sentence still
    said the hand had ended. The list names that entry however many follow it, and says how many it leaves out."""
    from companion.app.live_model import SINCE_SHOWN, effective_events
    from companion.game import events as ev
    from companion.tiles import Tile

    game, tab, at = _form_on_9m(tmp_path)
    assert game.discard("8m") is None  # other phones: B draws and discards 8m, D wins on it (the hand's end)
    assert game.win(3, ev.WinKind.DISCARD, "123p456p789p123s456s8m") is None
    assert game.throw((2, 3, 4)) is None  # the next hand dealt and played on
    faces = iter(f"{n}{s}" for s in "mps" for n in range(1, 10))
    for _ in range(later):
        face = next(faces)
        while game.discard(face) is not None:  # (one the seat may hold)
            face = next(faces)
    ended, won = ui("live_since_hand_over"), ("D wins on 8 Characters, discarded by B", "D 胡八萬（B 放槍）")
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert ended.en in gone.en and ended.zh in gone.zh
    assert won[0] in gone.en and won[1] in gone.zh, gone
    # the entries since, one line each: B's draw and discard before the win, then the rest (the last ones shown)
    since = len(effective_events(game.events())) - len(effective_events(game.events()[:at]))
    before, after = 2, since - 3 - (SINCE_SHOWN - 1)
    assert after > 0
    for n in (before, after):
        gap = ui("live_since_gap", n=n)
        assert gap.en in gone.en and gap.zh in gone.zh, (n, gone)
    listed = gone.en.split(": ", 1)[1].split(". ", 1)[0]
    assert listed.index(ui("live_since_gap", n=before).en) < listed.index(won[0]) \
        < listed.index(ui("live_since_gap", n=after).en)
    assert listed.endswith(f"discards {Tile.from_code(face).en}"), listed
    assert listed.count("; ") == SINCE_SHOWN + 1  # four entries and the two stretches left out
    shown = {c.identifier: c for c in _idents(tab.build())}
    assert won[0] in " ".join(_texts(shown["live-win-gone"]))
    game.close()


@pytest.mark.parametrize("multi_win", ["nearest", "all"])
def test_a_win_form_barred_by_its_hands_end_names_a_rivals_win_on_its_own_tile(tmp_path: Path, multi_win: str) -> None:
    """A review: C's form on A's 9m, left open while another phone recorded B's win on that same 9m, dealt the next
    hand and played 6 discards: the list named the next hand's dice throw as the entry that ended the hand, and hid
    B's win among "… 1 more" (a win on the form's own tile is no bar to its undo alone, so it was passed over). The
    list names B's win, in both languages."""
    from companion.game import events as ev

    game, tab, at = _form_on_9m(tmp_path, multi_win)
    assert game.win(1, ev.WinKind.DISCARD, "123p456p789p123s456s9m", at=at) is None  # another phone: B wins on it
    assert game.throw((1, 2, 4)) is None  # the next hand dealt and played on
    faces = iter(f"{n}{s}" for s in "mps" for n in range(1, 10))
    for _ in range(6):
        face = next(faces)
        while game.discard(face) is not None:
            face = next(faces)
    gone, ended = game.claim_gone(at, 2, ev.WinKind.DISCARD), ui("live_since_hand_over")
    assert ended.en in gone.en and ended.zh in gone.zh
    listed_en, listed_zh = gone.en.split(": ", 1)[1], gone.zh.split("：", 1)[1]
    assert listed_en.startswith("B wins on 9 Characters, discarded by A; "), gone.en
    assert listed_zh.startswith("B 胡九萬（A 放槍）、"), gone.zh
    game.close()


def test_a_win_forms_undo_warns_that_it_takes_back_another_seats_win_correction(tmp_path: Path) -> None:
    """A review: hand 1 D won on A's 9m; in hand 2 C's form was open on B's 9m while another phone corrected D's
    hand-1 tiles (改正胡牌, which added 三暗刻 and moved A's and D's balances). C's "Undo the later entry" took the
    correction back, the balances with it, with no word under the button as for another seat's 相公. It says so,
    naming D and the correction, in both languages, before the tap."""
    from companion.app.view_live import ID_LIVE_UNDO_ALSO, ID_LIVE_UNDO_SINCE
    from companion.game import events as ev
    from tests.app.test_photo_picks import _tapped

    game = _table(tmp_path)
    assert game.discard("9m") is None
    assert game.win(3, ev.WinKind.DISCARD, "123p456p789p123s456s9m") is None  # hand 1: D wins on A's 9m
    assert game.throw((1, 2, 4)) is None and game.discard("9m") is None  # hand 2: B's 9m
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    tab.build()
    _tapped(tab.build(), "live-win-2-discard")
    at = tab.win_at
    assert game.undo_also(at, 2) is None  # nothing since
    assert game.correct_win(1, 3, "111p222p333p123s456s9m") is None  # another phone: D's tiles put right
    since = game.since(at)
    assert since is not None and since[1] == 1
    also = game.undo_also(at, 2)
    assert also is not None and since[0].en in also.en and since[0].zh in also.zh, also
    assert "D" in also.en and "corrected" in also.en and "改正" in also.zh, also
    shown = {c.identifier: c for c in _idents(tab.build())}
    assert ID_LIVE_UNDO_SINCE in shown and also.en in " ".join(_texts(shown[ID_LIVE_UNDO_ALSO]))
    game.close()


def test_a_win_forms_undo_names_several_records_in_the_order_entered_in_the_plural(tmp_path: Path) -> None:
    """A review: C's form open on A's 9m, other phones recorded A's 相公, then D's; the warning under the undo named
    them backwards ("D: …; A: …") and in the singular ("another player's record", 「那一筆」). They are named as
    entered, and said as several, in both languages."""
    from companion.app.live_model import undo_since_words
    from companion.game import events as ev

    game, tab, at = _form_on_9m(tmp_path)
    assert game.wrong_count(0, True) is None and game.wrong_count(3, False) is None  # other phones
    assert game.claim_at(at, 2, ev.WinKind.DISCARD) is None
    since = game.since(at)
    assert since is not None and since[1] == 2
    also, button = game.undo_also(at, 2), undo_since_words(2)
    assert also == ui("live_undo_since_also_many", button=button.zh, button_en=button.en,
                      what="A 相公（張數不對）、D 相公（張數不對）", what_en="A: wrong tile count; D: wrong tile count"), also
    assert "records" in also.en and "那幾筆" in also.zh
    game.close()


@pytest.mark.parametrize("rule", ["dead_hand", "warn_only"])
def test_a_win_forms_undo_never_takes_back_its_own_seats_wrong_count_to_record_a_barred_win(
        tmp_path: Path, rule: str) -> None:
    """A review: C's form open on A's 9m, other phones recorded A's 相公, then C's own; the warning under the undo named
    A's alone, and once tapped C's win recorded, where under ``wrong_count = dead_hand`` a 相公 player may not win for
    the rest of the hand (spec §2.16). The form now says so and offers no undo (Cancel, or the Live tab's Undo for a
    record entered by mistake, which takes it back and lets the form record); under ``warn_only`` the record bars
    nothing, and the warning names it as C's own."""
    from companion.app.live_model import effective_events, undo_since_words
    from companion.app.view_live import ID_LIVE_UNDO_ALSO, ID_LIVE_UNDO_SINCE, ID_LIVE_WIN_GONE
    from companion.game import events as ev
    from tests.app.test_photo_picks import _tapped

    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10,
                      house={"first_dealer": "east_deals", "wrong_count": rule}) is None
    assert game.choose_dealer() is None and game.throw((1, 2, 3)) is None
    assert game.discard("9m") is None
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    tab.build()
    _tapped(tab.build(), "live-win-2-discard")
    at, hand = tab.win_at, "123p456p789p123s456s9m"
    tab.concealed.value = hand
    assert game.wrong_count(2, True) is None  # another phone: C's own 相公
    assert game.discard("5z") is None  # B draws and discards: the 9m is dead
    shown = {c.identifier: c for c in _idents(tab.build())}
    if rule == "warn_only":
        assert game.own_bar(at, 2) is None
        also, button = game.undo_also(at, 2), undo_since_words(2)
        assert also == ui("live_undo_since_also_own", button=button.zh, button_en=button.en, seat="C",
                          what="C 相公（張數不對）", what_en="C: wrong tile count"), also
        assert also.en in " ".join(_texts(shown[ID_LIVE_UNDO_ALSO]))
        _tapped(tab.build(), ID_LIVE_UNDO_SINCE)
        assert tab.error is None and game.win(2, ev.WinKind.DISCARD, hand, at=at) is None
        game.close()
        return
    bar = game.own_bar(at, 2)
    assert bar is not None and "C: wrong tile count" in bar.en and "C 相公" in bar.zh and "C" in bar.zh, bar
    alone = game.own_bar(at, 2, listed=False)  # (after the form's own list of the entries since)
    assert alone is not None and "C's own record (wrong tile count)" in alone.en and "C 自己的相公" in alone.zh, alone
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert alone.en in gone.en and alone.zh in gone.zh and ui("live_claim_cancel").en not in gone.en, gone
    assert ID_LIVE_UNDO_SINCE not in shown and ID_LIVE_UNDO_ALSO not in shown
    assert alone.en in " ".join(_texts(shown[ID_LIVE_WIN_GONE]))
    before = game.events()
    right = ui("live_own_bar_right")
    assert game.undo_since(at, seen=len(before), seat=2) == bar + ui(
        "live_own_bar_cancel", right=right.zh, right_en=right.en) and game.events() == before  # nothing taken back
    assert game.win(2, ev.WinKind.DISCARD, hand, at=at) is not None
    out = game.state.outcome
    assert out is None and game.state.seats[2].no_win
    # the way out of a record entered by mistake: the Live tab's Undo, entry by entry; the form then goes on
    assert game.undo() is None and game.undo() is None
    assert effective_events(game.events()) == effective_events(game.events()[:at])
    assert game.win(2, ev.WinKind.DISCARD, hand, at=at) is None
    out = game.state.outcome
    assert out is not None and [w.seat for w in out.winners] == [2]
    game.close()


def test_a_stale_win_forms_render_works_the_log_out_once_per_entry(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A review timed a form left open 1,316 entries back: each render worked the whole log's effective events out
    ten times over (18 ms at 6,300 events, under the game lock). They are kept for the log they were worked out on:
    a render with nothing entered since works none out, one after an entry a few, and the form says the same."""
    import companion.app.live_model as live_model
    from companion.game import events as ev

    game, tab, at = _form_on_9m(tmp_path)
    for face in ("5z", "6z", "7z"):  # other phones: the 9m dead, and on
        assert game.discard(face) is None
    worked = []
    real = live_model.effective_events
    monkeypatch.setattr(live_model, "effective_events", lambda events: worked.append(len(events)) or real(events))
    first = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert 0 < len(worked) <= 4, worked
    worked.clear()
    assert game.claim_gone(at, 2, ev.WinKind.DISCARD) == first and worked == []
    assert game.discard("1z") is None
    gone = game.claim_gone(at, 2, ev.WinKind.DISCARD)
    assert 0 < len(worked) <= 6 and gone != first, worked
    monkeypatch.setattr(live_model, "effective_events", real)
    game.close()
    fresh = LiveGame(game.path)  # worked out anew, nothing kept: the same words
    assert fresh.claim_gone(at, 2, ev.WinKind.DISCARD) == gone
    fresh.close()


def test_a_throw_typed_is_kept_when_the_page_loads_again(tmp_path: Path) -> None:
    """A review typed the first throw for the first dealer, the page reloaded before the second, and the throw was
    gone; the win form's fields were kept all along. The dice are kept at the table as the form's are, until sent."""
    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10) is None
    assert game.offer().dealer_throws == 2
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    tab.attach()
    tab.build()
    tab.dice.value = "3 5 6"
    tab.dice.on_change()  # as typed
    tab.detach()
    again = LiveTab(_Phone(), game)  # the page loaded again
    again.visible = True
    again.attach()
    again.build()
    assert again.dice.value == "3 5 6" and not again.second.value
    again.second.value = "1 1 2"
    again.second.on_change()
    again._do(lambda: game.choose_dealer((3, 5, 6), (1, 1, 2), at=game.offer().at))
    assert again.error is None and not again.dice.value
    again.build()  # the wall's throw starts empty
    assert not again.dice.value
    again.detach()
    game.close()


def test_the_names_filled_in_name_no_wind(tmp_path: Path) -> None:
    """The names filled in were 東家 … 北家 (East … North): once the dealer was drawn and the winds went round, the
    records read 「門風跟莊走：北家 東、東家 南…」 and the CSV 「東家 付 西家 210」 with 東家 sitting South (a review).
    Seated as filled in (one tap), the names say no wind."""
    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    tab.attach()
    tab.build()
    assert [f.value for f in tab.names] == ["Player 1", "Player 2", "Player 3", "Player 4"]
    tab._start(game.offer().at)  # seated with the names as filled in
    assert game.state.players == ("Player 1", "Player 2", "Player 3", "Player 4")
    winds = [ui(f"wind_{k}") for k in "ESWN"]
    assert not any(w.en in name or w.zh in name for w in winds for name in game.state.players)
    assert ui("live_player", n="一", n_en=1).zh == "玩家一"
    tab.detach()
    game.close()


def test_the_replay_of_the_live_table_says_this_tables_game_not_its_file(tmp_path: Path) -> None:
    """Live → Replay said 「重播 table.sqlite：記到第 9 步為止…」: a file name no player chose (a review)."""
    game = _table(tmp_path)
    phone = _Phone()
    opened: list[tuple[Any, Words]] = []
    phone.open_replay = lambda replay, note: opened.append((replay, note))  # type: ignore[attr-defined]
    tab = LiveTab(phone, game)
    tab._replay()
    (_, note), = opened
    assert note.zh.startswith("重播這桌的牌局：") and note.en.startswith("Replaying this table's game ")
    assert "table.sqlite" not in note.zh + note.en
    game.close()


def test_a_tile_tapped_after_a_numbered_flower_in_the_win_form_is_the_tile_tapped(tmp_path: Path) -> None:
    """A review: the palette joined its key to the field, so 梅1 then a tapped 1m read as 梅 11m (an extra 1m, unsaid)
    and 竹3 then 4m was refused; the tile tapped now goes in a word of its own after such a name."""
    from companion.app.live_model import tiles_typed
    from companion.tiles import Tile
    from tests.app.test_photo_picks import _tapped

    game, tab, _ = _form_on_9m(tmp_path)
    for typed, code, flower in (("123p 梅1", "1m", "5f"), ("123p 竹3", "4m", "7f")):
        tab.concealed.value = typed
        _tapped(tab.build(), f"live-key-{code}")
        assert tab.concealed.value == f"{typed} {code}"
        assert tiles_typed(tab.concealed.value) == (Tile.P1, Tile.P2, Tile.P3, Tile.from_code(flower),
                                                    Tile.from_code(code))
    game.close()


def test_a_win_refused_then_mended_in_the_form_no_longer_says_the_refusal(tmp_path: Path) -> None:
    """A review: a hand typed with a fifth 9m was refused on 確定胡牌; mended in the field, the form said 「可以胡」 in
    green with 「不行：這樣桌上會有 5 張九萬」 in red under it, and at the foot of the screen, about a hand no longer
    typed. The refusal was about the hand as it stood: an edit of the form takes it back (the preview says the rest)."""
    from tests.app.test_photo_picks import _tapped

    game, tab, _ = _form_on_9m(tmp_path)
    phone = tab.host
    tab.concealed.value = "123p456p789p123s9999m"  # 4 in hand and the 9m discarded: five
    tab._typing()
    _tapped(tab.build(), "live-win-ok")
    assert tab.error is not None and phone.said
    refused = tab._refused(tab.error).en
    page = tab.build()
    shown = [c for c in _idents(page) if c.identifier == ID_LIVE_ERROR]
    assert refused in _texts(page) and len(shown) == 1 and shown[0].visible
    _tapped(page, "live-key-1m")  # a tile tapped in with the palette's key
    assert tab.error is None and not phone.said and not shown[0].visible  # gone from the screen drawn, no redraw
    tab.concealed.value = "123p456p789p123s456s9m"  # typed right
    tab._typing()
    page = tab.build()
    assert refused not in _texts(page) and not any(c.identifier == ID_LIVE_ERROR for c in _idents(page))
    _tapped(page, "live-win-ok")
    assert tab.error is None and game.state.outcome is not None
    game.close()


@pytest.mark.parametrize("rule", ["nearest_unless_three", "three_is_draw"])
def test_the_win_buttons_after_a_win_say_the_tables_rule_for_two_or_three_winners(tmp_path: Path, rule: str) -> None:
    """A review: under 截胡 unless three (or three winners draw), the buttons for a further win on the tile stood under
    「一炮多響：還有人也胡這張嗎？」 ("Several winners"), as if each winner were paid; the prompt beside them says the
    table's rule, and says it once: the buttons' heading said it again (a change review read it twice)."""
    from companion.app.live_offer import also_wins_prompt
    from companion.game import events as ev
    from companion.rules.profiles._schema import SWITCHES

    game = _table(tmp_path, rule)
    assert game.discard("9m") is None
    assert game.win(2, ev.WinKind.DISCARD, "123p456p789p123s456s9m") is None
    tab = LiveTab(_Phone(), game)
    tab.visible = True
    shown = _texts(tab.build())
    prompt = tab.host.t(also_wins_prompt(game.state, False))
    assert prompt in shown
    name = tab.host.t(Words(*SWITCHES["multi_win"].choice_name(rule)))  # the rule sets' name of the rule
    assert prompt.count(name) == 1  # (the terms line and the house rules' menu name it too, as every table's)
    assert not any(c.identifier == "live-claims-title" for c in _idents(tab.build()))
    game.close()


def test_an_entry_the_form_still_lacks_is_asked_for_not_refused(tmp_path: Path) -> None:
    """A game-night review: a self-draw form with the hand typed but not the tile drawn said 「不行：請輸入胡的那一張牌
    （一張）」 / "Not allowed: Enter the winning tile (one tile)", as if a rule refused the win; what is missing is
    asked for as it is, and a refusal still says 不行."""
    from companion.game import events as ev

    game = _table(tmp_path, "nearest")
    tab = LiveTab(_Phone(), game)
    dealer = game.state.dealer
    missing = game.win(dealer, ev.WinKind.SELF_DRAW, "123m456m789m123s46p55z")
    assert missing == asked("live_win_tile")
    assert tab._refused(missing) == missing and "不行" not in tab._refused(missing).zh
    assert not tab._refused(missing).en.startswith("Not allowed")
    bad = ui("live_stakes_bad", base="x", per_tai="1")
    assert tab._refused(bad) == ui("live_refused", why=bad.zh, why_en=bad.en)
    game.close()
