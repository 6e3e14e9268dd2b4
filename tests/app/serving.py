"""The app served in this process while a block runs, for the tests that drive it in a browser."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def served(app: Any, port: int | None = None) -> Iterator[str]:
    """``app`` served on ``port`` (a free one where None) while the block runs: its address."""
    import uvicorn

    from companion.app.server import server_config

    if port is None:
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
    server = uvicorn.Server(server_config(app, "127.0.0.1", port))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive(), "the app's server stopped while starting"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(30)
