# vaultd services in one image; pick the service with the command, e.g.
#   docker build -t vaultd .
#   docker run -e RPC_URL=... -e ADMIN_API_KEY=... -p 3009:3009 vaultd registry
#   docker run -p 8545:8545 -p 3009:3009 vaultd devstack --host 0.0.0.0
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -ldflags="-s -w" -o /out/ ./cmd/...

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --system --uid 10001 --home-dir /data vaultd \
    && mkdir -p /data && chown vaultd /data
COPY --from=build /out/ /usr/local/bin/
USER vaultd
WORKDIR /data
ENV DATA_FILE=/data/tokens.json ICONS_DIR=/data/icons DATABASE_URL=sqlite:/data/faucet.db
VOLUME ["/data"]
EXPOSE 3009 3010 3011 8545
ENTRYPOINT []
CMD ["registry"]
