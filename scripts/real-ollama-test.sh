#!/usr/bin/env bash
# The opt-in tier against a real `ollama serve` (v0.24.0, CPU) with the tiny
# deterministic test model from ../shared/tools/ollama-real. The server is
# built once and cached in ~/.cache/wayfinder/ollama-real (≈5 min cold).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tools=${OLLAMA_REAL_TOOLS:-$root/../shared/tools/ollama-real}
[ -d "$tools" ] || { echo "real Ollama tier: $tools not found"; exit 1; }
cache=${XDG_CACHE_HOME:-$HOME/.cache}/wayfinder/ollama-real
bash "$tools/build.sh" "$cache"
state=$(mktemp -d) state2=$(mktemp -d)
trap 'kill "$(cat "$state/ollama.pid" 2>/dev/null)" "$(cat "$state2/ollama.pid" 2>/dev/null)" 2>/dev/null || true; rm -rf "$state" "$state2"' EXIT
freeport() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
url=$(bash "$tools/serve.sh" "$cache/ollama" "$(freeport)" "$state" | tail -1)
# A second server on another loopback port, for several hosts sharing the
# calls (TestIntegrationSeveralHosts).
url2=$(bash "$tools/serve.sh" "$cache/ollama" "$(freeport)" "$state2" | tail -1)
echo "real Ollama at $url and $url2"
cd "$root"
WAYFINDER_REAL_OLLAMA="$url" WAYFINDER_REAL_OLLAMA_2="$url2" go test -tags integration -count=1 -run Integration -v ./backend/app/ 2>&1 | tee "$state/test.log" | grep -E '^(=== RUN|--- |PASS|FAIL|ok|\s+integration_test)' || true
grep -q '^ok' "$state/test.log" || { echo "real Ollama tier failed; server log:"; tail -30 "$state/ollama.log"; cat "$state/test.log" | tail -60; exit 1; }
