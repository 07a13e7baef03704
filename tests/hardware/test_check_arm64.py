"""The arm64 check (hardware/deploy/check-arm64.sh): where it cannot run, it says why and skips.

The check itself (a debootstrapped arm64 root under qemu, about 20 minutes here) is run by hand;
its timings are in docs/pi-setup.md.
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
        "check-arm64: skipped: it needs root (debootstrap, chroot and qemu's binfmt handler)"
    ]
    assert done.stderr == ""
