"""A photo from the player's phone, for any tab that reads one (Score a photo, a live win's hand).

The photo is checked for size on the phone's side (an empty file or one over :data:`UPLOAD_MAX_BYTES` is refused
before a byte is sent), then sent by Flet's signed upload (an HTTP PUT into the server's upload folder, never
through the page's socket). Once it has arrived it is handed to the tab's reader in a worker thread and removed
from the folder afterwards, whatever the reader made of it; a send that fails removes what arrived and says so.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from pathlib import Path

import flet as ft

from companion.app.photo_model import UPLOAD_MAX_BYTES
from companion.app.ui_kit import Host
from companion.app.words import Words, ui

__all__ = ["PhotoUpload", "SUFFIXES", "UPLOAD_SECONDS"]

log = logging.getLogger(__name__)
UPLOAD_SECONDS = 600  # how long a signed upload address stays good
SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff")


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
        chosen = files[0]
        if chosen.size == 0:  # nothing to send (and the upload's progress would never reach 1)
            self.refused(chosen.name, ui("photo_empty", name=chosen.name))
            return
        if chosen.size > UPLOAD_MAX_BYTES:  # refused before a byte is sent
            self.refused(chosen.name, ui("photo_too_big", name=chosen.name, mb=UPLOAD_MAX_BYTES // (1024 * 1024)))
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

        self.host.page.run_thread(work)
