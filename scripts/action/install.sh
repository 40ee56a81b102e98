#!/usr/bin/env bash
# The action's first step: puts linkwright on the job's PATH. It downloads the release binary of
# the pinned version for the runner's OS and architecture and refuses it unless its SHA-256 is
# the one the release's SHA256SUMS lists; only where no release binary can be had (an
# architecture without one, a release server out of reach) does it build from the action's own
# source, which needs a Swift toolchain and takes minutes.
#
# Environment: GITHUB_ACTION_PATH, RUNNER_OS, RUNNER_ARCH, RUNNER_TEMP, GITHUB_OUTPUT and
# GITHUB_PATH as a runner sets them; VERSION (empty: the version of the action's checkout) and
# DOWNLOAD_URL (the folder of the releases, each under vVERSION/).
# Writes `linkwright=PATH` to GITHUB_OUTPUT and the binary's folder to GITHUB_PATH.
set -euo pipefail

source_folder=${GITHUB_ACTION_PATH:?}
version=${VERSION:-}
if [ -z "$version" ]; then
    version=$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' "$source_folder/Sources/LinkwrightCLI/LinkwrightCLI.swift")
fi
case "$version" in
    v*) version=${version#v} ;;
esac
base=${DOWNLOAD_URL:-https://github.com/linkwright/linkwright/releases/download}
base=${base%/}

case "${RUNNER_OS:-}/${RUNNER_ARCH:-}" in
    Linux/X64) asset="linkwright-$version-linux-x86_64" ;;
    Linux/ARM64) asset="linkwright-$version-linux-aarch64" ;;
    macOS/X64 | macOS/ARM64) asset="linkwright-$version-macos-universal" ;;
    *) asset="" ;;
esac

installed() {
    echo "linkwright=$1/linkwright" >>"$GITHUB_OUTPUT"
    # Later steps of the job can run linkwright too.
    echo "$1" >>"$GITHUB_PATH"
    "$1/linkwright" --version
}

sha256() {
    if command -v sha256sum >/dev/null; then sha256sum "$1"; else shasum -a 256 "$1"; fi | cut -d' ' -f1
}

# Builds linkwright from the action's checkout: the way for a runner no release binary fits.
build_from_source() {
    echo "::notice title=linkwright::$1; building linkwright $version from source (several minutes)"
    if ! command -v swift >/dev/null; then
        echo "::error title=linkwright::$1, and there is no Swift toolchain on this runner to build it from source: install Swift 6 first, or use a runner a release binary exists for (Linux x86_64 or aarch64, macOS)"
        exit 2
    fi
    if [ "${RUNNER_OS:-}" = Linux ] && command -v dpkg-query >/dev/null; then
        local missing=() package
        for package in libgit2-dev zlib1g-dev libyaml-dev libcurl4-openssl-dev; do
            dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
        done
        if ((${#missing[@]})); then
            local sudo=""
            if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
            $sudo apt-get update -qq
            $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
        fi
    elif [ "${RUNNER_OS:-}" = macOS ]; then
        brew install libgit2 libyaml pkg-config >/dev/null
    fi
    local scratch="$RUNNER_TEMP/linkwright-build"
    swift build -c release --product linkwright --package-path "$source_folder" --scratch-path "$scratch"
    installed "$(swift build -c release --package-path "$source_folder" --scratch-path "$scratch" --show-bin-path)"
}

if [ -z "$asset" ]; then
    build_from_source "no release binary is made for $RUNNER_OS on $RUNNER_ARCH"
    exit 0
fi

folder="$RUNNER_TEMP/linkwright-$version"
rm -rf "$folder"
mkdir -p "$folder"
fetch() {
    curl --fail --silent --show-error --location --retry 3 --connect-timeout 20 --max-time 300 -o "$2" "$1"
}
if ! fetch "$base/v$version/$asset.tar.gz" "$folder/$asset.tar.gz" ||
    ! fetch "$base/v$version/SHA256SUMS" "$folder/SHA256SUMS"; then
    rm -rf "$folder"
    build_from_source "could not download $asset.tar.gz and SHA256SUMS from $base/v$version"
    exit 0
fi

# A binary whose checksum is wrong is never run, and nothing is built in its place: the
# download was damaged or altered, which a rebuild would only hide.
expected=$(awk -v name="$asset.tar.gz" '$2 == name || $2 == "*" name { print $1 }' "$folder/SHA256SUMS")
actual=$(sha256 "$folder/$asset.tar.gz")
if [ -z "$expected" ]; then
    rm -rf "$folder"
    echo "::error title=linkwright::$base/v$version/SHA256SUMS lists no checksum for $asset.tar.gz; refusing to run it"
    exit 1
fi
if [ "$expected" != "$actual" ]; then
    rm -rf "$folder"
    echo "::error title=linkwright::$asset.tar.gz has SHA-256 $actual, but the release's SHA256SUMS says $expected; refusing to run it"
    exit 1
fi
tar -C "$folder" -xzf "$folder/$asset.tar.gz"
rm "$folder/$asset.tar.gz" "$folder/SHA256SUMS"
installed "$folder/$asset/bin"
