# vaultd's images: one small image per service, and devstack for development.
#
#   buildah bud --target relayer -t vaultd-relayer .      (or: docker build --target relayer …)
#   targets: registry, relayer, faucet, indexer (static binary, non-root, HEALTHCHECK without
#   curl: `<service> healthcheck`), devstack (the dev chain and every service, dev keys
#   included: never for anything that holds value).
#
# Base images are fully qualified, so that buildah and podman resolve them as Docker does, and
# pinned by digest, so that a build cannot change under an unchanged Dockerfile. The digests are
# those these tags pointed at when they were pinned (docs/deploying.md); refresh with
# `skopeo inspect --format '{{.Digest}}' docker://IMAGE` or `crane digest IMAGE`, or point the
# arguments at your own mirror. .ci/images builds with stand-ins made from the machine's own Go
# toolchain, since base images cannot be pulled where CI runs.
ARG GO_IMAGE=docker.io/library/golang:1.26.8-bookworm@sha256:a688600ca24f8a4d3ca77f95b0dd40704a9fc787c826660eb7ba0b641b8b175d
ARG RUNTIME_IMAGE=gcr.io/distroless/static-debian12:nonroot@sha256:afa5c872c891853ca7fcf1f12c3edb23f7eeef36189728842dd51042ff57f7ab
# BUILD_FLAGS: -trimpath keeps the build machine's paths out of the binaries, and makes a Go build
# cache mounted from outside (made by a build in any directory with -trimpath) apply here.
ARG BUILD_FLAGS=-trimpath
# VERSION: what each binary's `--version` and each service's GET /health say, set at link time
# (service/kit/buildversion): the release's tag, e.g. `--build-arg VERSION=$(git describe --tags)`.
# Letters, digits and . + _ - only (the documents' pattern). Empty: "devel" (the build runs
# without VCS information).
ARG VERSION=

FROM ${GO_IMAGE} AS build
ARG BUILD_FLAGS
ARG VERSION
WORKDIR /src
ENV CGO_ENABLED=0 GOFLAGS=-buildvcs=false
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN go build ${BUILD_FLAGS} -ldflags="-s -w -X github.com/seed018cc74c/vaultd/service/kit/buildversion.version=${VERSION}" -o /out/ ./cmd/registry ./cmd/relayer ./cmd/faucet ./cmd/indexer ./cmd/devstack \
    && mkdir -p /out/data

# Every service image: a static binary on a minimal base, as an unprivileged user, its state in
# /data (a volume).
FROM ${RUNTIME_IMAGE} AS service
COPY --from=build --chown=65532:65532 /out/data /data
USER 65532:65532
WORKDIR /data
VOLUME ["/data"]

FROM service AS registry
COPY --from=build /out/registry /usr/local/bin/registry
ENV DATA_FILE=/data/tokens.json ICONS_DIR=/data/icons
EXPOSE 3009
HEALTHCHECK --interval=15s --timeout=5s CMD ["/usr/local/bin/registry", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/registry"]

FROM service AS relayer
COPY --from=build /out/relayer /usr/local/bin/relayer
ENV DATABASE_URL=sqlite:/data/relayer.db
EXPOSE 3010
HEALTHCHECK --interval=15s --timeout=5s CMD ["/usr/local/bin/relayer", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/relayer"]

FROM service AS faucet
COPY --from=build /out/faucet /usr/local/bin/faucet
ENV DATABASE_URL=sqlite:/data/faucet.db
EXPOSE 3011
HEALTHCHECK --interval=15s --timeout=5s CMD ["/usr/local/bin/faucet", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/faucet"]

FROM service AS indexer
COPY --from=build /out/indexer /usr/local/bin/indexer
ENV DATABASE_URL=sqlite:/data/indexer.db
EXPOSE 3012
HEALTHCHECK --interval=15s --timeout=5s CMD ["/usr/local/bin/indexer", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/indexer"]

# The whole dev stack in one container: `-p 8545:8545 -p 3009-3012:3009-3012`. It listens on
# every interface and advertises PUBLIC_HOST (default localhost) in the URLs it prints.
FROM service AS devstack
COPY --from=build /out/devstack /usr/local/bin/devstack
EXPOSE 8545 3009 3010 3011 3012
HEALTHCHECK --interval=15s --timeout=5s CMD ["/usr/local/bin/devstack", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/devstack", "--host", "0.0.0.0", "--data-dir", "/data", "--out", "/data/devnet.json"]
