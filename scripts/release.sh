#!/usr/bin/env bash
# Makes the portable Linux linkwright: a release build with the Swift runtime and Foundation
# (--static-swift-stdlib) and libgit2 and libyaml (Debian's .a archives, with those of libgit2's
# own dependencies) linked in, packed as .build/release-artifacts/linkwright-VERSION-linux-ARCH.tar.gz
# with its SHA-256 beside it, then proven by --verify.
#
#   scripts/release.sh                   build, pack and verify
#   scripts/release.sh --verify TARBALL  verify a tarball made before
#   scripts/release.sh --build-only DIR  build and install the binary as DIR/bin/linkwright
#                                        (the Dockerfile's build stage)
#
# --verify checks that the binary loads nothing beyond glibc, libcurl 4, zlib and the two
# libraries libcurl 4 itself loads on Debian and Ubuntu (libcrypto 3 for libssh2, libgssapi_krb5
# for libgit2's Negotiate support: Debian ships neither as an archive), names the oldest glibc it
# needs, and runs lint, check and verify on the example configuration inside a chroot that holds
# only the binary, the libraries it loads and the example: no toolchain, no libgit2, no libyaml.
# Needs pkg-config; --verify needs root that may chroot and mount /proc there (in Docker:
# --privileged), openssl, git and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

# The shared libraries the binary may load directly, by soname.
allowed='^(libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|libutil\.so\.1|ld-linux[-.a-z0-9_]*\.so\.[0-9]|libgcc_s\.so\.1|libstdc\+\+\.so\.6|libcurl\.so\.4|libz\.so\.1|libcrypto\.so\.3|libgssapi_krb5\.so\.2)$'

fail() {
    echo "error: $*" >&2
    exit 1
}

