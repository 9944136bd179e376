#!/bin/bash
# make cgroup2-check: the sandbox on a machine with cgroup v2 only, the
# kernel of a distribution and systemd, as most users have it. As root it
#
#   1. installs Debian's qemu-system-x86, debootstrap and e2fsprogs if
#      they are missing;
#   2. builds, on this machine, the test binaries of ./sandbox and
#      ./judge/procbot (go test -c) and the judge;
#   3. makes a Debian 12 (bookworm) system with debootstrap from the
#      mirror apt uses here: its kernel (6.1), systemd, gcc and python3
#      for the test bots, a normal user "judge" whose systemd user manager
#      runs from boot (lingering), and a unit that runs the checks at boot
#      and powers off;
#   4. boots it under QEMU with cgroup v1 switched off
#      (systemd.unified_cgroup_hierarchy=1 cgroup_no_v1=all) and no
#      network, with KVM where the kernel boots under it and TCG
#      otherwise. The run's files (a copy of the source tree, the test
#      binaries, the judge, Go for the tests' Go bots) are on a second
#      disk. In the VM, with the results on a second serial port:
#      - 'judge doctor' in a delegated scope (systemd-run --scope -p
#        Delegate=yes) as root, and in the user's delegated scope
#        (systemd-run --user --scope -p Delegate=yes) as the user; both
#        must say level full;
#      - every test of both test binaries, each binary alone in such a
#        scope, as root and then as the user;
#      - a small tic-tac-toe tournament at level full (bots in C and
#        Python built by the judge, and one in Go built here: under
#        emulation, compiling Go takes more than a compile's minute of
#        CPU), as root and as the user, every match played;
#      - as the user, BenchmarkStart of the sandbox's tests: a start in a
#        ready sandbox at full and namespaces against a plain child;
#      - as the user, a tic-tac-toe tournament of 100 matches at one job
#        between two C bots at levels none, namespaces and full in turn,
#        three times: every match played, and the ratios of the median
#        times printed (not checked: the VM is emulated);
#      - CGROUP2_EXTRA, when set: a program (a script or a test binary)
#        copied into the VM and run there last, as root, in the source
#        tree, with PATH holding Go and the judge; its exit status counts.
#   5. prints each step's result, every failed test with its messages and
#      every skipped test with its reason, and passes when all passed.
#
# Nothing is left: QEMU is ended by pid if it outlives its deadline
# (CGROUP2_TIMEOUT, 90 minutes), processes left under the temporary
# directory are ended and reported, and the directory is removed (KEEP=1
# keeps it, with the tests' full logs in logs/). CGROUP2_CACHE=DIR keeps
# the system image (the debootstrap and its kernel, about 1 GB) in DIR
# and reuses it in later runs: the run then takes a boot and the tests.
# CGROUP2_RUN=REGEXP runs only the tests it matches, CGROUP2_ONLY_EXTRA=1
# only CGROUP2_EXTRA; CGROUP2_ACCEL=kvm or tcg forces QEMU's accelerator.
# Not part of 'make test': it needs root and Debian's mirror. Measured
# here (2 shared CPUs, TCG: this machine's KVM does not boot the kernel):
# about 20 minutes, 5 of them to make the system image.
set -euo pipefail

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
TIMEOUT=${CGROUP2_TIMEOUT:-5400}
PKGS=systemd-sysv,dbus,dbus-user-session,libpam-systemd,udev,kmod,procps,iproute2,linux-image-amd64,initramfs-tools,gcc,libc6-dev,python3
T0=$(date +%s.%N)
since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
say() { echo "cgroup2-check [$(since "$T0")s] $*"; }
die() { echo "cgroup2-check: FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "needs root: it installs packages and runs debootstrap (run: sudo make cgroup2-check)"
command -v go >/dev/null || die "needs Go to build the test binaries"
if [ -n "${CGROUP2_EXTRA:-}" ]; then
    [ -f "$CGROUP2_EXTRA" ] && [ -x "$CGROUP2_EXTRA" ] || die "CGROUP2_EXTRA=$CGROUP2_EXTRA is not an executable file"
    EXTRA=$(cd "$(dirname "$CGROUP2_EXTRA")" && pwd)/$(basename "$CGROUP2_EXTRA")
fi

# 1. Packages.
missing=""
for t in qemu-system-x86_64:qemu-system-x86 debootstrap:debootstrap mkfs.ext4:e2fsprogs debugfs:e2fsprogs; do
    command -v "${t%%:*}" >/dev/null || missing="$missing ${t#*:}"
done
if [ -n "$missing" ]; then
    say "installing:$missing"
    apt-get update -qq
    # shellcheck disable=SC2086
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi

W=$(mktemp -d "${TMPDIR:-/tmp}/judge-cgroup2-check.XXXXXX")
QEMU_PID=""
teardown() {
    local rc=$?
    set +e
    if [ -n "$QEMU_PID" ] && kill -0 "$QEMU_PID" 2>/dev/null; then
        kill "$QEMU_PID"
        for _ in $(seq 50); do kill -0 "$QEMU_PID" 2>/dev/null || break; sleep 0.1; done
        kill -9 "$QEMU_PID" 2>/dev/null
    fi
    local p left=""
    for p in /proc/[0-9]*; do
        case "$(readlink "$p/exe" 2>/dev/null) $(readlink "$p/cwd" 2>/dev/null)" in
        *"$W"/*) left="$left ${p#/proc/}"; kill -9 "${p#/proc/}" 2>/dev/null ;;
        esac
    done
    [ -z "$left" ] || echo "cgroup2-check: ended processes left under $W:$left" >&2
    # The system being made, if debootstrap stopped halfway: its mounts
    # of /proc and /sys first.
    for m in $(awk -v w="$W/" 'index($2, w) == 1 { print $2 }' /proc/mounts | sort -r); do umount -l "$m"; done
    if [ "${KEEP:-0}" = 1 ]; then
        echo "cgroup2-check: kept $W"
    else
        rm -rf "$W"
    fi
    if [ "$rc" = 0 ]; then
        say "PASS in $(since "$T0") s"
    else
        echo "cgroup2-check: FAILED (status $rc) after $(since "$T0") s" >&2
    fi
    exit "$rc"
}
trap teardown EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# 2. The binaries, built here.
P=$W/payload
mkdir -p "$P/bin" "$P/src" "$P/modcache" "$P/logs"
t=$(date +%s.%N)
(cd "$REPO" && go test -c -o "$P/bin/sandbox.test" ./sandbox && go test -c -o "$P/bin/procbot.test" ./judge/procbot &&
    CGO_ENABLED=0 go build -o "$P/bin/judge" ./cmd/judge && CGO_ENABLED=0 go build -o "$P/bin/strong" ./examples/gomoku/strong) ||
    die "go build"
say "test binaries and the judge built in $(since "$t") s"
# The source tree (the tests read testdata and build bots from it), Go,
# and the go.mod files of the module's requirements (all that go build
# needs of them for a bot that imports none).
(cd "$REPO" && git ls-files -z -co --exclude-standard | tar --null -T - -c) | tar -C "$P/src" -x
cp -a "$(go env GOROOT)" "$P/go"
(cd "$(go env GOMODCACHE)" && find cache/download -name '*.mod' -print0 | tar --null -T - -c) | tar -C "$P/modcache" -x
[ -z "${EXTRA:-}" ] || cp "$EXTRA" "$P/bin/extra"
chmod -R a+rX "$P"
chmod 1777 "$P/logs"

# 3. The system image: made here, or kept in CGROUP2_CACHE.
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
SYS=${CGROUP2_CACHE:-$W/system}
mkdir -p "$SYS"
if [ -s "$SYS/root.img" ] && [ -s "$SYS/vmlinuz" ] && [ -s "$SYS/initrd.img" ] && [ "$(cat "$SYS/packages" 2>/dev/null)" = "$PKGS" ]; then
    say "system image: kept in $SYS from an earlier run"
else
    rm -f "$SYS/root.img" "$SYS/vmlinuz" "$SYS/initrd.img" "$SYS/kernel" "$SYS/packages"
    MIRROR=${MIRROR:-$(mirror)}
    R=$W/root
    t=$(date +%s.%N)
    say "system image: debootstrap --variant=minbase bookworm from $MIRROR"
    debootstrap --variant=minbase --include="$PKGS" bookworm "$R" "$MIRROR" >"$W/debootstrap.log" 2>&1 ||
        { tail -20 "$W/debootstrap.log"; die "debootstrap"; }
    echo cgroup2-check >"$R/etc/hostname"
    echo "/dev/vda / ext4 rw 0 1" >"$R/etc/fstab"
    chroot "$R" useradd -m -u 1000 -s /bin/bash judge
    mkdir -p "$R/var/lib/systemd/linger"
    touch "$R/var/lib/systemd/linger/judge"
    cat >"$R/usr/local/sbin/judge-check" <<'EOF'
#!/bin/sh
# Runs the checks of the second disk, writes to the second serial port,
# and powers the machine off.
mkdir -p /check
if mount /dev/vdb /check; then
    /check/run.sh >/dev/ttyS1 2>&1
    echo "cgroup2-check-vm: status $?" >/dev/ttyS1
    sync
    umount /check
else
    echo "cgroup2-check-vm: no second disk" >/dev/ttyS1
fi
systemctl poweroff --no-block
EOF
    chmod 755 "$R/usr/local/sbin/judge-check"
    cat >"$R/etc/systemd/system/judge-check.service" <<'EOF'
[Unit]
Description=The judge's checks on cgroup v2
After=systemd-logind.service dbus.service user@1000.service systemd-user-sessions.service

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/judge-check
TimeoutStartSec=infinity

[Install]
WantedBy=multi-user.target
EOF
    chroot "$R" systemctl enable judge-check.service >/dev/null 2>&1
    # No login prompts, nothing to wait for.
    chroot "$R" systemctl mask getty@tty1.service serial-getty@ttyS0.service serial-getty@ttyS1.service \
        systemd-networkd-wait-online.service >/dev/null 2>&1
    k=$(ls "$R"/boot/vmlinuz-* | tail -1)
    cp "$k" "$SYS/vmlinuz"
    basename "$k" | sed 's/^vmlinuz-//' >"$SYS/kernel"
    cp "$(ls "$R"/boot/initrd.img-* | tail -1)" "$SYS/initrd.img"
    rm -rf "$R"/var/cache/apt/archives/*.deb "$R"/var/lib/apt/lists/*
    truncate -s 4G "$SYS/root.img"
    mkfs.ext4 -q -F -L judge-root -d "$R" "$SYS/root.img" || die "mkfs.ext4 of the system"
    rm -rf "$R"
    echo "$PKGS" >"$SYS/packages"
    say "system image made in $(since "$t") s: kernel $(cat "$SYS/kernel"), $(du -m "$SYS/root.img" | cut -f1) MB used"
fi

# 4. The run, in the VM.
cat >"$P/summary.py" <<'EOF'
# The results of a test binary run through go tool test2json: a line per
# test that failed (the innermost), with its output, and per skipped test
# with its reason; then the counts.
import json, sys

out, res = {}, {}
for line in open(sys.argv[1], errors="replace"):
    try:
        e = json.loads(line)
    except ValueError:
        print("   ", line, end="")
        continue
    t = e.get("Test")
    if e["Action"] == "output":
        out.setdefault(t, []).append(e["Output"])
    elif e["Action"] in ("pass", "fail", "skip"):
        res[t] = e["Action"]
tests = {t: a for t, a in res.items() if t is not None}
for t, a in tests.items():
    lines = [l for l in out.get(t, []) if not l.lstrip().startswith(("=== ", "--- "))]
    if a == "fail" and not any(k.startswith(t + "/") and v == "fail" for k, v in tests.items()):
        print("  FAIL", t)
        for l in lines[-40:]:
            print("      " + l.rstrip()[:400])
    elif a == "skip":
        print("  SKIP", t + ":", " ".join(l.strip() for l in lines)[:300])
n = {a: sum(1 for v in tests.values() if v == a) for a in ("pass", "fail", "skip")}
if res.get(None) == "fail" and n["fail"] == 0:
    print("  the binary failed outside any test:")
    for l in out.get(None, [])[-30:]:
        print("      " + l.rstrip())
print("  %d passed, %d failed, %d skipped" % (n["pass"], n["fail"], n["skip"]))
if not tests:
    print("  no test ran:")
    for l in out.get(None, [])[-30:]:
        print("      " + l.rstrip())
sys.exit(1 if res.get(None) == "fail" or n["fail"] or not tests else 0)
EOF
cat >"$P/run.sh" <<'EOF'
#!/bin/bash
# In the VM, as root: the checks, each step's result on standard output.
# Go where the sandbox shows it to the compiles of the tournament's bots:
# under /usr.
mkdir -p /usr/local/go && mount --bind /check/go /usr/local/go
export PATH=/usr/local/go/bin:/check/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin
export GOMODCACHE=/check/modcache GOPROXY=off GOFLAGS=-mod=mod GOTOOLCHAIN=local GOTELEMETRY=off
export HOME=/root GOCACHE=/tmp/gocache-root # tmp-ok: in the VM
T0=$(date +%s)
failed=""
step() { echo "== [$(( $(date +%s) - T0 ))s] $*"; }
result() { if [ "$2" = 0 ]; then echo "   ok: $1"; else echo "   FAILED: $1"; failed="$failed; $1"; fi; }
# as root|user COMMAND...: COMMAND alone in a delegated scope.
as() {
    local who=$1
    shift
    if [ "$who" = root ]; then
        systemd-run --scope -p Delegate=yes --quiet --collect -- "$@"
    else
        # tmp-ok: in the VM
        runuser -u judge -- env HOME=/home/judge PATH="$PATH" GOMODCACHE="$GOMODCACHE" GOPROXY=off GOFLAGS=-mod=mod \
            GOTOOLCHAIN=local GOTELEMETRY=off GOCACHE=/tmp/gocache-judge XDG_RUNTIME_DIR=/run/user/1000 \
            DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus \
            systemd-run --user --scope -p Delegate=yes --quiet --collect -- "$@"
    fi
}
# leftovers: what the last step left (mounts, processes of the users
# bots run as, the judge's cgroups), reported, and a failure.
mounts() { awk '{ print $5 }' /proc/self/mountinfo | sort; }
leftovers() {
    local m p c
    m=$(comm -13 <(echo "$MOUNTS") <(mounts) | tr '\n' ' ')
    # Processes of nobody or of the user, and any left in a scope of
    # systemd-run's or of a judge's (as root too).
    p=$( { ps -o pid=,user=,args= -u 65534 2>/dev/null; ps -o pid=,user=,args= -u judge 2>/dev/null |
        grep -v -e 'systemd --user' -e '(sd-pam)' -e dbus-daemon
        for f in /proc/[0-9]*/cgroup; do
            grep -qE '/(run-r[0-9a-f]+|judge-[0-9]+)\.scope' "$f" 2>/dev/null && ps -o pid=,user=,args= -p "$(basename "$(dirname "$f")")"
        done; } 2>/dev/null | sort -u)
    # (A scope's cgroups go once systemd has seen its process end.)
    for _ in $(seq 20); do
        c=$(find /sys/fs/cgroup -name 'judge*' -not -name judge-check.service -type d 2>/dev/null | tr '\n' ' ')
        [ -z "$c" ] && break
        sleep 0.5
    done
    [ -z "$m$p$c" ] && return
    [ -z "$m" ] || echo "   LEFT: mounts $m"
    [ -z "$p" ] || echo "   LEFT: processes $(echo "$p" | tr '\n' ';')"
    [ -z "$c" ] || echo "   LEFT: cgroups $c"
    failed="$failed; leftovers"
}
echo "kernel $(uname -r), $(systemctl --version | head -1), /sys/fs/cgroup is $(stat -fc %T /sys/fs/cgroup)," \
    "controllers: $(cat /sys/fs/cgroup/cgroup.controllers), $(nproc) CPUs, $(awk '/MemTotal/ { print int($2 / 1024) }' /proc/meminfo) MB"
