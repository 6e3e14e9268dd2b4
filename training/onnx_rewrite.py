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

The 8-bit classifier (:func:`patch_input`; done by ``training/quantize.py``, ``python -m training.quantize
--patch-input MODEL`` for a file already quantised):

3. **Quantised patches in.** The classifier took ``N x 3 x H x W`` float32 RGB normalised in numpy (a channel
   flip, a transpose, three passes over the batch); onnxruntime then quantised it to 8 bits, transposed it
   back to ``N x H x W x C`` for its 8-bit convolutions, and ran the 4x4 stride-4 stem through its slow
   general path (a quarter of the network's time). The quantised value of a pixel depends on that pixel's
   value alone, so the rewritten graph takes what its stem reads directly: ``N x H/k x W/k x k*k*3`` uint8,
   each k x k patch's pixels (row by row, R G B) through a 256-entry lookup table (``pixel_lut`` in the
   metadata: the original graph's quantisation of the numpy normalisation of each value;
   :func:`companion.vision.preprocess.quantised_patches` makes the input). The stem becomes a 1x1
   convolution of the same weights in that order, which is the order onnxruntime's 8-bit convolution reads
   the original's input in (channels last: row, column, R G B): the same products, paired the same way, so
   the same bits (measured on a CPU without VNNI, where the first order's were not). Without VNNI
   onnxruntime adds 8-bit products in pairs in 16 bits, which can saturate; the first rewrite's B G R order
   paired them otherwise, so on such CPUs its answers differed from the original's by up to 6% of their range
   on random crops and the check refused it (``channels`` in ``patch_input`` says the order, ``bgr`` where it
   is absent; :func:`patches_rgb` turns such a file). On 72 crops the classifier's input and network took
   about two thirds of the time.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

from companion.vision.detect import model_sha256
from companion.vision.preprocess import MEAN, STD, normalise, quantised_patches
from training.export_onnx import git_head

__all__ = ["fast_graph", "patch_input", "patches_rgb", "same_answers", "PATCH_TOLERANCE", "REWRITE_KEY", "PATCH_KEY", "PATCH_INPUT_FORMAT", "CHECK_SIZES"]

REWRITE_KEY = "graph_rewrite"
CHECK_SIZES = ((64, 96), (384, 640))
"""Input sizes (multiples of 32) on which the rewritten graph must agree with the original."""
SCALES = "upsampling_scales_x2"
PATCH_KEY = "patch_input"
PATCH_INPUT_FORMAT = ("uint8 N x H/k x W/k x k*k*3: each k x k patch of the crop, row by row, every pixel's R G B "
                      "through patch_input's pixel_lut (companion.vision.preprocess.quantised_patches)")


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



def patch_input(path: Path) -> dict[str, object]:
    """Rewrite the 8-bit classifier at ``path`` in place so that it takes quantised patches (see the module,
    item 3). The model must take ``N x 3 x H x W`` float32 RGB normalised as
    :func:`companion.vision.preprocess.normalise` does (its metadata's ``mean`` and ``std``) into one QuantizeLinear and DequantizeLinear,
    then one convolution, or one per member of an ensemble (the flower model), whose kernel is its stride,
    without padding, whose weights (quantised per output channel) are its own. ``patch_input`` is added to
    the metadata (the patch side, the lookup table, the commit and the file's SHA-256 before the rewrite) and
    ``input_format`` says what the input now is. A file
    already rewritten, one that is not such a classifier, or one whose rewrite does not compute what it did is
    refused (ValueError naming the file)."""
    path = Path(path)
    original = onnx.load(str(path))
    meta = {p.key: p.value for p in original.metadata_props}
    if PATCH_KEY in meta:
        raise ValueError(f"{path}: its input is already quantised patches")
    try:
        means, stds = json.loads(meta["mean"]), json.loads(meta["std"])
    except (KeyError, ValueError) as e:
        raise ValueError(f"{path}: no mean and std in the metadata ({e})") from e
    if len(means) != 3 or len(stds) != 3 or len(set(means)) != 1 or len(set(stds)) != 1:
        raise ValueError(f"{path}: the normalisation {means}/{stds} is not the same on the three channels")
    if (tuple(means), tuple(stds)) != (MEAN, STD):
        raise ValueError(f"{path}: the normalisation {means}/{stds} is not the classifier's {MEAN}/{STD}")
    model = onnx.ModelProto()
    model.CopyFrom(original)
    g = model.graph
    old = g.input[0]
    dims = [d.dim_value or d.dim_param for d in old.type.tensor_type.shape.dim]
    if old.type.tensor_type.elem_type != onnx.TensorProto.FLOAT or len(dims) != 4 or dims[1] != 3:
        raise ValueError(f"{path}: the input is not N x 3 x H x W float32")
    quant, dequant, stems = _quantised_stem(g, old.name, path)
    sides = {_stem_as_one_by_one(g, stem, path) for stem in stems}
    if len(sides) != 1:
        raise ValueError(f"{path}: the input's convolutions cut patches of different sides {sorted(sides)}")
    (k,) = sides
    n, _, h, w = dims
    if not isinstance(h, int) or not isinstance(w, int) or h % k or w % k:
        raise ValueError(f"{path}: the input's {h} x {w} is not made of {k} x {k} patches")
    values = {t.name: numpy_helper.to_array(t) for t in g.initializer}
    if len(quant.input) < 3 or quant.input[1] not in values or quant.input[2] not in values or \
            values[quant.input[2]].dtype != np.uint8 or values[quant.input[1]].size != 1:
        raise ValueError(f"{path}: the input's quantisation is not to uint8 with one constant scale and zero point")
    lut = _quantised_values(values[quant.input[1]], values[quant.input[2]])
    dequant.input[0] = "/patches/nchw"
    nodes = [helper.make_node("Transpose", ["patches"], ["/patches/nchw"], perm=[0, 3, 1, 2], name="/patches")]
    nodes += [nd for nd in g.node if nd is not quant]
    del g.node[:]
    g.node.extend(nodes)
    del g.input[:]
    g.input.append(helper.make_tensor_value_info("patches", onnx.TensorProto.UINT8, [n, h // k, w // k, k * k * 3]))
    done: dict[str, object] = {"patch": k, "pixel_lut": lut.tolist(), "channels": "rgb",
                               "from_sha256": model_sha256(path), "commit": git_head()}
    for p in model.metadata_props:
        if p.key == "input_format":
            p.value = PATCH_INPUT_FORMAT
    model.metadata_props.add(key=PATCH_KEY, value=json.dumps(done))
    onnx.checker.check_model(model)
    _same_answers(original, model, (h, w), lut, k, path)
    onnx.save(model, str(path))
    return {key: v for key, v in done.items() if key != "pixel_lut"}


def patches_rgb(path: Path) -> dict[str, object]:
    """Turn the file at ``path``, rewritten by the first :func:`patch_input` (each pixel's values B G R), in place
    to take R G B (the order of the original graph's 8-bit convolution, so the same bits as the original on every
    CPU: the module's item 3): each stem's weights reordered, ``channels`` set in ``patch_input``, and
    ``channels_from_sha256`` the file's hash before. Checked before it is saved: on crops whose quantised values
    are all under 128 no pair of 8-bit products reaches 16 bits, so the file fed B G R patches and the turned one
    fed R G B must give the same bits, whatever the CPU; otherwise, or for a file that is not such a rewrite, a
    ValueError naming the file."""
    import onnxruntime as ort

    path = Path(path)
    original = onnx.load(str(path))
    meta = {p.key: p.value for p in original.metadata_props}
    try:
        stamp = json.loads(meta[PATCH_KEY])
        k, lut = int(stamp["patch"]), np.array(stamp["pixel_lut"], np.uint8)
    except (KeyError, ValueError, TypeError) as e:
        raise ValueError(f"{path}: its input is not quantised patches ({e})") from e
    if stamp.get("channels", "bgr") != "bgr":
        raise ValueError(f"{path}: its patches are already {stamp['channels']}")
    model = onnx.ModelProto()
    model.CopyFrom(original)
    g = model.graph
    dims = [d.dim_value for d in g.input[0].type.tensor_type.shape.dim]
    dequant = next((nd for nd in g.node if nd.op_type == "DequantizeLinear" and nd.input[0] == "/patches/nchw"), None)
    stems = [nd for nd in g.node if dequant and nd.op_type == "Conv" and nd.input[0] == dequant.output[0]]
    if len(dims) != 4 or dims[3] != k * k * 3 or not stems:
        raise ValueError(f"{path}: not a classifier rewritten to take {k} x {k} patches")
    for conv in stems:
        init = _stem_weights(g, conv, path)
        w = numpy_helper.to_array(init)
        if w.shape[1:] != (k * k * 3, 1, 1):
            raise ValueError(f"{path}: a stem is not a 1x1 convolution over {k * k * 3} patch values")
        turned = w.reshape(w.shape[0], k, k, 3)[..., ::-1].reshape(w.shape)
        init.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(turned), init.name))
    done = {**stamp, "channels": "rgb", "channels_from_sha256": model_sha256(path)}
    for p in model.metadata_props:
        if p.key == PATCH_KEY:
            p.value = json.dumps(done)
        elif p.key == "input_format":
            p.value = PATCH_INPUT_FORMAT
    onnx.checker.check_model(model)
    low = np.flatnonzero(lut < 128).astype(np.uint8)
    px = np.random.default_rng(0).choice(low, (32, dims[1] * k, dims[2] * k, 3))
    a, b = (ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]) for m in (original, model))
    before = a.run(None, {"patches": quantised_patches(px, lut, k)})
    after = b.run(None, {"patches": quantised_patches(px, lut, k, rgb=True)})
    if len(low) < 64 or not all(np.array_equal(x, y) for x, y in zip(before, after, strict=True)):
        raise ValueError(f"{path}: the turned graph does not compute what the original does")
    onnx.save(model, str(path))
    return {key: v for key, v in done.items() if key != "pixel_lut"}


