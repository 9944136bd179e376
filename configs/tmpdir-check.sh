#!/bin/bash
# make vet: the repository's shell scripts and make rules put their
# temporary directories where TMPDIR says, not in a /tmp of their own.
#
#   1. Every mktemp in a script is run, as the script has it, with TMPDIR
#      set to a new directory: what it makes must be in that directory
#      (unless it names a directory of the script's, as $SHARED/...).
#   2. No line outside a comment names /tmp, other than as the default
#      of ${TMPDIR:-/tmp}, unless it says why: a trailing "# tmp-ok: WHY"
#      (the container's or the VM's /tmp, or the system's watched on
#      purpose; no apostrophe in it, which would end a quoted script), or a comment line "# tmp-ok: WHY" just before the
#      command, which covers its continuation lines too.
#
# Run from the top of the repository; with file arguments, it checks
# those instead of the repository's own.
set -euo pipefail

if [ $# -gt 0 ]; then
    files=("$@")
else
    mapfile -t files < <(git ls-files '*.sh' '*.bash' '*.mk' Makefile 2>/dev/null ||
        find . -name '*.sh' -o -name '*.mk' -o -name Makefile)
fi

t=$(mktemp -d "${TMPDIR:-/tmp}/tmpdir-check.XXXXXX")
trap 'rm -rf "$t"' EXIT
mkdir "$t/tmpdir"
bad=0

# 1. Each mktemp run with TMPDIR elsewhere.
for f in "${files[@]}"; do
    { grep -o '\$''(mktemp [^)]*)' "$f" 2>/dev/null || true; } | while IFS= read -r call; do
        # In a directory the script names (a shared one, say): not temporary.
        case "$call" in *TMPDIR*) ;; *'$'[A-Za-z_{]*) continue ;; esac
        # shellcheck disable=SC2016 # the call is the script's own text
        made=$(cd "$t" && env -i PATH="$PATH" TMPDIR="$t/tmpdir" bash -c 'd='"$call"' && echo "$d"') || {
            echo "$f: $call fails with TMPDIR=$t/tmpdir"
            exit 1
        }
        case "$made" in
        "$t/tmpdir"/*) ;;
        *)
            echo "$f: $call made $made, not in TMPDIR ($t/tmpdir)"
            rmdir "$made" 2>/dev/null || rm -f "$made"
            exit 1
            ;;
        esac
    done || bad=1
done

# 2. No /tmp of its own.
for f in "${files[@]}"; do
    awk -v f="$f" '
        # tmp-ok: the pattern that finds a /tmp
        function path(s) { return s ~ /(^|[^A-Za-z0-9_.$}\/-])\/tmp([^A-Za-z0-9_]|$)/ }
        # A note with an apostrophe may end the quoted script it is in.
        /# tmp-ok: .*\047/ { printf "%s:%d: an apostrophe in a tmp-ok note: %s\n", f, NR, $0; bad = 1 }
        {
            if ($0 ~ /^[ \t]*#/) {
                if ($0 ~ /^[ \t]*# tmp-ok: [^ ]/) covered = 1
                next
            }
            here = covered
            if ($0 !~ /\\$/) covered = 0
            if (here || $0 ~ /# tmp-ok: [^ ]/) next
            if (path($0)) { printf "%s:%d: a /tmp of its own (use ${TMPDIR:-/tmp}, or say why with # tmp-ok: ...): %s\n", f, NR, $0; bad = 1 }
        }
        END { exit bad }' "$f" || bad=1
done

exit $bad