[ "$(awk '$3 == "cgroup" || $3 == "cgroup2" { print $3 }' /proc/mounts | sort -u)" = cgroup2 ] || { echo "FAILED: not cgroup v2 only"; exit 1; }
systemctl start user@1000.service || { echo "FAILED: no user manager for judge"; exit 1; }
MOUNTS=$(mounts)

if [ "${ONLY_EXTRA:-0}" != 1 ]; then
    for who in root user; do
        step "judge doctor as $who, in a delegated scope"
        as $who judge doctor >/check/logs/doctor-$who.txt 2>&1
        sed 's/^/   /' /check/logs/doctor-$who.txt
        grep -q '^sandbox level: full' /check/logs/doctor-$who.txt
        result "doctor as $who says full" $?
    done
    for who in root user; do
        for b in sandbox procbot; do
            src=/check/src/${b/procbot/judge/procbot}
            step "$b.test as $who, alone in a delegated scope"
            # The binary alone in its scope (test2json reads its output
            # afterwards): a second process there would keep the judge
            # from the cgroup it makes for its sandboxes.
            (cd "$src" && as $who /check/bin/$b.test -test.v=test2json -test.count=1 -test.timeout=60m \
                ${RUN:+-test.run "$RUN"}) >/check/logs/$b-$who.out 2>&1
            go tool test2json -p $b </check/logs/$b-$who.out >/check/logs/$b-$who.json
            python3 /check/summary.py /check/logs/$b-$who.json
            result "$b tests as $who" $?
            leftovers
        done
    done
    for who in root user; do
        step "a tic-tac-toe tournament at level full as $who"
        out=/tmp/tournament-$who # tmp-ok: in the VM
        # tmp-ok: in the VM
        (cd /check/src && as $who judge tournament --game tictactoe --rounds 2 --seed 1 --sandbox full --jobs 2 \
            --cache /tmp/judge-cache-$who --out $out --quiet examples/gomoku/random.c /check/bin/strong \
            "python3 examples/gomoku/random_bot.py") >/check/logs/tournament-$who.txt 2>&1
        rc=$?
        sed 's/^/   /' /check/logs/tournament-$who.txt
        played=$(grep -o '[0-9]* of [0-9]* matches played' $out/standings.md)
        echo "   $played"
        set -- $played
        [ -n "$played" ] && [ "$1" = "$3" ] && ! grep -q '^## Left out' $out/standings.md || rc=1
        sed -n '/^## Left out/,/^## [^L]/p' $out/standings.md | sed 's/^/   /'
        grep -c '"status":"crash"\|"status":"error"' $out/results.log | sed 's/^/   crash or error results: /'
        result "tournament as $who" $rc
        leftovers
    done
    step "a start in a ready sandbox against a plain child, as the user (BenchmarkStart, 100 starts each)"
    (cd /check/src/sandbox && as user /check/bin/sandbox.test -test.run '^$' -test.bench '^BenchmarkStart$' \
        -test.benchtime 100x -test.count 3) >/check/logs/bench-start.txt 2>&1
    rc=$?
    grep -E '^Benchmark|FAIL|panic' /check/logs/bench-start.txt | sed 's/^/   /'
    python3 - /check/logs/bench-start.txt <<'PY'
