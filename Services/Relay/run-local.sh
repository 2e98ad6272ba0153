#!/usr/bin/env bash
# `make run`: the chat on its embedded default — a local relay on loopback, used when the user has
# configured no relays of their own, and the notification service, which receives while the client
# is closed. The relay keeps its identity and queues in $XDG_DATA_HOME/simplex-relay (so links made
# with it keep working).
#
# With a session bus, the relay and the service keep running after the client quits (that is what
# they are for: messages arrive and are notified while it is closed); `make stop`
# (`run-local.sh <bin> --stop`) ends them. Without a session bus (ssh) no service can run, and the
# relay stops with the client.
set -euo pipefail
umask 077
bin="$1"; shift
data="${XDG_DATA_HOME:-$HOME/.local/share}"
relay="$data/simplex-relay"
relay_pid="$relay/smp-server.pid"
nse_pid="$relay/simplex-nse.pid"
nse_log="$relay/simplex-nse.log"

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

if [ "${1:-}" = "--stop" ]; then
  for file in "$nse_pid" "$relay_pid"; do
    if alive "$file"; then kill -INT "$(cat "$file")"; echo "stopped pid $(cat "$file")"; fi
    rm -f "$file"
  done
  exit 0
fi

session_bus=no
if [ -n "${DBUS_SESSION_BUS_ADDRESS:-}" ] || [ -S "${XDG_RUNTIME_DIR:-/nonexistent}/bus" ]; then session_bus=yes; fi

if [ ! -f "$relay/smp-server.ini" ]; then
  mkdir -p -m 0700 "$relay"
  "$bin/smp-server" init --config "$relay" --host 127.0.0.1 --port "${SIMPLEX_LOCAL_RELAY_PORT:-5223}" > /dev/null
fi
if ! alive "$relay_pid"; then
  # A session of its own, so it outlives this script when the service needs it.
  setsid "$bin/smp-server" start --config "$relay" 2>> "$relay/relay.log" > /dev/null < /dev/null &
  echo $! > "$relay_pid"
fi
server="$(cat "$relay_pid")"
if [ "$session_bus" = no ]; then
  trap 'kill -INT $server 2>/dev/null; rm -f "$relay_pid"' EXIT
fi
address="$("$bin/smp-server" address --config "$relay")"
address="${address#address: }"
# The address leaves out the default port 5223.
hostport="${address##*@}"
case "$hostport" in
  *:*) port="${hostport##*:}" ;;
  *) port=5223 ;;
esac
# Wait (up to 5 s) until the relay listens, so the client's first command finds it.
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || { echo "make run: the local relay did not start; see $relay/relay.log" >&2; exit 1; }
  sleep 0.1
done

if [ "$session_bus" = yes ] && ! alive "$nse_pid"; then
  # In instant mode it waits while the client runs the chat and takes over when it quits; a
  # service already running (systemd, D-Bus activation) makes this one say so and exit.
  setsid "$bin/simplex-nse" 2>> "$nse_log" > /dev/null < /dev/null &
  echo $! > "$nse_pid"
fi

status=0
# The full-screen client on a terminal; the line mode when make run is not on one (a script).
mode=()
[ -t 0 ] && [ -t 1 ] || mode=(--cli)
SIMPLEX_DEFAULT_SERVER="$address" "$bin/simplex-chat" "${mode[@]}" "$@" || status=$?
if [ "$session_bus" = yes ]; then
  if alive "$nse_pid"; then
    echo "make run: the notification service (pid $(cat "$nse_pid")) and the local relay (pid $server) keep" \
      "receiving while the client is closed; make stop ends them (log: $nse_log)"
  else
    rm -f "$nse_pid"
    echo "make run: the local relay (pid $server) keeps running; the notification service is not running" \
      "(simplex-nse status, $nse_log); make stop ends the relay"
  fi
fi
exit $status
