#!/usr/bin/env bash
# Prints, as NAME=value words for the Makefile, the version of the checkout in the
# forms each package needs. From a release tag (vX.Y.Z) `git describe` gives
# it; without one, wails.json's productVersion with the number of commits
# and the commit, as a pre-release:
#   VERSION      0.2.0, 0.2.0-3-gabc1234, 0.1.0-dev.110+gabc1234 (".dirty" or
#                "-dirty" added for uncommitted changes)
#   DEB_VERSION  0.2.0, 0.2.0+3.gabc1234, 0.1.0~dev.110+gabc1234
#                (~ sorts before the release, + after it, as dpkg compares)
#   WIN_VERSION  0.2.0.0, 0.2.0.3, 0.1.0.110 (four numbers, as Windows wants)
#   COMMIT       the full commit id ("-dirty" added)
#   BUILD_DATE   the commit's date, or SOURCE_DATE_EPOCH's (RFC 3339, UTC)
set -euo pipefail
cd "$(dirname "$0")/.."
dirty=""
if ! git diff --quiet HEAD -- 2>/dev/null; then dirty=1; fi
commit=$(git rev-parse HEAD 2>/dev/null || echo unknown)
short=$(git rev-parse --short=7 HEAD 2>/dev/null || echo unknown)
count=$(git rev-list --count HEAD 2>/dev/null || echo 0)
if desc=$(git describe --tags --match 'v[0-9]*' 2>/dev/null); then
  version=${desc#v}
  base=${version%%-*}
  if [[ $version == *-*-g* ]]; then
    n=${version#*-}; n=${n%%-*}
    deb="$base+$n.g${version##*-g}"
  else
    n=0; deb=$base
  fi
  [ -n "$dirty" ] && { version+="-dirty"; deb+=".dirty"; }
else
  base=$(sed -n 's/.*"productVersion": *"\([0-9.]*\)".*/\1/p' wails.json)
  n=$count
  version="$base-dev.$n+g$short"
  deb="$base~dev.$n+g$short"
  [ -n "$dirty" ] && { version+=".dirty"; deb+=".dirty"; }
fi
IFS=. read -r major minor patch _ <<<"$base"
epoch=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
echo "VERSION=$version"
echo "DEB_VERSION=$deb"
echo "WIN_VERSION=${major:-0}.${minor:-0}.${patch:-0}.$((n > 65535 ? 65535 : n))"
echo "COMMIT=$commit${dirty:+-dirty}"
echo "BUILD_DATE=$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)"
