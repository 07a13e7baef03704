"""`tablesight bench kiosk` measures the heavy GETs of the previous release in the same run
(issue 40): its code comes from a git worktree of that release, and a release that cannot be
had is said in one line, never a traceback, and measures this tree only."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from bench import kiosk

ROOT = Path(__file__).resolve().parents[2]


def git_checkout() -> bool:
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse"], capture_output=True)
    return done.returncode == 0


@pytest.mark.skipif(not git_checkout(), reason="the release is taken from this git checkout")
def test_the_release_is_a_worktree_of_its_own_code_removed_afterwards() -> None:
    head = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    with kiosk._worktree(head) as tree:
        assert tree is not None
        assert (tree / "kiosk" / "cli.py").read_bytes() == (ROOT / "kiosk" / "cli.py").read_bytes()
        listed = subprocess.run(
            ["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True
        ).stdout
        assert str(tree) in listed
    assert not tree.exists()
    listed = subprocess.run(
        ["git", "-C", str(ROOT), "worktree", "list"], capture_output=True, text=True
    ).stdout
    assert str(tree) not in listed


@pytest.mark.skipif(not git_checkout(), reason="the release is taken from this git checkout")
def test_an_unknown_release_is_said_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    with kiosk._worktree("no-such-release") as tree:
        assert tree is None
    err = capsys.readouterr().err
    assert err.startswith("bench kiosk: release no-such-release not measured: ")
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_previous_release_is_a_commit_of_this_history() -> None:
    """A release that is not in the history would never be measured."""
    if not git_checkout():
        pytest.skip("the release is taken from this git checkout")
    shallow = subprocess.run(
        ["git", "-C", str(ROOT), "rev-parse", "--is-shallow-repository"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    if shallow == "true":
        pytest.skip("a shallow clone holds no earlier release (the bench says so and goes on)")
    done = subprocess.run(
        ["git", "-C", str(ROOT), "merge-base", "--is-ancestor", kiosk.PREVIOUS_RELEASE, "HEAD"],
        capture_output=True,
    )
    assert done.returncode == 0, done.stderr
