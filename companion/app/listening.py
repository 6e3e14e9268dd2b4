"""One page's ear on something shared between phones (the live table, the calibration pages), and its redraw."""

from __future__ import annotations

import logging
from collections.abc import Callable

from companion.app.live_model import LiveGame
from companion.app.ui_kit import Host

__all__ = ["LiveListener", "PageListener"]

log = logging.getLogger(__name__)

Subscribe = Callable[[Callable[[], None]], Callable[[], None]]


class PageListener:
    """``heard`` runs after each change of what ``subscribe`` listens to, in the changing phone's thread;
    :meth:`redraw` then asks this page's own loop to draw it again. A page that has gone stops listening."""

    def __init__(self, host: Host, subscribe: Subscribe | None, heard: Callable[[], None]) -> None:
        self.host, self.subscribe, self.heard = host, subscribe, heard
        self._unsubscribe: Callable[[], None] | None = None

    def attach(self) -> None:
        if self.subscribe is not None and self._unsubscribe is None:
            self._unsubscribe = self.subscribe(self.heard)

    def detach(self) -> None:
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None

    def redraw(self) -> None:
        self.later(self.host.render)

    def later(self, work: Callable[[], None]) -> None:
        """``work()`` on this page's own loop (as a redraw, for what a page does of a change while out of sight)."""
        async def run() -> None:
            work()
        try:
            self.host.page.run_task(run)
        except Exception:  # the page has gone (closed, or between a phone's sleep and its return)
            # (said in the server's log: anything else failing here would stop this phone's updates unsaid, a review)
            log.debug("a page stopped listening to the table", exc_info=True)
            self.detach()


class LiveListener(PageListener):
    """The page's ear on the live table, shared by the tabs that follow it (Live, My hand)."""

    def __init__(self, host: Host, game: LiveGame | None, heard: Callable[[], None]) -> None:
        super().__init__(host, game.subscribe if game is not None else None, heard)
        self.game = game
