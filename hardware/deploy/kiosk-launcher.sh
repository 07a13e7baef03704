#!/bin/bash
# Open the table page full screen in Chromium and keep it open: wait for the service, stop the
# screen from blanking, relaunch Chromium whenever it exits or crashes.
# Usage: kiosk-launcher.sh [URL]   (default http://127.0.0.1:8000/)
set -u

URL="${1:-${TABLESIGHT_URL:-http://127.0.0.1:8000/}}"
HEALTH="${URL%/}/healthz"
PROFILE="${XDG_RUNTIME_DIR:-/tmp}/tablesight-chromium"
RELAUNCH_S="${TABLESIGHT_RELAUNCH_S:-2}"
WAIT_S="${TABLESIGHT_WAIT_S:-120}"
CHROMIUM="$(command -v chromium || command -v chromium-browser)" || {
    echo "kiosk-launcher: chromium is not installed (sudo apt install chromium)" >&2
    exit 1
}

no_blanking() {
    # X11 sessions
    if [ -n "${DISPLAY:-}" ] && command -v xset >/dev/null; then
        xset s off -dpms s noblank 2>/dev/null || true
    fi
    # Wayland sessions (Raspberry Pi OS Bookworm): blanking is off when raspi-config says so;
    # install.sh runs `raspi-config nonint do_blanking 1`. Nothing to do per launch.
}

wait_for_service() {
    for _ in $(seq 1 "$WAIT_S"); do
        if curl -fsS -o /dev/null --max-time 2 "$HEALTH"; then
            return 0
        fi
        sleep 1
    done
    echo "kiosk-launcher: $HEALTH does not answer; opening the page anyway" >&2
}

no_blanking
wait_for_service
while true; do
    # A crash leaves "exited uncleanly" in the profile: clear it so no bubble covers the page.
    if [ -f "$PROFILE/Default/Preferences" ]; then
        sed -i 's/"exited_cleanly":false/"exited_cleanly":true/; s/"exit_type":"Crashed"/"exit_type":"Normal"/' \
            "$PROFILE/Default/Preferences"
    fi
    "$CHROMIUM" \
        --kiosk "$URL" \
        --user-data-dir="$PROFILE" \
        --noerrdialogs \
        --disable-infobars \
        --disable-session-crashed-bubble \
        --disable-features=Translate,TranslateUI \
        --no-first-run \
        --check-for-update-interval=31536000 \
        --password-store=basic \
        --overscroll-history-navigation=0 \
        --disable-pinch \
        --autoplay-policy=no-user-gesture-required
    echo "kiosk-launcher: chromium exited ($?); relaunching in $RELAUNCH_S s" >&2
    sleep "$RELAUNCH_S"
done
