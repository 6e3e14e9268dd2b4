"""Several flower-strip models (``training/train_flower.py`` builds of different seeds) as one ONNX file.

    python -m training.flower_ensemble OUT.onnx MEMBER.onnx MEMBER.onnx ...

The strip model's seed alone moves the flowers of a set it never saw by two crops of 34 (models/README.md), so
the packaged second look is the mean of a few seeds' models. They share the input; the file's ``logits`` are the
mean of the members' logits and its ``embedding`` their L2-normalised embeddings side by side, divided by the
square root of their number. The members are cosine-head networks (logit = scale x cosine of embedding and
class weight), so the file is itself one: its logits are the scale times the cosine of that embedding and the
members' class weights side by side, and a calibration's prototypes live in the same space.
``companion/vision/flower.FlowerReader`` reads it like a single model.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
from collections.abc import Sequence
from pathlib import Path

import onnx
from onnx import TensorProto, compose, helper

from training.export_onnx import training_commit

__all__ = ["combine", "main"]

SAME = ("class_names", "input_size", "strip_top", "input_format", "mean", "std", "logit_scale")
"""Metadata every member must agree on (and the ensemble keeps)."""


def _meta(m: onnx.ModelProto) -> dict[str, str]:
    return {p.key: p.value for p in m.metadata_props}


def combine(members: Sequence[Path], out: Path) -> None:
    """Write the ensemble of ``members`` (at least two strip-model files that agree on :data:`SAME`) to ``out``."""
    if len(members) < 2:
        raise ValueError(f"an ensemble needs at least two members, got {len(members)}")
    models, digests = [], []
    for p in members:
        try:
            data = p.read_bytes()
            models.append(onnx.load_from_string(data))
        except Exception as e:  # a missing, truncated or foreign file
            raise ValueError(f"{p}: not a readable ONNX model ({e})") from e
        digests.append(hashlib.sha256(data).hexdigest())
    first = _meta(models[0])
    for p, m in zip(members, models, strict=True):
        meta = _meta(m)
        differ = [k for k in SAME if meta.get(k) != first.get(k)]
        if differ:
            raise ValueError(f"{p}: not a strip model like {members[0]} ({', '.join(differ)} differ)")
        if m.opset_import != models[0].opset_import:
            raise ValueError(f"{p}: another opset than {members[0]}")
        if [i.name for i in m.graph.input] != ["input"] or [o.name for o in m.graph.output] != ["logits", "embedding"]:
            raise ValueError(f"{p}: expected input 'input' and outputs 'logits', 'embedding'")
    k = len(models)
    nodes, inits, outs_l, outs_e = [], [], [], []
    for i, m in enumerate(models):
        m = compose.add_prefix(m, f"m{i}_")
        nodes.append(helper.make_node("Identity", ["input"], [f"m{i}_input"], name=f"m{i}_feed"))
        nodes.extend(m.graph.node)
        inits.extend(m.graph.initializer)
        outs_l.append(f"m{i}_logits")
        outs_e.append(f"m{i}_embedding")
    inits.append(helper.make_tensor("ens_mean", TensorProto.FLOAT, [], [1.0 / k]))
    inits.append(helper.make_tensor("ens_root", TensorProto.FLOAT, [], [1.0 / math.sqrt(k)]))
    nodes.append(helper.make_node("Sum", outs_l, ["ens_logit_sum"], name="ens_sum"))
    nodes.append(helper.make_node("Mul", ["ens_logit_sum", "ens_mean"], ["logits"], name="ens_logits"))
    nodes.append(helper.make_node("Concat", outs_e, ["ens_embedding"], axis=1, name="ens_concat"))
    nodes.append(helper.make_node("Mul", ["ens_embedding", "ens_root"], ["embedding"], name="ens_embed"))
    g0 = models[0].graph
    graph = helper.make_graph(nodes, "flower_strip_ensemble", list(g0.input),
                              [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["n", len(json.loads(first["class_names"]))]),
                               helper.make_tensor_value_info("embedding", TensorProto.FLOAT, ["n", None])],
                              initializer=inits)
    model = helper.make_model(graph, opset_imports=list(models[0].opset_import), ir_version=models[0].ir_version)
    onnx.checker.check_model(model)
    meta = {key: first[key] for key in SAME if key in first}
    meta["training_commit"] = training_commit()
    root = os.path.commonpath([str(p.resolve().parent) for p in members])
    meta["ensemble"] = json.dumps([{"file": os.path.relpath(p.resolve(), root), "sha256": digest,
                                    "training_commit": _meta(m).get("training_commit"),
                                    "training": json.loads(_meta(m).get("training", "null"))}
                                   for p, m, digest in zip(members, models, digests, strict=True)])
    for key, v in meta.items():
        model.metadata_props.add(key=key, value=v)
    out.parent.mkdir(parents=True, exist_ok=True)
    part = out.with_name(out.name + ".part")  # a crash mid-write leaves no half file under the real name
    onnx.save(model, str(part))
    part.replace(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("members", type=Path, nargs="+")
    args = ap.parse_args(argv)
    combine(args.members, args.out)
    print(f"wrote {args.out} ({len(args.members)} members)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
