"""Rewrite an exported detector graph into one that onnxruntime runs faster and that computes the same up to
float rounding (:func:`fast_graph`; ``python -m training.train_detector --fast-graph MODEL``).

1. **Constant upsampling.** ``F.interpolate(size=...)`` computes each target size from the input's shape at
   run time (Shape, Gather, Concat), and onnxruntime then cannot keep the feature maps in its blocked (NCHWc)
   layout across the three Resize nodes: it converts them out and back each time, about a quarter of the
   network's time on 2 cores. The input's sides are multiples of 32 (``letterbox``), so each stride's map is
   exactly twice the next one's and nearest upsampling by the constant scale 2 gives the same pixels.
2. **One pass of normalisation.** The input's ``(image - MEAN) / STD`` (a Sub and a Div over the whole image)
   becomes one BatchNormalization with scale ``1/STD`` and bias ``-MEAN/STD``.

The rewritten graph is run beside the original on two input sizes before it is saved; it is refused unless
the two agree. The measured gain is in ``models/README.md`` (the detector's "Graph rewrite").
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import onnx
from onnx import helper, numpy_helper

from companion.vision.detect import model_sha256
from training.export_onnx import git_head

__all__ = ["fast_graph", "REWRITE_KEY", "CHECK_SIZES"]

REWRITE_KEY = "graph_rewrite"
CHECK_SIZES = ((64, 96), (384, 640))
"""Input sizes (multiples of 32) on which the rewritten graph must agree with the original."""
SCALES = "upsampling_scales_x2"


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
