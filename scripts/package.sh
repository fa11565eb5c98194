#!/usr/bin/env bash
# `make package`: Wayfinder's downloads, from the Linux binary `make build`
# made (build/bin/wayfinder), into build/package/:
#
#   wayfinder_DEBVERSION_amd64.deb                  Debian 12+ / Ubuntu 22.04+
#   wayfinder-VERSION-windows-amd64-installer.exe   NSIS installer (WebView2 bootstrapper inside)
#   wayfinder-VERSION-windows-amd64.exe             the Windows program itself
#   wayfinder-VERSION-linux-amd64.tar.gz            binary, licences, README
#   SHA256SUMS
#
# The Make variables arrive in the environment: VERSION, DEB_VERSION,
# WIN_VERSION, BUILD_DATE, LDFLAGS_VERSION (the -X flags), BIN. OUT (default
# build/package) and WIN_MAIN (the Go package of the Windows program,
# default the root) let the benchmark package the Wails hello-world the same
# way, to compare sizes (MANPAGE=0 there: the hello-world has no --help).
# Everything here works offline: the Windows build is cross-compiled
# (pure Go, no cgo), the WebView2 bootstrapper and Wails' NSIS macros come
# from the Wails module in Go's module cache.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
: "${VERSION:?} ${DEB_VERSION:?} ${WIN_VERSION:?} ${BUILD_DATE:?} ${BIN:?}"
id=io.github.wayfinder_app.Wayfinder
out=${OUT:-build/package}
win_main=${WIN_MAIN:-.}
maintainer="The Wayfinder authors <wayfinder-app@users.noreply.github.com>"
epoch=$(date -u -d "$BUILD_DATE" +%s)
export SOURCE_DATE_EPOCH=$epoch
work=$(mktemp -d)
syso="$root/$win_main/rsrc_windows_amd64.syso"
trap 'rm -rf "$work" "$syso"' EXIT
mkdir -p "$out"
rm -f "$out"/wayfinder[-_]* "$out/SHA256SUMS"
step() { printf '\n== %s (%ds so far)\n' "$*" "$SECONDS"; }

pkgtool="$work/pkgtool"
go build -o "$pkgtool" ./scripts/pkgtool
wails_dir=$(go list -m -f '{{.Dir}}' github.com/wailsapp/wails/v2)

# Licences: ours, and those of everything compiled into each binary.
notices() { # BINARY OUT
  "$pkgtool" notices -bin "$1" -npm frontend \
    -extra "PDFium, compiled to WebAssembly (backend/knowledge/pdftext/pdfium.wasm.gz)=backend/knowledge/pdftext/LICENSE.pdfium" \
    -extra "EmbedPDF's build of PDFium (npm @embedpdf/pdfium)=backend/knowledge/pdftext/LICENSE.embedpdf" \
    -out "$2"
}

step "Windows: wayfinder.exe (cross-compiled, GUI, icon and version resource)"
"$pkgtool" winres -version "$VERSION" -win-version "$WIN_VERSION" -out "$syso"
GOOS=windows GOARCH=amd64 CGO_ENABLED=0 go build -tags desktop,production -trimpath \
  -ldflags "-s -w -H windowsgui $LDFLAGS_VERSION" -o "$work/wayfinder.exe" "$win_main"
rm -f "$syso"
cp "$work/wayfinder.exe" "$out/wayfinder-$VERSION-windows-amd64.exe"

step "Windows: the NSIS installer"
nsis="$work/nsis"
cp -r build/windows "$nsis"
cp LICENSE "$nsis/LICENSE.txt"
notices "$work/wayfinder.exe" "$nsis/THIRD_PARTY_NOTICES.txt"
"$pkgtool" nsis-include -win-version "$WIN_VERSION" \
  -template "$wails_dir/pkg/buildassets/build/windows/installer/wails_tools.nsh" -out "$nsis/installer/wails_tools.nsh"
mkdir -p "$nsis/installer/tmp"
cp "$wails_dir/internal/webview2runtime/MicrosoftEdgeWebview2Setup.exe" "$nsis/installer/tmp/"
find "$nsis" "$work/wayfinder.exe" -exec touch -h -d "@$epoch" {} + # the dates the installer records
installer="$(realpath "$out")/wayfinder-$VERSION-windows-amd64-installer.exe"
makensis -V2 -DARG_WAILS_AMD64_BINARY="$work/wayfinder.exe" -DWIN_VERSION="$WIN_VERSION" \
  -DOUTFILE="$installer" "$nsis/installer/project.nsi"

step "Linux: the licences and the binary"
notices "$BIN" "$work/THIRD_PARTY_NOTICES.txt"

