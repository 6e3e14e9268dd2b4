"""A dependency-free progress bar for training scripts (stderr, one line, rate and ETA)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator
from typing import Generic, TypeVar

T = TypeVar("T")


class Progress(Generic[T]):
    """``for x in Progress(items, total, "render"): ...``; ``set(text)`` adds a status such as the loss."""

    def __init__(self, items: Iterable[T], total: int, desc: str, enabled: bool = True) -> None:
        self.items, self.total, self.desc, self.enabled = items, max(1, total), desc, enabled
        self.status = ""
        self._t0 = time.monotonic()
        self._last = 0.0

    def set(self, status: str) -> None:
        self.status = status

    def _draw(self, n: int, final: bool = False) -> None:
        now = time.monotonic()
        if not self.enabled or (not final and now - self._last < 0.5):
            return
        self._last = now
        el = now - self._t0
        rate = n / el if el > 0 else 0.0
        eta = (self.total - n) / rate if rate > 0 else 0.0
        bar = "#" * int(20 * n / self.total)
        sys.stderr.write(f"\r{self.desc} [{bar:<20}] {n}/{self.total} {el:5.0f}s eta {eta:5.0f}s {self.status}  ")
        if final:
            sys.stderr.write("\n")
        sys.stderr.flush()

    def __iter__(self) -> Iterator[T]:
        n = 0
        for x in self.items:
            yield x
            n += 1
            self._draw(n)
        self._draw(n, final=True)
