"""A photo scored as won on the replacement after the winner's own kong (槓上開花, ``--flag after_kong``) with its
kong lying face up: the kong was his own, added to a called pung (or a concealed one turned up), never one made on
a discard. It was taken as exposed, as any face-up kong is, and the win refused as a replacement after a kong of a
discard, which the default rules forbid: "not a win", a false win at a table, for the reader's own guess (a review
of ``companion score``; the app's form took it as added already)."""

from __future__ import annotations

import pytest

from companion.hand import MeldKind
from companion.rules.profiles import load_profile
from companion.rules.scoring import NotAWin
from companion.tiles import Tile
from companion.vision.hand_score import score_photo
from tests.vision.test_hand_score import laid

PROFILE = load_profile(None)
OWN = {"flags": {"after_kong": True}}


def _dets():  # type: ignore[no-untyped-def]
    return laid([(100, ["456m789m45s55z", "6s"]), (200, ["3333p", "123m"])])


def test_a_face_up_kong_after_the_winners_own_kong_is_taken_as_added_and_said() -> None:
    got = score_photo(_dets(), OWN, PROFILE)
    assert str(got.win.melds[0]) == "addkong:3333p" and got.score.item("kong_bloom") is not None
    said = [n for n in got.doubts if "--kong 3p=ckong" in n.en]
    assert len(said) == 1 and "--kong 3p=ckong" in said[0].zh and "加槓" in said[0].zh
    assert not any("taken as an exposed kong" in n.en for n in got.doubts)


def test_the_player_still_names_the_kong() -> None:
    concealed = score_photo(_dets(), OWN, PROFILE, kongs={Tile.P3: MeldKind.CKONG})
    assert str(concealed.win.melds[0]) == "ckong:3333p" and not any("--kong" in n.en for n in concealed.doubts)
    with pytest.raises(NotAWin):  # said exposed: the replacement after a kong of a discard, as the rules say
        score_photo(_dets(), OWN, PROFILE, kongs={Tile.P3: MeldKind.KONG})


def test_a_replacement_after_a_kong_of_a_discard_keeps_the_kong_exposed() -> None:
    with pytest.raises(NotAWin):
        score_photo(_dets(), {"flags": {"replacement_after": "kong"}}, PROFILE)


def test_the_app_says_the_scorers_note_as_the_command_line_does_in_its_own_terms() -> None:
    """The app took the kong as added itself (``kongs`` of every tile) and said it in a note of its own, while
    ``companion score`` said the scorer's: two paths, two wordings. Now the scorer alone takes it, and the app says
    its note with the form's means in place of the command's options."""
    import numpy as np

    from companion.app.photo_model import PhotoContext, PhotoPanel, ReadPhoto, score_picked
    from companion.app.words import ui

    note = next(n for n in score_photo(_dets(), OWN, PROFILE).doubts if "--kong 3p=ckong" in n.en)
    read = ReadPhoto("kong.jpg", np.full((300, 700, 3), 90, np.uint8), _dets())
    shown = score_picked(read, {}, PhotoContext(moment="after_kong").as_context())
    assert isinstance(shown, PhotoPanel), shown
    said = [n for n in shown.notes if "added kong" in n.en]
    field, choice = ui("moment"), ui("moment_after_discard_kong")
    hint = ui("photo_own_kong_hint", field=field.zh, field_en=field.en, choice=choice.zh, choice_en=choice.en)
    head_en, head_zh = note.en.split("; --kong")[0], note.zh.split("；暗槓翻開的請用")[0]
    assert [(n.en, n.zh) for n in said] == [(head_en[:1].upper() + head_en[1:] + hint.en, head_zh + hint.zh)]
    assert "--" not in said[0].en + said[0].zh


def test_a_kong_hint_says_the_forms_field_and_choice_by_their_names() -> None:
    """A change review: the added kong's hint said 「請在「胡在什麼時候」選槓上開花」, a label the form does not show
    (its choice reads 「槓上開花（自己暗槓、加槓）」), worded apart from the own kong's hint."""
    from companion.app.photo_model import stripped
    from companion.app.words import ui

    said = stripped("這一槓當作明槓；加槓請用 --kong 3p=kong，暗槓翻開的請用 --kong 3p=ckong",
                    "this kong taken as exposed; --kong 3p=addkong (an added kong) or =ckong (a concealed kong turned "
                    "up) says otherwise")
    field, choice = ui("moment"), ui("moment_after_kong")
    assert said.zh.endswith(f"請在「{field.zh}」選「{choice.zh}」") and "--" not in said.zh
    assert said.en.endswith(f"\u201c{field.en}\u201d: {choice.en}") and "--" not in said.en
