#!/usr/bin/env bash
# Runs ferry on the bundled Samples/: what `make demo` shows. It writes only under out/: the
# converted store out/demo.ferry (with its report out/demo-report.json), its bundle
# out/demo.tar.zst, unpacked into out/demo-bundle/ (open out/demo-bundle/demo/index.html in a
# browser), and the store imported back from that bundle, out/demo-imported.ferry.
set -uo pipefail
ferry=${FERRY:-.build/debug/ferry}
step() { printf '\n\033[1m$ ferry %s\033[0m\n' "$*"; "$ferry" "$@"; local status=$?; [ $status -eq 0 ] || printf '(exit status %d)\n' $status; return $status; }

step lint Formats/legacy/Molten.xcdatamodeld --version "Molten 5"
step diff Formats/legacy/Molten.xcdatamodeld
step inspect Samples/molten/Molten.sqlite
mkdir -p out
rm -f out/demo.ferry out/demo-report.json
rm -f out/demo.tar.zst out/demo-imported.ferry
rm -rf out/demo.ferry.backups out/demo-imported.ferry.backups
step convert Samples --to out/demo.ferry --report out/demo-report.json || exit 1
step export out/demo.ferry -o out/demo.tar.zst || exit 1
step verify out/demo.tar.zst || exit 1
rm -rf out/demo-bundle && mkdir -p out/demo-bundle && tar --zstd -xf out/demo.tar.zst -C out/demo-bundle || exit 1
step import out/demo.tar.zst --to out/demo-imported.ferry || exit 1
step backup out/demo.ferry || exit 1
step backups out/demo.ferry || exit 1
echo
echo "wrote out/demo.ferry (the canonical store), out/demo-report.json (the conversion report),"
echo "out/demo.tar.zst (its bundle), out/demo-bundle/ (the bundle unpacked: open demo/index.html in a browser)"
echo "and out/demo-imported.ferry (the store imported from the bundle)"
