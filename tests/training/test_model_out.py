"""A training script's --smoke run never writes the shipped model (models/), which the package and a source
checkout read; without --smoke and --out it writes there, as models/README.md's commands expect."""

from pathlib import Path

from training import train_classifier, train_flower
from training.export_onnx import model_out

ROOT = Path(__file__).resolve().parents[2]


def test_a_smoke_run_writes_beside_the_build_not_over_the_shipped_model(tmp_path: Path) -> None:
    assert model_out(None, True, "tile_orient.onnx") == ROOT / "build" / "smoke" / "tile_orient.onnx"
    assert model_out(None, False, "tile_orient.onnx") == ROOT / "models" / "tile_orient.onnx"
    assert model_out(tmp_path / "x.onnx", True, "tile_orient.onnx") == tmp_path / "x.onnx"
    assert train_classifier.parse_args(["--smoke"]).out == ROOT / "build" / "smoke" / "tile_classifier.onnx"
    assert train_classifier.parse_args([]).out == ROOT / "models" / "tile_classifier.onnx"
    assert train_flower.parse_args(["--smoke"]).out == ROOT / "build" / "smoke" / "tile_flower.onnx"


def test_every_training_script_resolves_its_output_through_model_out() -> None:
    """The orientation, back-check and detector scripts parse inside main(): each must hand --out to
    model_out with its own file name (a script that kept a models/ default would overwrite it when smoked)."""
    for script, name in [("train_orient", "tile_orient.onnx"), ("train_backs", "tile_backs.onnx"),
                         ("train_detector", "tile_detector.onnx"), ("train_classifier", "tile_classifier.onnx"),
                         ("train_flower", "tile_flower.onnx")]:
        src = (ROOT / "training" / f"{script}.py").read_text(encoding="utf-8")
        assert f'args.out = model_out(args.out, args.smoke, "{name}")' in src, script
        assert 'default=ROOT / "models"' not in src, script
