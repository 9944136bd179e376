#!/bin/sh
# make k8s-image IMAGE=REGISTRY/judge: builds the Containerfile's image,
# pushes it, and names it by its digest (IMAGE@sha256:...) in every image:
# line of the Kubernetes manifests, configs/k8s-*.yaml: every pod of a
# tournament, a retried one too, then runs the same judge and the same
# toolchains, whatever is pushed to the tag later (docs/scale-out.md).
#
#   IMAGE      where to push, without a tag (required)
#   TAG        the tag pushed too (default: the checkout's short revision)
#   ENGINE     podman or docker (default: podman if there is one)
#   MANIFESTS  the directory of the manifests to rewrite (default: configs)
#   BUILD_ARGS more arguments for the build, split at spaces (say
#              "--build-arg GOPROXY=https://proxy.example.com")
set -eu
REPO=$(cd "$(dirname "$0")/.." && pwd)
IMAGE=${IMAGE:?IMAGE=REGISTRY/judge: where to push the image}
case "${IMAGE##*/}" in *:* | *@*) echo "k8s-image: IMAGE=$IMAGE: give it without a tag or digest" >&2; exit 2 ;; esac
TAG=${TAG:-$(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo latest)}
ENGINE=${ENGINE:-$(command -v podman >/dev/null 2>&1 && echo podman || echo docker)}
MANIFESTS=${MANIFESTS:-$REPO/configs}

t=$(mktemp -d "${TMPDIR:-/tmp}/k8s-image.XXXXXX")
trap 'rm -rf "$t"' EXIT
# shellcheck disable=SC2086 # BUILD_ARGS is split at spaces on purpose
"$ENGINE" build ${BUILD_ARGS:-} -t "$IMAGE:$TAG" -f "$REPO/Containerfile" "$REPO"
case "$ENGINE" in
*podman*)
    "$ENGINE" push --digestfile "$t/digest" "$IMAGE:$TAG"
    digest=$(cat "$t/digest")
    ;;
*)
    "$ENGINE" push "$IMAGE:$TAG"
    # The registry's digest, as docker records it after the push.
    digest=$("$ENGINE" image inspect --format '{{range .RepoDigests}}{{println .}}{{end}}' "$IMAGE:$TAG" |
        awk -v i="$IMAGE" 'index($0, i "@") == 1 { sub(/^[^@]*@/, ""); print; exit }')
    ;;
esac
echo "$digest" | grep -Eq '^sha256:[0-9a-f]{64}$' || { echo "k8s-image: no digest from $ENGINE push (got '$digest')" >&2; exit 1; }

n=0
for f in "$MANIFESTS"/k8s-*.yaml; do
    grep -Eq '^ *image: [^ ]+@sha256:[0-9a-f]{64}' "$f" || continue
    sed -E "s#^( *image: )[^ ]+@sha256:[0-9a-f]{64}#\\1$IMAGE@$digest#" "$f" >"$t/m" && cat "$t/m" >"$f"
    n=$((n + 1))
done
[ "$n" -gt 0 ] || { echo "k8s-image: no manifest with an image by digest in $MANIFESTS" >&2; exit 1; }
echo "k8s-image: $IMAGE:$TAG is $IMAGE@$digest, now named in $n manifests of $MANIFESTS"
