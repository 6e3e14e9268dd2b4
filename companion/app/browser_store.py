"""What a phone's browser keeps for the app (Flet's ``SharedPreferences``: the language chosen, My hand's own): written
and read back the same way for each, so what one of them learnt about browsers holds for all.

A read is asked a few times (:data:`WAITS`), since a browser asked at once may not answer yet (the page still mounting
its services: a review's reloads came back in Chinese two times in four), and each try waits :data:`ANSWER_S` at
most: a page reloaded while it was asked never answers (the question went down the socket the reload closed), and the
page reconnecting asks again. A browser that keeps nothing (private mode) answers the same each time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

__all__ = ["WAITS", "ANSWER_S", "keep", "read_back"]

log = logging.getLogger(__name__)
WAITS = (0.3, 0.6, 1.2, 2.4)
"""Seconds between the tries to read a kept value back."""
ANSWER_S = 3.0
"""How long one try waits for the browser's answer."""


async def keep(prefs: Any, key: str, text: str) -> None:
    """``text`` kept under ``key`` in the phone's browser; a browser that keeps nothing keeps it for this page only."""
    try:
        await prefs.set(key, text)
    except Exception:  # a browser that keeps nothing (private mode)
        log.info("%s could not be kept in this browser", key, exc_info=True)


async def read_back(prefs: Any, key: str, done: Callable[[], bool] = lambda: False) -> str | None:
    """What the phone's browser keeps under ``key``, or None (nothing kept, no answer, or ``done()`` before an answer:
    the value is no longer wanted)."""
    for wait in WAITS:
        if done():
            return None
        try:
            kept = await asyncio.wait_for(prefs.get(key), ANSWER_S)
        except Exception:  # (a timeout too)
            log.debug("%s could not be read back yet", key, exc_info=True)
            kept = None
        if kept is not None:
            return str(kept)
        await asyncio.sleep(wait)
    return None
