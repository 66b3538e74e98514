#!/usr/bin/env bash
# Install the SPARQL servers the remote-store tests start on loopback.
#   * Oxigraph: the `oxigraph` binary comes from the `oxigraph` PyPI package (test extra), nothing to do here.
#   * Virtuoso Open Source 7 from Debian: `virtuoso-t` and `isql-vt`.
# Idempotent: does nothing when both binaries are already on PATH. Run as root on Debian.
set -euo pipefail

if command -v virtuoso-t >/dev/null 2>&1 && command -v isql-vt >/dev/null 2>&1; then
    echo "virtuoso already installed: $(command -v virtuoso-t)"
    exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
    echo "install-servers.sh must run as root (it uses apt-get)" >&2
    exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# The package asks for a dba password while it is configured. Answer it beforehand (empty: keep the default)
# so nothing waits for a terminal. The tests never use the packaged database or service: they start their own
# server, bound to 127.0.0.1, in a temporary folder.
if command -v debconf-set-selections >/dev/null 2>&1; then
    debconf-set-selections <<'SEL'
virtuoso-opensource-7 virtuoso-opensource-7/dba-password password
virtuoso-opensource-7 virtuoso-opensource-7/dba-password-again password
SEL
fi

apt-get update -q
apt-get install -y -q --no-install-recommends virtuoso-opensource

# The packaged service is not needed; keep it from holding ports 1111/8890 where an init system started it.
if command -v service >/dev/null 2>&1; then
    service virtuoso-opensource-7 stop >/dev/null 2>&1 || true
fi

command -v virtuoso-t >/dev/null && command -v isql-vt >/dev/null
echo "virtuoso installed: $(command -v virtuoso-t)"
