# The README's two commands: `make demo` builds linkwright and compiles the example
# configuration into dist/; `make test` runs the whole test suite. `make install` puts a release
# build in $(PREFIX)/bin.
LINKWRIGHT := .build/debug/linkwright
PREFIX ?= /usr/local

.PHONY: demo test deps install format fuzz release

# Only what building and running need; the test suite's checkers come with `make test`.
demo: deps
	swift build --product linkwright
	$(LINKWRIGHT) build

# The tests also compile the generated Kotlin routers, with Debian's kotlin, and assemble and
# sign real APKs with Debian's aapt, zipalign and apksigner, and read iOS test builds with lief.
test:
	@scripts/install-deps.sh --with-kotlin --with-builds
	swift build --build-tests
	swift test --disable-xctest

deps:
	@scripts/install-deps.sh

install: deps
	swift build -c release --product linkwright
	install -d "$(DESTDIR)$(PREFIX)/bin"
	install -m 755 "$$(swift build -c release --show-bin-path)/linkwright" "$(DESTDIR)$(PREFIX)/bin/linkwright"

format:
	swift format --in-place --recursive Sources Tests Fuzz Benchmarks Plugins examples Package.swift

fuzz: deps
	scripts/fuzz.sh

# The portable Linux binary, its tarball and SHA-256, and the proof that it runs without the
# toolchain, libgit2 or libyaml (scripts/release.sh; its check runs openssl and python3).
release: deps
	scripts/release.sh
