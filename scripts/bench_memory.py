#!/usr/bin/env python3
"""Ferry's memory benchmark (`make bench-memory`): the peak RSS of `ferry convert` of N generated
brew logs (NDJSON) and of FACTOR times as many, and how much the peak grows between them.
Issue 6's targets: under 150 MB at a million records, less than 20% more at four million.

Each size runs --runs times; the largest peak and the median time are reported. Prints a table
and writes JSON. Generating four million records takes a few minutes and 3 GB of disk.
Usage: scripts/bench_memory.py [--records N] [--factor F] [--runs R] [--ferry PATH] [--work DIR] [--json FILE]"""
import argparse, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, generated, positive, remove, require_ferry, run, write_json  # noqa: E402

LIMIT_MB = 150
GROWTH_LIMIT = 0.20


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=positive, default=1_000_000)
    parser.add_argument("--factor", type=positive, default=4)
    parser.add_argument("--runs", type=positive, default=1)
    parser.add_argument("--ferry", default=os.path.join(ROOT, ".build/release/ferry"))
    parser.add_argument("--work", default=os.path.join(ROOT, "out/bench"))
    parser.add_argument("--json", default=os.path.join(ROOT, "out/bench-memory.json"))
    args = parser.parse_args()
    if args.factor < 2:
        parser.error("--factor: growth is measured between two sizes, so at least 2")
    require_ferry(args.ferry)
    scratch = os.path.join(args.work, "scratch")
    os.makedirs(scratch, exist_ok=True)
    store = os.path.join(scratch, "memory.ferry")

    rows = []
    for n in (args.records, args.records * args.factor):
        lines = os.path.join(generated(args.work, n), "logs.ndjson")
        times, peak = [], 0.0
        for _ in range(args.runs):
            remove(store)
            seconds, rss = run([args.ferry, "convert", lines, "--from", "brewguide", "--to", store])
            print(f"bench: ferry convert of {n} (NDJSON): {seconds:.2f} s, {rss:.1f} MB", file=sys.stderr)
            times.append(seconds)
            peak = max(peak, rss)
        remove(store)
        megabytes = os.path.getsize(lines) / 1e6
        seconds = statistics.median(times)
        rows.append({"records": n, "input_mb": round(megabytes, 1), "seconds": round(seconds, 2),
                     "runs": [round(s, 2) for s in times], "records_per_second": round(n / seconds),
                     "peak_rss_mb": round(peak, 1)})

    small, large = rows
    growth = large["peak_rss_mb"] / small["peak_rss_mb"] - 1
    report = {"runs": args.runs, "machine": os.uname().nodename, "cpus": os.cpu_count(), "results": rows,
              "growth": round(growth, 4), "limit_mb": LIMIT_MB, "growth_limit": GROWTH_LIMIT,
              "meets_targets": small["peak_rss_mb"] < LIMIT_MB and growth < GROWTH_LIMIT}
    write_json(args.json, report)
    print(f"\nferry convert (NDJSON), largest peak of {args.runs} run(s)")
    print(f"{'records':>10} {'input MB':>9} {'seconds':>8} {'records/s':>10} {'peak RSS MB':>12}")
    for row in rows:
        print(f"{row['records']:10,} {row['input_mb']:9.0f} {row['seconds']:8.2f} {row['records_per_second']:10,} {row['peak_rss_mb']:12.1f}")
    verdict = "meets" if report["meets_targets"] else "misses"
    print(f"\npeak grows {growth:+.1%} from {small['records']:,} to {large['records']:,} records; "
          f"{verdict} the targets (< {LIMIT_MB} MB, < {GROWTH_LIMIT:.0%} growth)")
    print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