import re, statistics, sys
t = {}
for line in open(sys.argv[1]):
    m = re.match(r"BenchmarkStart/(\S+?)-\d+\s+\d+\s+([\d.]+) ns/op", line)
    if m:
        t.setdefault(m.group(1), []).append(float(m.group(2)))
if "none" in t:
    for lv in ("full", "namespaces"):
        if lv in t:
            print("   %s / a plain child: %.2f" % (lv, statistics.median(t[lv]) / statistics.median(t["none"])))
PY
    result "BenchmarkStart as the user" $rc
    leftovers
    step "tournament time by level as the user: tic-tac-toe, 100 matches at one job, levels alternated, 3 times"
    r=/tmp/ratio # tmp-ok: in the VM
    mkdir -p $r && cp /check/src/examples/gomoku/random.c $r/a.c && cp /check/src/examples/gomoku/random.c $r/b.c
    chown -R judge $r
    rc=0
    for i in 0 1 2 3; do
        for lv in none namespaces full; do
            rm -rf $r/out
            t=$(date +%s%N)
            (cd $r && as user judge tournament --game tictactoe --rounds 50 --seed 1 --sandbox $lv --jobs 1 \
                --cache $r/cache --out $r/out --quiet a.c b.c) >/check/logs/ratio-$lv-$i.txt 2>&1 || rc=1
            t=$(( ($(date +%s%N) - t) / 1000000 ))
            grep -q '100 of 100 matches played' $r/out/standings.md || { rc=1; sed 's/^/   /' /check/logs/ratio-$lv-$i.txt; }
            # The first round builds the bots: not counted.
            [ $i = 0 ] || echo "   $lv $t ms"
            [ $i = 0 ] || echo "$lv $t" >>$r/times
        done
    done
    python3 - $r/times <<'PY'
