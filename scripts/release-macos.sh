#!/usr/bin/env bash
# Makes the macOS release binary: one universal (arm64 and x86_64) linkwright that loads only
# what every Mac has (libcurl, zlib, libiconv, CoreFoundation and Security from the system).
# libgit2 and libyaml are built here from their release tags as universal static archives:
# Homebrew's are one architecture each and their dylibs' install names change with each version.
# Packs .build/release-artifacts/linkwright-VERSION-macos-universal.tar.gz and its SHA-256.
#
# Runs on macOS only (release.yml's macos-15 job); needs Xcode's Swift 6, cmake and git.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

[ "$(uname -s)" = Darwin ] || {
    echo "error: scripts/release-macos.sh runs on macOS (scripts/release.sh makes the Linux binary)" >&2
    exit 1
}
libgit2_tag=v1.9.1
libyaml_tag=0.2.5
architectures="arm64;x86_64"
work="$root/.build/macos-static"
prefix="$work/prefix"
rm -rf "$work"
mkdir -p "$prefix/lib/pkgconfig" "$prefix/include"

git clone --quiet --depth 1 --branch "$libgit2_tag" https://github.com/libgit2/libgit2.git "$work/libgit2"
cmake -S "$work/libgit2" -B "$work/libgit2/build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_OSX_ARCHITECTURES="$architectures" -DCMAKE_OSX_DEPLOYMENT_TARGET=15.0 \
    -DBUILD_SHARED_LIBS=OFF -DBUILD_TESTS=OFF -DBUILD_CLI=OFF -DUSE_SSH=OFF -DUSE_HTTPS=SecureTransport \
    -DREGEX_BACKEND=builtin -DUSE_HTTP_PARSER=builtin -DUSE_BUNDLED_ZLIB=OFF \
    -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
cmake --build "$work/libgit2/build" --target install --parallel >/dev/null

git clone --quiet --depth 1 --branch "$libyaml_tag" https://github.com/yaml/libyaml.git "$work/libyaml"
cmake -S "$work/libyaml" -B "$work/libyaml/build" -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_OSX_ARCHITECTURES="$architectures" -DCMAKE_OSX_DEPLOYMENT_TARGET=15.0 \
    -DBUILD_SHARED_LIBS=OFF -DBUILD_TESTING=OFF -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
cmake --build "$work/libyaml/build" --target install --parallel >/dev/null

# The prefix holds only archives, so -lgit2 and -lyaml find them; what a static libgit2 needs
# from the system goes on its own line, since SwiftPM reads pkg-config's Libs, not Libs.private.
# libcurl and zlib come from the SDK.
rm -f "$prefix"/lib/*.dylib "$prefix"/lib/pkgconfig/*.pc
cat >"$prefix/lib/pkgconfig/libgit2.pc" <<PC
Name: libgit2
Description: libgit2, static and universal
Version: ${libgit2_tag#v}
Libs: -L$prefix/lib -lgit2 -framework CoreFoundation -framework Security -liconv -lz
Cflags: -I$prefix/include
PC
cat >"$prefix/lib/pkgconfig/yaml-0.1.pc" <<PC
Name: yaml-0.1
Description: libyaml, static and universal
Version: $libyaml_tag
Libs: -L$prefix/lib -lyaml
Cflags: -I$prefix/include
PC
for library in libcurl zlib; do
    name=${library#lib}
    printf 'Name: %s\nDescription: %s of the macOS SDK\nVersion: system\nLibs: -l%s\nCflags:\n' \
        "$library" "$library" "$name" >"$prefix/lib/pkgconfig/$library.pc"
done
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"

flags=(-c release --arch arm64 --arch x86_64 --product linkwright)
swift build "${flags[@]}"
binary="$(swift build "${flags[@]}" --show-bin-path)/linkwright"
lipo "$binary" -verify_arch arm64 x86_64
if otool -L "$binary" | tail -n +2 | grep -Ev '^\s*(/usr/lib/|/System/Library/)'; then
    echo "error: $binary loads the libraries above, from outside the system" >&2
    exit 1
fi
"$binary" lint --config . >/dev/null

version=$("$binary" --version)
version=${version#linkwright }
name="linkwright-$version-macos-universal"
artifacts=.build/release-artifacts
rm -rf "${artifacts:?}/$name"
mkdir -p "$artifacts/$name/bin"
cp "$binary" "$artifacts/$name/bin/linkwright"
cp README.md "$artifacts/$name/"
tar -C "$artifacts" -czf "$artifacts/$name.tar.gz" "$name"
(cd "$artifacts" && shasum -a 256 "$name.tar.gz" >"$name.tar.gz.sha256")
rm -rf "${artifacts:?}/$name"
echo "$artifacts/$name.tar.gz"
