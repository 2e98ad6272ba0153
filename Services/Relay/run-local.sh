#!/usr/bin/env bash
# `make run`: the chat in line mode on its embedded default — a local relay on loopback, used
# when the user has configured no relays of their own. The relay keeps its identity and queues in
# $XDG_DATA_HOME/simplex-relay (so links made with it keep working) and stops with the client.
set -euo pipefail
bin="$1"; shift
data="${XDG_DATA_HOME:-$HOME/.local/share}"
relay="$data/simplex-relay"
if [ ! -f "$relay/smp-server.ini" ]; then
  mkdir -p -m 0700 "$relay"
  "$bin/smp-server" init --config "$relay" --host 127.0.0.1 --port "${SIMPLEX_LOCAL_RELAY_PORT:-5223}" > /dev/null
fi
"$bin/smp-server" start --config "$relay" 2>> "$relay/relay.log" > /dev/null &
server=$!
trap 'kill -INT $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
address="$("$bin/smp-server" address --config "$relay")"
address="${address#address: }"
port="${address##*:}"
# Wait (up to 5 s) until the relay listens, so the client's first command finds it.
for _ in $(seq 50); do
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
  kill -0 $server 2>/dev/null || { echo "make run: the local relay did not start; see $relay/relay.log" >&2; exit 1; }
  sleep 0.1
done
SIMPLEX_DEFAULT_SERVER="$address" "$bin/simplex-chat" --cli "$@"