def _quantised_stem(g: onnx.GraphProto, name: str,
                    path: Path) -> tuple[onnx.NodeProto, onnx.NodeProto, list[onnx.NodeProto]]:
    """The QuantizeLinear and DequantizeLinear the input ``name`` goes through (each the only reader of what
    comes before it), and the convolutions that read the dequantised input (one, or one per member of an
    ensemble such as the flower model's; nothing else may read it)."""
    def users(t: str) -> list[onnx.NodeProto]:
        return [nd for nd in g.node if t in nd.input]

    def only_user(t: str, op: str) -> onnx.NodeProto:
        found = users(t)
        if len(found) != 1 or found[0].op_type != op or found[0].input[0] != t:
            raise ValueError(f"{path}: the input does not go through one QuantizeLinear, DequantizeLinear and "
                             f"convolution (at {t}: {[u.op_type for u in found]})")
        return found[0]

    quant = only_user(name, "QuantizeLinear")
    dequant = only_user(quant.output[0], "DequantizeLinear")
    convs = users(dequant.output[0])
    if not convs or any(c.op_type != "Conv" or c.input[0] != dequant.output[0] for c in convs):
        raise ValueError(f"{path}: the input does not go through one QuantizeLinear, DequantizeLinear and "
                         f"convolutions (at {dequant.output[0]}: {[u.op_type for u in convs]})")
    return quant, dequant, convs


