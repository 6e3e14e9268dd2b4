"""The Live tab on one phone while other phones move the table on, drawn without a browser: a refusal shown is about
the table it was made on, and a win form left open answers the table and tile it was opened on."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from companion.app.live_model import LiveGame
from companion.app.view_live import ID_LIVE_ERROR, LiveTab
from companion.app.words import Words
from tests.app.test_tabs_beside_a_live_table import _Host, _idents, _texts


class _Phone(_Host):
    """A page that counts what it said at the foot of the screen, and runs work sent to its loop at once."""

    def __init__(self) -> None:
        super().__init__()
        self.page.run_task = self._run
        self.said: list[Words] = []

    def _run(self, work: Any, *args: Any) -> None:
        import asyncio

        asyncio.run(work(*args))

    def notice(self, words: Words) -> None:
        self.said.append(words)

    def clear_notice(self) -> None:
        self.said.clear()


def _table(tmp_path: Path) -> LiveGame:
    game = LiveGame(tmp_path / "table.sqlite", seed=5)
    assert game.start(("A", "B", "C", "D"), "atawmj_2009", 30, 10, house={"first_dealer": "east_deals"}) is None
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
