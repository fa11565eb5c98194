#!/usr/bin/env bash
# Makes wiki.zim, the small ZIM file the tests of backend/zim and
# backend/tools read, with Debian's zim-tools (zimwriterfs, then zimcheck):
#   backend/zim/testdata/make-wiki.sh [OUT.zim]     (default: beside this script)
# The articles are a few lines each, in Korean and English: 서울 (with the
# redirect "Seoul"), 부산, 김치, "Go (programming language)" and "Long
# article" (about 40 KB of text, to test the bounds). zimwriterfs (libzim 8)
# writes zstd clusters and the new namespace layout (C/…); the xz and
# old-layout cases are built by the tests themselves (build_test.go).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here/wiki.zim}
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT

page() { # file title body-html
  printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>%s</title><style>p{margin:0}</style></head><body><h1>%s</h1>%s</body></html>\n' "$2" "$2" "$3" >"$src/$1"
}
page index.html "Wayfinder test wiki" '<p>Articles: <a href="seoul.html">서울</a>, <a href="busan.html">부산</a>, <a href="kimchi.html">김치</a>.</p>'
page seoul.html "서울" '<p>서울특별시는 대한민국의 수도이다.</p><script>alert("not text")</script><p>인구는 약 940만 명이며, 한강이 도시를 가로지른다.</p><table><tr><td>면적</td><td>605.2 km²</td></tr></table>'
page busan.html "부산" '<p>부산광역시는 대한민국 남동부의 항구 도시이다.</p><ul><li>해운대</li><li>자갈치 시장</li></ul>'
page kimchi.html "김치" '<p>김치는 배추나 무를 소금에 절여 양념하여 발효시킨 한국의 전통 음식이다.</p>'
page go.html "Go (programming language)" '<p>Go is a statically typed, compiled programming language designed at Google.</p><p>It has <b>goroutines</b> &amp; channels.</p>'
long=""
for i in $(seq 1 200); do long+="<p>Paragraph $i of a long article about rivers, mountains and the sea.</p>"; done
page long.html "Long article" "$long"
printf '<!DOCTYPE html><html><head><meta charset="utf-8"><title>Seoul</title><meta http-equiv="refresh" content="0;URL=seoul.html"></head><body></body></html>\n' >"$src/Seoul.html"
# zimwriterfs wants a 48x48 PNG illustration: a plain blue square.
cp "$here/illustration.png" "$src/illustration.png"
rm -f "$out"
zimwriterfs --withoutFTIndex --welcome=index.html --illustration=illustration.png --language=kor \
  --title="Wayfinder test wiki" --description="Articles for Wayfinder's tests" \
  --creator=Wayfinder --publisher=Wayfinder --name=wayfinder_test_wiki "$src" "$out" >/dev/null
zimcheck --all "$out" >/dev/null
