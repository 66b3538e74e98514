#!/usr/bin/env bash
# Install the browser the admin-page test drives: Debian's Chromium at /usr/bin/chromium, and a font with Hangul
# so that Korean text renders (in the page and in screenshots) instead of empty boxes.
# Playwright (test extra) only talks to this browser; it never downloads one of its own.
# Idempotent: installs only what is missing. Run as root on Debian. Takes about 16 s on a fresh machine.
set -euo pipefail

need=()
[ -x /usr/bin/chromium ] || need+=(chromium)
if ! { command -v fc-list >/dev/null 2>&1 && fc-list :lang=ko 2>/dev/null | grep -q .; }; then
    need+=(fonts-nanum)
fi

if [ ${#need[@]} -eq 0 ]; then
    echo "chromium already installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install-browser.sh must run as root (it uses apt-get to install: ${need[*]})" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${need[@]}"

test -x /usr/bin/chromium
echo "chromium installed: $(/usr/bin/chromium --version 2>/dev/null || echo /usr/bin/chromium)"
