#!/usr/bin/env bash
# The long run of the behaviour diff's differential test (Tests/LinkwrightCoreTests/Proof): many
# seeded configuration pairs, each decided URL by URL on both sides and compared with what
# `BehaviourDiff.compare` reports. CI runs 30 seeds in a debug build; this runs more, with more
# probe URLs each, in a release build (about ten times faster).
#
#   scripts/differential.sh [seeds] [first seed] [probes per pair]     defaults: 500 1 3000
#
# Rule pairs the diff reports unproven (its budget ran out, and it says so) are listed, not
# failures, here; a change the diff misses without saying so, or a witness that does not decide
# as reported, fails. CI's seeds must all be proven.
#
# Every failure names its seed, the edits, both sides' files and the probe URL that shows it,
# with the command that runs that seed alone, e.g. for seed 42:
#
#   LINKWRIGHT_DIFFERENTIAL_FIRST_SEED=42 LINKWRIGHT_DIFFERENTIAL_SEEDS=1 LINKWRIGHT_DIFFERENTIAL_PROBES=3000 \
#       swift test --filter BehaviourDifferential
#
# (add `-c release -Xswiftc -enable-testing` to reuse this script's build). The probe set of a
# seed depends on the probe count, so reproduce with the count the failure names.
set -euo pipefail
cd "$(dirname "$0")/.."

seeds="${1:-500}"
first="${2:-1}"
probes="${3:-3000}"

# @testable imports need -enable-testing in a release build.
swift build -c release --build-tests -Xswiftc -enable-testing
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
status=0
LINKWRIGHT_DIFFERENTIAL_SEEDS="$seeds" LINKWRIGHT_DIFFERENTIAL_FIRST_SEED="$first" \
    LINKWRIGHT_DIFFERENTIAL_PROBES="$probes" LINKWRIGHT_DIFFERENTIAL_ALLOW_UNPROVEN=1 \
    swift test -c release -Xswiftc -enable-testing --skip-build --filter BehaviourDifferential | tee "$log" ||
    status=$?
unproven=$(grep -c "rule pairs reported unproven" "$log" || true)
echo "differential: $seeds seeds from $first, $probes probes each; seeds with rule pairs reported unproven: $unproven"
exit "$status"
