"""8-bit quantisation keeps the model's metadata and, on the same inputs, nearly the same answers; the
quantised classifier then takes patches of quantised pixels and gives the answers it gave on the numpy
normalisation."""

import json
from pathlib import Path

import numpy as np
import onnx
import pytest

from companion.vision.classify import ModelError, TileClassifier
from training import onnx_rewrite, quantize, train_classifier


@pytest.fixture(scope="module")
def smoke(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, np.ndarray]:
    """A smoke-trained float classifier, and the same quantised with its float input kept."""
    d = tmp_path_factory.mktemp("quantize")
    src, dst = d / "f.onnx", d / "q.onnx"
    assert train_classifier.main(["--smoke", "--quiet", "--out", str(src)]) == 0
    x = quantize.calibration_inputs(64, seed=2)
    quantize.quantize(src, dst, inputs=x, patches=False)
    return src, dst, x


def _crops(n: int, seed: int) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    return [rng.integers(0, 256, (int(rng.integers(20, 200)), int(rng.integers(20, 160)), 3), dtype=np.uint8)
            for _ in range(n)]


def test_quantized_smoke_model_keeps_metadata_and_answers(smoke, tmp_path: Path) -> None:
    src, dst, x = smoke
    meta = {p.key: p.value for p in onnx.load(str(dst)).metadata_props}
    assert json.loads(meta["quantized"])["calibration_images"] == 64
    assert meta["class_names"] == {p.key: p.value for p in onnx.load(str(src)).metadata_props}["class_names"]
    a, b = TileClassifier(src, flower_look=False), TileClassifier(dst, flower_look=False)
    la, _ = a.session.run(None, {"input": x})
    lb, _ = b.session.run(None, {"input": x})
    assert lb.shape == la.shape and np.abs(la - lb).mean() < 0.1 * np.abs(la).mean() + 0.05
    assert dst.stat().st_size < src.stat().st_size
    with pytest.raises(ValueError, match="already quantised"):
        quantize.quantize(dst, tmp_path / "qq.onnx", inputs=x)


def test_quantising_takes_patches_by_default(smoke, tmp_path: Path) -> None:
    src, _, x = smoke
    dst = tmp_path / "q.onnx"
    quantize.quantize(src, dst, inputs=x)
    meta = {p.key: p.value for p in onnx.load(str(dst)).metadata_props}
    assert "quantized" in meta and json.loads(meta["patch_input"])["patch"] == 4
    assert TileClassifier(dst, flower_look=False)._patches is not None


def test_the_patch_input_gives_the_same_answers(smoke, tmp_path: Path) -> None:
    _, floats, _ = smoke
    patches = tmp_path / "p.onnx"
    patches.write_bytes(floats.read_bytes())
    done = onnx_rewrite.patch_input(patches)
    model = onnx.load(str(patches))
    meta = {p.key: p.value for p in model.metadata_props}
    stamp = json.loads(meta["patch_input"])
    assert stamp["from_sha256"] == done["from_sha256"] and stamp["patch"] == 4 and len(stamp["pixel_lut"]) == 256
    assert meta["input_format"] == onnx_rewrite.PATCH_INPUT_FORMAT
    assert model.graph.input[0].type.tensor_type.elem_type == onnx.TensorProto.UINT8
    conv = next(n for n in model.graph.node if n.op_type == "Conv")
    assert [list(a.ints) for a in conv.attribute if a.name == "kernel_shape"] == [[1, 1]]
    a, b = TileClassifier(floats, flower_look=False), TileClassifier(patches, flower_look=False)
    assert a._patches is None and b._patches is not None
    crops = _crops(40, 1)
    (la, ea), (lb, eb) = a.run(crops), b.run(crops)
    assert onnx_rewrite.same_answers(la, lb) and onnx_rewrite.same_answers(ea, eb)
    assert [p.label for p in a.classify(crops)] == [p.label for p in b.classify(crops)]
    assert b.classify([]) == [] and b.run([])[0].shape == (0, len(b.info.class_names))


