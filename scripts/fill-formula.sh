#!/usr/bin/env bash
# Prints the Homebrew formula with a release's source URL and SHA-256 in place of the ones it
# holds (release.yml: the tag's source tarball).
#
#   scripts/fill-formula.sh Formula/linkwright.rb VERSION SHA256
set -euo pipefail

[ $# -eq 3 ] || {
    echo "usage: scripts/fill-formula.sh FORMULA VERSION SHA256" >&2
    exit 2
}
formula=$1 version=$2 checksum=$3
[[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || {
    echo "error: version $version is not MAJOR.MINOR.PATCH" >&2
    exit 2
}
[[ $checksum =~ ^[0-9a-f]{64}$ ]] || {
    echo "error: $checksum is not a SHA-256 in hexadecimal" >&2
    exit 2
}
if [ "$(grep -c '^  url "' "$formula")" != 1 ] || [ "$(grep -c '^  sha256 "' "$formula")" != 1 ]; then
    echo "error: $formula must hold one url and one sha256 line" >&2
    exit 1
fi
sed -e "s|^  url \".*/archive/refs/tags/v[^\"]*\.tar\.gz\"\$|  url \"https://github.com/linkwright/linkwright/archive/refs/tags/v$version.tar.gz\"|" \
    -e "s|^  sha256 \"[0-9a-f]*\"\$|  sha256 \"$checksum\"|" "$formula"