import statistics, sys
t = {}
for line in open(sys.argv[1]):
    lv, ms = line.split()
    t.setdefault(lv, []).append(int(ms))
none = statistics.median(t["none"])
for lv in ("namespaces", "full"):
    m = statistics.median(t[lv])
    print("   %s / none: time %.2f, throughput %.2f (medians: %d / %d ms)" % (lv, m / none, none / m, m, none))
PY
    result "tournaments by level as the user, every match played" $rc
    leftovers
fi
if [ -x /check/bin/extra ]; then
    step "CGROUP2_EXTRA, as root in /check/src"
    (cd /check/src && /check/bin/extra)
    result "CGROUP2_EXTRA" $?
fi
step "done"
[ -z "$failed" ] || { echo "failed:${failed#;}"; exit 1; }
EOF
chmod 755 "$P/run.sh"
printf 'RUN=%q\nONLY_EXTRA=%q\n' "${CGROUP2_RUN:-}" "${CGROUP2_ONLY_EXTRA:-0}" >"$P/env"
sed -i "2r $P/env" "$P/run.sh"
rm "$P/env"
mb=$(( $(du -sm "$P" | cut -f1) + 1024 ))
truncate -s "${mb}M" "$W/payload.img"
mkfs.ext4 -q -F -L judge-check -d "$P" "$W/payload.img" || die "mkfs.ext4 of the run's disk"
rm -rf "$P"

