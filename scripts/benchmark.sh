#!/usr/bin/env bash
# Reproduces the README's performance table: release build, then every figure with its baseline.
# Usage: scripts/benchmark.sh [linkwright-bench run options], e.g. --sizes S,M --urls 200000
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
swift build -c release --product linkwright >&2
swift build -c release --product linkwright-bench >&2
.build/release/linkwright-bench run --json .build/benchmark.json "$@"
