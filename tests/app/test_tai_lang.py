"""``companion tai`` says its errors in the language ``--lang`` asks for (a review: a missing file and an unknown
profile were said in both languages, English first, whatever --lang said); without --lang, both, Chinese first.
(Here beside the app's tests: the two-language review that found it covered the app and this command.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.cli import main


@pytest.fixture(autouse=True)
def _no_lang_set(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("COMPANION_LANG", raising=False)
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "data"))


def test_tai_says_a_missing_file_in_the_language_asked(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    missing = str(tmp_path / "missing.jsonl")
    assert main(["tai", "--lang", "zh", missing]) == 2
    err = capsys.readouterr().err
    assert f"無法讀取 {missing}" in err and "cannot read" not in err
    assert main(["tai", "--lang", "en", missing]) == 2
    err = capsys.readouterr().err
    assert f"{missing}: cannot read it" in err and "無法讀取" not in err
    assert main(["tai", missing]) == 2  # not asked: both, Chinese first
    err = capsys.readouterr().err
    assert err.index("無法讀取") < err.index("cannot read it")


def test_tai_says_an_unknown_profile_in_the_language_asked(capsys: pytest.CaptureFixture[str],
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["tai", "--lang", "zh", "--show-profile", "nope"]) == 2
    err = capsys.readouterr().err
    assert "不認得規則「nope」" in err and "unknown profile" not in err
    assert main(["tai", "--lang", "en", "--profile", "nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown profile “nope”" in err and "不認得規則" not in err
    monkeypatch.setenv("COMPANION_LANG", "en")  # the variable asks as --lang does
    assert main(["tai", "--profile", "nope"]) == 2
    err = capsys.readouterr().err
    assert "unknown profile “nope”" in err and "不認得規則" not in err
