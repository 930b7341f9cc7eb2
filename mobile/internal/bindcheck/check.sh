#!/bin/sh
# Bindability check of the mobile package, as far as it can go without the
# Android SDK/NDK and Xcode (docs/MOBILE.md, "What was verified"):
#
#  1. build gobind from github.com/ebitengine/gomobile at the version
#     ebiten v2.8.8 pins, in this directory's own module, where
#     golang.org/x/tools is raised to v0.52.0 (the pinned v0.25.0 does not
#     compile with Go 1.26; a separate module keeps the bump out of the
#     project's go.mod);
#  2. generate the Java and Objective-C bindings the way `ebitenmobile bind`
#     does (GOOS=android, resp. GOOS=ios with tag ios; the mobile package
#     plus ebiten's ebitenmobileview), failing if gobind skipped anything;
#  3. javac the generated Java (against a one-class android.content.Context
#     stub) together with Sample.java, which uses the API as docs/MOBILE.md
#     shows it;
#  4. go vet the Android/iOS-only entry file (tag p2lmobilecheck).
#
# Not covered: compiling the generated Go/cgo glue (needs the NDK's
# headers), the AAR/xcframework, and the Objective-C side (no compiler).
#
# Usage: sh mobile/internal/bindcheck/check.sh   (from anywhere; needs go,
# javac, and the module proxy or a warm module cache).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

echo "bindcheck: building gobind"
(cd "$here" && go build -o "$work/gobind" github.com/ebitengine/gomobile/cmd/gobind)

cd "$root"
pkgs="./mobile github.com/hajimehoshi/ebiten/v2/mobile/ebitenmobileview"
echo "bindcheck: gobind java"
# shellcheck disable=SC2086
GOOS=android GOARCH=arm64 "$work/gobind" -lang=go,java -javapkg=com.psd2live.p2l \
	-outdir="$work/android" $pkgs
echo "bindcheck: gobind objc"
# shellcheck disable=SC2086
GOOS=ios GOARCH=arm64 "$work/gobind" -lang=go,objc -tags=ios \
	-outdir="$work/ios" $pkgs

for f in "$work/android/java/com/psd2live/p2l/mobile/Mobile.java" \
	"$work/android/java/com/psd2live/p2l/mobile/Listener.java" \
	"$work/android/java/com/psd2live/p2l/ebitenmobileview/Ebitenmobileview.java" \
	"$work/ios/src/gobind/Mobile.objc.h"; do
	[ -s "$f" ] || { echo "bindcheck: missing $f" >&2; exit 1; }
done
# gobind's marker ("// skipped function F with unsupported …"), not the word
# in a doc comment it copies.
if grep -rnE "// skipped (unsupported |function |method |constructor |field |variable |const )" "$work/android/java" "$work/ios/src/gobind"/*.h; then
	echo "bindcheck: gobind skipped part of the API (unsupported types)" >&2
	exit 1
fi

# The entry points docs/MOBILE.md's Swift snippet uses (no Swift compiler
# here: at least check that the Objective-C header declares them).
for sym in MobileLoadModel MobileSetListener MobilePlayClipLayer MobilePriorityIdle \
	"@protocol MobileListener" "onEvent:(NSString\* _Nullable)clipID value:"; do
	grep -q "$sym" "$work/ios/src/gobind/Mobile.objc.h" ||
		{ echo "bindcheck: Mobile.objc.h lacks $sym" >&2; exit 1; }
done

echo "bindcheck: javac"
mkdir "$work/classes"
# shellcheck disable=SC2046
javac -nowarn -Xlint:none -d "$work/classes" \
	$(find "$here/java" "$work/android/java" -name '*.java')
echo "bindcheck: $(find "$work/classes" -name '*.class' | wc -l) classes compiled"

echo "bindcheck: go vet -tags p2lmobilecheck ./mobile"
go vet -tags p2lmobilecheck ./mobile
echo "bindcheck: ok"
