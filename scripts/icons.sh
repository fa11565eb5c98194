#!/usr/bin/env bash
# Renders every icon under build/ from build/appicon.svg, the one source:
# build/appicon.png (1024 px, what Wails uses), the hicolor sizes a Linux
# desktop looks up, and build/windows/icon.ico (16–256 px, the 256 one kept
# as PNG as Windows Vista and later read it). The results are committed, so
# that a build needs none of these tools; run `make icons` after editing the
# SVG, and `tests/package` checks the committed files still match it.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/apt-ensure.sh" librsvg2-bin icoutils
svg="$root/build/appicon.svg"
id=io.github.wayfinder_app.Wayfinder
hicolor="$root/build/linux/icons/hicolor"
render() { rsvg-convert --width "$1" --height "$1" --keep-aspect-ratio "$svg" --output "$2"; }

render 1024 "$root/build/appicon.png"
for size in 16 22 24 32 48 64 128 256 512; do
  mkdir -p "$hicolor/${size}x${size}/apps"
  render "$size" "$hicolor/${size}x${size}/apps/$id.png"
done
mkdir -p "$hicolor/scalable/apps"
cp "$svg" "$hicolor/scalable/apps/$id.svg"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for size in 16 24 32 48 64 128; do render "$size" "$work/$size.png"; done
render 256 "$work/256.png"
icotool --create --output "$root/build/windows/icon.ico" \
  "$work/16.png" "$work/24.png" "$work/32.png" "$work/48.png" "$work/64.png" "$work/128.png" --raw="$work/256.png"
echo "icons rendered from build/appicon.svg"
