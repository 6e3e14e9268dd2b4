"""Taps on a screen that has just changed: said, not dropped without a word.

A phone shows what the server last drew. When the table moves on (another phone enters a discard, the replay
steps), the server draws the screen anew and its buttons are new controls; a tap the phone sent from the screen
before names a button that is no longer there. Flet then drops it with a debug line in the log, so the player
at the table believed a 碰 was entered that never was. :func:`install` has Flet's session tell the page instead
(:func:`watch`), and the app says that the tap was not entered, so the player looks again and taps again. The
notice (:func:`lost_bar`) stays until the player says he has seen it or his next tap lands: a review's player, looking
up from the tiles some seconds later, found nothing said of an Undo that never happened.

Flet is pinned (``pyproject.toml``); :func:`install` refuses by name a Flet whose session it no longer knows, and a
browser test taps a screen held back from the phone to check the whole path.
"""

from __future__ import annotations

import logging
import weakref
from collections.abc import Callable
from typing import Any

import flet as ft
from flet.messaging.session import Session

__all__ = ["TAP_EVENTS", "install", "watch", "lost_bar"]

log = logging.getLogger(__name__)
TAP_EVENTS = frozenset({"click", "tap", "long_press", "double_tap", "secondary_tap", "select"})
"""The events of a finger on a button, a tile or a list's option; a text field's keys are not among them."""

_WATCHERS: weakref.WeakKeyDictionary[Session, Callable[[], None]] = weakref.WeakKeyDictionary()
_LANDED: weakref.WeakKeyDictionary[Session, Callable[[], None]] = weakref.WeakKeyDictionary()
_RESOLVE = "_Session__resolve_event_control"  # Flet's own lookup of an event's control (None: not on the page)


def install() -> None:
    """Have every Flet session of this process tell its watcher of a tap on a control that is no longer on the
    page (once per process; again is a no-op)."""
    if getattr(Session.dispatch_event, "_tells_lost_taps", False):
        return
    if not callable(getattr(Session, _RESOLVE, None)):
        raise RuntimeError(f"flet {ft.__version__}: its session has no {_RESOLVE}; lost taps cannot be told "
                           "(the app is made for the flet pinned in pyproject.toml)")
    dispatch = Session.dispatch_event

    async def dispatch_event(self: Session, control_id: int, event_name: str, event_data: Any) -> None:
        if event_name in TAP_EVENTS and getattr(self, _RESOLVE)(control_id) is None:
            told = _WATCHERS.get(self)
            log.info("a %s on control %s, no longer on the page: not entered", event_name, control_id)
            if told is not None:
                try:
                    told()
                except Exception:  # the notice must never cost the session
                    log.exception("telling a lost tap failed")
            return
        landed = _LANDED.get(self) if event_name in TAP_EVENTS else None
        if landed is not None:
            try:
                landed()
            except Exception:  # (as above)
                log.exception("telling a tap landed failed")
        await dispatch(self, control_id, event_name, event_data)

    dispatch_event._tells_lost_taps = True  # type: ignore[attr-defined]
    Session.dispatch_event = dispatch_event  # type: ignore[method-assign]


def watch(page: ft.Page, told: Callable[[], None], landed: Callable[[], None] | None = None) -> None:
    """``told()`` (on the server's event loop) whenever a tap from ``page``'s phone names a control no longer there;
    ``landed()`` before each tap that names one still there (the notice of a tap lost may go: the player taps on)."""
    _WATCHERS[page.session] = told
    if landed is not None:
        _LANDED[page.session] = landed


def lost_bar(said: ft.Control, seen: str) -> ft.SnackBar:
    """The bar at the foot of the screen saying a tap was lost: it stays until the player taps ``seen`` (his "got
    it"), or his next tap lands (:func:`watch`'s ``landed``). Gone by itself after a few seconds, it went unread by a
    player looking at the table, not his phone (a review: an Undo lost, and nothing said of it when he looked)."""
    return ft.SnackBar(said, persist=True, action=seen, duration=ft.Duration(seconds=6))