def test_quantised_patches_are_the_crop_patch_by_patch() -> None:
    from companion.vision.preprocess import CropError, quantised_patches

    rng = np.random.default_rng(3)
    small = rng.integers(0, 256, (2, 8, 12, 3), dtype=np.uint8)
    lut = rng.permutation(256).astype(np.uint8)
    out = quantised_patches(small, lut, 4)
    assert out.shape == (2, 2, 3, 48)
    # patch (1, 2) of crop 1: rows 4-7, columns 8-11, row by row, B G R
    assert np.array_equal(out[1, 1, 2], lut[small[1, 4:8, 8:12].reshape(-1)])
    # ... R G B, the order of the files rewritten since
    rgb = quantised_patches(small, lut, 4, rgb=True)
    assert np.array_equal(rgb[1, 1, 2], lut[small[1, 4:8, 8:12, ::-1].reshape(-1)])
    assert quantised_patches(small[:0], lut, 4).shape == quantised_patches(small[:0], lut, 4, rgb=True).shape == (0, 2, 3, 48)
    with pytest.raises(CropError, match="4x4 patches"):
        quantised_patches(small[:, :7], lut, 4)


def test_the_patch_input_refuses_a_file_already_rewritten_or_not_a_classifier(smoke, tmp_path: Path,
                                                                              capsys) -> None:
    src, floats, _ = smoke
    patches = tmp_path / "p.onnx"
    patches.write_bytes(floats.read_bytes())
    assert quantize.main(["--patch-input", str(patches)]) == 0
    assert quantize.main(["--patch-input", str(patches)]) == 2
    assert "already quantised patches" in capsys.readouterr().err
    with pytest.raises(ValueError, match="QuantizeLinear"):
        onnx_rewrite.patch_input(src)  # not quantised: the stem reads floats
    from companion.vision.orient import default_model_path as orient_model

    other = tmp_path / "orient.onnx"
    other.write_bytes(orient_model().read_bytes())
    with pytest.raises(ValueError, match="no mean and std"):
        onnx_rewrite.patch_input(other)
    uneven = tmp_path / "uneven.onnx"
    m = onnx.load(str(floats))
    for p in m.metadata_props:
        if p.key == "mean":
            p.value = "[0.4, 0.5, 0.6]"
    onnx.save(m, str(uneven))
    with pytest.raises(ValueError, match="not the same on the three channels"):
        onnx_rewrite.patch_input(uneven)


def test_an_input_quantised_otherwise_than_to_uint8_is_refused_by_name(smoke, tmp_path: Path) -> None:
    from onnx import numpy_helper

    _, floats, _ = smoke
    m = onnx.load(str(floats))
    quant = next(n for n in m.graph.node if n.op_type == "QuantizeLinear" and n.input[0] == m.graph.input[0].name)
    zero = next(t for t in m.graph.initializer if t.name == quant.input[2])
    zero.CopyFrom(numpy_helper.from_array(numpy_helper.to_array(zero).astype(np.int8), zero.name))
    signed = tmp_path / "signed.onnx"
    onnx.save(m, str(signed))
    with pytest.raises(ValueError, match="signed.onnx: the input's quantisation is not to uint8"):
        onnx_rewrite.patch_input(signed)


def test_a_rewrite_that_computes_otherwise_is_refused(smoke, tmp_path: Path, monkeypatch) -> None:
    """A table that quantises every pixel one step too high: the check against the original catches it and the
    file is left as it was."""
    _, floats, _ = smoke
    patches = tmp_path / "p.onnx"
    patches.write_bytes(floats.read_bytes())
    real = onnx_rewrite._quantised_values
    monkeypatch.setattr(onnx_rewrite, "_quantised_values",
                        lambda *a: np.minimum(real(*a).astype(np.int64) + 12, 255).astype(np.uint8))
    with pytest.raises(ValueError, match="does not compute what the original does"):
        onnx_rewrite.patch_input(patches)
    assert patches.read_bytes() == floats.read_bytes()


