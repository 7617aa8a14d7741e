#!/usr/bin/env bash
# Builds a test API server once into a cache folder keyed on its recipe (go.mod, go.sum,
# main.go), so a warm machine skips the Go build (minutes) and any change to the pins or the
# program builds anew. Prints the binary's path on stdout.
#   bash kube/build.sh        the apiextensions-apiserver (kube/main.go): CRDs only
#   bash kube/build.sh full   kube-apiserver (kube/full/main.go): the core API and CRDs
# TASKLAYER_CACHE moves the cache (default: .tasklayer-cache/ at the checkout's root).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${TASKLAYER_CACHE:-$here/../.tasklayer-cache}"
case "${1:-}" in
    "") recipe="$here"; name=tasklayer-apiserver; folder=apiserver ;;
    full) recipe="$here/full"; name=tasklayer-kube-apiserver; folder=kube-apiserver ;;
    *) echo "kube/build.sh: unknown server '$1' (none, or 'full')" >&2; exit 2 ;;
esac
if ! command -v go >/dev/null 2>&1; then
    echo "kube/build.sh: no Go toolchain on PATH: the API server tests need Go (kube/go.mod names the version)" >&2
    exit 1
fi
key="$(cat "$recipe/go.mod" "$recipe/go.sum" "$recipe/main.go" | sha256sum | cut -c1-64)"
out="$cache/$folder/$key"
bin="$out/$name"
if [ ! -x "$bin" ]; then
    mkdir -p "$out"
    # -trimpath and no VCS stamp: the same recipe builds the same binary from any checkout
    (cd "$recipe" && go build -trimpath -buildvcs=false -o "$bin.tmp" .)
    mv "$bin.tmp" "$bin"
fi
echo "$bin"
