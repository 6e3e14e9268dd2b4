"""What a review found playing the Live tab through an evening: a table held elsewhere said by name, a barred win
said why, the flat instant wins taken without a hand, a chow outranked said so, spaced tile names, a face-down tile
named in words, and a bad chow code refused in words."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.app.live_model import LiveError, LiveGame
from companion.game.service import TableService


def test_a_table_held_by_another_companion_is_said_by_name_and_alike_in_both_languages(tmp_path: Path) -> None:
    """The phone read the host's full path and "another table service", and the Chinese said less ("another
    program") than the English; both now say another companion window or command has it, and what to do."""
    table = tmp_path / "tk.sqlite"
    with TableService(table):  # the other companion
        game = LiveGame(table)
        with pytest.raises(LiveError) as refused:
            game.offer()
    said = refused.value.words
    for text in (said.zh, said.en):
        assert "tk.sqlite" in text and str(tmp_path) not in text, text
    assert "table service" not in said.en and "companion" in said.en and "close it there" in said.en, said.en
    assert "小幫手" in said.zh and "關掉" in said.zh, said.zh
