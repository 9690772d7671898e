#!/usr/bin/env python3
"""The store cases of Ferry's benchmark (`make bench`): N generated BrewGuide brew logs converted from
JSON and from a SwiftData store holding the same logs (scripts/make_brewguide_store.py, which adds
one Recipe row per recipe the logs name), and that store dumped against the sqlite3 shell's JSON of
its log table; then the store convert at 4N, for memory growth.

  ferry convert logs.ndjson          (the JSON path, the reference)
  ferry convert BrewGuide.store      target: <= 1.3x the JSON path, peak RSS < 150 MB, < 20% more at 4N
  ferry dump BrewGuide.store         vs  sqlite3 -json "select * from ZBREWLOG"; target <= 2.5x, RSS < 100 MB
  ferry convert BrewGuide.store into the store the JSON path made (N logs already there): RSS as into a new one
  ferry convert Molten.sqlite        N/10 plans and N/10 logs with their keyed-archive blobs
                                     (scripts/make_molten_store.py): archive decoding, measured

Each case runs --runs times, cases alternating; medians and peak RSS are printed, with ratios.
Usage: scripts/bench_store.py [--records N] [--runs R] [--ferry PATH] [--work DIR] [--no-scale] [--no-molten]"""
import os, statistics, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, arguments, generated, remove, require_ferry, run  # noqa: E402


def store_of(work, n):
    data = generated(work, n)
    store = os.path.join(data, "BrewGuide.store")
    if not os.path.exists(store):
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/make_brewguide_store.py"), os.path.join(data, "logs.ndjson"), store],
                       check=True)
    return data, store


def main():
    parser = arguments()
    parser.add_argument("--no-scale", action="store_true", help="skip the 4N store convert")
    parser.add_argument("--no-molten", action="store_true", help="skip the Molten store convert")
    args = parser.parse_args()
    require_ferry(args.ferry)
    data, store = store_of(args.work, args.records)
    out = os.path.join(data, "out.ferry")

    def convert(source, *extra):
        def case():
            remove(out)
            return run([args.ferry, "convert", source, *extra, "--to", out])
        return case

    cases = {
        "ferry convert logs.ndjson": convert(os.path.join(data, "logs.ndjson"), "--from", "brewguide"),
        "ferry convert BrewGuide.store": convert(store),
        "ferry dump BrewGuide.store": lambda: run(f"{args.ferry} dump {store} > /dev/null", shell=True),
        "sqlite3 -json ZBREWLOG": lambda: run(f"sqlite3 -json {store} 'select * from ZBREWLOG' > /dev/null", shell=True),
    }
    results = {name: [] for name in cases}
    names = list(cases)
    for round_ in range(args.runs):
        for name in names[round_ % len(names):] + names[:round_ % len(names)]:
            results[name].append(cases[name]())
    remove(out)
    print(f"\n{args.records:,} brew logs, median of {args.runs} (seconds, peak RSS MB)")
    medians = {}
    for name, runs in results.items():
        medians[name] = (statistics.median(r[0] for r in runs), max(r[1] for r in runs))
        print(f"  {name:32s} {medians[name][0]:8.2f} s {medians[name][1]:8.1f} MB")
    json_time = medians["ferry convert logs.ndjson"][0]
    print(f"  store convert / JSON convert: {medians['ferry convert BrewGuide.store'][0] / json_time:.2f}x (target <= 1.3x)")
    print(f"  ferry dump / sqlite3 -json:   {medians['ferry dump BrewGuide.store'][0] / medians['sqlite3 -json ZBREWLOG'][0]:.2f}x (target <= 2.5x)")
    # Into a store that holds the same N logs already (every log an update): the claim ledger's
    # random b-tree reads are the known risk for memory.
    existing = os.path.join(data, "existing.ferry")
    remove(existing)
    run([args.ferry, "convert", os.path.join(data, "logs.ndjson"), "--from", "brewguide", "--to", existing])
    seconds, rss = run([args.ferry, "convert", store, "--to", existing, "--keep-backups", "1"])
    remove(existing)
    print(f"  store convert into a store of {args.records:,} logs: {seconds:.2f} s, {rss:.1f} MB "
          f"({100 * (rss - medians['ferry convert BrewGuide.store'][1]) / medians['ferry convert BrewGuide.store'][1]:+.0f}% RSS over a new store)")
    if not args.no_molten:
        plans = max(args.records // 10, 1)
        molten = os.path.join(args.work, f"Molten-{plans}.sqlite")
        if not os.path.exists(molten):
            subprocess.run([sys.executable, os.path.join(ROOT, "scripts/make_molten_store.py"), str(plans), molten], check=True)
        remove(out)
        seconds, rss = run([args.ferry, "convert", molten, "--to", out])
        remove(out)
        print(f"  Molten store of {plans:,} plans and {plans:,} logs ({6 * plans:,} rows, blobs decoded): {seconds:.2f} s, "
              f"{6 * plans / seconds:,.0f} rows/s, {rss:.1f} MB")
    if not args.no_scale:
        _, big = store_of(args.work, args.records * 4)
        remove(out)
        seconds, rss = run([args.ferry, "convert", big, "--to", out])
        remove(out)
        base = medians["ferry convert BrewGuide.store"][1]
        print(f"  store convert at {args.records * 4:,}: {seconds:.2f} s, {rss:.1f} MB: {100 * (rss - base) / base:+.0f}% RSS over {args.records:,} (target < 20%)")


if __name__ == "__main__":
    main()
