#!/usr/bin/env bash
# Desktop smoke test: the production binary in a real window under Xvfb.
# It waits for the frontend's Ready() call (a round trip through a real Wails
# binding, logged as "frontend ready"), not for a fixed time, then saves a
# screenshot to artifacts/desktop/. Usage: scripts/desktop-smoke.sh BIN
set -euo pipefail
bin=$(realpath "${1:?usage: desktop-smoke.sh BIN}")
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/artifacts/desktop"
work=$(mktemp -d)
mkdir -p "$out"
cleanup() {
  [ -n "${fake_pid:-}" ] && kill "$fake_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

go build -o "$work/fake-ollama" "$root/backend/llm/ollamatest/cmd/fake-ollama"
"$work/fake-ollama" --addr 127.0.0.1:0 >"$work/fake.out" 2>&1 &
fake_pid=$!
for _ in $(seq 100); do grep -q FAKE_OLLAMA_URL "$work/fake.out" && break; sleep 0.1; done
fake_url=$(sed -n 's/^FAKE_OLLAMA_URL=//p' "$work/fake.out")
[ -n "$fake_url" ] || { echo "desktop smoke: the fake Ollama did not start"; cat "$work/fake.out"; exit 1; }
# A second chat model with tools, for the model picker.
curl -sf -X POST "$fake_url/__fake/models" -d '{"name":"qwen3:4b","capabilities":["completion","tools","thinking"]}' >/dev/null

cat >"$work/session.sh" <<INNER
set -euo pipefail
"$bin" --data-dir "$work/data" --ollama-host "$fake_url" --model llama3.2:3b --embed-model bge-m3 >"$work/app.log" 2>&1 &
app=\$!
ready=""
for _ in \$(seq 600); do
  if grep -q "frontend ready" "$work/app.log"; then ready=1; break; fi
  kill -0 \$app 2>/dev/null || break
  sleep 0.1
done
if [ -z "\$ready" ]; then
  echo "desktop smoke: the window never reported ready"; cat "$work/app.log"
  kill \$app 2>/dev/null || true
  exit 1
fi
sleep 0.5 # let the first frame paint after the ready call
import -window root "$out/window.png"
# A real turn through the window: focus it (Xvfb has no window manager to do
# that), focus the message box with the app's own Shift+Esc, type and send.
wid=\$(xdotool search --sync --onlyvisible --name Wayfinder | head -1)
# The window carries Wayfinder's icon for the task bar and window switcher
# (GTK sets none, silently, from an icon too large for the X property).
icon=\$(xprop -id "\$wid" -f _NET_WM_ICON 32c '=\$0x\$1' _NET_WM_ICON)
[ "\$icon" = "_NET_WM_ICON(CARDINAL)=256x256" ] || { echo "desktop smoke: the window has no 256x256 icon: \$icon"; kill \$app; exit 1; }
xdotool windowfocus --sync "\$wid"
xdotool mousemove --window "\$wid" 400 300 click 1
xdotool key --window "\$wid" shift+Escape
xdotool type --window "\$wid" --delay 20 "Hello from the desktop smoke test"
xdotool key --window "\$wid" Return
for _ in \$(seq 300); do grep -q "turn finished" "$work/app.log" && break; sleep 0.1; done
sleep 1 # WebKit paints the reply a moment after the turn is logged
import -window root "$out/chat.png"
import -window "\$wid" "$out/window-chat.png"
grep -q "turn finished" "$work/app.log" || { echo "desktop smoke: the message typed into the window got no reply"; cat "$work/app.log"; kill \$app; exit 1; }

# The model picker in the chat header: open it, take the next model
# (qwen3:4b, after the default llama3.2:3b among the models with tools),
# and the conversation's next turn is written by it.
xdotool mousemove --window "\$wid" 940 22 click 1
sleep 1
import -window root "$out/picker-open.png"
xdotool key Down Return
for _ in \$(seq 150); do grep -q "conversation model set.*model=qwen3:4b" "$work/app.log" && break; sleep 0.1; done
grep -q "conversation model set.*model=qwen3:4b" "$work/app.log" || { echo "desktop smoke: the model picker did not switch the conversation to qwen3:4b"; cat "$work/app.log"; kill \$app; exit 1; }
xdotool key --window "\$wid" shift+Escape
xdotool type --window "\$wid" --delay 10 "Which model wrote this"
xdotool key --window "\$wid" Return
for _ in \$(seq 300); do grep -q "turn finished.*model=qwen3:4b" "$work/app.log" && break; sleep 0.1; done
sleep 0.5
import -window root "$out/picker.png"
grep -q "turn finished.*status=complete.*model=qwen3:4b" "$work/app.log" || { echo "desktop smoke: the turn after switching was not written by qwen3:4b"; cat "$work/app.log"; kill \$app; exit 1; }

# The complex flow: the fake routes the task to the planner and proposes a
# plan; the approval dialog opens in the window; Ctrl+Enter approves it.
curl -sf -X POST "$fake_url/__fake/script" -d '[{"json":{"route":"complex","needs_documents":false,"refers_to_previous":false,"out_of_scope":false,"reason":"a task with steps"}},{"json":{"sub_tasks":[{"id":"s1","title":"Write the script","detail":"A 30-second script"},{"id":"s2","title":"Edit the video","detail":"Vertical clips with subtitles"},{"id":"s3","title":"Make a thumbnail","detail":"An eye-catching cover"}]}}]' >/dev/null
xdotool key --window "\$wid" ctrl+n
xdotool key --window "\$wid" shift+Escape
xdotool type --window "\$wid" --delay 10 "Help me make a YouTube Shorts video to promote my cafe"
xdotool key --window "\$wid" Return
for _ in \$(seq 300); do grep -q "status=awaiting_approval" "$work/app.log" && break; sleep 0.1; done
grep -q "status=awaiting_approval" "$work/app.log" || { echo "desktop smoke: no plan was proposed"; cat "$work/app.log"; kill \$app; exit 1; }
sleep 3 # the dialog opens on the approval event; give WebKit time to paint it under Xvfb
import -window root "$out/approval.png"
import -window "\$wid" "$out/window-plan.png"
xdotool key --window "\$wid" ctrl+Return
for _ in \$(seq 600); do [ "\$(grep -c 'turn finished.*status=complete' "$work/app.log")" -ge 3 ] && break; sleep 0.1; done
sleep 1
import -window root "$out/guide.png"
import -window "\$wid" "$out/window-guide.png"

# A second start on the same data folder, as a click on the icon again:
# over the session bus it brings this window to the front and quits.
"$bin" --data-dir "$work/data" --ollama-host "$fake_url" >"$work/second.log" 2>&1 &
second=\$!
for _ in \$(seq 100); do kill -0 \$second 2>/dev/null || break; sleep 0.1; done
if kill \$second 2>/dev/null; then echo "desktop smoke: a second start did not hand over to the open window"; cat "$work/second.log"; kill \$app; exit 1; fi
grep -q "this window comes to the front" "$work/app.log" || { echo "desktop smoke: the open window was not told of the second start"; cat "$work/app.log" "$work/second.log"; kill \$app; exit 1; }

# Without a session bus, the second start says in a small window of its own
# that Wayfinder is already open (and uses nothing of the folder), here in
# Korean; Escape closes it.
DBUS_SESSION_BUS_ADDRESS=unix:path=$work/no-bus LANG=ko_KR.UTF-8 "$bin" --data-dir "$work/data" --ollama-host "$fake_url" >"$work/second.log" 2>&1 &
second=\$!
wid2=""
for _ in \$(seq 100); do
  wid2=\$(xdotool search --onlyvisible --name Wayfinder | grep -vx "\$wid" | head -1 || true)
  [ -n "\$wid2" ] && break
  kill -0 \$second 2>/dev/null || break
  sleep 0.1
done
[ -n "\$wid2" ] || { echo "desktop smoke: a second start without a session bus showed no window"; cat "$work/second.log"; kill \$app \$second 2>/dev/null; exit 1; }
sleep 2 # let WebKit paint the page
import -window root "$out/already-open.png"
xdotool windowfocus --sync "\$wid2"
xdotool key --window "\$wid2" Escape
for _ in \$(seq 50); do kill -0 \$second 2>/dev/null || break; sleep 0.1; done
if kill \$second 2>/dev/null; then echo "desktop smoke: Escape did not close the startup error window"; kill \$app; exit 1; fi
wait \$second || true
grep -q "가 데이터 폴더 .*[을를] 쓰고 있습니다" "$work/second.log" || { echo "desktop smoke: the second start did not say why, in Korean"; cat "$work/second.log"; kill \$app; exit 1; }
kill -0 \$app || { echo "desktop smoke: the first window did not survive a second start"; exit 1; }
kill \$app
wait \$app 2>/dev/null || true
[ "\$(grep -c 'turn finished.*status=complete' "$work/app.log")" -ge 3 ] || { echo "desktop smoke: the approved plan never finished"; cat "$work/app.log"; exit 1; }

# Read-only mode: Ollama is gone when the app starts again. An old
# conversation still opens with its messages; only sending waits, with the
# reason beside the message box (its warning colour is on screen only then);
# once Ollama is back the kept draft goes out.
kill $fake_pid; wait $fake_pid 2>/dev/null || true
"$bin" --data-dir "$work/data" --ollama-host "$fake_url" --model llama3.2:3b --embed-model bge-m3 >"$work/ro.log" 2>&1 &
app=\$!
for _ in \$(seq 600); do grep -q "frontend ready" "$work/ro.log" && break; sleep 0.1; done
grep -q "frontend ready" "$work/ro.log" || { echo "desktop smoke: the window did not start without Ollama"; cat "$work/ro.log"; kill \$app; exit 1; }
wid=\$(xdotool search --sync --onlyvisible --name Wayfinder | head -1)
xdotool windowfocus --sync "\$wid"
xdotool mousemove --window "\$wid" 100 122 click 1
sleep 1
xdotool key --window "\$wid" shift+Escape
xdotool type --window "\$wid" --delay 10 "Are you still there"
xdotool key --window "\$wid" Return
sleep 2 # time for a message sent despite the wait to reach the log (looked for below)
# The notice's warning colour, looked for until it is on screen (a busy
# machine paints later), not once after a fixed time.
warn=0
for _ in \$(seq 30); do
  import -window root "$out/readonly.png"
  warn=\$(convert "$out/readonly.png" -fill black +opaque "#FFF7E0" -fill white -opaque "#FFF7E0" -format "%[fx:mean*w*h]" info:)
  [ "\${warn%.*}" -gt 2000 ] && break
  sleep 0.5
done
[ "\${warn%.*}" -gt 2000 ] || { echo "desktop smoke: no read-only notice beside the message box (\$warn warning pixels)"; cat "$work/ro.log"; kill \$app; exit 1; }
if grep -q "turn finished" "$work/ro.log"; then echo "desktop smoke: a message was sent while Ollama was down"; kill \$app; exit 1; fi
"$work/fake-ollama" --addr "${fake_url#http://}" >"$work/fake2.out" 2>&1 &
fake2=\$!
# The window checks again every 3 seconds, and sends nothing until then (a
# Return while sending waits is ignored, the draft kept): Return until the
# kept draft goes out, rather than once after a fixed time.
for _ in \$(seq 60); do
  xdotool key --window "\$wid" Return
  for _ in \$(seq 5); do grep -q "turn finished" "$work/ro.log" && break 2; sleep 0.1; done
done
for _ in \$(seq 300); do grep -q "turn finished" "$work/ro.log" && break; sleep 0.1; done
sleep 0.5
import -window root "$out/readonly-released.png"
kill \$app \$fake2
wait \$app 2>/dev/null || true
grep -q "turn finished.*status=complete" "$work/ro.log" || { echo "desktop smoke: the draft kept in read-only mode was not sent once Ollama came back"; cat "$work/ro.log"; exit 1; }
INNER
# A session bus, as a desktop has: Wails uses it to keep one window per data folder.
xvfb-run -a -s "-screen 0 1280x860x24" dbus-run-session -- bash "$work/session.sh"
echo "desktop smoke: ok (window ready with its icon, a chat turn, the model picker, a plan approved in the dialog, a second start turned away, read-only without Ollama) — screenshots in artifacts/desktop/"
