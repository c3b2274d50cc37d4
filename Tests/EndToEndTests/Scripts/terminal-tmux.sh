#!/usr/bin/env bash
# Drives the interactive `parlor` view in tmux against a real server: two terminals in one room each
# see the other's ready toggles live, the view follows a resize, and the terminal is restored on quit
# and on Ctrl-C; and the dot beside each name follows who is connected.
#
#   terminal-tmux.sh BIN_DIR     (BIN_DIR holds parlor and parlor-server, e.g. .build/debug)
#
# A third player, the moderator, is a scripted `parlor create` in the background (the moderator is
# always ready, so the two interactive players are ordinary seats that can toggle).
set -euo pipefail

BIN=${1:?usage: terminal-tmux.sh BIN_DIR}
command -v tmux >/dev/null || { echo "terminal-tmux.sh: tmux is missing (./scripts/setup.sh --test installs it)" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/parlor-tmux.XXXXXX")
SOCKET="parlor-tmux-$$"
SERVER_PID=""
MODERATOR_PID=""

cleanup() {
  tmux -L "$SOCKET" kill-server 2>/dev/null || true
  for pid in "$MODERATOR_PID" "$SERVER_PID"; do
    if [ -n "$pid" ]; then
      kill "$pid" 2>/dev/null || true
      wait "$pid" 2>/dev/null || true
    fi
  done
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

fail() {
  echo "terminal-tmux.sh: FAIL: $*" >&2
  for pane in ann bo; do
    if tmux -L "$SOCKET" has-session -t "$pane" 2>/dev/null; then
      echo "----- $pane -----" >&2
      tmux -L "$SOCKET" capture-pane -p -t "$pane" >&2 || true
    fi
  done
  echo "----- server stderr -----" >&2
  cat "$WORK/server.err" >&2 || true
  exit 1
}

screen_of() { tmux -L "$SOCKET" capture-pane -p -t "$1"; }

# wait_for PANE REGEX [SECONDS]: until the pane shows a line matching REGEX.
wait_for() {
  local pane=$1 pattern=$2 seconds=${3:-15}
  local deadline=$((SECONDS + seconds))
  until screen_of "$pane" | grep -Eq -- "$pattern"; do
    [ "$SECONDS" -lt "$deadline" ] || fail "$pane never showed /$pattern/"
    sleep 0.1
  done
}

type_line() { tmux -L "$SOCKET" send-keys -t "$1" -l "$2"; tmux -L "$SOCKET" send-keys -t "$1" Enter; }
press() { tmux -L "$SOCKET" send-keys -t "$1" "$2"; }

# The server, on a free port.
"$BIN/parlor-server" --port 0 --no-persist --log-level warning >"$WORK/server.out" 2>"$WORK/server.err" &
SERVER_PID=$!
for _ in $(seq 1 600); do
  grep -q '^listening on ' "$WORK/server.out" 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || fail "parlor-server exited before listening"
  sleep 0.1
done
PORT=$(sed -n 's/^listening on .*:\([0-9][0-9]*\)$/\1/p' "$WORK/server.out")
[ -n "$PORT" ] || fail "parlor-server did not say where it listens"
SERVER="ws://127.0.0.1:$PORT"

# The moderator: scripted, stdin at EOF (it keeps watching until stopped).
mkdir -p "$WORK/mo"
XDG_CONFIG_HOME="$WORK/mo" "$BIN/parlor" create --limit 201 --value 25 --players 4 --name Mo --server "$SERVER" \
  </dev/null >"$WORK/mo.out" 2>"$WORK/mo.err" &
MODERATOR_PID=$!
for _ in $(seq 1 300); do
  grep -q '"event":"seat"' "$WORK/mo.out" 2>/dev/null && break
  sleep 0.1
done
CODE=$(sed -n 's/.*"code":"\([A-Z0-9]\{6\}\)".*"event":"seat".*/\1/p' "$WORK/mo.out" | head -n 1)
[ -n "$CODE" ] || fail "the moderator's parlor create printed no room code: $(cat "$WORK/mo.out" "$WORK/mo.err")"

# Two terminals, each a shell with its own identity.
for name in ann bo; do
  mkdir -p "$WORK/$name"
  tmux -L "$SOCKET" -f /dev/null new-session -d -s "$name" -x 100 -y 34 \
    "env -i PATH=/usr/bin:/bin HOME=$WORK/$name TERM=xterm-256color XDG_CONFIG_HOME=$WORK/$name PS1='$name\$ ' bash --norc --noprofile"
done
wait_for ann '^ann\$'
wait_for bo '^bo\$'
type_line ann "$BIN/parlor join $CODE --name Ann --server $SERVER"
type_line bo "$BIN/parlor join $(echo "$CODE" | tr 'A-Z' 'a-z') --name Bo --server $SERVER"

# Both show the room: the code in block letters and as text, the players with their marks, the keys.
for pane in ann bo; do
  wait_for "$pane" "Room $CODE · to 201 points · 25¢ a point · 3 of 4 seats"
  wait_for "$pane" '█'
  wait_for "$pane" '★ Mo +✓ ready'
  wait_for "$pane" '\[r\] ready  \[l\] leave  \[\?\] help  \[q\] quit'
  wait_for "$pane" '● connected · v3'
done
wait_for ann 'Ann \(you\) +· not ready'
wait_for ann '  Bo +· not ready'
# Everyone is connected: a dot beside each name.
wait_for ann '● ★ Mo +✓ ready'
wait_for ann '●   Bo +· not ready'

# Bo toggles ready: Ann's screen follows, live.
press bo r
wait_for ann '  Bo +✓ ready'
wait_for ann 'Waiting to start: 2 of 3 ready'
wait_for bo '\[r\] not ready'
# Ann toggles: Bo's screen follows.
press ann r
wait_for bo '  Ann +✓ ready'
wait_for bo 'Waiting to start: 3 of 3 ready'
# And back.
press bo r
wait_for ann '  Bo +· not ready'
press ann r
wait_for bo '  Ann +· not ready'
wait_for bo '● connected · v7'

# A resize redraws at the new size: too narrow for block letters, the summary abbreviated to fit.
tmux -L "$SOCKET" resize-window -t ann -x 38 -y 20
wait_for ann "^  $CODE · to 201 · 25¢/pt · 3/4 seats$"
screen_of ann | grep -q '█' && fail "block letters drawn in a 38-column terminal"
tmux -L "$SOCKET" resize-window -t ann -x 100 -y 34
wait_for ann '█'

# q quits and gives the terminal back: no alternate screen, echo and line editing work again.
press ann q
wait_for ann '^ann\$ ?$'
[ "$(tmux -L "$SOCKET" display -p -t ann '#{alternate_on}')" = 0 ] || fail "ann's terminal is still on the alternate screen"
type_line ann 'echo restored-$((20 + 22))'
wait_for ann '^restored-42$'
# Ann's terminal is gone: Bo sees her away once the server's grace (5 s) is over.
wait_for bo '○   Ann +· not ready' 15

# Ctrl-C does the same.
type_line ann "$BIN/parlor watch $CODE --server $SERVER"
wait_for ann '  Bo +· not ready'
# Watching as herself, Ann is connected again: Bo sees her back.
wait_for bo '●   Ann +· not ready' 10
press ann C-c
wait_for ann '^ann\$ ?$'
[ "$(tmux -L "$SOCKET" display -p -t ann '#{alternate_on}')" = 0 ] || fail "Ctrl-C left ann's terminal on the alternate screen"
type_line ann 'echo after-ctrl-c-$((6 * 7))'
wait_for ann '^after-ctrl-c-42$'

# Bo leaves (l, then y): the moderator's scripted stream sees the seat go.
press bo l
wait_for bo "Leave room $CODE\\? Press y to leave"
press bo y
wait_for bo "^You left room $CODE\\.$"
for _ in $(seq 1 100); do
  tail -n 1 "$WORK/mo.out" | grep -q '"name":"Bo"' || break
  sleep 0.1
done
tail -n 1 "$WORK/mo.out" | grep -q '"name":"Bo"' && fail "the moderator still sees Bo after he left"

echo "terminal-tmux.sh: ok (room $CODE)"
