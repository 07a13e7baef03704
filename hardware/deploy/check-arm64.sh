#!/usr/bin/env bash
# The arm64 check: tablesight installed and run as on a Raspberry Pi's 64-bit OS, on this machine.
#
# Builds a minimal Debian bookworm arm64 root with debootstrap, runs it under qemu's user-mode
# emulation (binfmt_misc), installs tablesight into a venv there with pip (aarch64 wheels or pure
# Python only, nothing built from source) and runs a smoke set:
#   - `tablesight --help`;
#   - `replay` of every docs/examples file, byte for byte as this machine's tablesight replays it;
#   - `tags greenwood` and `detect` finding every sticker of its sheets;
#   - `run --no-simulation` answering /healthz and /api/status, and stopping cleanly on Ctrl-C;
#   - the pi extra's simplejpeg loading under the venv's numpy;
#   - `pytest tests/engine tests/firmware_bridge`.
# Each step's time is printed. It needs root, debootstrap and qemu-user-static (installed from
# Debian's archive when missing) and this checkout's .venv (`make test` makes it) to compare with.
# Where qemu's binfmt handler cannot be registered (no privilege, as in most containers) it says
# why and exits 0 with "skipped".
#
# Usage: hardware/deploy/check-arm64.sh
#   ARM64_ROOT=DIR  build the root in DIR and keep it; a root already built there is reused
#                   (default: a temporary folder, removed at the end)
set -euo pipefail

SRC="$(cd "$(dirname "$0")/../.." && pwd)"
SUITE=bookworm
VENV=/opt/tablesight/venv
HOST_TS="${TABLESIGHT:-$SRC/.venv/bin/tablesight}"
BINFMT=/proc/sys/fs/binfmt_misc
STARTED=$SECONDS

say() { printf 'check-arm64: %s\n' "$*"; }
skip() { say "skipped: $*"; exit 0; }
fail() { say "FAILED: $*" >&2; exit 1; }
# timed NAME COMMAND...: run a step and say how long it took.
timed() {
    local name=$1 start=$SECONDS
    shift
    "$@"
    say "$name: $((SECONDS - start)) s"
}
# The last lines of a log, indented, for a failure's message.
tail_of() { printf '\n'; tail -n "${2:-15}" "$1" | sed 's/^/    /'; }

# --- can this machine run arm64 programs? ------------------------------------------------------

[ "$(id -u)" -eq 0 ] || skip "it needs root (debootstrap, chroot and qemu's binfmt handler)"
[ -x "$HOST_TS" ] || fail "no tablesight at $HOST_TS to compare with: run \`make test\` first"
HOST_PY="$(dirname "$HOST_TS")/python"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/tablesight-arm64.XXXXXX")"
LOG="$WORK/logs"
mkdir -p "$LOG"
ROOT="${ARM64_ROOT:-$WORK/root}"
SERVER=""

cleanup() {
    if [ -n "$SERVER" ] && kill -0 "$SERVER" 2>/dev/null; then
        kill -KILL "$SERVER" 2>/dev/null || true
        wait "$SERVER" 2>/dev/null || true
    fi
    local mounted=no point
    for point in "$ROOT/dev/pts" "$ROOT/proc"; do
        if mountpoint -q "$point" 2>/dev/null; then
            umount "$point" 2>/dev/null || umount -l "$point" 2>/dev/null || mounted=yes
        fi
    done
    if [ "$mounted" = yes ]; then
        say "left $WORK in place: $ROOT still has a mount"
    else
        rm -rf --one-file-system "$WORK"
    fi
}
trap cleanup EXIT

apt_install() {
    say "installing $* from Debian's archive"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get update -qq && apt-get install -y -qq "$@"; } >"$LOG/apt.log" 2>&1 ||
        fail "could not install $* from Debian's archive (is it reachable?):$(tail_of "$LOG/apt.log" 5)"
}

missing=()
command -v debootstrap >/dev/null || missing+=(debootstrap)
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

# --- the arm64 root and tablesight in it ------------------------------------------------------

# in_root COMMAND...: run in the root with a clean environment (none of this machine's pip
# settings), niced: the machine is shared. pip there trusts the certificates this machine
# trusts (a proxy's), and goes through its proxy if it has one.
ROOT_ENV=(HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 PIP_PROGRESS_BAR=off
    PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_CERT=/etc/ssl/host-ca.crt)
for name in http_proxy https_proxy no_proxy; do
    [ -z "${!name:-}" ] || ROOT_ENV+=("$name=${!name}")
