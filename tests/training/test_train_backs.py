"""The back check's training script: how boxes are labelled, how its threshold is chosen, and a smoke run
that exports a self-describing model."""

import json

import numpy as np
import pytest

from companion.vision.backs import BackChecker
from training import train_backs


def test_boxes_are_labelled_by_the_tile_they_match_best_score_first() -> None:
    truth = np.array([[50, 50, 20, 28, 0, 0, 1.0],  # a back in full view
                      [150, 50, 20, 28, 0, 0, 0.4]], np.float32)  # a back 40% visible
    obb = np.array([[51, 50, 20, 28, 0], [50, 51, 20, 28, 0], [150, 50, 20, 28, 0], [250, 50, 20, 28, 0]],
                   np.float32)
    score = np.array([0.9, 0.6, 0.8, 0.7], np.float32)
    # the surer of the two boxes on the first tile gets it, the other is a false box; the half-hidden tile's
    # box is left out; the box on nothing is false
    label, on = train_backs.label_boxes(obb, score, truth)
    assert label.tolist() == [1, 0, -1, 0] and on.tolist() == [0, -1, 1, -1]


def test_the_pair_chosen_keeps_the_most_backs_less_false_boxes() -> None:
    p = np.array([0.9, 0.8, 0.7, 0.6, 0.3, 0.2, 0.1])
    label = np.array([1, 1, 1, 0, 0, 0, 0])
    score = np.array([0.9, 0.4, 0.6, 0.6, 0.7, 0.8, 0.35])
    # from score 0.4 up (lower floors add only a false box), passing p >= 0.625 keeps three backs and no
    # false box: the best there is; of equal pairs the highest floor and the lowest threshold
    floor, threshold = train_backs.choose_threshold(p, label, score, [0.3, 0.35, 0.4, 0.45, 0.5])
    assert (floor, threshold) == (0.4, 0.625)
    assert train_backs.counts(p, label, score, floor, threshold) == (3, 0)
    out = train_backs.report(p, label, score, 4, floor, threshold, det_threshold=0.5)
    assert out["with_check"] == {"backs_kept": 3 / 4, "false_boxes": 0}
    assert out["detector_alone"] == {"threshold": 0.5, "backs_kept": 2 / 4, "false_boxes": 3}


