#!/usr/bin/env bash
# deps.sh: install the Debian packages pbem needs, only those missing, and
# the npm packages the browser page loads (web/package.json).
set -euo pipefail
cd "$(dirname "$0")/.."
packages=(build-essential pkg-config libmicrohttpd-dev libpq-dev libsodium-dev libjemalloc-dev
          libjansson-dev libcriterion-dev libcurl4-openssl-dev libssl-dev postgresql
          postgresql-contrib nodejs npm libgmime-3.0-dev libicu-dev dovecot-imapd
          chromium nginx postgresql-15-auto-failover pg-auto-failover-cli)
missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
        || missing+=("$p")
done
# nodejs/npm may come from outside Debian (nvm, a tarball): a working node
# and npm on PATH are as good as the packages.
if command -v node >/dev/null && command -v npm >/dev/null; then
    missing=("${missing[@]/nodejs}"); missing=("${missing[@]/npm}")
fi
read -r -a missing <<< "${missing[*]}"
install_missing() {
    echo "pbem: installing missing packages: ${missing[*]}"
    if [ "$(id -u)" -ne 0 ]; then
        if command -v sudo >/dev/null; then SUDO=sudo; else
            echo "pbem: these Debian packages are missing and I am not root: ${missing[*]}." >&2
            echo "pbem: install them (apt-get install ${missing[*]}) and run make again." >&2
            exit 1
        fi
    else SUDO=; fi
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 || {
        $SUDO apt-get update -q >/dev/null
        $SUDO apt-get install -y -q "${missing[@]}"
    }
}
[ ${#missing[@]} -eq 0 ] || install_missing

# The page's packages, served by pbemd under /vendor/ (never copied into
# the repository): installed again whenever the lock file changes.
if [ -f web/package-lock.json ] &&
   { [ ! -d web/node_modules ] || [ web/package-lock.json -nt web/node_modules ]; }; then
    (cd web && npm ci --no-audit --no-fund --loglevel=error) || {
        echo "pbem: npm ci in web/ failed (is the npm registry reachable?)" >&2; exit 1; }
fi
