#!/usr/bin/env bash
# Makes a linkwright that runs without the Swift toolchain: a release build with the Swift runtime
# and Foundation linked in (--static-swift-stdlib), checked to run with no toolchain library in
# reach, packed as .build/release-artifacts/linkwright-VERSION-linux-ARCH-DEBIAN.tar.gz with its
# SHA-256 beside it. The binary still loads the C libraries it wraps (libgit2, libyaml, libcurl,
# zlib) from the system: it runs on a machine of the same Debian release and architecture where
# those are installed; the tarball's DEPENDS names their packages.
set -euo pipefail
cd "$(dirname "$0")/.."

swift build -c release --static-swift-stdlib --product linkwright
binary="$(swift build -c release --static-swift-stdlib --show-bin-path)/linkwright"

# The toolchain's libraries must not be needed: none is listed, and the binary runs from a clean
# environment with an empty library path.
if ldd "$binary" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|/swift/'; then
    echo "error: $binary still loads libraries of the Swift toolchain (above)" >&2
    exit 1
fi
if ldd "$binary" | grep -q 'not found'; then
    ldd "$binary" | grep 'not found' >&2
    echo "error: $binary needs libraries this machine lacks" >&2
    exit 1
fi
version_line=$(env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$binary" --version)
version=${version_line#linkwright }
# A real command too, not only --version: the example configuration compiles.
if ! env -i PATH=/usr/bin:/bin LD_LIBRARY_PATH= "$binary" lint --config . >/dev/null 2>&1; then
    echo "error: $binary does not lint the example configuration from a clean environment" >&2
    exit 1
fi

. /etc/os-release
name="linkwright-$version-linux-$(uname -m)-${ID}${VERSION_ID:-}"
artifacts=.build/release-artifacts
staging="$artifacts/$name"
rm -rf "$staging"
mkdir -p "$staging/bin"
cp "$binary" "$staging/bin/linkwright"
strip "$staging/bin/linkwright"
cp README.md "$staging/"
# The Debian packages of the C libraries the binary loads directly, as this machine has them.
{
    echo "# Debian packages the binary loads (from the machine that built it: $PRETTY_NAME)"
    for library in $(readelf -d "$binary" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p'); do
        path=$(ldd "$binary" | awk -v lib="$library" '$1 == lib { print $3 }')
        if [ -z "$path" ]; then continue; fi
        package=$(dpkg -S "$path" 2>/dev/null || dpkg -S "$(readlink -f "$path")" 2>/dev/null || true)
        if [ -n "$package" ]; then echo "${package%%:*}"; fi
    done | sort -u
} >"$staging/DEPENDS"
tar -C "$artifacts" -czf "$artifacts/$name.tar.gz" "$name"
(cd "$artifacts" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
rm -rf "$staging"
echo "$artifacts/$name.tar.gz"
cat "$artifacts/$name.tar.gz.sha256"
