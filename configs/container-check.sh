#!/bin/bash
# make container-check: the Containerfile of docs/scale-out.md, built and
# used on this machine with nothing but Debian's mirror and the Go module
# proxy. As root it
#
#   1. installs Debian's podman, buildah, runc and debootstrap if they are
#      missing;
#   2. makes the base image localhost/debian:bookworm-slim with
#      debootstrap from the mirror apt uses here, slim as Debian's own
#      bookworm-slim image is (no manual pages, documentation or
#      translations), unless it exists: it is kept, later runs reuse it
#      (REBASE=1 makes it again);
#   3. builds the image from the Containerfile, prints its size and fails
#      above MAX_MB (1100, in MB of 10^6 bytes: the toolchains are most of
#      it, see docs/scale-out.md), and compiles a program in every
#      language of configs/languages.toml in it;
#   4. runs 'judge doctor' in it, with and without the container's /proc
#      unmasked, and requires level namespaces with it;
#   5. plays a tic-tac-toe round robin of the example bots in C, Go, Java
#      and Python (built in the container, as at a tournament) once
#      unsharded, then as 2 shards, each in its own container at once,
#      and merges them in a third; the merge must exit 0 and its
#      standings.json equal the unsharded run's byte for byte.
#
# Containers run with --rm, the image is removed at the end (KEEP_IMAGE=1
# keeps it as localhost/judge:check), and the temporary directory too
# (KEEP=1 keeps it).
# Not part of 'make test': it needs root, the network and a few minutes.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BASE=localhost/debian:bookworm-slim
IMAGE=localhost/judge:check
ROUNDS=${ROUNDS:-2}
SEED=${SEED:-7}
MAX_MB=${MAX_MB:-1100}
NAME=judge-container-check-$$
T0=$(date +%s.%N)
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
say() { echo "container-check [$(since "$T0")s] $*"; }
die() { echo "container-check: FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root: it installs packages, runs debootstrap and rootful podman (run: sudo make container-check)"

# 1. Packages.
missing=""
for t in podman:podman buildah:buildah runc:runc debootstrap:debootstrap; do
    command -v "${t%%:*}" >/dev/null || missing="$missing ${t#*:}"
done
if [ -n "$missing" ]; then
    say "installing:$missing"
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

# runc, not bookworm's crun (1.8), which refuses machines whose cgroup v2
# hierarchy has controllers while v1 is mounted too. A root without
# CAP_SYS_RESOURCE cannot raise its limits to podman's defaults for
# containers (1048576 open files, processes up to pid_max): it passes its
# own.
PODMAN=(podman --runtime runc)
LIMITS=()
capeff=$(awk '/^CapEff:/ { print $2 }' /proc/self/status)
if (( (16#$capeff >> 24 & 1) == 0 )); then
    nproc=$(ulimit -Hu)
    pidmax=$(cat /proc/sys/kernel/pid_max)
    [ "$nproc" = unlimited ] || [ "$nproc" -gt "$pidmax" ] && nproc=$pidmax
    LIMITS=(--ulimit "nofile=$(ulimit -Hn):$(ulimit -Hn)" --ulimit "nproc=$nproc:$nproc")
fi
say "$(podman --version), $(runc --version | head -1), $(buildah --version | cut -d' ' -f1-3)"

W=$(mktemp -d "${TMPDIR:-/tmp}/judge-container-check.XXXXXX")
teardown() {
    local rc=$?
    set +e
    for c in "$NAME-shard-0" "$NAME-shard-1"; do
        podman container exists "$c" 2>/dev/null && podman rm -f "$c" >/dev/null
    done
    if [ "${KEEP_IMAGE:-0}" != 1 ]; then
        podman image exists "$IMAGE" 2>/dev/null && podman rmi "$IMAGE" >/dev/null
    fi
    if [ "${KEEP:-0}" = 1 ]; then
        echo "container-check: kept $W"
    else
        rm -rf "$W"
    fi
    if [ "$rc" = 0 ]; then
        say "PASS in $(since "$T0") s"
    else
        echo "container-check: FAILED (status $rc)" >&2
    fi
    exit "$rc"
}
trap teardown EXIT

# 2. The base image: Debian bookworm from the mirror apt uses here.
mirror() {
    local m
    m=$( { cat /etc/apt/sources.list 2>/dev/null; cat /etc/apt/sources.list.d/*.list 2>/dev/null; } |
        awk '$1 == "deb" && $3 == "bookworm" { for (i = 2; i <= NF; i++) if ($i ~ /^https?:/) { print $i; exit } }')
    if [ -z "$m" ]; then
        m=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk '
            /^$/ { uri = ""; suite = 0 }
            /^URIs:/ { uri = $2 }
            /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == "bookworm") suite = 1 }
            uri != "" && suite { print uri; exit }')
    fi
    echo "${m:-http://deb.debian.org/debian}"
}
if [ "${REBASE:-0}" = 1 ] && podman image exists "$BASE"; then
    podman rmi "$BASE" >/dev/null
fi
if podman image exists "$BASE"; then
    say "base image $BASE: kept from an earlier run"
else
    MIRROR=${MIRROR:-$(mirror)}
    SECURITY=${MIRROR%/debian}/debian-security
    t=$(date +%s.%N)
    say "base image $BASE: debootstrap --variant=minbase bookworm from $MIRROR"
    debootstrap --variant=minbase bookworm "$W/root" "$MIRROR" >"$W/debootstrap.log" 2>&1 ||
        { tail -20 "$W/debootstrap.log"; die "debootstrap"; }
    # Slim, with the apt sources of the official image and no caches.
    printf '%s\n' 'path-exclude /usr/share/doc/*' 'path-include /usr/share/doc/*/copyright' \
        'path-exclude /usr/share/man/*' 'path-exclude /usr/share/info/*' \
        'path-exclude /usr/share/locale/*' >"$W/root/etc/dpkg/dpkg.cfg.d/excludes"
    find "$W/root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
    find "$W/root/usr/share/doc" -mindepth 1 -type d -empty -delete
    rm -rf "$W"/root/usr/share/man/* "$W"/root/usr/share/info/* "$W"/root/usr/share/locale/*
    rm -f "$W/root/etc/apt/sources.list"
    cat >"$W/root/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $MIRROR
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $SECURITY
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    rm -rf "$W"/root/var/cache/apt/*.bin "$W"/root/var/cache/apt/archives/*.deb "$W"/root/var/lib/apt/lists/*
    tar -C "$W/root" -c . | podman import --change 'CMD ["bash"]' - "$BASE" >"$W/import.log" 2>&1 ||
        { cat "$W/import.log"; die "podman import"; }
    rm -rf "$W/root"
    say "base image made in $(since "$t") s, $(( $(podman image inspect --format '{{.Size}}' "$BASE") / 1000000 )) MB"
fi

# 3. The image.
t=$(date +%s.%N)
say "building $IMAGE from the Containerfile"
# The Go module proxy go uses here, and the CA bundle this machine trusts
# (for a proxy that intercepts TLS).
ARGS=()
if command -v go >/dev/null; then ARGS+=(--build-arg "GOPROXY=$(go env GOPROXY)"); fi
CA=${SSL_CERT_FILE:-/etc/ssl/certs/ca-certificates.crt}
if [ -s "$CA" ]; then ARGS+=(--secret "id=ca,src=$CA"); fi
"${PODMAN[@]}" build "${LIMITS[@]}" --layers=false "${ARGS[@]}" -t "$IMAGE" -f "$REPO/Containerfile" "$REPO" >"$W/build.log" 2>&1 ||
    { tail -30 "$W/build.log"; die "podman build"; }
size=$(podman image inspect --format '{{.Size}}' "$IMAGE")
BUILD_S=$(since "$t")
say "image built in $BUILD_S s: $(( (size + 500000) / 1000000 )) MB"
(( size <= MAX_MB * 1000000 )) || die "the image is $(( (size + 500000) / 1000000 )) MB, more than $MAX_MB MB"

RUN=("${PODMAN[@]}" run --rm "${LIMITS[@]}")
UNMASK=(--security-opt 'unmask=/proc/*')
# Every toolchain, as configs/languages.toml calls it (the tournament
# below builds C, Go and Java bots again, through the judge).
t=$(date +%s.%N)
# shellcheck disable=SC2016 # expanded by the container's shell
"${RUN[@]}" -v "$REPO/examples:/bots:ro" --entrypoint sh "$IMAGE" -euc '
    cd /tmp # tmp-ok: in the container
    printf "#include <iostream>\n#include <vector>\nint main() { std::vector<int> v{1, 2}; std::cout << v.size() << std::endl; }\n" >a.cpp
    gcc -O2 -std=gnu17 -o c /bots/gomoku/random.c -lm
    g++ -O2 -std=gnu++20 -o cpp a.cpp && test "$(./cpp)" = 2
    CGO_ENABLED=0 GOCACHE=/tmp/go-build go build -trimpath -buildvcs=false -o go /bots/gomoku/strong/main.go # tmp-ok: in the container
    rustc -O --edition 2021 -o rs /bots/connect4/alphabeta.rs
    javac -encoding UTF-8 -d java /bots/gomoku/RandomBot.java
    python3 -c "import json, random"
    gcc --version | head -1; g++ --version | head -1; go version; rustc --version; javac -version 2>&1; python3 --version' |
    sed 's/^/    /' || die "a toolchain in the image"
say "every toolchain compiled an example in $(since "$t") s"

# 4. The sandbox in the container.
level() { awk '/^sandbox level:/ { print $3 }'; }
masked=$("${RUN[@]}" "$IMAGE" doctor | level)
"${RUN[@]}" "${UNMASK[@]}" "$IMAGE" doctor >"$W/doctor.txt"
unmasked=$(level <"$W/doctor.txt")
say "judge doctor: level $masked as podman runs it by default, $unmasked with ${UNMASK[*]}"
[ "$unmasked" = namespaces ] || { cat "$W/doctor.txt"; die "level $unmasked, not namespaces, with ${UNMASK[*]}"; }

# 5. A sharded tournament, against one run.
mkdir -p "$W/data"
chown 10001:10001 "$W/data"
PLAY=("${RUN[@]}" "${UNMASK[@]}" -v "$REPO/examples:/bots:ro" -v "$W/data:/data")
BOTS=(/bots/gomoku/random.c /bots/gomoku/strong /bots/gomoku/RandomBot.java "python3 /bots/gomoku/random_bot.py")
# Each container builds the bots into a cache of its own, on its local
# disk, as configs/k8s-tournament-job.yaml has it.
TOURNAMENT=(tournament --game tictactoe --rounds "$ROUNDS" --seed "$SEED" --jobs 1 --sandbox namespaces
    --turn 2s --first-turn 10s --cache /tmp/judge-cache --quiet) # tmp-ok: in the container

t=$(date +%s.%N)
"${PLAY[@]}" "$IMAGE" "${TOURNAMENT[@]}" --out /data/one "${BOTS[@]}" ||
    die "the unsharded tournament"
ONE_S=$(since "$t")
grep -q '^## Left out' "$W/data/one/standings.md" && { cat "$W/data/one/standings.md"; die "bots left out"; }
say "unsharded: $(grep -o '[0-9]* of [0-9]* matches played' "$W/data/one/standings.md") in $ONE_S s, the bots built in it"

t=$(date +%s.%N)
pids=()
for i in 0 1; do
    "${PLAY[@]}" --name "$NAME-shard-$i" "$IMAGE" "${TOURNAMENT[@]}" --shard "$i/2" \
        --out "/data/shard-$i" "${BOTS[@]}" >"$W/shard-$i.log" 2>&1 &
    pids+=($!)
done
for i in 0 1; do
    wait "${pids[$i]}" || { cat "$W/shard-$i.log"; die "shard $i/2"; }
done
SHARDS_S=$(since "$t")
say "2 shards, each in its own container at once, each building the bots: $SHARDS_S s"

t=$(date +%s.%N)
rc=0
"${PLAY[@]}" "$IMAGE" merge --quiet --out /data/all /data/shard-0 /data/shard-1 || rc=$?
[ "$rc" = 0 ] || die "judge merge exited $rc"
say "judge merge in a third container: exit 0 in $(since "$t") s"
cmp "$W/data/one/standings.json" "$W/data/all/standings.json" ||
    die "the merged standings.json differs from the unsharded run's"
say "merged standings.json equals the unsharded run's"
sed 's/^/    /' "$W/data/all/standings.md" 2>/dev/null || true
say "image $(( (size + 500000) / 1000000 )) MB, built in $BUILD_S s; unsharded $ONE_S s, shards $SHARDS_S s"