def _stem_weights(g: onnx.GraphProto, conv: onnx.NodeProto, path: Path) -> onnx.TensorProto:
    """The constant of the stem ``conv``'s weights, quantised per output channel, read by nothing else (so that
    it may be reordered in place); else a ValueError naming ``path``."""
    makers = [nd for nd in g.node if conv.input[1] in nd.output]
    scale = next((t for t in g.initializer if makers and t.name == makers[0].input[1]), None)
    axis = {a.name: helper.get_attribute_value(a) for a in makers[0].attribute}.get("axis", 1) if makers else None
    if not makers or makers[0].op_type != "DequantizeLinear" or scale is None or \
            (numpy_helper.to_array(scale).size > 1 and axis != 0):
        raise ValueError(f"{path}: the first convolution's weights are not quantised per output channel")
    weight = makers[0].input[0]
    init = next((t for t in g.initializer if t.name == weight), None)
    if init is None or sum(weight in nd.input for nd in g.node) != 1:
        raise ValueError(f"{path}: the first convolution's weights are not its own constant")
    return init


def _stem_as_one_by_one(g: onnx.GraphProto, conv: onnx.NodeProto, path: Path) -> int:
    """Turn the k x k stride-k stem ``conv`` (RGB input channels) into a 1x1 convolution over the input's
    k*k*3 patch values (row, column, R G B); returns k."""
    attrs = {a.name: helper.get_attribute_value(a) for a in conv.attribute}
    kernel = list(attrs.get("kernel_shape", []))
    if len(kernel) != 2 or kernel[0] != kernel[1] or list(attrs.get("strides", [1, 1])) != kernel or \
            any(attrs.get("pads", [0])) or attrs.get("group", 1) != 1 or any(d != 1 for d in attrs.get("dilations", [1])):
        raise ValueError(f"{path}: the first convolution is not a patch stem (kernel = stride, no padding)")
    init = _stem_weights(g, conv, path)
    wq = numpy_helper.to_array(init)
    k = kernel[0]
    if wq.shape[1:] != (3, k, k):
        raise ValueError(f"{path}: the first convolution does not take 3 channels")
    rgb = wq.transpose(0, 2, 3, 1).reshape(wq.shape[0], k * k * 3, 1, 1)
    init.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(rgb), init.name))
    for a in conv.attribute:
        if a.name in ("kernel_shape", "strides"):
            a.ints[:] = [1, 1]
    return int(k)


