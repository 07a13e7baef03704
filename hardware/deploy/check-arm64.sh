#!/usr/bin/env bash
# The arm64 check: tablesight installed and run as on a Raspberry Pi's 64-bit OS, on this machine.
#
# Builds a minimal Debian bookworm arm64 root with mmdebstrap (the packages extracted, not
# configured: no maintainer script runs under emulation), runs it under qemu's user-mode
# emulation (binfmt_misc), installs tablesight into a venv there with the root's own pip, from
# aarch64 wheels and pure Python only (downloaded here, nothing built from source), and runs a
# smoke set:
#   - `tablesight --help`;
#   - `replay` of every docs/examples file, byte for byte as this machine's tablesight replays it
#     (the replay verb's main() called once per file in one Python, here and there);
#   - `tags greenwood` and `detect` finding every sticker of its sheets;
#   - `run --no-simulation` answering /healthz and /api/status with no game, setting up a game
#     as the set-up page does, and stopping cleanly on Ctrl-C with it saved;
#   - the pi extra's simplejpeg loading under the venv's numpy;
#   - pytest of the firmware bridge (the serial codec and link on a real pseudo-terminal) and of
#     the engine's core (phase machine, undo and redo, actions in progress); the three games'
#     rules are the replays'.
# Each step's time and the total are printed. It needs root; mmdebstrap and qemu-user-static are
# installed from Debian's archive when missing. It compares with this checkout's .venv.
#
# The root, the venv in it and the downloaded wheels are kept in a cache folder and reused while
# their recipe (the package list; the project's dependencies) is the same and the venv is less
# than a week old; a run from nothing downloads about 120 MB.
#
# Skips (exit 0, one line "arm64 check skipped: why"): no root; qemu's binfmt handler cannot be
# registered (an unprivileged container); Debian's archive or PyPI cannot be reached. Any failure
# of the smoke set itself exits 1.
#
# Usage: hardware/deploy/check-arm64.sh
#   ARM64_CACHE=DIR  the cache folder (default /var/cache/tablesight-arm64); an empty folder
#                    gives a run from nothing
set -euo pipefail

SRC="$(cd "$(dirname "$0")/../.." && pwd)"
SUITE=bookworm
# python3-venv, and libstdc++6 that numpy's and OpenCV's wheels need (Raspberry Pi OS has it).
PACKAGES=python3-venv,libstdc++6,dash,coreutils
# What the venv holds besides tablesight: the smoke set's test runner, and the pi extra's
# simplejpeg (the others of that extra come from Raspberry Pi OS).
TOOLS=(pytest pytest-timeout hypothesis simplejpeg)
TESTS=(tests/firmware_bridge tests/engine/test_flow.py tests/engine/test_session.py
    tests/engine/test_in_progress.py)
VENV=/opt/tablesight/venv
CACHE="${ARM64_CACHE:-/var/cache/tablesight-arm64}"
ROOT="$CACHE/root"
HOST_TS="${TABLESIGHT:-$SRC/.venv/bin/tablesight}"
BINFMT=/proc/sys/fs/binfmt_misc
# What a failed download prints when the network, not the package, is the matter.
NETWORK='Failed to fetch|Could not resolve|Temporary failure|Unable to connect|Connection (failed|refused|reset)|Network is unreachable|No route to host|timed out|Max retries|NewConnectionError|Name or service not known|ConnectTimeout|ReadTimeout|SSLError|ProxyError'
STARTED=$SECONDS

say() { printf 'arm64 check: %s\n' "$*"; }
skip() {
    printf 'arm64 check skipped: %s\n' "$*"
    exit 0
}
fail() {
    say "FAILED: $*" >&2
    exit 1
}
# timed NAME COMMAND...: run a step and say how long it took.
timed() {
    local name=$1 start=$SECONDS
    shift
    "$@"
    say "$name: $((SECONDS - start)) s"
}
# The last lines of a log, indented, for a failure's message.
tail_of() { printf '\n'; tail -n "${2:-15}" "$1" | sed 's/^/    /'; }
# unreachable_or_fail LOG WHAT: a download failed; skip if the log shows the network failing,
# fail otherwise (the package, not the network, is the matter).
unreachable_or_fail() {
    local why
    why="$(grep -Eo -m 1 ".{0,60}($NETWORK).{0,40}" "$1" | sed 's/^[[:space:]]*//' || true)"
    [ -z "$why" ] || skip "$2 cannot be reached ($why)"
    fail "$3:$(tail_of "$1" 8)"
}

