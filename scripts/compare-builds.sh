#!/usr/bin/env bash
# Runs two builds of linkwright on the same inputs and compares, byte for byte, what each prints
# (standard output, standard error, exit status) and writes (the trees of `build` and
# `generate`). A change meant to keep every output as it was, such as an optimisation, lands
# only when this finds no difference.
#
#   scripts/compare-builds.sh [--quick] OLD NEW
#
# OLD and NEW are linkwright binaries: say, a release build of the base commit copied aside,
# and .build/release/linkwright. The inputs (scripts/compare-builds/fixtures.py lists them) are
# made once with linkwright-bench ($LINKWRIGHT_BENCH, else .build/release/linkwright-bench,
# built when missing) in the work folder ($COMPARE_BUILDS_DIR, else .build/compare-builds),
# in a folder named after fixtures.py's checksum, and reused until fixtures.py changes (remove
# it to remake the inputs after changing linkwright-bench's generator); the outputs are written
# to its run/, emptied first, where only those of commands with a difference are kept. Every
# output that differs is named; the exit status is 0 when none differs, 1 when one does, 2 when
# the comparison could not run.
#
# 5 to 10 minutes with two release builds on 2 cores. --quick makes smaller inputs (size S, a
# dozen tags) in a folder of their own, for the test that shows a difference is found.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

quick=false
if [ "${1:-}" = "--quick" ]; then
    quick=true
    shift
fi
if [ $# -ne 2 ]; then
    echo "usage: scripts/compare-builds.sh [--quick] OLD NEW" >&2
    exit 2
fi
binaries=()
for binary in "$1" "$2"; do
    if [ ! -x "$binary" ]; then
        echo "compare-builds: $binary is not an executable linkwright" >&2
        exit 2
    fi
    binaries+=("$(cd "$(dirname "$binary")" && pwd)/$(basename "$binary")")
done

work="${COMPARE_BUILDS_DIR:-$root/.build/compare-builds}"
mkdir -p "$work"
kind=full
sizes=()
if $quick; then
    kind=quick
    sizes=(--quick)
fi
# Inputs made by an older fixtures.py would lack what it makes now, and their commands be skipped.
fixtures="$work/fixtures-$kind-$(sha256sum scripts/compare-builds/fixtures.py | cut -c1-12)"
if [ ! -d "$fixtures" ]; then
    rm -rf "$work/fixtures-$kind-"*
    bench="${LINKWRIGHT_BENCH:-$root/.build/release/linkwright-bench}"
    if [ ! -x "$bench" ]; then
        swift build -c release --product linkwright-bench >&2
    fi
    echo "making the inputs in $fixtures" >&2
    rm -rf "$fixtures.partial"
    python3 scripts/compare-builds/fixtures.py "$bench" "$fixtures.partial" "${sizes[@]}"
    mv "$fixtures.partial" "$fixtures"
fi

run="$work/run"
rm -rf "$run"
mkdir -p "$run/outputs" "$run/trees"
compared=0
differing=0

# Both builds write into the same path in turn, so the path they print is the same; each tree is
# then moved aside under its build's name.
tree="$run/tree"

# compare NAME FOLDER ARGUMENTS...: runs both builds in FOLDER; with "$tree" among the arguments,
# compares the trees they write there too.
compare() {
    local name=$1 folder=$2
    shift 2
    local side
    for side in 0 1; do
        local label=old
        [ $side = 1 ] && label=new
        local status=0
        rm -rf "$tree"
        (cd "$folder" && "${binaries[$side]}" "$@" > "$run/outputs/$name.$label.out" 2> "$run/outputs/$name.$label.err" \
            < "${input:-/dev/null}") || status=$?
        echo "$status" > "$run/outputs/$name.$label.status"
        if [ -e "$tree" ]; then mv "$tree" "$run/trees/$name.$label"; fi
    done
    local part before=$differing
    for part in out err status; do
        compared=$((compared + 1))
        if ! cmp -s "$run/outputs/$name.old.$part" "$run/outputs/$name.new.$part"; then
            echo "differs: $name ($part)"
            differing=$((differing + 1))
        fi
    done
    if [ -e "$run/trees/$name.old" ] || [ -e "$run/trees/$name.new" ]; then
        compared=$((compared + 1))
        if ! diff -r "$run/trees/$name.old" "$run/trees/$name.new" > /dev/null 2>&1; then
            echo "differs: $name (written files)"
            differing=$((differing + 1))
        fi
    fi
    # Only what differs is kept to be looked at: the outputs of a full run take gigabytes.
    if [ "$differing" -eq "$before" ]; then
        rm -f "$run/outputs/$name".{old,new}.{out,err,status}
        # The `build --check` commands read the generated configuration's tree.
        if [ "$name" != build-generated ]; then rm -rf "$run/trees/$name".{old,new}; fi
    fi
}

configs="$fixtures/configs"
for config in example generated invalid turned yaml-forms yaml-broken; do
    for format in text json github sarif junit markdown; do
        compare "test-$config-$format" "$configs/$config" test --format "$format"
    done
    compare "lint-$config" "$configs/$config" lint
done
for config in example generated invalid turned; do
    compare "build-$config" "$configs/$config" build --out "$tree"
    # Against the generated configuration's files: none differs, some do, or the input is unusable.
    compare "build-check-$config" "$configs/$config" build --check --out "$run/trees/build-generated.old" --format json
done
for language in swift kotlin; do
    compare "generate-$language" "$configs/example" generate "$language" --out "$tree"
done

histories="$fixtures/histories"
for history in tags large mixed-1 mixed-2; do
    [ -d "$histories/$history" ] || continue
    folder="$histories/$history"
    tags=$(git -C "$folder" tag | wc -l)
    middle=$(git -C "$folder" tag --sort=v:refname | sed -n "$((tags / 2))p")
    first=$(git -C "$folder" rev-list --max-parents=0 HEAD)
    for format in json markdown html; do
        compare "changelog-$history-$format" "$folder" changelog --format "$format"
    done
    compare "check-$history-previous" "$folder" check --against HEAD~1 --format json
    compare "check-$history-first" "$folder" check --against "$first" --format json
    compare "check-$history-middle" "$folder" check --against "$middle" --format markdown
    compare "diff-$history" "$folder" diff "$middle" HEAD --format json
done

input="$fixtures/match/urls.txt"
compare match-json "$fixtures/match" match --aasa rules.json --format json
compare match-text "$fixtures/match" match --aasa rules.json
input=""
# The generated configuration's tree, kept for `build --check`, goes unless its build differs.
[ -e "$run/outputs/build-generated.old.out" ] || rm -rf "$run"/trees/build-generated.{old,new}

if [ "$differing" -eq 0 ]; then
    echo "no differences in $compared outputs of the two builds"
else
    echo "$differing of $compared outputs differ; both sides are in $run"
    exit 1
fi