def test_a_rewrite_fed_another_patch_layout_is_refused(smoke, tmp_path: Path, monkeypatch) -> None:
    """Patches in B G R order where the graph's stem reads R G B: the check catches the layout too."""
    from companion.vision import preprocess

    _, floats, _ = smoke
    patches = tmp_path / "p.onnx"
    patches.write_bytes(floats.read_bytes())

    def bgr_patches(small, lut, k, rgb=False):  # type: ignore[no-untyped-def]
        return preprocess.quantised_patches(small, lut, k)

    monkeypatch.setattr(onnx_rewrite, "quantised_patches", bgr_patches)
    with pytest.raises(ValueError, match="does not compute what the original does"):
        onnx_rewrite.patch_input(patches)
    assert patches.read_bytes() == floats.read_bytes()


def _both_orders(floats: Path, folder: Path) -> tuple[Path, Path]:
    """The quantised float-input classifier ``floats`` rewritten to take patches as now (R G B) and as the first
    rewrite did (:func:`_first_rewrite`), both in ``folder``."""
    rgb = folder / "rgb.onnx"
    rgb.write_bytes(floats.read_bytes())
    onnx_rewrite.patch_input(rgb)
    return rgb, _first_rewrite(rgb, folder / "bgr.onnx")


def _first_rewrite(rgb: Path, dst: Path) -> Path:
    """``rgb`` (rewritten to take R G B patches) saved as ``dst`` as the first rewrite made such files: each stem's
    weights in B G R order, no ``channels`` in ``patch_input``."""
    m = onnx.load(str(rgb))
    dq = {o: n for n in m.graph.node if n.op_type == "DequantizeLinear" for o in n.output}
    stems = [n for n in m.graph.node if n.op_type == "Conv" and dq.get(n.input[0]) is not None
             and dq[n.input[0]].input[0] == "/patches/nchw"]
    assert stems
    for conv in stems:
        init = next(t for t in m.graph.initializer if t.name == dq[conv.input[1]].input[0])
        w = onnx.numpy_helper.to_array(init)
        init.CopyFrom(onnx.numpy_helper.from_array(np.ascontiguousarray(
            w.reshape(w.shape[0], 4, 4, 3)[..., ::-1].reshape(w.shape)), init.name))
    for p in m.metadata_props:
        if p.key == "patch_input":
            p.value = json.dumps({k: v for k, v in json.loads(p.value).items() if k != "channels"})
    onnx.save(m, str(dst))
    return dst


def test_a_file_of_the_first_rewrite_is_read_in_its_order_and_turns_to_rgb_exactly(smoke, tmp_path: Path,
                                                                                   capsys) -> None:
    """The first rewrite took each pixel's values B G R (``channels`` absent): the reader still reads such a file
    in its order, and ``--patches-rgb`` turns it into the R G B file the rewrite makes now, weight for weight."""
    _, floats, _ = smoke
    rgb, bgr = _both_orders(floats, tmp_path)
    assert json.loads({p.key: p.value for p in onnx.load(str(rgb)).metadata_props}["patch_input"])["channels"] == "rgb"
    a, b = TileClassifier(rgb, flower_look=False), TileClassifier(bgr, flower_look=False)
    assert a._patches is not None and a._patches[2] and b._patches is not None and not b._patches[2]
    dark = [np.minimum(c, 90) for c in _crops(12, 4)]  # no pair of 8-bit products reaches 16 bits: any CPU
    assert a._patches[0][:91].max() < 128
    assert np.array_equal(a.run(dark)[0], b.run(dark)[0])
    assert quantize.main(["--patches-rgb", str(bgr)]) == 0
    turned, made = onnx.load(str(bgr)), onnx.load(str(rgb))
    assert {t.name: t.raw_data for t in turned.graph.initializer} == {t.name: t.raw_data for t in made.graph.initializer}
    stamp = json.loads({p.key: p.value for p in turned.metadata_props}["patch_input"])
    assert stamp["channels"] == "rgb" and len(stamp["channels_from_sha256"]) == 16
    capsys.readouterr()
    assert quantize.main(["--patches-rgb", str(bgr)]) == 2 and "already rgb" in capsys.readouterr().err
    assert quantize.main(["--patches-rgb", str(floats)]) == 2 and "not quantised patches" in capsys.readouterr().err


