"""`tablesight bench vision` runs end to end and returns its figures (values are not asserted)."""

from __future__ import annotations

from bench import Figure, vision_scan
from bench import vision as bench


def test_the_vision_bench_returns_every_figure(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(bench, "SIZES", ((480, 320),))
    monkeypatch.setattr(bench, "MAPPING", tmp_path)  # no ground truth here: recall is skipped
    monkeypatch.setattr(bench, "STICKER_MM", (30,))
    monkeypatch.setattr(bench, "OVER_TIME_MM", (30,))
    monkeypatch.setattr(bench, "SESSION_S", (20, 4))
    monkeypatch.setattr(vision_scan, "SIZES", ((1280, 720),))  # one size: figures, not speed
    figures = bench.run(quick=True)
    assert all(isinstance(f, Figure) and f.suite == "vision" for f in figures)
    names = [f.name for f in figures]
    for name in (
        "480x320 AprilTag 3 raw, decimation 1",
        "480x320 fused detector",
        "480x320 whole pipeline",
        "480x320 steady state, static table",
        "480x320 steady state / raw AprilTag d1",
        "480x320 good 30 mm sticker, one frame",
        "480x320 hard 30 mm sticker, one frame",
        "480x320 stickers, wrong ids, fused",
        "480x320 hard 30 mm sticker, observed within 1 s",
        "look-alike print, false tags in one frame, fused",
        "look-alike print over 3 s, false ids, over time",
        "session: ghost ids",
        "session: removes of stickers still there",
        "480x320 hard still table, steady / fused",
        "480x320 changing table, pipeline (over time) / fused detector",
        "480x320 fused / raw AprilTag d1",
        "480x320 fused detector, 4 threads",
        "480x320 hard, one frame, every size",
        "480x320 hard, one frame, 20 px and more",
        "480x320 hard, observed within 1 s, 15 px and more",
        "480x320 changing table, fused / raw AprilTag d1",
        "scan dont_starve 1280x720 / its detector",
        "480x320 hands moving through the view, pipeline / raw AprilTag d1",
        "480x320 shaking camera, 12.0 mm sticker observed within 1 s",
    ):
        assert name in names
    assert all(f.value > 0 for f in figures if f.unit in ("ms/frame", "ratio"))
    assert all(0 <= f.value <= 1 for f in figures if f.unit == "share")
    # 30 mm stickers are 16 px at this size, in good light: the fused detector reads them.
    assert next(f for f in figures if f.name == "480x320 good 30 mm sticker, one frame").value > 0
    assert not any(name.startswith("mapping_feb_2014") for name in names)
    assert "recall skipped" in capsys.readouterr().err