# --- can this machine run arm64 programs? ------------------------------------------------------

[ "$(id -u)" -eq 0 ] || skip "it needs root (mmdebstrap, chroot and qemu's binfmt handler)"
[ -x "$HOST_TS" ] || fail "no tablesight at $HOST_TS to compare with: run \`make test\` first"
HOST_PY="$(dirname "$HOST_TS")/python"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/tablesight-arm64.XXXXXX")"
LOG="$WORK/logs"
mkdir -p "$LOG"
SERVER=""
LOCKED=no

unmount_root() {
    local point
    for point in "$ROOT/dev/pts" "$ROOT/proc"; do
        if mountpoint -q "$point" 2>/dev/null; then
            umount "$point" 2>/dev/null || umount -l "$point" 2>/dev/null || true
        fi
    done
}
cleanup() {
    if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then
        kill -KILL "$SERVER" 2>/dev/null || true
        wait "$SERVER" 2>/dev/null || true
    fi
    [ "$LOCKED" = no ] || unmount_root
    rm -rf "$WORK"
}
trap cleanup EXIT

apt_install() {
    say "installing $* from Debian's archive"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq "$@"; } >"$LOG/apt.log" 2>&1 ||
        unreachable_or_fail "$LOG/apt.log" "Debian's archive" "could not install $*"
}

missing=()
command -v mmdebstrap >/dev/null || missing+=(mmdebstrap)
if [ "$(uname -m)" != aarch64 ]; then
    [ -e /usr/libexec/qemu-binfmt/aarch64-binfmt-P ] || [ -x /usr/bin/qemu-aarch64-static ] ||
        missing+=(qemu-user-static)
    command -v update-binfmts >/dev/null || missing+=(binfmt-support)
