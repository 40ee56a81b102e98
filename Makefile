# The README's two commands: `make demo` builds linkwright and compiles the example
# configuration into dist/; `make test` runs the whole test suite.
LINKWRIGHT := .build/debug/linkwright

.PHONY: demo test deps format fuzz release

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

format:
	swift format --in-place --recursive Sources Tests Fuzz Benchmarks Package.swift

fuzz: deps
	scripts/fuzz.sh

# A relocatable release build and its tarball (scripts/release.sh).
release: deps
	scripts/release.sh