def test_smoke_run_trains_and_exports(tmp_path, capsys) -> None:
    out = tmp_path / "backs.onnx"
    assert train_backs.main(["--smoke", "--cache", str(tmp_path / "cache"), "--out", str(out), "--threads", "1",
                             "--quiet"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    val = report["heldout_val"]
    assert report["steps"] == 20 and 0 <= val["backs_among_them"] <= val["boxes"]
    assert 0 <= val["odd_scenes"]["with_check"]["backs_kept"] <= 1
    assert 0 < val["chosen_on_even_scenes"]["threshold"] < 1 and val["training_boxes"]["backs"] > 0
    check = BackChecker(out)
    meta = check.session.get_modelmeta().custom_metadata_map
    assert check.size == train_backs.CROP and check.span == train_backs.SPAN
    assert meta["detector"] == "tile_detector.onnx" and json.loads(meta["normalisation"])["order"] == "BGR"
    assert len(meta["detector_sha256"]) == 16 and meta["scenes"].startswith("seed 2")
    assert check.probabilities(np.full((64, 64, 3), 90, np.uint8), np.array([[32, 32, 10, 14, 0]], np.float32)).shape == (1,)


def test_a_check_is_pointed_at_another_detector_only_with_a_reason(tmp_path) -> None:
    import warnings

    import onnx

    from companion.vision.backs import default_model_path
    from companion.vision.detect import TileDetector, model_sha256
    from companion.vision.orient import default_model_path as orient_model

    check = tmp_path / "backs.onnx"
    check.write_bytes(default_model_path().read_bytes())
    other = tmp_path / "det.onnx"  # another detector: the packaged one with one more metadata entry
    m = onnx.load(str(TileDetector(threads=1, backs=False).path))
    m.metadata_props.add(key="k", value="v")
    onnx.save(m, str(other))
    old = BackChecker(check, threads=1).meta
    before, history = old["detector_sha256"], json.loads(old.get("detector_history", "[]"))
    assert train_backs.main(["--ship-for", str(check), " ", "--detector", str(other)]) == 2  # no reason given
    assert train_backs.main(["--ship-for", str(orient_model()), "measured", "--detector", str(other)]) == 2
    assert train_backs.main(["--ship-for", str(check), "seed 7: better", "--detector", str(other)]) == 0
    meta = BackChecker(check, threads=1).meta
    assert meta["detector_sha256"] == model_sha256(other) and meta["detector"] == "det.onnx"
    *kept, step = json.loads(meta["detector_history"])
    assert kept == history and step["from"]["sha256"] == before and step["why"] == "seed 7: better"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        TileDetector(other, threads=1, backs=check)


def test_a_threshold_is_shipped_only_with_a_reason_and_kept_with_the_tuned_one(tmp_path, capsys) -> None:
    import onnx

    from companion.vision.backs import default_model_path
    from companion.vision.orient import default_model_path as orient_model

    check = tmp_path / "backs.onnx"
    check.write_bytes(default_model_path().read_bytes())
    before = BackChecker(check, threads=1).meta
    assert train_backs.main(["--set-threshold", str(check), "0.8", "  "]) == 2  # no reason
    assert train_backs.main(["--set-threshold", str(check), "1.5", "seed 7"]) == 2  # not a probability
    assert train_backs.main(["--set-threshold", str(check), "high", "seed 7"]) == 2  # not a number
    assert train_backs.main(["--set-threshold", str(orient_model()), "0.8", "seed 7"]) == 2  # not a back check
    assert "not a back check" in capsys.readouterr().err
    assert BackChecker(check, threads=1).meta == before  # the refusals left the file as it was
    assert train_backs.main(["--set-threshold", str(check), "nan", "seed 7"]) == 2
    with pytest.raises(SystemExit):  # one model change at a time
        train_backs.main(["--set-threshold", str(check), "0.8", "seed 7", "--ship-for", str(check), "seed 7"])
    assert train_backs.main(["--set-threshold", str(tmp_path / "none.onnx"), "0.8", "seed 7"]) == 2
    assert BackChecker(check, threads=1).meta == before  # the refusals left the file as it was
    # a file fresh from training has no threshold_choice: its own threshold is the tuned one
    m = onnx.load(str(check))
    for q in list(m.metadata_props):
        if q.key == "threshold_choice":
            m.metadata_props.remove(q)
        elif q.key == "threshold":
            q.value = "0.6"
    onnx.save(m, str(check))
    assert train_backs.main(["--set-threshold", str(check), "0.8", "seeds 7, 11: more backs"]) == 0
    after = BackChecker(check, threads=1)
    assert after.threshold == 0.8
    assert json.loads(after.meta["threshold_choice"]) == {"tuned": 0.6, "shipped": 0.8, "why": "seeds 7, 11: more backs"}
    # a second choice replaces the shipped value and the reason, and keeps the tuned one
    assert train_backs.main(["--set-threshold", str(check), "0.9", "seed 13: fewer false boxes"]) == 0
    assert json.loads(BackChecker(check, threads=1).meta["threshold_choice"]) == \
        {"tuned": 0.6, "shipped": 0.9, "why": "seed 13: fewer false boxes"}
    # the candidates' floor shipped with it, and its tuned value kept through later choices
    assert train_backs.main(["--set-threshold", str(check), "0.8", "seed 7", "--candidates", "1.2"]) == 2
    m = onnx.load(str(check))
    next(q for q in m.metadata_props if q.key == "candidates").value = "0.4"
    onnx.save(m, str(check))
    assert train_backs.main(["--set-threshold", str(check), "0.8", "seeds 7-13: a distractor at 0.4",
                             "--candidates", "0.45"]) == 0
    after = BackChecker(check, threads=1)
    assert after.threshold == 0.8 and after.candidates == 0.45
    assert json.loads(after.meta["threshold_choice"]) == {"tuned": 0.6, "shipped": 0.8, "why": "seeds 7-13: a distractor at 0.4",
                                                        "candidates_tuned": 0.4, "candidates": 0.45}
    assert train_backs.main(["--set-threshold", str(check), "0.85", "again", "--candidates", "0.5"]) == 0
    assert json.loads(BackChecker(check, threads=1).meta["threshold_choice"])["candidates_tuned"] == 0.4
    assert train_backs.main(["--set-threshold", str(check), "0.9", "once more"]) == 0
    choice = json.loads(BackChecker(check, threads=1).meta["threshold_choice"])
    assert (choice["candidates_tuned"], choice["candidates"], BackChecker(check, threads=1).candidates) == (0.4, 0.5, 0.5)
