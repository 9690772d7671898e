#!/usr/bin/env python3
"""Core Data stores written in Ferry's benchmark (`make bench`): N generated BrewGuide brew logs
converted into the canonical store (the reference), the same logs converted into a Core Data store
of the canonical mirror model (`convert --as core-data`), and that store's dump loaded back
(`ferry load`), in one run, as ratios.

  ferry convert logs.json --to X.ferry                    the reference
  ferry convert logs.json --as core-data --to X.sqlite    target: <= 1.5x the reference, RSS < 150 MB
  ferry load DUMP --model Ferry.xcdatamodeld --to Y.sqlite target: <= 1.5x the reference, RSS < 150 MB

Cases alternate in rotated order, --runs times each; medians and peak RSS are printed.
Usage: scripts/bench_coredata.py [--records N] [--runs R] [--ferry PATH] [--work DIR]"""
import os, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, arguments, generated, measure, remove, require_ferry, run  # noqa: E402


def main():
    args = arguments().parse_args()
    require_ferry(args.ferry)
    ferry = args.ferry
    data = generated(args.work, args.records)
    logs = os.path.join(data, "logs.json")
    work = os.path.join(data, "coredata")
    os.makedirs(work, exist_ok=True)
    model = os.path.join(ROOT, "Formats/canonical/Ferry.xcdatamodeld")
    dump = os.path.join(work, "dump")
    if not os.path.exists(os.path.join(dump, "Log.ndjson")):
        made = os.path.join(work, "made.sqlite")
        remove(made)
        run([ferry, "convert", logs, "--as", "core-data", "--to", made])
        remove(dump)
        run([ferry, "dump", made, "--model", model, "-o", dump])
        remove(made)
    canonical, coredata, loaded = (os.path.join(work, name) for name in ("target.ferry", "target.sqlite", "loaded.sqlite"))

    def case(target, argv):
        def timed():
            remove(target)
            return run(argv)
        return timed

    cases = {
        "convert, canonical store": case(canonical, [ferry, "convert", logs, "--to", canonical]),
        "convert --as core-data": case(coredata, [ferry, "convert", logs, "--as", "core-data", "--to", coredata]),
        "load the Core Data store's dump": case(loaded, [ferry, "load", dump, "--model", model, "--to", loaded]),
    }
    results = measure(cases, args.runs)
    remove(canonical, coredata, loaded)

    print(f"\n{args.records:,} brew logs, median of {args.runs} (seconds, peak RSS MB)")
    for name, (seconds, rss, _) in results.items():
        print(f"  {name:34s} {seconds:8.2f} s {rss:8.1f} MB")
    reference = results["convert, canonical store"][0]
    for name in ("convert --as core-data", "load the Core Data store's dump"):
        seconds, rss, _ = results[name]
        ratio = seconds / reference
        missed = ratio > 1.5 or rss >= 150
        print(f"  {name} / canonical convert: {ratio:.2f}x (target <= 1.5x), {rss:.0f} MB (target < 150 MB){'  MISSED' if missed else ''}")


if __name__ == "__main__":
    main()