fi
if [ ${#missing[@]} -gt 0 ]; then
    command -v apt-get >/dev/null || skip "${missing[*]} missing and no apt-get to install them"
    apt_install "${missing[@]}"
fi

if [ "$(uname -m)" != aarch64 ]; then
    if [ ! -e "$BINFMT/status" ]; then
        mount -t binfmt_misc binfmt_misc "$BINFMT" 2>"$LOG/binfmt.log" ||
            skip "qemu's binfmt handler cannot be registered: binfmt_misc cannot be mounted" \
                "($(head -n 1 "$LOG/binfmt.log"); a container needs to be privileged)"
    fi
    if ! head -n 1 "$BINFMT/qemu-aarch64" 2>/dev/null | grep -qx enabled; then
        update-binfmts --enable qemu-aarch64 >"$LOG/binfmt.log" 2>&1 || true
    fi
    head -n 1 "$BINFMT/qemu-aarch64" 2>/dev/null | grep -qx enabled ||
        skip "qemu's binfmt handler for aarch64 cannot be registered here" \
            "($(head -n 1 "$LOG/binfmt.log" 2>/dev/null || echo 'no reason given'))"
    grep -qx enabled "$BINFMT/status" || skip "binfmt_misc is turned off on this machine"
    grep -q '^flags:.*F' "$BINFMT/qemu-aarch64" ||
        skip "qemu's aarch64 handler is registered without the F flag: it cannot run in a chroot"
fi

# One run at a time per cache (CI and a run by hand may meet).
mkdir -p "$CACHE/wheels"
exec 9>"$CACHE/lock"
flock 9
LOCKED=yes

# --- the arm64 root and tablesight in it ------------------------------------------------------

# in_root COMMAND...: run in the root with a clean environment (none of this machine's pip
# settings; it needs no network).
ROOT_ENV=(HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 PIP_PROGRESS_BAR=off
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INDEX=1)
in_root() { env -i "${ROOT_ENV[@]}" chroot "$ROOT" "$@"; }
sha() { sha256sum | cut -c 1-16; }

ROOT_RECIPE="$(echo "$SUITE arm64 extract $PACKAGES" | sha)"
# The project's dependencies and build requirements, as pyproject.toml says them.
mapfile -t DEPS < <("$HOST_PY" - "$SRC/pyproject.toml" <<'EOF'
import sys, tomllib
with open(sys.argv[1], "rb") as file:
    project = tomllib.load(file)
print(*project["build-system"]["requires"], *project["project"]["dependencies"], sep="\n")
EOF
)
VENV_RECIPE="$(echo "$ROOT_RECIPE ${DEPS[*]} ${TOOLS[*]}" | sha)"

build_root() {
    unmount_root
    if [ "$(cat "$CACHE/root.recipe" 2>/dev/null)" = "$ROOT_RECIPE" ] &&
        [ -x "$ROOT/usr/bin/python3" ]; then
        say "reusing the root in $ROOT"
        return
    fi
    rm -f "$CACHE/root.recipe" "$CACHE/venv.recipe"
    rm -rf --one-file-system "$ROOT"
    mmdebstrap --mode=root --variant=extract --architectures=arm64 --include="$PACKAGES" \
        "$SUITE" "$ROOT" >"$LOG/mmdebstrap.log" 2>&1 ||
        unreachable_or_fail "$LOG/mmdebstrap.log" "Debian's archive" \
            "mmdebstrap could not build the arm64 root"
    mkdir -p "$ROOT/proc" "$ROOT/root"
    printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/false\n' \
        >"$ROOT/etc/passwd"
    printf 'root:x:0:\nnogroup:x:65534:\n' >"$ROOT/etc/group"
    in_root /usr/bin/python3 -c '' 2>"$LOG/python.log" ||
        fail "the arm64 root's python3 does not run under qemu here:$(tail_of "$LOG/python.log")"
    echo "$ROOT_RECIPE" >"$CACHE/root.recipe"
}

# The source as it is now (the checkout may change while the check runs), the wheel built from
# it, and the aarch64 wheels of its dependencies.
prepare() {
    mount -t proc proc "$ROOT/proc"
    # The LED controller's emulator talks over a pseudo-terminal.
    mount --bind /dev/pts "$ROOT/dev/pts"
    rm -rf "$ROOT/src" "$ROOT/check" "$ROOT/wheels"
    mkdir -p "$ROOT/src" "$ROOT/check/out" "$WORK/host"
    tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude=./out --exclude=./build \
        --exclude='*.egg-info' --exclude=__pycache__ --exclude=.pytest_cache \
        --exclude=.mypy_cache --exclude=.ruff_cache --exclude=.hypothesis -cf - . |
        tar -xf - -C "$ROOT/src"
    if [ "$(cat "$CACHE/venv.recipe" 2>/dev/null)" != "$VENV_RECIPE" ] ||
        [ -n "$(find "$CACHE/venv.recipe" -mtime +6)" ]; then
        rm -f "$CACHE/venv.recipe"
        local platforms=(--platform manylinux2014_aarch64) minor
        for minor in $(seq 17 36); do platforms+=(--platform "manylinux_2_${minor}_aarch64"); done
        "$HOST_PY" -m pip download --quiet --dest "$CACHE/wheels" --only-binary=:all: \
            "${platforms[@]}" --python-version 3.11 --implementation cp --abi cp311 \
            "${DEPS[@]}" "${TOOLS[@]}" >"$LOG/download.log" 2>&1 ||
            unreachable_or_fail "$LOG/download.log" PyPI \
                "a dependency has no aarch64 wheel for Python 3.11 (or pip failed)"
    fi
    # Pure Python: built here, offline, with the setuptools just downloaded.
    cp -r "$ROOT/src" "$WORK/src"
    "$HOST_PY" -m pip wheel --quiet --no-deps --no-index --find-links "$CACHE/wheels" \
        --wheel-dir "$ROOT/check" "$WORK/src" >"$LOG/wheel.log" 2>&1 ||
        fail "tablesight's wheel could not be built:$(tail_of "$LOG/wheel.log" 8)"
}

# pip of the root's Python, run from its wheel (a venv without pip is made in seconds, not the
# two minutes ensurepip takes under emulation); --no-compile: what runs compiles its own.
root_pip() {
    local pip
    pip="$(cd "$ROOT" && echo usr/share/python-wheels/pip-*.whl)"
    in_root "$VENV/bin/python" "/$pip/pip" "$@" >>"$LOG/pip.log" 2>&1
}

install_tablesight() {
    local wheel
    wheel="$(cd "$ROOT" && echo check/tablesight-*.whl)"
    if [ "$(cat "$CACHE/venv.recipe" 2>/dev/null)" = "$VENV_RECIPE" ] && [ -x "$ROOT$VENV/bin/python" ]
    then
        say "reusing the venv in $ROOT$VENV"
        root_pip install --quiet --no-compile --no-deps --force-reinstall "/$wheel" ||
            fail "pip could not install tablesight's wheel on arm64:$(tail_of "$LOG/pip.log" 8)"
        return
    fi
    rm -rf "$ROOT$VENV"
    in_root python3 -m venv --without-pip "$VENV"
    cp -r "$CACHE/wheels" "$ROOT/wheels"
    # --only-binary: a dependency without an aarch64 wheel fails here.
    root_pip install --quiet --no-compile --no-index --find-links /wheels --only-binary=:all: \
        "/$wheel" "${TOOLS[@]}" ||
        fail "pip could not install tablesight on arm64 from aarch64 wheels:$(
            tail_of "$LOG/pip.log" 8)"
    rm -rf "$ROOT/wheels"
    echo "$VENV_RECIPE" >"$CACHE/venv.recipe"
}

# --- the smoke set ------------------------------------------------------------------------------

TS=("$VENV/bin/tablesight" --data-dir /check/data --lang en)
# This machine's Python on the very source copied into the root, with a clean environment.
host_py() { env -i HOME="$WORK" PATH=/usr/bin:/bin LANG=C.UTF-8 PYTHONPATH="$WORK/src" "$HOST_PY" "$@"; }

check_help() {
    in_root "${TS[@]}" --help >"$LOG/help.log" 2>&1 ||
        fail "tablesight --help failed on arm64:$(tail_of "$LOG/help.log")"
}

# Each example file through the replay verb, --json, its output and exit status in OUT/NAME.out:
# one Python for all of them (a Python's start under emulation costs seconds).
cat >"$WORK/replay.py" <<'EOF'
import contextlib, io, pathlib, sys
from kiosk.cli import main
out, data = pathlib.Path(sys.argv[1]), sys.argv[2]
for path in map(pathlib.Path, sys.argv[3:]):
    text = io.StringIO()
    with contextlib.redirect_stdout(text), contextlib.redirect_stderr(text):
        try:
            code = main(["--data-dir", data, "--lang", "en", "replay", path.stem.split("-")[0],
                         str(path), "--json"])
        except SystemExit as exc:
            code = exc.code
    (out / f"{path.stem}.out").write_text(f"{text.getvalue()}exit status {code}\n", "utf-8")
EOF

check_replays() {
    local file name examples=()
    cp "$WORK/replay.py" "$ROOT/check/replay.py"
    for file in "$ROOT"/src/docs/examples/*.jsonl; do examples+=("docs/examples/${file##*/}"); done
    (cd "$WORK/src" && host_py "$WORK/replay.py" "$WORK/host" "$WORK/data" "${examples[@]}") \
        >"$LOG/replay-host.log" 2>&1 || fail "the replays failed here:$(tail_of "$LOG/replay-host.log")"
    # shellcheck disable=SC2016 # $0 and $@ are the inner shell's
    in_root sh -c 'cd /src && exec "$0" "$@"' "$VENV/bin/python" /check/replay.py /check/out \
        /check/data "${examples[@]}" >"$LOG/replay.log" 2>&1 ||
        fail "the replays failed on arm64:$(tail_of "$LOG/replay.log")"
    for file in "${examples[@]}"; do
        name="$(basename "$file" .jsonl)"
        cmp -s "$WORK/host/$name.out" "$ROOT/check/out/$name.out" ||
            fail "replay of $name.jsonl differs on arm64 (< here, > there):$(printf '\n'
                diff "$WORK/host/$name.out" "$ROOT/check/out/$name.out" | head -n 10 |
                    sed 's/^/    /')"
    done
    say "${#examples[@]} example files replayed, byte for byte as here"
}