# Linker scripts named like the shared libgit2 and libyaml, which the -lgit2 and -lyaml of the
# CGit2 and CYaml module maps find: each names the static archives in their place, with those of
# libgit2's dependencies that Debian ships as archives. pkg-config files of the four libraries
# put this folder, and no system folder, on the linker's search path ahead of the system's
# (Debian's own files add -L/usr/lib/ARCH, where libgit2.so would be found first).
write_static_link_folder() {
    local folder=$1 libraries
    libraries=$(pkg-config --variable=libdir libgit2)
    mkdir -p "$folder/pkgconfig"
    local archives=() library
    for library in git2 mbedtls mbedx509 mbedcrypto http_parser ssh2 pcre2-8 yaml; do
        [ -e "$libraries/lib$library.a" ] || fail "$libraries/lib$library.a is missing (apt-get install libgit2-dev libyaml-dev)"
        archives+=("$libraries/lib$library.a")
    done
    # libssh2.a calls OpenSSL's libcrypto, and libgit2.a GSSAPI: both stay shared, named by
    # their sonames since Debian's libgssapi_krb5.so comes only with libkrb5-dev.
    local shared=()
    for library in libcrypto.so.3 libgssapi_krb5.so.2; do
        [ -e "$libraries/$library" ] || fail "$libraries/$library is missing"
        shared+=("$libraries/$library")
    done
    printf 'GROUP ( %s %s -lz -lrt )\n' "${archives[*]:0:7}" "${shared[*]}" >"$folder/libgit2.so"
    printf 'INPUT ( %s )\n' "${archives[7]}" >"$folder/libyaml.so"
    local module name
    for module in libgit2:git2 yaml-0.1:yaml libcurl:curl zlib:z; do
        name=${module#*:}
        module=${module%%:*}
        {
            echo "Name: $module"
            echo "Description: $module, for the portable linkwright"
            echo "Version: $(pkg-config --modversion "$module")"
            if [ "$name" = git2 ] || [ "$name" = yaml ]; then
                echo "Libs: -L$folder -l$name"
            else
                echo "Libs: -l$name"
            fi
            # As Debian's own files say, so the compile commands stay those of a plain build.
            echo "Cflags: $(pkg-config --cflags "$module")"
        } >"$folder/pkgconfig/$module.pc"
    done
}

# A self-signed certificate for the example's production hosts, and an HTTPS server on 127.0.0.1
# answering each host's .well-known files from dist/production/HOST, as the hosts would serve them.
start_example_server() {
    local folder=$1
    openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj "/CN=linkwright release check" \
        -addext "subjectAltName=DNS:museo.example,DNS:entradas.museo.example,DNS:app.emergencias.example" \
        -keyout "$folder/key.pem" -out "$folder/cert.pem" 2>/dev/null
    python3 - "$root/dist/production" "$folder" <<'PYTHON' &
import http.server, os, ssl, sys
served, folder = sys.argv[1], sys.argv[2]
class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        host = self.headers.get("Host", "").split(":")[0]
        path = os.path.join(served, host, self.path.lstrip("/").split("?")[0])
        if ".." in self.path or not os.path.isfile(path):
            self.send_error(404)
            return
        body = open(path, "rb").read()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
    def log_message(self, *arguments):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
context.load_cert_chain(os.path.join(folder, "cert.pem"), os.path.join(folder, "key.pem"))
server.socket = context.wrap_socket(server.socket, server_side=True)
with open(os.path.join(folder, "port.tmp"), "w") as port:
    port.write(str(server.server_address[1]))
os.rename(os.path.join(folder, "port.tmp"), os.path.join(folder, "port"))
server.serve_forever()
PYTHON
    server_pid=$!
    for _ in $(seq 100); do
        [ -e "$folder/port" ] && return 0
        sleep 0.1
    done
    fail "the example's HTTPS server did not start"
}

# Runs linkwright inside the chroot, with an empty environment.
in_chroot() {
    env -i PATH=/bin HOME=/work "$(command -v chroot)" "$jail" /bin/linkwright "$@"
}

verify() {
    local tarball=$1 binary
    scratch=$(mktemp -d)
    trap 'if [ -n "${server_pid:-}" ]; then kill "$server_pid" 2>/dev/null || true; fi
          if [ -n "${jail:-}" ]; then umount "$jail/proc" 2>/dev/null || true; fi
          rm -rf "$scratch"' EXIT
    tar -C "$scratch" -xzf "$tarball"
    binary=$(echo "$scratch"/linkwright-*/bin/linkwright)
    [ -x "$binary" ] || fail "$tarball holds no linkwright-*/bin/linkwright"

    local needed
    needed=$(readelf -d "$binary" | sed -n 's/.*Shared library: \[\(.*\)\]/\1/p')
    if echo "$needed" | grep -Ev "$allowed"; then
        fail "$binary loads the libraries above, beyond glibc, libcurl 4, zlib, libcrypto 3 and libgssapi_krb5"
    fi
    echo "loads: $(echo "$needed" | tr '\n' ' ')"
    local glibc
    glibc=$(objdump -T "$binary" | grep -o 'GLIBC_[0-9][0-9.]*' | sort -uV | tail -n 1)
    echo "needs glibc ${glibc#GLIBC_} or later"

    # The chroot: the binary, every library it loads (ldd lists them all, however deep), the
    # example configuration in a git repository with a change to check, and the server's CA.
    jail="$scratch/root"
    mkdir -p "$jail/bin" "$jail/work"
    cp "$binary" "$jail/bin/linkwright"
    local library
    for library in $(ldd "$binary" | grep -o '/[^ ]*'); do
        case "$library" in
            *libgit2* | *libyaml* | *swift*) fail "$binary loads $library" ;;
        esac
        mkdir -p "$jail$(dirname "$library")"
        cp -L "$library" "$jail$library"
    done
    cp -R environments domains policies dist "$jail/work/"
    git -C "$jail/work" init -q
    git -C "$jail/work" add -A
    git -C "$jail/work" -c user.name=release -c user.email=release@localhost commit -qm example
    sed -i 's|^\(  museo.example: museo\)$|\1\n  nuevo.museo.example: museo|' "$jail/work/environments/production.yaml"
    git -C "$jail/work" -c user.name=release -c user.email=release@localhost commit -qam "a new host"
    start_example_server "$scratch"
    cp "$scratch/cert.pem" "$jail/ca.pem"
    local port
    port=$(cat "$scratch/port")

    [ -z "$(find "$jail" -name 'libgit2*' -o -name 'libyaml*' -o -name 'libswift*')" ] ||
        fail "the chroot holds libgit2, libyaml or a Swift library"
    # Foundation reads the arguments from /proc/self/cmdline.
    mkdir -p "$jail/proc"
    mount -t proc proc "$jail/proc" ||
        fail "could not mount /proc in the chroot: run as root, in Docker with --privileged"
    in_chroot --version
    in_chroot lint --config /work >"$scratch/lint.txt" 2>&1 || fail "lint failed in the chroot: $(cat "$scratch/lint.txt")"
    local status=0
    (cd / && in_chroot check --config /work --against HEAD~1 --format json) >"$scratch/check.json" || status=$?
    # 0 nothing blocks, 1 a finding blocks; 2 would mean the repository could not be read.
    [ "$status" -le 1 ] || fail "check could not read the repository in the chroot (exit $status)"
    grep -q nuevo.museo.example "$scratch/check.json" || fail "check did not see the new host"
    local connect=()
    for host in museo.example entradas.museo.example app.emergencias.example; do
        connect+=(--connect-to "$host:443:127.0.0.1:$port")
    done
    git -C "$jail/work" checkout -q HEAD~1
    in_chroot verify --config /work --env production --host museo.example --host entradas.museo.example \
        --host app.emergencias.example --cacert /ca.pem "${connect[@]}" >"$scratch/verify.txt" ||
        fail "verify failed in the chroot: $(cat "$scratch/verify.txt")"
    echo "lint, check and verify ran in a chroot without a toolchain, libgit2 or libyaml"
}

