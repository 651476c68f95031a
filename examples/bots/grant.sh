#!/usr/bin/env bash
# grant.sh URL BOT_PUBLIC_KEY [NAME]: the player whose pbem key is in
# $XDG_CONFIG_HOME/pbem (else ~/.config/pbem) grants a bot's key the right
# to view and move in all their matches for a day: POST
# /v1/players/me/delegates, signed by the player's own key with
# tests/node/sign-request.mjs (npm ci in tests/node first). Prints the grant.
set -euo pipefail
[ $# -ge 2 ] || { echo "usage: grant.sh URL BOT_PUBLIC_KEY [NAME]" >&2; exit 2; }
url=${1%/} public_key=$2 name=${3:-Random bot}
here=$(dirname "$0")
dir=${XDG_CONFIG_HOME:-$HOME/.config}/pbem
seed=$(base64 -d "$dir/key" | xxd -p -c 64)
keyid=$(jq -r .key_id "$dir/player.json")
expires=$(date -u -d '+1 day' +%Y-%m-%dT%H:%M:%SZ)
body=$(jq -cn --arg k "$public_key" --arg n "$name" --arg e "$expires" \
    '{public_key: $k, name: $n, scope: ["view", "move"], matches: "all", expires: $e}')
signed=$(jq -cn --arg s "$seed" --arg k "$keyid" --arg u "$url/v1/players/me/delegates" \
    --arg b "$body" '{seed_hex: $s, keyid: $k, method: "POST", url: $u, body: $b}' |
    node "$here/../../tests/node/sign-request.mjs")
header() { jq -r --arg h "$1" '.headers[$h]' <<<"$signed"; }
curl -sS -X POST "$url/v1/players/me/delegates" -H 'content-type: application/json' \
    -H "content-digest: $(header content-digest)" \
    -H "signature-input: $(header signature-input)" \
    -H "signature: $(header signature)" --data-binary "$body"
echo
