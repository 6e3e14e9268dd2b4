"""One page's ear on the live table, shared by the tabs that follow it (Live, My hand)."""

from __future__ import annotations

from collections.abc import Callable

from companion.app.live_model import LiveGame
from companion.app.ui_kit import Host

__all__ = ["LiveListener"]


class LiveListener:
    """``heard`` runs after each entry at the live table, in the entering phone's thread; :meth:`redraw` then asks
    this page's own loop to draw it again. A page that has gone stops listening."""

    def __init__(self, host: Host, game: LiveGame | None, heard: Callable[[], None]) -> None:
        self.host, self.game, self.heard = host, game, heard
        self._unsubscribe: Callable[[], None] | None = None

    def attach(self) -> None:
        if self.game is not None and self._unsubscribe is None:
            self._unsubscribe = self.game.subscribe(self.heard)

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def redraw(self) -> None:
        async def draw() -> None:
            self.host.render()
        try:
            self.host.page.run_task(draw)
        except Exception:  # the page has gone (closed, or between a phone's sleep and its return)
            self.detach()
