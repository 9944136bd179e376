#!/bin/sh
# make vet: the AppArmor profile parses, as apparmor_parser -Q reads it
# (nothing is loaded into the kernel). AppArmor 4.0 is the first to know
# the userns rule and abi 4.0. Where the system's parser is older (Debian
# 12 has 3.0.8), AppArmor 4's parser fetched by parser4.sh into
# $APPARMOR4 (make vet: bin/tools/apparmor4) checks the whole profile;
# without it, the older parser checks the rest of the profile, with abi
# 3.0 and without that rule, and says so. Without any apparmor_parser it
# says what to install.
set -eu
profile=${1:-configs/apparmor/judge}
if ! command -v apparmor_parser >/dev/null 2>&1 && [ -x "${APPARMOR4:-}/apparmor_parser" ]; then
    PATH=$APPARMOR4:$PATH
fi
if ! command -v apparmor_parser >/dev/null 2>&1; then
    echo "apparmor: $profile not checked: no apparmor_parser (Debian package apparmor; make tools installs it)"
    exit 0
fi
grep -q '^profile judge /[^ ]*/judge flags=(unconfined) {$' "$profile" || {
    echo "apparmor: $profile: no line 'profile judge /PATH/judge flags=(unconfined) {'" >&2
    exit 1
}
grep -q '^  userns,$' "$profile" || { echo "apparmor: $profile: no userns rule" >&2; exit 1; }
t=$(mktemp -d "${TMPDIR:-/tmp}/apparmor-check.XXXXXX")
trap 'rm -rf "$t"' EXIT
# Does this parser know userns? A profile of one rule says.
printf 'abi <abi/4.0>,\nprofile p /p flags=(unconfined) {\n  userns,\n}\n' >"$t/probe"
version=$(apparmor_parser --version | awk 'NR == 1 { print $NF }')
if ! apparmor_parser -Q -K "$t/probe" >/dev/null 2>&1 && [ -x "${APPARMOR4:-}/apparmor_parser" ] &&
    "$APPARMOR4/apparmor_parser" -Q -K "$t/probe" >/dev/null 2>&1; then
    PATH=$APPARMOR4:$PATH
    version=$(apparmor_parser --version | awk 'NR == 1 { print $NF }')
fi
if apparmor_parser -Q -K "$t/probe" >/dev/null 2>&1; then
    apparmor_parser -Q -K "$profile" 2>&1 | grep -v '^Cache read/write disabled' >&2 || true
    apparmor_parser -Q -K "$profile" >/dev/null 2>&1 || { echo "apparmor: $profile refused by apparmor_parser $version" >&2; exit 1; }
    echo "apparmor: $profile parses (apparmor_parser $version)"
else
    sed -e 's|^abi <abi/4.0>,|abi <abi/3.0>,|' -e '/^  userns,$/d' "$profile" >"$t/judge"
    apparmor_parser -Q -K "$t/judge" 2>&1 | grep -v '^Cache read/write disabled' >&2 || true
    apparmor_parser -Q -K "$t/judge" >/dev/null 2>&1 || { echo "apparmor: $profile refused by apparmor_parser $version" >&2; exit 1; }
    echo "apparmor: $profile parses without its userns rule and with abi 3.0 (apparmor_parser $version knows neither: AppArmor 4.0 does)"
fi