case "${1:-}" in
    --verify | --build-only) [ $# -eq 2 ] || fail "usage: scripts/release.sh [--verify TARBALL | --build-only DIR]" ;;
    "") ;;
    *) fail "usage: scripts/release.sh [--verify TARBALL | --build-only DIR]" ;;
esac
if [ "${1:-}" = "--verify" ]; then
    verify "$2"
    exit 0
fi

write_static_link_folder "$root/.build/static-link"
export PKG_CONFIG_PATH="$root/.build/static-link/pkgconfig"
# Its own scratch folder: the link differs from a plain release build's.
flags=(-c release --static-swift-stdlib --scratch-path .build/portable)
swift build "${flags[@]}" --product linkwright
binary="$(swift build "${flags[@]}" --show-bin-path)/linkwright"
if [ "${1:-}" = "--build-only" ]; then
    install -D -m 755 "$binary" "$2/bin/linkwright"
    strip "$2/bin/linkwright"
    exit 0
fi

version_line=$(env -i PATH=/usr/bin:/bin "$binary" --version)
version=${version_line#linkwright }
name="linkwright-$version-linux-$(uname -m)"
artifacts=.build/release-artifacts
staging="$artifacts/$name"
rm -rf "$staging"
mkdir -p "$staging/bin"
cp "$binary" "$staging/bin/linkwright"
strip "$staging/bin/linkwright"
cp README.md "$staging/"
tar -C "$artifacts" -czf "$artifacts/$name.tar.gz" "$name"
(cd "$artifacts" && sha256sum "$name.tar.gz" >"$name.tar.gz.sha256")
rm -rf "$staging"
verify "$artifacts/$name.tar.gz"
echo "$artifacts/$name.tar.gz"
cat "$artifacts/$name.tar.gz.sha256"
