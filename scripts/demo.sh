#!/usr/bin/env bash
# Runs ferry on the bundled Samples/: what `make demo` shows.
set -uo pipefail
ferry=${FERRY:-.build/debug/ferry}
step() { printf '\n\033[1m$ ferry %s\033[0m\n' "$*"; "$ferry" "$@"; local status=$?; [ $status -eq 0 ] || printf '(exit status %d)\n' $status; }

step inspect Samples/molten/Molten.xcdatamodeld --entity ProjectPlan
step lint Samples/molten/Molten.xcdatamodeld --version "Molten 5"
step lint Samples/molten/Molten.xcdatamodeld
step diff Samples/molten/Molten.xcdatamodeld
step lint Samples/roots/Roots.xcdatamodeld --cloudkit
step inspect Samples/forager/Forager.xcdatamodel --format mermaid
step inspect Samples/photoapp/PhotoApp.xcdatamodel
if command -v dot >/dev/null; then
    mkdir -p out
    "$ferry" inspect Samples/forager/Forager.xcdatamodel --format dot | dot -Tsvg -o out/forager.svg && echo && echo "wrote out/forager.svg"
fi
exit 0
