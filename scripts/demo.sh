#!/usr/bin/env bash
# Runs ferry on the bundled Samples/: what `make demo` shows.
set -uo pipefail
ferry=${FERRY:-.build/debug/ferry}
step() { printf '\n\033[1m$ ferry %s\033[0m\n' "$*"; "$ferry" "$@"; local status=$?; [ $status -eq 0 ] || printf '(exit status %d)\n' $status; }

step inspect Formats/legacy/Molten.xcdatamodeld --entity ProjectPlan
step lint Formats/legacy/Molten.xcdatamodeld --version "Molten 5"
step lint Formats/legacy/Molten.xcdatamodeld
step diff Formats/legacy/Molten.xcdatamodeld
step lint Formats/legacy/Roots.xcdatamodeld --cloudkit
step inspect Formats/legacy/Forager.xcdatamodel --format mermaid
step inspect Formats/legacy/PhotoApp.xcdatamodel
if command -v dot >/dev/null; then
    mkdir -p out
    "$ferry" inspect Formats/legacy/Forager.xcdatamodel --format dot | dot -Tsvg -o out/forager.svg && echo && echo "wrote out/forager.svg"
fi
exit 0