step "Linux: wayfinder_${DEB_VERSION}_amd64.deb"
deb="$work/deb"
doc="$deb/usr/share/doc/wayfinder"
install -D -m 0755 "$BIN" "$deb/usr/bin/wayfinder"
install -D -m 0644 "build/linux/$id.desktop" "$deb/usr/share/applications/$id.desktop"
install -D -m 0644 "build/linux/$id.metainfo.xml" "$deb/usr/share/metainfo/$id.metainfo.xml"
(cd build/linux/icons && find hicolor -type f) | while read -r icon; do
  install -D -m 0644 "build/linux/icons/$icon" "$deb/usr/share/icons/$icon"
done
install -d "$doc"
{
  echo "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/"
  echo "Upstream-Name: Wayfinder"
  echo "Source: https://github.com/wayfinder-app/wayfinder"
  echo "Comment: /usr/bin/wayfinder also contains the third-party software listed,"
  echo " with each licence, in /usr/share/doc/wayfinder/THIRD_PARTY_NOTICES.txt.gz."
  echo
  echo "Files: *"
  echo "Copyright: 2026 The Wayfinder authors"
  echo "License: MIT"
  sed -e 's/^$/./' -e 's/^/ /' LICENSE | tail -n +2
} >"$doc/copyright"
gzip -9n <"$work/THIRD_PARTY_NOTICES.txt" >"$doc/THIRD_PARTY_NOTICES.txt.gz"
gzip -9n <README.md >"$doc/README.md.gz"
# The manual page is `wayfinder --help` itself, so it never disagrees with it.
[ "${MANPAGE:-1}" = 0 ] || LC_ALL=C.UTF-8 help2man --no-info --section 1 --version-string "$VERSION" \
  --name "a local-first assistant that plans your tasks with local models" "$BIN" |
  gzip -9n | install -D -m 0644 /dev/stdin "$deb/usr/share/man/man1/wayfinder.1.gz"
{
  echo "wayfinder ($DEB_VERSION) unstable; urgency=medium"
  echo
  echo "  * Built from commit ${COMMIT:-unknown}."
  echo "    The project's git history lists the changes."
  echo
  echo " -- $maintainer  $(date -u -R -d "@$epoch")"
} | gzip -9n >"$doc/changelog.gz"
# The run-time libraries the binary links, as Debian's packages name them
# (libwebkit2gtk-4.1-0, libgtk-3-0, ...), with the versions it needs.
mkdir -p "$work/shlibs/debian"
printf 'Source: wayfinder\n\nPackage: wayfinder\nArchitecture: amd64\n' >"$work/shlibs/debian/control"
depends=$(cd "$work/shlibs" && dpkg-shlibdeps -O "$deb/usr/bin/wayfinder" 2>/dev/null | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package: dpkg-shlibdeps found no dependencies"; exit 1; }
mkdir -p "$deb/DEBIAN"
cat >"$deb/DEBIAN/control" <<CONTROL
Package: wayfinder
Version: $DEB_VERSION
Architecture: amd64
Maintainer: $maintainer
Installed-Size: $(du -sk --exclude=DEBIAN "$deb" | cut -f1)
Depends: $depends
Suggests: ollama
Section: utils
Priority: optional
Homepage: https://github.com/wayfinder-app/wayfinder
Description: local-first assistant that plans tasks with local AI models
 Wayfinder answers simple questions directly; for a real task it drafts a
 plan of steps to approve, edit or revise, recommends the best tool or
 service for each step from its catalog and your own documents, and
 writes a step-by-step guide with sources. It remembers your preferences,
 and shows every memory to edit or delete.
 .
 Everything runs on your computer, with models served by Ollama
 (https://ollama.com), which is installed separately. The interface
 speaks Korean and English.
CONTROL
(cd "$deb" && find usr -type f -print0 | sort -z | xargs -0 md5sum) >"$deb/DEBIAN/md5sums"
find "$deb" -exec touch -h -d "@$epoch" {} +
debfile="$out/wayfinder_${DEB_VERSION}_amd64.deb"
dpkg-deb --root-owner-group -Zxz --build "$deb" "$debfile" >/dev/null
echo "built $debfile"

step "Linux: wayfinder-$VERSION-linux-amd64.tar.gz"
name="wayfinder-$VERSION-linux-amd64"
mkdir -p "$work/tar/$name"
install -m 0755 "$BIN" "$work/tar/$name/wayfinder"
install -m 0644 README.md LICENSE "$work/tar/$name/"
install -m 0644 "$work/THIRD_PARTY_NOTICES.txt" "$work/tar/$name/"
tar --sort=name --mtime="@$epoch" --owner=0 --group=0 --numeric-owner -C "$work/tar" -cf - "$name" | gzip -9n >"$out/$name.tar.gz"

step "SHA256SUMS"
(cd "$out" && sha256sum -- *.deb *.exe *.tar.gz >SHA256SUMS && cat SHA256SUMS)