done
in_root() { env -i "${ROOT_ENV[@]}" nice -n 10 chroot "$ROOT" "$@"; }

build_root() {
    if [ -x "$ROOT/usr/bin/python3" ] && [ -e "$ROOT/.tablesight-arm64" ]; then
        say "reusing the root in $ROOT"
        return
    fi
    mkdir -p "$ROOT"
    nice -n 10 debootstrap --arch=arm64 --variant=minbase --include=python3-venv,ca-certificates \
        "$SUITE" "$ROOT" >"$LOG/debootstrap.log" 2>&1 ||
        fail "debootstrap could not build the arm64 root (is Debian's archive reachable?):$(
            tail_of "$LOG/debootstrap.log" 5)"
    touch "$ROOT/.tablesight-arm64"
}

prepare_root() {
    in_root /bin/true || fail "the arm64 root does not run under qemu here"
    cp -L /etc/resolv.conf "$ROOT/etc/resolv.conf" 2>/dev/null || true
    cp -L "${PIP_CERT:-${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}}" \
        "$ROOT/etc/ssl/host-ca.crt" 2>/dev/null || cp "$ROOT/etc/ssl/certs/ca-certificates.crt" \
        "$ROOT/etc/ssl/host-ca.crt"
    mountpoint -q "$ROOT/proc" || mount -t proc proc "$ROOT/proc"
    # The LED controller's emulator talks over a pseudo-terminal.
    mountpoint -q "$ROOT/dev/pts" || mount --bind /dev/pts "$ROOT/dev/pts"
    rm -rf "$ROOT/src" "$ROOT/check" "$ROOT$VENV"
    mkdir -p "$ROOT/src" "$ROOT/check/out" "$WORK/host"
    tar -C "$SRC" --exclude=./.venv --exclude=./.git --exclude=./out --exclude=__pycache__ \
        --exclude=.pytest_cache --exclude=.mypy_cache --exclude=.ruff_cache --exclude=.hypothesis \
        -cf - . | tar -xf - -C "$ROOT/src"
}

install_tablesight() {
    in_root python3 -m venv "$VENV"
    in_root "$VENV/bin/pip" wheel --quiet --no-deps --wheel-dir /check/wheels /src \
        >"$LOG/pip.log" 2>&1 ||
        fail "pip could not build tablesight's wheel (is PyPI reachable?):$(tail_of "$LOG/pip.log" 5)"
    local wheel
    wheel="$(cd "$ROOT" && echo check/wheels/tablesight-*.whl)"
    # The test runner of the smoke set, and the pi extra's simplejpeg (the others of that extra
    # come from Raspberry Pi OS). --only-binary: a dependency without an aarch64 wheel fails here.
    in_root "$VENV/bin/pip" install --quiet --only-binary=:all: "/$wheel" pytest pytest-timeout \
        hypothesis simplejpeg >"$LOG/pip.log" 2>&1 ||
        fail "pip could not install tablesight from wheels (PyPI unreachable, or a dependency" \
            "without an aarch64 wheel):$(tail_of "$LOG/pip.log" 8)"
}

# --- the smoke set ------------------------------------------------------------------------------

TS=("$VENV/bin/tablesight" --data-dir /check/data --lang en)
# This machine's tablesight on the very source copied into the root (the checkout may change
# while the check runs), with a clean environment.
host_ts() {
    env -i HOME="$WORK" PATH=/usr/bin:/bin LANG=C.UTF-8 PYTHONPATH="$ROOT/src" "$HOST_PY" \
        -m kiosk.cli "$@"
}

check_help() {
    in_root "${TS[@]}" --help >"$LOG/help.log" 2>&1 ||
        fail "tablesight --help failed on arm64:$(tail_of "$LOG/help.log")"
}