def _quantised_values(scale: np.ndarray, zero: np.ndarray) -> np.ndarray:
    """What onnxruntime's QuantizeLinear (``scale``, ``zero``) makes of each pixel value 0-255 after
    :func:`companion.vision.preprocess.normalise`."""
    import onnxruntime as ort

    grey = np.repeat(np.arange(256, dtype=np.uint8)[:, None], 3, axis=1).reshape(1, 1, 256, 3)
    x = np.ascontiguousarray(normalise(grey)[0, 0, 0])
    graph = helper.make_graph([helper.make_node("QuantizeLinear", ["x", "s", "z"], ["q"])], "lut",
                              [helper.make_tensor_value_info("x", onnx.TensorProto.FLOAT, [256])],
                              [helper.make_tensor_value_info("q", onnx.TensorProto.UINT8, [256])],
                              [numpy_helper.from_array(scale, "s"), numpy_helper.from_array(zero, "z")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 13)])
    (q,) = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"]).run(None, {"x": x})
    return np.asarray(q, np.uint8)


def _same_answers(original: onnx.ModelProto, rewritten: onnx.ModelProto, size: tuple[int, int], lut: np.ndarray,
                  k: int, path: Path) -> None:
    """Refuse the rewrite unless, on 24 random crops and 8 flat ones, the rewritten graph fed
    :func:`~companion.vision.preprocess.quantised_patches` answers as the original fed
    :func:`~companion.vision.preprocess.normalise`:
    the same best class for every crop and every output within :data:`PATCH_TOLERANCE` of its range (the same
    bits on the CPUs measured, with VNNI and without: the module's item 3)."""
    import onnxruntime as ort

    rng = np.random.default_rng(0)
    h, w = size
    flat = np.repeat(np.linspace(0, 255, 8)[:, None], h * w * 3, 1).reshape(8, h, w, 3)
    px = np.concatenate([rng.integers(0, 256, (24, h, w, 3)), flat]).astype(np.uint8)
    x = normalise(px)
    a, b = (ort.InferenceSession(m.SerializeToString(), providers=["CPUExecutionProvider"]) for m in
            (original, rewritten))
    outs = list(zip(a.run(None, {a.get_inputs()[0].name: x}),
                    b.run(None, {"patches": quantised_patches(px, lut, k, rgb=True)}), strict=True))
    if not all(same_answers(ya, yb) for ya, yb in outs) or \
            not np.array_equal(outs[0][0].argmax(axis=1), outs[0][1].argmax(axis=1)):
        raise ValueError(f"{path}: the rewritten graph does not compute what the original does")


PATCH_TOLERANCE = 0.01
"""Outputs of the rewritten classifier may differ from the original's by this share of their range."""


def same_answers(a: np.ndarray, b: np.ndarray) -> bool:
    """``a`` and ``b`` have one shape and differ nowhere by more than :data:`PATCH_TOLERANCE` of ``a``'s range."""
    span = float(a.max() - a.min()) if a.size else 0.0
    return a.shape == b.shape and bool(np.all(np.abs(a - b) <= PATCH_TOLERANCE * span + 1e-6))
