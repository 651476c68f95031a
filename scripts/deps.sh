#!/usr/bin/env bash
# deps.sh: install the Debian packages pbem needs, only those missing.
set -euo pipefail
packages=(build-essential pkg-config libmicrohttpd-dev libpq-dev libsodium-dev
          libjansson-dev libcriterion-dev libcurl4-openssl-dev postgresql
          postgresql-contrib nodejs npm libgmime-3.0-dev dovecot-imapd)
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
[ ${#missing[@]} -eq 0 ] && exit 0
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