check_replays() {
    local file name game host arm
    for file in "$ROOT"/src/docs/examples/*.jsonl; do
        name="$(basename "$file" .jsonl)"
        game="${name%%-*}"
        host=0 arm=0
        host_ts --data-dir "$WORK/data" --lang en replay "$game" "$file" --json \
            >"$WORK/host/$name.out" 2>&1 || host=$?
        in_root "${TS[@]}" replay "$game" "/src/docs/examples/$name.jsonl" --json \
            >"$ROOT/check/out/$name.out" 2>&1 || arm=$?
        [ "$host" = "$arm" ] || fail "replay of $name.jsonl: exit status $arm on arm64, $host here"
        cmp -s "$WORK/host/$name.out" "$ROOT/check/out/$name.out" ||
            fail "replay of $name.jsonl differs on arm64:$(diff "$WORK/host/$name.out" \
                "$ROOT/check/out/$name.out" | head -n 10 | sed 's/^/    /')"
    done
}

check_stickers() {
    in_root "${TS[@]}" tags greenwood --out /check/sheet.png >"$LOG/tags.log" 2>&1 ||
        fail "tablesight tags failed on arm64:$(tail_of "$LOG/tags.log")"
    in_root sh -c "${TS[*]} detect /check/sheet*.png --json >/check/arm.jsonl" \
        2>"$LOG/detect.log" || fail "tablesight detect failed on arm64:$(tail_of "$LOG/detect.log")"
    host_ts detect "$ROOT"/check/sheet*.png --json >"$WORK/host/detect.jsonl"
    "$HOST_PY" - "$LOG/tags.log" "$ROOT/check/arm.jsonl" "$WORK/host/detect.jsonl" <<'EOF' ||
import json, re, sys
printed, arm, host = (open(p, encoding="utf-8").read() for p in sys.argv[1:])
want = int(re.search(r"greenwood: (\d+) tags", printed)[1])
def ids(lines): return sorted(d["id"] for line in lines.splitlines() for d in json.loads(line)["detections"])
found, here = ids(arm), ids(host)
print(f"check-arm64: {len(set(found))} of the {want} stickers found on arm64")
sys.exit(0 if len(set(found)) == want == len(found) and found == here else 1)
EOF
        fail "detect on arm64 did not find every sticker of the sheets, or found others than here"
}

check_run() {
    local port answered=no code=0
    port="$("$HOST_PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
    # Not through in_root: $! is then tablesight itself (env, nice and chroot exec it).
    env -i "${ROOT_ENV[@]}" nice -n 10 chroot "$ROOT" "${TS[@]}" run --no-simulation \
        --port "$port" >"$LOG/run.log" 2>&1 &
    SERVER=$!
    # Start-up under emulation takes a while: wait up to 5 minutes for the first answer.
    for _ in $(seq 600); do
        kill -0 "$SERVER" 2>/dev/null || break
        if "$HOST_PY" - "$port" <<'EOF' 2>/dev/null; then
import json, sys, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}"
urllib.request.urlopen(f"{url}/healthz", timeout=5).close()
with urllib.request.urlopen(f"{url}/api/status", timeout=30) as answer:
    assert json.load(answer)["game"]
EOF
            answered=yes
            break
        fi
        sleep 0.5
    done
    [ "$answered" = yes ] || fail "tablesight run did not answer /healthz on arm64:$(tail_of "$LOG/run.log")"
    kill -INT "$SERVER"
    wait "$SERVER" || code=$?
    SERVER=""
    { [ "$code" -eq 0 ] && grep -q "stopped; the game is saved" "$LOG/run.log"; } ||
        fail "tablesight run did not stop cleanly on Ctrl-C (status $code):$(tail_of "$LOG/run.log")"
}

check_simplejpeg() {
    in_root "$VENV/bin/python" -c 'import numpy, simplejpeg
image = numpy.zeros((32, 32, 3), numpy.uint8)
assert simplejpeg.decode_jpeg(simplejpeg.encode_jpeg(image)).shape == image.shape' \
        >"$LOG/simplejpeg.log" 2>&1 ||
        fail "simplejpeg does not load under the venv's numpy:$(tail_of "$LOG/simplejpeg.log")"
}

check_tests() {
    in_root sh -c "cd /src && $VENV/bin/python -m pytest tests/engine tests/firmware_bridge -q \
        -p no:cacheprovider" >"$LOG/pytest.log" 2>&1 ||
        fail "pytest tests/engine tests/firmware_bridge failed on arm64:$(tail_of "$LOG/pytest.log" 30)"
    say "pytest: $(tail -n 1 "$LOG/pytest.log" | tr -d '=')"
}

timed "debootstrap of a $SUITE arm64 root" build_root
timed "the root made ready" prepare_root
timed "tablesight installed with pip" install_tablesight
timed "tablesight --help" check_help
timed "replay of the example files, byte for byte as here" check_replays
timed "tags and detect" check_stickers
timed "run --no-simulation" check_run
timed "simplejpeg under numpy $(in_root "$VENV/bin/python" -c 'import numpy; print(numpy.__version__)')" \
    check_simplejpeg
timed "pytest" check_tests
say "passed on arm64 in $((SECONDS - STARTED)) s"
