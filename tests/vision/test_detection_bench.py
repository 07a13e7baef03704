"""`tablesight bench vision` runs end to end and returns its figures (values are not asserted)."""

from __future__ import annotations

from kiosk.benchmarks import Figure
from kiosk.benchmarks import vision as bench


def test_the_vision_bench_returns_every_figure(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(bench, "SIZES", ((480, 320),))
    monkeypatch.setattr(bench, "MAPPING", tmp_path)  # no ground truth here: recall is skipped
    figures = bench.run(quick=True)
    assert all(isinstance(f, Figure) and f.suite == "vision" for f in figures)
    names = [f.name for f in figures]
    for name in (
        "AprilTag 3 raw, decimation 1",
        "fused detector",
        "whole pipeline",
        "steady state, static table",
        "steady state / raw AprilTag d1",
    ):
        assert f"480x320 {name}" in names
    assert all(f.value > 0 for f in figures if f.unit in ("ms/frame", "ratio"))
    assert not any(name.startswith("mapping_feb_2014") for name in names)
    assert "recall skipped" in capsys.readouterr().err
