"""Ctrl-C stops the kiosk cleanly even while the AprilTag binding holds SIGINT at its default
action (kiosk.stop_signals). Each case runs in a child process: a signal's default action ends
the whole process, and the test must see that happen when it does."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

import pytest

CHILD = textwrap.dedent(
    """
    import contextlib, sys, threading, time
    from kiosk.stop_signals import held_stop_signals

    held = held_stop_signals() if sys.argv[1] == "held" else contextlib.nullcontext()
    with held:  # entered before numpy starts its threads, as `tablesight run` does
        import numpy as np
        import apriltag

        image = np.random.default_rng(1).integers(0, 255, (1080, 1920), np.uint8)
        detector = apriltag.apriltag("tag36h11", threads=1)
        busy = threading.Event()

        def detect_forever():
            while True:
                detector.detect(image)  # sets SIGINT to SIG_DFL while it works
                busy.set()

        threading.Thread(target=detect_forever, daemon=True).start()
        busy.wait()
        try:  # the Ctrl-C may come as soon as the line is out: wait for it inside the try
            print("detecting", flush=True)
            for _ in range(600):  # an event loop's steps: the handler runs at the next one
                time.sleep(0.05)
        except KeyboardInterrupt:
            print("stopped cleanly", flush=True)
    """
)


def ctrl_c_while_detecting(mode: str) -> tuple[int, str]:
    """Start the child, wait until it detects, press Ctrl-C; its status and output."""
    child = subprocess.Popen([sys.executable, "-c", CHILD, mode], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "detecting"
    child.send_signal(signal.SIGINT)
    out, _ = child.communicate(timeout=30)
    return child.returncode, out


def test_ctrl_c_during_a_detection_stops_cleanly_when_held() -> None:
    status, out = ctrl_c_while_detecting("held")
    assert (status, out.strip()) == (0, "stopped cleanly")


def test_without_holding_ctrl_c_during_a_detection_kills_the_process() -> None:
    """The fault the module exists for, shown on the real binding (if the binding stops
    touching SIGINT, this fails and kiosk.stop_signals can go)."""
    status, out = ctrl_c_while_detecting("plain")
    assert status == -signal.SIGINT and "stopped cleanly" not in out


def test_a_signal_with_no_python_handler_keeps_its_default_action() -> None:
    script = textwrap.dedent(
        """
        import time
        from kiosk.stop_signals import held_stop_signals
        with held_stop_signals():
            print("ready", flush=True)
            for _ in range(600):
                time.sleep(0.05)
        """
    )
    child = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    child.send_signal(signal.SIGTERM)  # Python leaves SIGTERM at its default: the end
    child.communicate(timeout=30)
    assert child.returncode == -signal.SIGTERM


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_running_kiosk_stops_cleanly_on_ctrl_c_and_on_sigterm(tmp_path, signum) -> None:
    from serving import start_server

    server = start_server(tmp_path / "data")
    server.process.send_signal(signum)
    _, err = server.process.communicate(timeout=30)
    assert server.process.returncode == 0, err
    assert "stopped; the game is saved" in err and "Traceback" not in err
