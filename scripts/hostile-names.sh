#!/usr/bin/env bash
# The long run of the hostile-name tests (Tests/LinkwrightEndToEndTests/HostileNameTests.swift):
# configurations whose apps, domains, environments, routes, parameters and query items are
# named with keywords of Swift and Kotlin, names the routers declare, and one text in two Unicode
# spellings. Each seed's Swift routers are compiled in Swift 6 strict mode with warnings as
# errors, its Kotlin routers with kotlinc -Werror (all seeds in one kotlinc run), and both are
# compared with the core matcher URL by URL. CI runs seed 1; this runs a range.
#
#   scripts/hostile-names.sh [first seed] [last seed]      defaults: 1 40
#
# A failure names its seed and prints the configuration; run that seed alone with
#
#   LINKWRIGHT_HOSTILE_SEEDS=42 swift test --filter 'HostileNameTests|KotlinRouterAgreementTests'
set -euo pipefail
cd "$(dirname "$0")/.."

first="${1:-1}"
last="${2:-40}"

swift build --build-tests
# Twenty seeds a run: one kotlinc compiles all their routers, and its heap is bounded.
for ((start = first; start <= last; start += 20)); do
    end=$((start + 19 < last ? start + 19 : last))
    echo "seeds $start-$end"
    LINKWRIGHT_HOSTILE_SEEDS="$start-$end" swift test --skip-build --disable-xctest \
        --filter 'HostileNameTests|KotlinRouterAgreementTests'
done
