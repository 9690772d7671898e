#!/usr/bin/env bash
# Runs ferry on the bundled Samples/: what `make demo` shows. The one thing it writes is the
# converted store out/demo.ferry (with its report out/demo-report.json).
set -uo pipefail
ferry=${FERRY:-.build/debug/ferry}
step() { printf '\n\033[1m$ ferry %s\033[0m\n' "$*"; "$ferry" "$@"; local status=$?; [ $status -eq 0 ] || printf '(exit status %d)\n' $status; return $status; }

step lint Formats/legacy/Molten.xcdatamodeld --version "Molten 5"
step diff Formats/legacy/Molten.xcdatamodeld
step inspect Samples/molten/Molten.sqlite
mkdir -p out
rm -f out/demo.ferry out/demo-report.json
rm -rf out/demo.ferry.backups
step convert Samples --to out/demo.ferry --report out/demo-report.json || exit 1
echo
echo "wrote out/demo.ferry (the canonical store) and out/demo-report.json (the conversion report)"
