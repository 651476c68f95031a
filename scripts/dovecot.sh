#!/usr/bin/env bash
# dovecot.sh: a private Dovecot (plain IMAP on loopback) for `make bench`,
# the same set-up as the tests' (tests/support/dovecot.c) in shell.
#   dovecot.sh start DIR PORT USER PASSWORD   runs it in the background
#   dovecot.sh stop DIR                        stops it and its children
# As root every Dovecot process runs as the unprivileged 'dovecot' user
# (Dovecot never lets root read mail), which then owns DIR.
set -euo pipefail
cmd=$1 dir=$2
case $cmd in
start)
    port=$3 user=$4 password=$5
    mkdir -p "$dir"/state "$dir"/mail
    dir=$(cd "$dir" && pwd)
    # Dovecot's unix sockets live in base_dir and a socket's path holds
    # about 107 bytes: a deep checkout's would not fit, so base_dir is a
    # short folder in /tmp (named in DIR/run_dir for stop).
    run=$(mktemp -d /tmp/pbem-dovecot-XXXXXX)
    echo "$run" > "$dir/run_dir"
    if [ "$(id -u)" -eq 0 ]; then run_user=dovecot; else run_user=$(id -un); fi
    run_group=$(id -gn "$run_user")
    uid=$(id -u "$run_user") gid=$(id -g "$run_user")
    b64=$(printf %s "$password" | base64 -w0)
    printf '%s:{PLAIN.b64}%s::::::\n' "$user" "$b64" > "$dir/passwd"
    cat > "$dir/dovecot.conf" <<CONF
base_dir = $run
state_dir = $dir/state
log_path = $dir/dovecot.log
protocols = imap
listen = 127.0.0.1
disable_plaintext_auth = no
auth_mechanisms = plain login
default_internal_user = $run_user
default_internal_group = $run_group
default_login_user = $run_user
first_valid_uid = $uid
last_valid_uid = $uid
first_valid_gid = $gid
mail_location = maildir:$dir/mail/%u
passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u $dir/passwd
}
userdb {
  driver = static
  args = uid=$uid gid=$gid home=$dir/mail/%u
}
namespace inbox {
  inbox = yes
  separator = /
}
service imap-login {
  chroot =
  inet_listener imap {
    address = 127.0.0.1
    port = $port
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {
  chroot =
}
ssl = no
CONF
    [ "$(id -u)" -eq 0 ] && chown -R "$run_user:$run_group" "$dir" "$run"
    chmod 755 "$dir" "$run"
    setsid /usr/sbin/dovecot -F -c "$dir/dovecot.conf" >"$dir/stderr.log" 2>&1 &
    echo $! > "$dir/pid"
    for _ in $(seq 100); do
        (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && exit 0
        sleep 0.1
    done
    echo "dovecot did not start; see $dir/stderr.log and $dir/dovecot.log" >&2
    exit 1
    ;;
stop)
    [ -f "$dir/pid" ] || exit 0
    pid=$(cat "$dir/pid")
    kill -- -"$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true
    rm -f "$dir/pid"
    if [ -f "$dir/run_dir" ]; then
        rm -rf "$(cat "$dir/run_dir")"
        rm -f "$dir/run_dir"
    fi
    ;;
*)
    echo "usage: dovecot.sh start DIR PORT USER PASSWORD | stop DIR" >&2
    exit 2
    ;;
esac
