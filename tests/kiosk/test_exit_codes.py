"""Exit status 2 and one line for a failed write or a value out of range (issue 40).

The real `tablesight` command in a subprocess: a write to /dev/full (the sheets' file, the
standard output), a seed beyond the set-up page's range, and every kind of ``TABLESIGHT_*``
setting out of range, even where a flag overrides it: refused before anything is served.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import IO

import pytest

from tests.support.serving import free_port

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "docs" / "examples" / "greenwood.jsonl"
TABLESIGHT = Path(sys.executable).with_name("tablesight")
FULL = Path("/dev/full")
MAX_SEED = 2**31 - 1  # the set-up page's NewGameBody.seed bound


def tablesight(
    *args: str,
    env: dict[str, str] | None = None,
    stdout: int | IO[bytes] = subprocess.PIPE,
    data: Path,
) -> subprocess.CompletedProcess[str]:
    """Run the installed `tablesight` with its own data folder and no TABLESIGHT_* of ours."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("TABLESIGHT_")}
    return subprocess.run(
        [str(TABLESIGHT), "--data-dir", str(data), *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env={**base, "TABLESIGHT_SIMULATION": "false", **(env or {})},
        timeout=120,
        cwd=data,
    )


def one_line(done: subprocess.CompletedProcess[str]) -> str:
    """The one line on stderr of a run that exited with status 2."""
    assert done.returncode == 2, (done.returncode, done.stderr)
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    return lines[0]


pytestmark = pytest.mark.skipif(
    not TABLESIGHT.exists() or not FULL.exists(), reason="no tablesight command or /dev/full"
)


def test_tags_to_dev_full_exits_2_with_one_line(tmp_path: Path) -> None:
    line = one_line(tablesight("tags", "greenwood", "--out", str(FULL), data=tmp_path))
    assert line.startswith("tablesight tags: ") and ".pdf" in line
    for suffix in (".pdf", ".svg"):  # a name the sheets accept, that cannot be written
        full = tmp_path / f"sheets{suffix}"
        full.symlink_to(FULL)
        line = one_line(tablesight("tags", "greenwood", "--out", str(full), data=tmp_path))
        assert line == (
            f"tablesight tags: --out {full}: the sheets could not be written: {os.strerror(28)}"
        )


@pytest.mark.parametrize(
    "argv",
    [
        ["tags", "greenwood", "--out", "sheets.pdf"],
        ["replay", "greenwood", str(EXAMPLE)],
    ],
)
def test_an_output_that_cannot_be_written_exits_2_with_one_line(
    tmp_path: Path, argv: list[str]
) -> None:
    with FULL.open("wb") as full:
        done = tablesight(*argv, stdout=full, data=tmp_path)
    line = one_line(done)
    assert line == f"tablesight {argv[0]}: the output could not be written: {os.strerror(28)}"


@pytest.mark.parametrize("seed", [str(10**40), "-1", str(MAX_SEED + 1)])
def test_a_seed_out_of_range_exits_2_with_one_line_saying_the_range(
    tmp_path: Path, seed: str
) -> None:
    line = one_line(tablesight("replay", "greenwood", str(EXAMPLE), "--seed", seed, data=tmp_path))
    assert f"from 0 to {MAX_SEED}" in line and line.startswith("tablesight replay: ")
    assert len(line) < 200  # the 41 digits are not printed whole
    moves = tmp_path / "moves.jsonl"
    moves.write_text(f'{{"setup": {{}}, "seed": {seed}}}\n')
    line = one_line(tablesight("replay", "greenwood", str(moves), data=tmp_path))
    assert f'line 1: "seed" must be a whole number from 0 to {MAX_SEED}' in line


def test_the_largest_seed_is_taken(tmp_path: Path) -> None:
    moves = tmp_path / "moves.jsonl"
    moves.write_text("")
    done = tablesight("replay", "greenwood", str(moves), "--seed", str(MAX_SEED), data=tmp_path)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(
    ("variable", "value", "valid"),
    [
        ("TABLESIGHT_PORT", "abc", "a whole number from 1 to 65535"),
        ("TABLESIGHT_PORT", "70000", "a whole number from 1 to 65535"),
        ("TABLESIGHT_BRIGHTNESS", "101", "a whole number from 0 to 100"),
        ("TABLESIGHT_SPEED", "-1", "a number from 0 to 100"),
        ("TABLESIGHT_SOUND", "maybe", "true or false"),
        ("TABLESIGHT_GPIO__ADVANCE_PIN", "99", "a whole number from 0 to 27"),
        ("TABLESIGHT_HTTP__MAX_CONNECTIONS", "0", "a whole number from 1 to 100000"),
        ("TABLESIGHT_MQTT__KEEPALIVE", "1", "a whole number from 5 to 3600"),
        ("TABLESIGHT_CAMERA__FPS", "-5", "a number above 0"),
        ("TABLESIGHT_SPEECH__KEEP", "0", "a whole number from 1 to 100000"),
        ("TABLESIGHT_PAIRING_CODE", "12ab", "[0-9]{6}"),
        ("TABLESIGHT_LANG", "fr", "'zh' or 'en'"),
        ("TABLESIGHT_HTTP__HOSTS", "table.lan", "JSON"),
        ("TABLESIGHT_CONFIG", "/no/such/folder/tablesight.toml", "does not exist"),
    ],
)
def test_a_setting_from_the_environment_out_of_range_stops_run_before_serving(
    tmp_path: Path, variable: str, value: str, valid: str
) -> None:
    port = str(free_port())
    flags = ["--port", port] if variable == "TABLESIGHT_PORT" else []  # the flag wins: still
    done = tablesight("run", *flags, env={variable: value}, data=tmp_path)
    line = one_line(done)
    assert line.startswith(f"tablesight run: {variable}: ") and valid in line
    assert "http://" not in done.stderr  # nothing was served
    assert not (tmp_path / "games.sqlite").exists()  # nor any save opened
