#!/usr/bin/env bash
# prepare.sh: run HERE (the dev machine) before a GPU run: fetch what the GPU machine lacks into
# the ignored folder .gpu/ (Debian's libxxhash-dev + libxxhash0 and libclblast-dev + libclblast1 .deb files), to be carried along.
set -euo pipefail
cd "$(git rev-parse --show-toplevel)"
mkdir -p .gpu/debs
if ! ls .gpu/debs/libxxhash-dev_*.deb >/dev/null 2>&1; then
    (cd .gpu/debs && apt-get download libxxhash-dev libxxhash0)
fi
# CLBlast, the products' anchor (scripts/clblast_sgemm.c is built against it there).
if ! ls .gpu/debs/libclblast-dev_*.deb >/dev/null 2>&1; then
    (cd .gpu/debs && apt-get download libclblast-dev libclblast1)
fi
ls -la .gpu/debs