check_stickers() {
    in_root "${TS[@]}" tags greenwood --out /check/sheet.png >"$LOG/tags.log" 2>&1 ||
        fail "tablesight tags failed on arm64:$(tail_of "$LOG/tags.log")"
    in_root sh -c "${TS[*]} detect /check/sheet*.png --json >/check/arm.jsonl" \
        2>"$LOG/detect.log" || fail "tablesight detect failed on arm64:$(tail_of "$LOG/detect.log")"
    host_py -m kiosk.cli detect "$ROOT"/check/sheet*.png --json >"$WORK/host/detect.jsonl"
    "$HOST_PY" - "$LOG/tags.log" "$ROOT/check/arm.jsonl" "$WORK/host/detect.jsonl" <<'EOF' ||
import json, re, sys
printed, arm, host = (open(p, encoding="utf-8").read() for p in sys.argv[1:])
want = int(re.search(r"greenwood: (\d+) tags", printed)[1])
def ids(lines): return sorted(d["id"] for line in lines.splitlines() for d in json.loads(line)["detections"])
found, here = ids(arm), ids(host)
print(f"arm64 check: {len(set(found))} of the {want} stickers found on arm64")
sys.exit(0 if len(set(found)) == want == len(found) and found == here else 1)
EOF
        fail "detect on arm64 did not find every sticker of the sheets, or found others than here"
}

