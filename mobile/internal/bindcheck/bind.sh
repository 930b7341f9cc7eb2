#!/bin/sh
# Builds the mobile package into an Android library or an iOS framework with
# ebitenmobile, working around Go 1.26 (see docs/MOBILE.md):
#
#   sh mobile/internal/bindcheck/bind.sh android out/p2l.aar
#   sh mobile/internal/bindcheck/bind.sh ios out/P2L.xcframework
#
# Needs the Android SDK with an NDK (ANDROID_HOME, ANDROID_NDK_HOME) and a
# JDK for android; macOS with Xcode for ios. Extra arguments go to
# `ebitenmobile bind` (for example -androidapi 24 or -prefix P2L).
#
# ebitenmobile (ebiten v2.8.8) builds gomobile in a temporary module pinned
# to golang.org/x/tools v0.25.0, which does not compile with Go 1.26. This
# script builds ebitenmobile from this directory's module (x/tools v0.52.0)
# and points EBITENMOBILE_GOMOBILE at a copy of the pinned gomobile whose
# go.mod is raised to x/tools v0.52.0 as well.
set -eu
[ $# -ge 2 ] || { echo "usage: $0 android|ios OUTPUT [ebitenmobile flags]" >&2; exit 2; }
target=$1
out=$2
shift 2
case $out in /*) ;; *) out=$(pwd)/$out ;; esac
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

(cd "$here" && go build -o "$work/ebitenmobile" github.com/hajimehoshi/ebiten/v2/cmd/ebitenmobile)
gm=$(cd "$here" && go list -m -f '{{.Dir}}' github.com/ebitengine/gomobile)
cp -R "$gm" "$work/gomobile"
chmod -R u+w "$work/gomobile"
(cd "$work/gomobile" && go get golang.org/x/tools@v0.52.0 && go mod tidy)

case $target in
android) set -- -target android -javapkg com.psd2live.p2l "$@" ;;
ios) set -- -target ios "$@" ;;
*) echo "target must be android or ios" >&2; exit 2 ;;
esac
mkdir -p "$(dirname "$out")"
cd "$root"
EBITENMOBILE_GOMOBILE="$work/gomobile" "$work/ebitenmobile" bind "$@" -o "$out" ./mobile
echo "wrote $out"