# boot ACCEL: runs the VM, showing the second serial port as it comes;
# returns 2 if the kernel printed nothing within 60 s, or QEMU failed
# under KVM before it did (a KVM that cannot run it).
boot() {
    local accel=$1 shown=0 t n
    : >"$W/console.log"
    : >"$W/run.log"
    # -snapshot: the system image is not written (its changes go to a
    # temporary file QEMU removes, in $W).
    TMPDIR=$W qemu-system-x86_64 -accel "$accel" -cpu max -m 4096 -smp 2 -display none -monitor none \
        -kernel "$SYS/vmlinuz" -initrd "$SYS/initrd.img" -snapshot \
        -append "root=/dev/vda rw console=ttyS0 systemd.show_status=0 systemd.unified_cgroup_hierarchy=1 cgroup_no_v1=all" \
        -drive "file=$SYS/root.img,format=raw,if=virtio" \
        -drive "file=$W/payload.img,format=raw,if=virtio,snapshot=off" \
        -nic none -serial "file:$W/console.log" -serial "file:$W/run.log" </dev/null >"$W/qemu.log" 2>&1 &
    QEMU_PID=$!
    t=$(date +%s)
    while kill -0 "$QEMU_PID" 2>/dev/null; do
        sleep 2
        n=$(stat -c %s "$W/run.log")
        if [ "$n" -gt "$shown" ]; then
            tail -c +$((shown + 1)) "$W/run.log" | head -c $((n - shown)) | sed 's/^/  | /'
            shown=$n
        fi
        if [ $(($(date +%s) - t)) -gt 60 ] && ! grep -q 'Linux version' "$W/console.log"; then
            kill "$QEMU_PID"
            wait "$QEMU_PID" || true
            QEMU_PID=""
            return 2
        fi
        if [ $(($(date +%s) - t)) -gt "$TIMEOUT" ]; then
            die "the VM did not end within $TIMEOUT s (CGROUP2_TIMEOUT)"
        fi
    done
    if ! wait "$QEMU_PID"; then
        QEMU_PID=""
        # A KVM that QEMU cannot use ("failed to set MSR"): as one that
        # cannot boot the kernel.
        [ "${accel%%,*}" = kvm ] && ! grep -q 'Linux version' "$W/console.log" && { sed 's/^/  qemu: /' "$W/qemu.log"; return 2; }
        cat "$W/qemu.log"
        die "qemu-system-x86_64 failed"
    fi
    QEMU_PID=""
    tail -c +$((shown + 1)) "$W/run.log" | sed 's/^/  | /'
}
ACCEL=${CGROUP2_ACCEL:-}
if [ -z "$ACCEL" ]; then
    ACCEL=tcg,thread=multi
    [ -w /dev/kvm ] && ACCEL=kvm
fi
t=$(date +%s.%N)
say "booting under ${ACCEL%%,*}: kernel $(cat "$SYS/kernel"), cgroup v1 off, no network"
rc=0
boot "$ACCEL" || rc=$?
if [ "$rc" = 2 ] && [ "$ACCEL" = kvm ] && [ -z "${CGROUP2_ACCEL:-}" ]; then
    say "the kernel did not start under KVM: again under TCG"
    rc=0
    ACCEL=tcg,thread=multi
    boot "$ACCEL" || rc=$?
fi
[ "$rc" = 0 ] || die "the kernel printed nothing in 60 s under $ACCEL"
say "the VM ran for $(since "$t") s"
debugfs -R "rdump /logs $W" "$W/payload.img" >/dev/null 2>&1 || true
status=$(sed -n 's/^cgroup2-check-vm: status \([0-9]*\).*/\1/p' "$W/run.log" | tr -d '\r')
[ -n "$status" ] || die "the VM ended without a status: $(tail -c 500 "$W/console.log")"
[ "$status" = 0 ] || die "checks failed in the VM (above)"