check_run() {
    local port answered=no code=0
    port="$("$HOST_PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    # Not through in_root: $! is then tablesight itself (env and chroot exec it).
    env -i "${ROOT_ENV[@]}" chroot "$ROOT" "${TS[@]}" run --no-simulation \
        --port "$port" >"$LOG/run.log" 2>&1 &
    SERVER=$!
    # Start-up under emulation takes a while: wait up to 5 minutes for the first answer.
    for _ in $(seq 600); do
        kill -0 "$SERVER" 2>/dev/null || break
        if "$HOST_PY" - "$port" <<'EOF' 2>/dev/null; then
import sys, urllib.request
urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/healthz", timeout=5).close()
EOF
            answered=yes
            break
        fi
        sleep 0.5
    done
    [ "$answered" = yes ] || fail "tablesight run did not answer /healthz on arm64:$(tail_of "$LOG/run.log")"
    # No save and --no-simulation: no game until one is set up as the set-up page posts it.
    "$HOST_PY" - "$port" >"$LOG/setup.log" 2>&1 <<'EOF' ||
import json, sys, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}"
def game():
    with urllib.request.urlopen(f"{url}/api/status", timeout=30) as answer:
        return json.load(answer)["game"]
assert game() is None, "a game started that nobody set up"
body = json.dumps({"game": "greenwood", "players": 2}).encode()
setup = urllib.request.Request(f"{url}/api/new-game?lang=en", body, {"Content-Type": "application/json"})
urllib.request.urlopen(setup, timeout=60).close()
assert game() == "greenwood", "the game set up is not the table's"
EOF
        fail "tablesight run on arm64 did not set up a game:$(tail_of "$LOG/setup.log")$(tail_of "$LOG/run.log")"
    kill -INT "$SERVER"
    wait "$SERVER" || code=$?
    SERVER=""
    { [ "$code" -eq 0 ] && grep -q "stopped; the game is saved" "$LOG/run.log"; } ||
        fail "tablesight run did not stop cleanly on Ctrl-C (status $code):$(tail_of "$LOG/run.log")"
}

check_simplejpeg() {
    in_root "$VENV/bin/python" -c 'import numpy, simplejpeg
image = numpy.zeros((32, 32, 3), numpy.uint8)
assert simplejpeg.decode_jpeg(simplejpeg.encode_jpeg(image)).shape == image.shape
print(numpy.__version__)' >"$LOG/simplejpeg.log" 2>&1 ||
        fail "simplejpeg does not load under the venv's numpy:$(tail_of "$LOG/simplejpeg.log")"
    say "simplejpeg loads under numpy $(tail -n 1 "$LOG/simplejpeg.log")"
}

check_tests() {
    in_root sh -c "cd /src && $VENV/bin/python -m pytest ${TESTS[*]} -x -q -p no:cacheprovider" \
        >"$LOG/pytest.log" 2>&1 ||
        fail "pytest ${TESTS[*]} failed on arm64:$(tail_of "$LOG/pytest.log" 30)"
    say "pytest ${TESTS[*]}: $(tail -n 1 "$LOG/pytest.log" | tr -d '=')"
}

timed "the $SUITE arm64 root" build_root
timed "the source, its wheel and the aarch64 wheels" prepare
timed "tablesight installed with pip" install_tablesight
timed "tablesight --help" check_help
timed "replay of the example files" check_replays
timed "tags and detect" check_stickers
timed "run --no-simulation" check_run
timed "simplejpeg" check_simplejpeg
timed "pytest" check_tests
say "passed on arm64 in $((SECONDS - STARTED)) s"
