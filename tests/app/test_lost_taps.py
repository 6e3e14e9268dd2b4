"""Taps on a screen that has just changed, told without a browser: a Flet session stand-in whose controls are found
or not, through the app's own dispatch."""

from __future__ import annotations

import asyncio
from typing import Any

import flet as ft
from flet.messaging.session import Session

from companion.app import lost_taps


class _Control:
    def __init__(self) -> None:
        self.events: list[str] = []

    async def _trigger_event(self, name: str, data: Any) -> None:
        self.events.append(name)


class _Session:
    """What Flet's dispatch asks of a session: its page, and the control an event names (None: no longer there)."""

    def __init__(self, controls: dict[int, _Control]) -> None:
        self._Session__page = None
        self.controls = controls

    def _Session__resolve_event_control(self, control_id: int) -> _Control | None:
        return self.controls.get(control_id)


class _Page:
    """A page as :func:`lost_taps.watch` takes it: its session."""

    def __init__(self, session: _Session) -> None:
        self.session = session


def test_a_lost_tap_is_told_and_the_next_tap_that_lands_takes_the_notice_back() -> None:
    """A review: the notice of a lost tap went after a few seconds, and a player looking up later never learned his
    Undo had not happened. It stays until he says he has seen it or his next tap lands, which the page is told of
    before the tap is handled."""
    lost_taps.install()
    button = _Control()
    session = _Session({2: button})
    heard: list[str] = []
    lost_taps.watch(_Page(session), lambda: heard.append("lost"),  # type: ignore[arg-type]
                    lambda: heard.append("landed"))
    asyncio.run(Session.dispatch_event(session, 1, "click", ""))  # type: ignore[arg-type]
    assert heard == ["lost"] and button.events == []
    asyncio.run(Session.dispatch_event(session, 2, "click", ""))  # type: ignore[arg-type]
    assert heard == ["lost", "landed"] and button.events == ["click"]
    asyncio.run(Session.dispatch_event(session, 2, "change", ""))  # type: ignore[arg-type]  # typing: not a tap
    assert heard == ["lost", "landed"] and button.events == ["click", "change"]
    bar = lost_taps.lost_bar(ft.Text("not entered"), "Got it")
    assert bar.persist and bar.action == "Got it"  # it stays until seen
