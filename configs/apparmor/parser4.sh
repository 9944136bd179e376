#!/bin/sh
# configs/apparmor/parser4.sh DIR: AppArmor 4's apparmor_parser in DIR,
# for make vet to check the whole profile where the system's parser is
# older (Debian 12 has 3.0.8, which knows neither the userns rule nor
# abi 4.0). It takes Debian 13's (trixie) packages apparmor and libc6 with
# apt-get download, from the mirror of deb.debian.org, signatures checked
# by apt against the system's Debian keyring; nothing is installed: the
# packages are unpacked in DIR, and DIR/apparmor_parser runs the parser
# with that C library and its own abi and include files. As root only
# (apt's downloads); otherwise it says so and makes nothing.
set -eu
dir=$1
[ -x "$dir/apparmor_parser" ] && exit 0
command -v apt-get >/dev/null 2>&1 && command -v dpkg-deb >/dev/null 2>&1 || {
    echo "apparmor: no apt-get here to fetch AppArmor 4's parser"; exit 0; }
[ "$(id -u)" = 0 ] || { echo "apparmor: fetching AppArmor 4's parser takes root (apt-get download)"; exit 0; }
t=$(mktemp -d "${TMPDIR:-/tmp}/apparmor4.XXXXXX")
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/lists/partial" "$t/cache/archives/partial" "$t/debs" "$t/root"
echo "deb ${APPARMOR4_MIRROR:-http://deb.debian.org/debian} trixie main" >"$t/sources.list"
set -- -qq -o Dir::Etc::SourceList="$t/sources.list" -o Dir::Etc::SourceParts=/dev/null \
    -o Dir::State::Lists="$t/lists" -o Dir::Cache="$t/cache" -o Dir::State::status=/dev/null \
    -o Debug::NoLocking=1 -o APT::Sandbox::User=root
apt-get "$@" update
(cd "$t/debs" && apt-get "$@" download apparmor libc6)
for d in "$t"/debs/*.deb; do dpkg-deb -x "$d" "$t/root"; done
mkdir -p "$dir"
rm -rf "$dir/root"
mv "$t/root" "$dir/root"
cat >"$dir/apparmor_parser" <<'SH'
#!/bin/sh
# AppArmor 4's parser from Debian 13's packages, unpacked beside this
# script (configs/apparmor/parser4.sh), with their C library and the abi
# and include files of their /etc/apparmor.d.
r=$(dirname "$0")/root
for l in "$r"/usr/lib/*-linux-gnu; do :; done
for ld in "$l"/ld-linux*.so.*; do :; done
exec "$ld" --library-path "$l" "$r/usr/sbin/apparmor_parser" -b "$r/etc/apparmor.d" -I "$r/etc/apparmor.d" "$@"
SH
chmod 755 "$dir/apparmor_parser"
echo "apparmor: AppArmor 4's parser in $dir: $("$dir/apparmor_parser" --version | head -1)"
