#!/usr/bin/env bash
# Runs a libFuzzer harness for a fixed time (default 60 s). Not part of CI.
# Usage: scripts/fuzz.sh [config|association] [SECONDS]
#   config       the YAML configuration loader and compiler
#   association  the apple-app-site-association / assetlinks.json readers and the matcher
# Crashes land in .build/fuzz-crashes/.
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-config}"
seconds="${2:-60}"
case "$target" in
    config | association) ;;
    *) echo "usage: scripts/fuzz.sh [config|association] [SECONDS]" >&2; exit 2 ;;
esac
# SwiftPM's --sanitize fuzzer links libFuzzer but, with this toolchain, leaves the Swift modules
# without coverage counters; ask for them explicitly or libFuzzer fuzzes blind.
swift build --product "fuzz-$target" --sanitize fuzzer --sanitize address --build-path .build/fuzz \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table 2>&1 | grep -v "ld.gold: warning" >&2
corpus=".build/fuzz-corpus/$target"
mkdir -p "$corpus" .build/fuzz-crashes
# Seeds: the example and fixtures for the loader; dist/ and test fixtures for the readers. The
# first byte picks the kind of file.
if [ "$target" = config ]; then
    for file in environments/*.yaml domains/*.yaml policies/*.yaml Tests/LinkwrightCoreTests/Fixtures/diagnostics/*.txt; do
        { printf '\001'; cat "$file"; } > "$corpus/seed-$(basename "$file")"
    done
else
    for file in dist/*/*/.well-known/apple-app-site-association Tests/LinkwrightEndToEndTests/Fixtures/import/*.json; do
        { printf '\000'; cat "$file"; } > "$corpus/seed-aasa-$(echo "$file" | tr / _)"
    done
    for file in dist/*/*/.well-known/assetlinks.json; do
        { printf '\001'; cat "$file"; } > "$corpus/seed-assetlinks-$(echo "$file" | tr / _)"
    done
fi
# Global constants are allocated once and never freed: that is not a leak worth reporting.
# Inputs up to 64 KiB, and any one taking over 2 s fails as a timeout (its input is saved like a
# crash): work that grows faster than the input shows up as a failure, not as a slow run.
ASAN_OPTIONS=detect_leaks=0 ".build/fuzz/debug/fuzz-$target" "$corpus" -max_total_time="$seconds" -max_len=65536 \
    -timeout=2 -rss_limit_mb=2048 -artifact_prefix=.build/fuzz-crashes/ -print_final_stats=1
