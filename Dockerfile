# linkwright in a container: `docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" IMAGE check`.
# The binary is the portable Linux one of scripts/release.sh, made in one of two ways:
#   docker build .                          builds it from this checkout (the `source-build` stage)
#   docker build --build-arg BINARY=release-binary --build-context release=DIR .
#                                           unpacks the release's tarball for the target
#                                           architecture from DIR, after checking it against
#                                           DIR/SHA256SUMS (what release.yml does)
ARG BINARY=source-build
# Debian's packages are not pinned to versions (DL3008): bookworm replaces a version with its
# security fix, and a pinned one that is gone fails the build.

FROM swift:6.3-bookworm AS source-build
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libgit2-dev libyaml-dev libcurl4-openssl-dev zlib1g-dev binutils pkg-config \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN scripts/release.sh --build-only /opt/linkwright

FROM debian:bookworm-slim AS release-binary
ARG TARGETARCH
SHELL ["/bin/bash", "-o", "pipefail", "-c"]
WORKDIR /release
# `release` is a build context (--build-context release=DIR), not a stage.
# hadolint ignore=DL3022
COPY --from=release . .
RUN case "$TARGETARCH" in amd64) arch=x86_64 ;; arm64) arch=aarch64 ;; *) exit 1 ;; esac \
    && tarball=$(ls linkwright-*-linux-"$arch".tar.gz) \
    && grep " $tarball\$" SHA256SUMS | sha256sum -c - \
    && tar -xzf "$tarball" \
    && install -D -m 755 linkwright-*-linux-"$arch"/bin/linkwright /opt/linkwright/bin/linkwright

# hadolint ignore=DL3006
FROM ${BINARY} AS binary

FROM debian:bookworm-slim
# libcurl 4 (which brings zlib, libcrypto 3 and libgssapi_krb5) is all the binary loads beyond
# glibc; the CA certificates are for verify and monitor.
# hadolint ignore=DL3008
RUN apt-get update \
    && apt-get install -y --no-install-recommends libcurl4 ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --user-group --create-home linkwright
COPY --from=binary /opt/linkwright/bin/linkwright /usr/local/bin/linkwright
USER 10001:10001
WORKDIR /work
ENTRYPOINT ["linkwright"]
CMD ["--help"]
