#!/usr/bin/env bash
# Runs the libFuzzer harness of the configuration loader for a fixed time (default 60 s).
# Usage: scripts/fuzz.sh [SECONDS]. Not part of CI: crashes land in .build/fuzz-crashes/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
# SwiftPM's --sanitize fuzzer links libFuzzer but, with this toolchain, leaves the Swift modules
# without coverage counters; ask for them explicitly or libFuzzer fuzzes blind.
swift build --product fuzz-config --sanitize fuzzer --sanitize address --build-path .build/fuzz \
    -Xswiftc -sanitize-coverage=edge,trace-cmp,inline-8bit-counters,pc-table 2>&1 | grep -v "ld.gold: warning" >&2
corpus=.build/fuzz-corpus/config
mkdir -p "$corpus" .build/fuzz-crashes
# Seed with the example and the diagnostic fixtures; the first byte picks the folder.
for file in environments/*.yaml domains/*.yaml policies/*.yaml Tests/LinkwrightCoreTests/Fixtures/diagnostics/*.txt; do
    { printf '\001'; cat "$file"; } > "$corpus/seed-$(basename "$file")"
done
# Global schema constants are allocated once and never freed: that is not a leak worth reporting.
ASAN_OPTIONS=detect_leaks=0 .build/fuzz/debug/fuzz-config "$corpus" -max_total_time="$seconds" -max_len=8192 \
    -artifact_prefix=.build/fuzz-crashes/ -print_final_stats=1
