"""The arm64 check (hardware/deploy/check-arm64.sh): where it cannot run, it says why and skips.

The check itself (an arm64 root under qemu, 3 to 6 minutes here) is run by `.ci/run` after
`make test`, never by a test; its timings are in docs/pi-setup.md.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

CHECK = Path(__file__).resolve().parents[2] / "hardware" / "deploy" / "check-arm64.sh"


def test_without_privilege_the_arm64_check_says_why_and_skips() -> None:
    command = ["bash", str(CHECK)]
    if os.geteuid() == 0:  # drop root, as an unprivileged CI container would run it
        if shutil.which("setpriv") is None:
            pytest.skip("running as root and no setpriv to drop the privilege")
        command = ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", *command]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, cwd="/")
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "arm64 check skipped: it needs root (mmdebstrap, chroot and qemu's binfmt handler)"
    ]
    assert done.stderr == ""


def test_without_a_network_the_arm64_check_says_debians_archive_is_unreachable_and_skips(
    tmp_path: Path,
) -> None:
    """A machine cut off from the network (a network namespace of its own) makes CI skip the
    check with the reason, not fail: the network, not the project, is the matter."""
    handler = Path("/proc/sys/fs/binfmt_misc/qemu-aarch64")
    if os.geteuid() != 0 or shutil.which("unshare") is None:
        pytest.skip("needs root and unshare to cut the check off from the network")
    if shutil.which("mmdebstrap") is None or not handler.exists():
        pytest.skip("mmdebstrap or qemu's aarch64 handler missing: the check would stop before")
    done = subprocess.run(
        ["unshare", "--net", "bash", str(CHECK)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "ARM64_CACHE": str(tmp_path / "cache")},
    )
    assert done.returncode == 0, done.stderr
    [line] = done.stdout.splitlines()
    assert line.startswith("arm64 check skipped: Debian's archive cannot be reached ("), line
    assert done.stderr == ""
