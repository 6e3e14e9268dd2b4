"""Rewrite exported graphs into ones that onnxruntime runs faster and that compute the same up to float rounding.

The detector (:func:`fast_graph`; ``python -m training.train_detector --fast-graph MODEL``):

1. **Constant upsampling.** ``F.interpolate(size=...)`` computes each target size from the input's shape at
   run time (Shape, Gather, Concat), and onnxruntime then cannot keep the feature maps in its blocked (NCHWc)
   layout across the three Resize nodes: it converts them out and back each time, about a quarter of the
   network's time on 2 cores. The input's sides are multiples of 32 (``letterbox``), so each stride's map is
   exactly twice the next one's and nearest upsampling by the constant scale 2 gives the same pixels.
2. **One pass of normalisation.** The input's ``(image - MEAN) / STD`` (a Sub and a Div over the whole image)
   becomes one BatchNormalization with scale ``1/STD`` and bias ``-MEAN/STD``.

The rewritten graph is run beside the original on two input sizes before it is saved; it is refused unless
the two agree. The measured gain is in ``models/README.md`` (the detector's "Graph rewrite").

The 8-bit classifier (:func:`pixel_input`; done by ``training/quantize.py``, ``python -m training.quantize
--pixel-input MODEL`` for a file already quantised):

3. **Pixels in, as OpenCV gives them.** The classifier took ``N x 3 x H x W`` float32 RGB normalised in numpy
   (a channel flip, a transpose and three passes over the batch), and onnxruntime then transposed it back to
   ``N x H x W x 3`` for its 8-bit convolutions. The rewritten graph takes the resized crops as they are,
   ``N x H x W x 3`` uint8 BGR: it casts and normalises them with the same float32 operations in the same
   order (so the same bits), and its Transpose to NCHW cancels against onnxruntime's own; the channel flip
   becomes the first convolution's input channels taken in reverse order. The float models (the flower strips,
   orientation, backs, detector) gained nothing from it when measured, so only the 8-bit classifier gets it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

from companion.vision.detect import model_sha256
from training.export_onnx import git_head

__all__ = ["fast_graph", "pixel_input", "REWRITE_KEY", "PIXEL_KEY", "PIXEL_INPUT_FORMAT", "CHECK_SIZES"]

REWRITE_KEY = "graph_rewrite"
CHECK_SIZES = ((64, 96), (384, 640))
"""Input sizes (multiples of 32) on which the rewritten graph must agree with the original."""
SCALES = "upsampling_scales_x2"
PIXEL_KEY = "pixel_input"
PIXEL_INPUT_FORMAT = "BGR uint8 NHWC (the crops as resized by OpenCV); the graph makes RGB (pixel/255 - mean) / std"


def fast_graph(path: Path) -> dict[str, object]:
    """Rewrite the exported detector at ``path`` in place (see the module). The weights and the other metadata
    are untouched; ``graph_rewrite`` is added to the metadata with the commit and the file's
    :func:`model_sha256` before the rewrite (``from_sha256``: a back check trained on that file's boxes still
    matches this one). A file already rewritten, one whose graph is not an exported detector's (a Resize that
    is not nearest to a computed size, no Sub and Div on the input), or one whose rewrite does not agree with it
    is refused (ValueError naming the file)."""
    path = Path(path)
    original = onnx.load(str(path))
    if any(p.key == REWRITE_KEY for p in original.metadata_props):
        raise ValueError(f"{path}: its graph is already rewritten")
    model = onnx.ModelProto()
    model.CopyFrom(original)
    resized = _constant_upsampling(model.graph, path)
    mean, std = _one_pass_normalisation(model.graph, path)
    _drop_dead(model.graph)
    done: dict[str, object] = {
        "resize_nodes_made_constant": resized, "normalisation": {"mean": mean, "std": std},
        "from_sha256": model_sha256(path), "commit": git_head(),
        "note": "constant x2 nearest upsampling (was computed from the input shape): input sides must be "
                "multiples of 32; (image - mean) / std as one BatchNormalization"}
    model.metadata_props.add(key=REWRITE_KEY, value=json.dumps(done))
    onnx.checker.check_model(model)
    _agree(original, model, path)
    onnx.save(model, str(path))
    return done


def _constant_upsampling(g: onnx.GraphProto, path: Path) -> int:
    resize = [n for n in g.node if n.op_type == "Resize"]
    if not resize:
        raise ValueError(f"{path}: no Resize node to rewrite")
    for n in resize:
        attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
        if (attrs.get("mode"), attrs.get("coordinate_transformation_mode"), attrs.get("nearest_mode")) != \
                (b"nearest", b"asymmetric", b"floor") or len(n.input) != 4 or n.input[2]:
            raise ValueError(f"{path}: Resize node {n.name} is not a nearest upsampling to a computed size")
    g.initializer.append(numpy_helper.from_array(np.array([1, 1, 2, 2], np.float32), SCALES))
    for n in resize:
        n.input[2] = SCALES
        del n.input[3]
    return len(resize)


def _one_pass_normalisation(g: onnx.GraphProto, path: Path) -> tuple[float, float]:
    image = g.input[0].name
    values = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    values.update({n.output[0]: numpy_helper.to_array(n.attribute[0].t) for n in g.node
                   if n.op_type == "Constant" and n.attribute and n.attribute[0].name == "value"})
    sub = next((n for n in g.node if n.op_type == "Sub" and n.input[0] == image and n.input[1] in values), None)
    div = next((n for n in g.node if sub is not None and n.op_type == "Div" and n.input[0] == sub.output[0]
                and n.input[1] in values), None)
    if sub is None or div is None or values[sub.input[1]].size != 1 or values[div.input[1]].size != 1:
        raise ValueError(f"{path}: no (image - mean) / std on the input to rewrite")
    mean, std = values[sub.input[1]].item(), values[div.input[1]].item()
    channels = g.input[0].type.tensor_type.shape.dim[1].dim_value
    if channels <= 0:
        raise ValueError(f"{path}: the input's channels are not fixed")
    names = [f"normalise_{k}" for k in ("scale", "bias", "mean", "var")]
    for name, v in zip(names, (1 / std, -mean / std, 0.0, 1.0), strict=True):
        g.initializer.append(numpy_helper.from_array(np.full(channels, v, np.float32), name))
    norm = helper.make_node("BatchNormalization", [image, *names], [div.output[0]], name="/normalise",
                            epsilon=0.0)
    nodes = [norm] + [n for n in g.node if n is not sub and n is not div]
    del g.node[:]
    g.node.extend(nodes)
    return float(mean), float(std)


def _drop_dead(g: onnx.GraphProto) -> None:
    """Remove the nodes and initializers no output depends on any more (the shape arithmetic, old constants)."""
    needed = {o.name for o in g.output}
    live = []
    for n in reversed(list(g.node)):
        if any(o in needed for o in n.output):
            live.append(n)
            needed.update(i for i in n.input if i)
    del g.node[:]
    g.node.extend(reversed(live))
    for t in [t for t in g.initializer if t.name not in needed]:
        g.initializer.remove(t)


def _agree(original: onnx.ModelProto, rewritten: onnx.ModelProto, path: Path) -> None:
    """Refuse the rewrite unless both graphs give the same outputs (up to rounding) on :data:`CHECK_SIZES`:
    ``reg`` within 1e-3, and peaks where both have one within 1e-4, at most 1 cell in 1000 with a peak in one
    only (a score tying its 3x3 maximum to a rounding)."""
    import onnxruntime as ort

    rng = np.random.default_rng(0)
    runs = [ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"])
            for m in (original, rewritten)]
    for h, w in CHECK_SIZES:
        x = rng.uniform(0, 255, (1, 3, h, w)).astype(np.float32)
        (pa, ra), (pb, rb) = (s.run(None, {s.get_inputs()[0].name: x}) for s in runs)
        both = (pa > 0) & (pb > 0)
        if pa.shape != pb.shape or ra.shape != rb.shape or not np.allclose(ra, rb, atol=1e-3) or \
                not np.allclose(pa[both], pb[both], atol=1e-4) or ((pa > 0) != (pb > 0)).mean() > 1e-3:
            raise ValueError(f"{path}: the rewritten graph does not compute what the original does at {h}x{w}")


def pixel_input(path: Path) -> dict[str, object]:
    """Rewrite the classifier at ``path`` in place so that it takes ``N x H x W x 3`` uint8 BGR pixels (see the
    module, item 3). The model must take ``N x 3 x H x W`` float32 RGB normalised ``(pixel/255 - mean) / std``
    with the one ``mean`` and ``std`` of its metadata on all three channels, feed its input to one convolution
    (directly or through one QuantizeLinear and DequantizeLinear) whose weights are its own; ``pixel_input`` is
    added to the metadata with the commit and the file's SHA-256 before the rewrite, and ``input_format`` says
    what the input now is. A file already rewritten, one that is not such a classifier, or one whose rewrite
    does not compute what it did is refused (ValueError naming the file)."""
    path = Path(path)
    original = onnx.load(str(path))
    meta = {p.key: p.value for p in original.metadata_props}
    if PIXEL_KEY in meta:
        raise ValueError(f"{path}: its input is already pixels")
    try:
        means, stds = json.loads(meta["mean"]), json.loads(meta["std"])
    except (KeyError, ValueError) as e:
        raise ValueError(f"{path}: no mean and std in the metadata ({e})") from e
    if len(set(means)) != 1 or len(set(stds)) != 1 or len(means) != 3 or len(stds) != 3:
        raise ValueError(f"{path}: the normalisation {means}/{stds} is not the same on the three channels")
    model = onnx.ModelProto()
    model.CopyFrom(original)
    g = model.graph
    old = g.input[0]
    dims = [d.dim_value or d.dim_param for d in old.type.tensor_type.shape.dim]
    if old.type.tensor_type.elem_type != onnx.TensorProto.FLOAT or len(dims) != 4 or dims[1] != 3:
        raise ValueError(f"{path}: the input is not N x 3 x H x W float32")
    _reverse_input_channels(g, old.name, path)
    n, _, h, w = dims
    constants = {"pixel_scale": 1 / 255, "pixel_mean": means[0], "pixel_std": stds[0]}
    g.initializer.extend(numpy_helper.from_array(np.array(v, np.float32), k) for k, v in constants.items())
    head = [helper.make_node("Cast", ["pixels"], ["/pixels/float"], to=onnx.TensorProto.FLOAT, name="/pixels/cast"),
            helper.make_node("Mul", ["/pixels/float", "pixel_scale"], ["/pixels/scaled"], name="/pixels/scale"),
            helper.make_node("Sub", ["/pixels/scaled", "pixel_mean"], ["/pixels/centred"], name="/pixels/centre"),
            helper.make_node("Div", ["/pixels/centred", "pixel_std"], ["/pixels/nhwc"], name="/pixels/std"),
            helper.make_node("Transpose", ["/pixels/nhwc"], [old.name], perm=[0, 3, 1, 2], name="/pixels/nchw")]
    nodes = head + list(g.node)
    del g.node[:]
    g.node.extend(nodes)
    del g.input[:]
    g.input.append(helper.make_tensor_value_info("pixels", onnx.TensorProto.UINT8, [n, h, w, 3]))
    done: dict[str, object] = {"from_sha256": model_sha256(path), "commit": git_head(),
                               "note": "input N x H x W x 3 uint8 BGR; cast, /255, -mean, /std, to NCHW in the "
                                       "graph; BGR->RGB as the first convolution's input channels reversed"}
    for p in model.metadata_props:
        if p.key == "input_format":
            p.value = PIXEL_INPUT_FORMAT
    model.metadata_props.add(key=PIXEL_KEY, value=json.dumps(done))
    onnx.checker.check_model(model)
    _same_answers(original, model, (int(h), int(w)), float(means[0]), float(stds[0]), path)
    onnx.save(model, str(path))
    return done


def _reverse_input_channels(g: onnx.GraphProto, name: str, path: Path) -> None:
    """Reverse the input channels of the one convolution ``name`` feeds (its weights, quantised or not)."""
    def users(t: str) -> list[onnx.NodeProto]:
        return [n for n in g.node if t in n.input]

    first = users(name)
    if len(first) == 1 and first[0].op_type == "QuantizeLinear":
        dq = users(first[0].output[0])
        first = users(dq[0].output[0]) if len(dq) == 1 and dq[0].op_type == "DequantizeLinear" else []
    if len(first) != 1 or first[0].op_type != "Conv" or \
            {a.name: helper.get_attribute_value(a) for a in first[0].attribute}.get("group", 1) != 1:
        raise ValueError(f"{path}: the input does not feed one convolution")
    weight = first[0].input[1]
    makers = [n for n in g.node if weight in n.output]
    if makers:  # quantised weights: DequantizeLinear(int8 weights, scale per output channel)
        dq = makers[0]
        axis = {a.name: helper.get_attribute_value(a) for a in dq.attribute}.get("axis", 1)
        scale = next((t for t in g.initializer if t.name == dq.input[1]), None)
        if dq.op_type != "DequantizeLinear" or scale is None or (numpy_helper.to_array(scale).size > 1 and axis != 0):
            raise ValueError(f"{path}: the first convolution's weights are not quantised per output channel")
        weight = dq.input[0]
    init = next((t for t in g.initializer if t.name == weight), None)
    if init is None or len(users(weight)) != 1:
        raise ValueError(f"{path}: the first convolution's weights are not its own constant")
    w = numpy_helper.to_array(init)
    if w.ndim != 4 or w.shape[1] != 3:
        raise ValueError(f"{path}: the first convolution does not take 3 channels")
    init.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(w[:, ::-1]), weight))


def _same_answers(original: onnx.ModelProto, rewritten: onnx.ModelProto, size: tuple[int, int], mean: float,
                  std: float, path: Path) -> None:
    """Refuse the rewrite unless, on 24 random crops and 8 plain ones, every output of the rewritten graph fed
    the pixels matches the original's fed the numpy normalisation (:func:`companion.vision.preprocess.normalise`'s
    operations) within 1e-4 (float models reorder a sum; the 8-bit ones give the same bits)."""
    import onnxruntime as ort

    rng = np.random.default_rng(0)
    h, w = size
    px = np.concatenate([rng.integers(0, 256, (24, h, w, 3)), np.repeat(np.linspace(0, 255, 8)[:, None, None, None],
                                                                         h * w * 3, 1).reshape(8, h, w, 3)])
    px = px.astype(np.uint8)
    x = np.ascontiguousarray(px[:, :, :, ::-1].transpose(0, 3, 1, 2)).astype(np.float32)
    x *= np.float32(1 / 255)
    x -= np.float32(mean)
    x /= np.float32(std)
    a, b = (ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]) for m in
            (original, rewritten))
    for ya, yb in zip(a.run(None, {a.get_inputs()[0].name: x}), b.run(None, {"pixels": px}), strict=True):
        if ya.shape != yb.shape or not np.allclose(ya, yb, rtol=1e-4, atol=1e-4):
            raise ValueError(f"{path}: the rewritten graph does not compute what the original does")
