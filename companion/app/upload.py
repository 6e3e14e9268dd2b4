"""A photo from the player's phone, for any tab that reads one (Score a photo, a live win's hand).

The photo is checked for size on the phone's side (an empty file or one over :data:`UPLOAD_MAX_BYTES` is refused
before a byte is sent), then sent by Flet's signed upload (an HTTP PUT into the server's upload folder, never
through the page's socket). Once it has arrived it is handed to the tab's reader in a worker thread and removed
from the folder afterwards, whatever the reader made of it; a send that fails removes what arrived and says so.
A photo nobody reads (its phone left while it was sending, or its signed address was sent to again after the read) is
removed once its address has expired (:func:`sweep`), and a server killed before it could remove its folder has it
removed at the next start (:func:`sweep_left_over_folders`): a privacy review filled the folder with such photos.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import IO

import flet as ft

from companion.app.photo_model import UPLOAD_MAX_BYTES
from companion.app.ui_kit import Host
from companion.app.words import Words, ui

__all__ = ["PhotoUpload", "too_big", "SUFFIXES", "UPLOAD_SECONDS", "FOLDER_PREFIX", "HELD", "hold", "sweep",
           "sweep_left_over_folders"]

log = logging.getLogger(__name__)
UPLOAD_SECONDS = 600  # how long a signed upload address stays good
SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff")
STALE_SECONDS = UPLOAD_SECONDS + 120
"""A photo in the upload folder this old arrived before its address expired and was not taken by a reader in the
two minutes since (a read takes seconds): nobody will read it."""
FOLDER_PREFIX = "companion-uploads-"
"""A server's upload folder: this, the server's process id and a dash, then random letters (``tempfile``)."""
OLD_FOLDER_DAYS = 2
"""A folder of an earlier version (no process id in its name) untouched this many days is left over."""


HELD = ".held"
"""A file in a running server's upload folder that the server holds locked (:func:`hold`) while it runs."""


def hold(folder: Path) -> IO[str] | None:
    """Lock ``folder`` as a running server's (its :data:`HELD` file, locked while the returned file stays open: closing
    it, or the process ending however it ends, lets go); None where this system has no such locks."""
    try:
        import fcntl
    except ImportError:
        return None
    f = open(folder / HELD, "w")  # noqa: SIM115  (held open while the server runs)
    fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    return f


def _held(folder: Path) -> bool | None:
    """Is ``folder`` held by a running server (its :data:`HELD` file locked)? None when it has no such file (an
    earlier version's, or a server killed between making the folder and locking it) or this system no such locks."""
    try:
        import fcntl
    except ImportError:
        return None
    try:
        with open(folder / HELD) as f:
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return True
            return False
    except OSError:
        return None


def sweep(folder: Path, now: float | None = None) -> int:
    """Remove the photos in the upload folder ``folder`` older than :data:`STALE_SECONDS`; how many were removed."""
    now = time.time() if now is None else now
    gone = 0
    with contextlib.suppress(OSError):
        for f in folder.iterdir():
            with contextlib.suppress(OSError):
                if f.is_file() and f.name != HELD and now - f.stat().st_mtime > STALE_SECONDS:
                    f.unlink()
                    gone += 1
    return gone


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's process: alive
        return True
    return True


def sweep_left_over_folders(base: Path | None = None, now: float | None = None) -> list[Path]:
    """Remove the upload folders in ``base`` (the system's temporary folder) left by a server that was killed before
    it could remove its own: nobody holds it (:func:`hold`: a server in another process namespace, a container sharing
    the folder, holds it as well), or, without the lock file, its process is gone (for an earlier version's folder,
    without a process id, untouched for :data:`OLD_FOLDER_DAYS` days). A running server's folder is left alone. The
    folders removed."""
    base = Path(tempfile.gettempdir()) if base is None else base
    now = time.time() if now is None else now
    removed = []
    with contextlib.suppress(OSError):
        for d in base.glob(FOLDER_PREFIX + "*"):
            pid, dash, _ = d.name[len(FOLDER_PREFIX):].partition("-")
            try:
                if not d.is_dir() or d.is_symlink() or d.stat().st_uid != os.getuid():
                    continue
                held = _held(d)
                if held is not None:
                    left = not held
                elif dash and pid.isdigit():
                    left = not _alive(int(pid))
                else:
                    left = now - d.stat().st_mtime > OLD_FOLDER_DAYS * 86400
            except OSError:
                continue
            if left:
                shutil.rmtree(d, ignore_errors=True)
                removed.append(d)
    return removed


def too_big(name: str) -> Words:
    """The refusal of a photo over :data:`UPLOAD_MAX_BYTES`, with what to do about it."""
    return ui("photo_too_big", name=name, mb=UPLOAD_MAX_BYTES // (1024 * 1024)) + ui("photo_too_big_advice")


class PhotoUpload:
    """One tab's photo picker. ``received(path, name)`` runs in a worker thread once the photo has arrived (the
    file is removed after it returns); ``refused(name, reason)`` and ``sending(words or None)`` run on the page's
    loop, the latter with what the page is doing (None when done)."""

    def __init__(self, host: Host, upload_dir: Path | None, received: Callable[[Path, str], None],
                 refused: Callable[[str, Words], None], sending: Callable[[Words | None], None]) -> None:
        self.host, self.upload_dir = host, upload_dir
        self.received, self.refused, self.sending = received, refused, sending
        self.picker: ft.FilePicker | None = None  # held here: Flet drops a service nobody references
        self._upload: tuple[str, str] | None = None  # (the name in the upload folder, the player's file name)

    @property
    def available(self) -> bool:
        """This server takes photos from phones."""
        return self.upload_dir is not None

    async def pick(self) -> None:
        if self.upload_dir is None:
            return
        if self.picker is None:
            self.picker = ft.FilePicker(on_upload=self._uploaded)
        files = await self.picker.pick_files(file_type=ft.FilePickerFileType.IMAGE,
                                             cancel_upload_on_window_blur=False)
        if not files:
            return
        sweep(self.upload_dir)  # photos whose phones left mid-send, or sent again to a used address
        chosen = files[0]
        if chosen.size == 0:  # nothing to send (and the upload's progress would never reach 1)
            self.refused(chosen.name, ui("photo_empty", name=chosen.name))
            return
        if chosen.size > UPLOAD_MAX_BYTES:  # refused before a byte is sent
            self.refused(chosen.name, too_big(chosen.name))
            return
        suffix = Path(chosen.name).suffix.lower()
        stored = uuid.uuid4().hex + (suffix if suffix in SUFFIXES else ".img")
        self._upload = (stored, chosen.name)
        self.sending(ui("photo_sending", name=chosen.name))
        url = self.host.page.get_upload_url(stored, UPLOAD_SECONDS)
        await self.picker.upload([ft.FilePickerUploadFile(upload_url=url, id=chosen.id)])

    def _uploaded(self, e: ft.FilePickerUploadEvent) -> None:
        if self._upload is None or self.upload_dir is None:
            return
        stored, name = self._upload
        if e.error:
            log.warning("upload of %s failed: %s", name, e.error)
            self._upload = None
            (self.upload_dir / stored).unlink(missing_ok=True)  # a part that arrived
            self.sending(None)
            self.refused(name, ui("photo_send_failed", name=name))
            return
        if e.progress is None or e.progress < 1.0:
            return
        self._upload = None
        path = self.upload_dir / stored

        def work() -> None:
            try:
                self.received(path, name)
            finally:
                path.unlink(missing_ok=True)
                sweep(path.parent)

        self.host.page.run_thread(work)
