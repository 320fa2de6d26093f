# menurank images, built from this one file:
#   docker build --target runtime -t menurank .     the menurank binary (default target)
#   docker build --target db -t menurank-db:15 .     PostgreSQL 15 with the hll extension
# docker-compose.yml builds both.

# --- build: compile a release binary with the Swift standard library linked in statically -------
FROM swift:6.1-jammy AS build
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libpq-dev libmicrohttpd-dev zlib1g-dev libsodium-dev libjemalloc-dev libcurl4-openssl-dev pkg-config \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The manifest first, so the dependency-free resolve step is cached across source edits.
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
COPY sql ./sql
# The version menurank --version prints (Package.swift reads it): `scripts/version` gives it from
# the git tags; docker-compose.yml passes MENURANK_VERSION through.
ARG MENURANK_VERSION=0.0.0-dev
ENV MENURANK_VERSION=${MENURANK_VERSION}
RUN swift build -c release --static-swift-stdlib --product menurank \
 && install -D "$(swift build -c release --show-bin-path)/menurank" /out/menurank

# --- db: PostgreSQL 15 plus hll (distinct users in the daily rollups) ----------------------------
# The official image carries the PGDG apt repository, which ships postgresql-15-hll.
FROM postgres:15 AS db
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends postgresql-15-hll \
 && rm -rf /var/lib/apt/lists/*

# --- runtime: a slim image with the C libraries menurank links against --------------------------
FROM ubuntu:22.04 AS runtime
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        libpq5 libmicrohttpd12 zlib1g libsodium23 libjemalloc2 libcurl4 ca-certificates tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /nonexistent --shell /usr/sbin/nologin menurank
COPY --from=build /out/menurank /usr/local/bin/menurank
COPY sql /usr/share/menurank/sql
ENV MENURANK_MIGRATIONS=/usr/share/menurank/sql
USER menurank
EXPOSE 8080
ENTRYPOINT ["menurank"]
CMD ["serve", "--listen", "0.0.0.0:8080"]
