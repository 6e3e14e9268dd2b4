"""Serving the app in web mode: Flet's ASGI app under uvicorn, on a laptop at the table; phones join by URL.

Offline by design (``no_cdn``): the page needs nothing from the internet, and the CJK font ships in the package
(``assets/fonts``). The tile pictures and the font are served from the package's assets folder, found with
``importlib.resources`` (an absolute path: Flet resolves a relative one against the running script's folder).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from importlib import resources
from pathlib import Path
from typing import Any

import flet as ft

from companion.app.photo_model import PhotoFailed, PhotoPanel, demo_photo, score_photo_file
from companion.app.table_model import GameReplay
from companion.app.views import FONT_FAMILY, AppConfig, CompanionApp
from companion.app.words import Words

__all__ = ["assets_dir", "make_main", "asgi_app", "serve", "PhotoCache"]

log = logging.getLogger(__name__)
FONT_FILE = "fonts/DroidSansFallbackFull.ttf"


def assets_dir() -> Path:
    return Path(str(resources.files("companion") / "assets")).resolve()


class PhotoCache:
    """The bundled photo scored once per process (about a second of work), shared by every session."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._result: PhotoPanel | PhotoFailed | None = None

    def __call__(self) -> PhotoPanel | PhotoFailed:
        with self._lock:
            if self._result is None:
                path, context = demo_photo()
                self._result = score_photo_file(path, context)
            return self._result


def make_main(replay: GameReplay, note: Words, photo: Callable[[], PhotoPanel | PhotoFailed],
              lang: str = "zh") -> Callable[[ft.Page], None]:
    """The page entry point: one :class:`CompanionApp` per browser session, on the shared (read-only) replay."""

    def main(page: ft.Page) -> None:
        page.fonts = {FONT_FAMILY: FONT_FILE}
        page.theme = ft.Theme(font_family=FONT_FAMILY, color_scheme_seed="#1f5f3f")
        CompanionApp(page, AppConfig(replay, note, photo, lang)).mount()

    return main


def asgi_app(replay: GameReplay, note: Words, lang: str = "zh",
             photo: Callable[[], PhotoPanel | PhotoFailed] | None = None) -> Any:
    return ft.run(make_main(replay, note, photo or PhotoCache(), lang), assets_dir=str(assets_dir()),
                  no_cdn=True, export_asgi_app=True)


def serve(replay: GameReplay, note: Words, host: str, port: int, lang: str = "zh",
          on_ready: Callable[[str], None] | None = None) -> None:
    """Serve until interrupted; ``on_ready(url)`` is called once the server listens."""
    import uvicorn

    app = asgi_app(replay, note, lang)
    config = uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="on")
    server = uvicorn.Server(config)
    if on_ready is not None:
        shown = "localhost" if host in ("127.0.0.1", "0.0.0.0") else host
        url = f"http://{shown}:{port}/"

        def wait_then_tell() -> None:
            while not server.started and not server.should_exit:
                threading.Event().wait(0.05)
            if server.started:
                on_ready(url)

        threading.Thread(target=wait_then_tell, daemon=True).start()
    server.run()