def test_the_reader_adds_8_bit_products_exactly_on_any_cpu(smoke, tmp_path: Path) -> None:
    """The two patch orders pair the stem's products differently; where the CPU adds pairs in 16 bits (no VNNI)
    bright crops saturate them, unless the session takes the weights as uint8 (``session.x64quantprecision``,
    :func:`companion.vision.runtime.cpu_session`): then both files give the same bits on bright crops too."""
    _, floats, _ = smoke
    rgb, bgr = _both_orders(floats, tmp_path)
    bright = [np.maximum(c, 200) for c in _crops(16, 5)]
    a, b = TileClassifier(rgb, flower_look=False), TileClassifier(bgr, flower_look=False)
    assert np.array_equal(a.run(bright)[0], b.run(bright)[0]) and np.array_equal(a.run(bright)[1], b.run(bright)[1])


def _with_meta(src: Path, dst: Path, key: str, change) -> Path:  # type: ignore[no-untyped-def]
    """``src`` saved as ``dst`` with the metadata value ``key`` replaced by ``change(old value)``."""
    m = onnx.load(str(src))
    for p in m.metadata_props:
        if p.key == key:
            p.value = change(p.value)
    onnx.save(m, str(dst))
    return dst


def test_a_model_whose_input_does_not_fit_its_metadata_is_refused(smoke, tmp_path: Path) -> None:
    _, floats, _ = smoke
    wrong = tmp_path / "wrong.onnx"
    _with_meta(floats, wrong, "input_size", lambda v: json.dumps({"width": 61, "height": 80}))
    with pytest.raises(ModelError, match="not N x 3 x 80 x 61 floats"):
        TileClassifier(wrong, flower_look=False)
    patches = tmp_path / "p.onnx"
    patches.write_bytes(floats.read_bytes())
    onnx_rewrite.patch_input(patches)
    for table, error in (([0] * 255, "256-value table"), ([12.7] * 256, "must be integers"),
                         ([2**70] * 256, "patch_input metadata")):
        _with_meta(patches, wrong, "patch_input", lambda v, t=table: json.dumps(json.loads(v) | {"pixel_lut": t}))
        with pytest.raises(ModelError, match=error):
            TileClassifier(wrong, flower_look=False)
    _with_meta(patches, wrong, "patch_input", lambda v: json.dumps(json.loads(v) | {"channels": "gbr"}))
    with pytest.raises(ModelError, match="neither rgb nor bgr"):
        TileClassifier(wrong, flower_look=False)


def test_the_shipped_classifier_takes_quantised_patches() -> None:
    clf = TileClassifier(flower_look=False)
    meta = clf.session.get_modelmeta().custom_metadata_map
    assert clf._patches is not None and "patch_input" in meta and "quantized" in meta
    assert json.loads(meta["patch_input"])["channels"] == "rgb"  # the same bits as the 8-bit graph on any CPU


def test_the_command_refuses_what_it_cannot_quantise_in_one_line(tmp_path: Path, monkeypatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """No such file, not ONNX, already quantised, not a classifier (shape inference would fail on it and leave
    files in the working folder), no calibration images: one error line each (exit 2), nothing written."""
    from companion.vision.detect import default_model_path as detector_path

    monkeypatch.chdir(tmp_path)
    text = tmp_path / "notes.onnx"
    text.write_text("not a model", encoding="utf-8")
    shipped = Path(quantize.__file__).resolve().parents[1] / "models" / "tile_classifier.onnx"
    for src, extra, says in [(tmp_path / "none.onnx", [], "no such file"), (text, [], "not an ONNX file"),
                             (shipped, [], "already quantised"), (detector_path(), [], "not a tile classifier")]:
        assert quantize.main([str(src), str(tmp_path / "out.onnx"), *extra]) == 2
        assert says in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.onnx"]
