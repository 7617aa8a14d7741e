#!/usr/bin/env bash
# Builds the test API server (kube/main.go) once into a cache folder keyed on the recipe
# (go.mod, go.sum, main.go), so a warm machine skips the Go build (minutes) and any change to
# the pins or the program builds anew. Prints the binary's path on stdout.
# TASKLAYER_CACHE moves the cache (default: .tasklayer-cache/ at the checkout's root).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
cache="${TASKLAYER_CACHE:-$here/../.tasklayer-cache}"
if ! command -v go >/dev/null 2>&1; then
    echo "kube/build.sh: no Go toolchain on PATH: the API server tests need Go (kube/go.mod names the version)" >&2
    exit 1
fi
key="$(cat "$here/go.mod" "$here/go.sum" "$here/main.go" | sha256sum | cut -c1-64)"
out="$cache/apiserver/$key"
bin="$out/tasklayer-apiserver"
if [ ! -x "$bin" ]; then
    mkdir -p "$out"
    # -trimpath and no VCS stamp: the same recipe builds the same binary from any checkout
    (cd "$here" && go build -trimpath -buildvcs=false -o "$bin.tmp" .)
    mv "$bin.tmp" "$bin"
fi
echo "$bin"
