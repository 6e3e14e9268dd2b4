"""Table companion for Taiwanese 16-tile mahjong (台灣十六張麻將)."""

__version__ = "0.1.0"
