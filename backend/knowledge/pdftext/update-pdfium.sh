#!/bin/sh
# Refetches PDFium (an Emscripten build from the npm package @embedpdf/pdfium)
# and stores it gzip-compressed beside this script, with its licence notices.
# Usage: ./update-pdfium.sh [VERSION]   (default: the pinned version below)
set -eu
VERSION="${1:-2.15.1}"
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
npm pack --silent "@embedpdf/pdfium@${VERSION}" >/dev/null
tar xzf embedpdf-pdfium-"${VERSION}".tgz
gzip -9 -n -c package/dist/pdfium.wasm >"$here/pdfium.wasm.gz"
cp package/LICENSE "$here/LICENSE.embedpdf"
cp package/LICENSE.pdfium "$here/LICENSE.pdfium"
printf '%s\n' "$VERSION" >"$here/PDFIUM_VERSION"
echo "pdfium.wasm from @embedpdf/pdfium@${VERSION}: $(sha256sum package/dist/pdfium.wasm | cut -d' ' -f1)"
