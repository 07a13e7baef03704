"""Fixtures shared by the vision tests: the real photographs and their ground truth."""

from __future__ import annotations

from pathlib import Path

import pytest

PHOTOS = Path(__file__).resolve().parents[2] / ".." / "shared" / "testdata" / "apriltag-photos"


@pytest.fixture(scope="session")
def apriltag_photos() -> Path:
    """The folder of real AprilTag photographs (skips when the shared test data is absent)."""
    if not PHOTOS.is_dir():
        pytest.skip(f"the shared test photographs are not at {PHOTOS}")
    return PHOTOS


@pytest.fixture(scope="session")
def mapping_truth(apriltag_photos: Path) -> dict[Path, list[int]]:
    """mapping_feb_2014: each photograph with the ids of every tag in it (236 tags in all)."""
    folder = apriltag_photos / "mapping_feb_2014"
    truth = {}
    for line in (folder / "groundtruth.txt").read_text().splitlines():
        name, *ids = line.split()
        truth[folder / name] = [int(i) for i in ids]
    return truth
