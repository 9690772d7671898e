#!/usr/bin/env python3
"""Second runs in Ferry's benchmark (`make bench`): N generated BrewGuide brew logs converted into a
store that already holds them, and a bundle of them merged into one, each against its first run.

  ferry convert logs.json into a new store           the first run (the reference of the next two)
  ferry convert logs.json into the store holding it   target: <= 1.5x the first run
  ferry convert logs.json, 10% of the logs changed   target: <= 1.5x the first run, exactly those rewritten
  ferry convert BrewGuide.store into a new store      target: <= 1.2x the JSON first run
  ferry convert BrewGuide.store into the store holding it   target: <= 1.5x its first run
  ferry import BUNDLE into a new store               the plain import (the reference of the next two)
  ferry import --merge into the store holding its logs      target: <= 1.5x the plain import
  ferry import --merge into a store holding half of them    target: <= 1.5x the plain import
  then (--growth F, default 4) the same JSON again at F x N logs    target: <= F * 1.1 x the N run, RSS flat

Every target store is a fresh copy of the one the case needs, made before the timing starts. Cases
alternate in rotated order, --runs times each; medians and peak RSS are printed, with ratios. The
reports of the second runs are checked: every log unchanged, or exactly the changed tenth changed.
Usage: scripts/bench_again.py [--records N] [--runs R] [--ferry PATH] [--work DIR] [--growth F]"""
import json, os, shutil, subprocess, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import arguments, generated, measure, remove, require_ferry, run  # noqa: E402
from bench_store import store_of  # noqa: E402


def prepared(data, name, make):
    """A file or folder under data made once by `make(path)` and kept for the next runs."""
    path = os.path.join(data, name)
    if not os.path.exists(path):
        make(path)
    return path


def derived(kind, source, folder):
    """folder/logs.json (the same file name: a log's rows name their file) made from source's logs
    in a process of its own, whose gigabyte of parsed JSON this one never holds (a child forked
    from it would count those pages in its peak RSS): `tenth`, every tenth log's rating changed;
    `half`, the first half of the logs."""
    if not os.path.exists(os.path.join(folder, "logs.json")):
        subprocess.run([sys.executable, __file__, "--derive", kind, source, folder], check=True)


def derive(kind, source, folder):
    os.makedirs(folder, exist_ok=True)
    with open(source) as f:
        logs = json.load(f)
    if kind == "tenth":
        for index in range(0, len(logs), 10):
            summary = logs[index]["summary"]
            summary["rating"] = summary["rating"] % 5 + 1
    else:
        logs = logs[:len(logs) // 2]
    with open(os.path.join(folder, "logs.json"), "w") as f:
        json.dump(logs, f, separators=(",", ":"))


def main():
    parser = arguments()
    parser.add_argument("--growth", type=int, default=4, help="also the JSON again at this many times N (0: skip)")
    args = parser.parse_args()
    require_ferry(args.ferry)
    ferry = args.ferry
    data, swiftdata = store_of(args.work, args.records)
    logs = os.path.join(data, "logs.json")
    work = os.path.join(data, "again")
    os.makedirs(work, exist_ok=True)

    def convert_into(path, *inputs):
        remove(path)
        run([ferry, "convert", *inputs, "--to", path])

    holding = prepared(work, "holding.ferry", lambda p: convert_into(p, logs))
    holding_store = prepared(work, "holding-store.ferry", lambda p: convert_into(p, swiftdata))
    tenth, half_folder = os.path.join(work, "tenth"), os.path.join(work, "half")
    derived("tenth", logs, tenth)
    derived("half", logs, half_folder)
    half = prepared(work, "half.ferry", lambda p: convert_into(p, os.path.join(half_folder, "logs.json")))
    bundle = prepared(work, "bundle.tar.zst", lambda p: run([ferry, "export", holding, "-o", p, "--no-view", "--formats", "none"]))

    target = os.path.join(work, "target.ferry")
    report = os.path.join(work, "report.json")
    reports = {}

    def case(name, start_from, argv, check=None):
        def timed():
            remove(target, report)
            if start_from:
                shutil.copyfile(start_from, target)
            seconds, rss = run(argv)
            if check:
                with open(report) as f:
                    reports[name] = json.load(f)
                check(reports[name])
            return seconds, rss
        return timed

    def expect_changes(new=0, changed=0, unchanged=0):
        def check(made):
            found = made.get("changes", {}).get("log", {})
            wanted = {"new": new, "changed": changed, "unchanged": unchanged}
            if found != wanted:
                raise SystemExit(f"bench: the report says {found} of the logs, not {wanted}")
        return check

    n = args.records
    tenth_count = len(range(0, n, 10))
    cases = {
        "convert JSON, new store": case("first", None, [ferry, "convert", logs, "--to", target]),
        "convert JSON again": case("again", holding, [ferry, "convert", logs, "--to", target, "--keep-backups", "1", "--report", report],
                                   expect_changes(unchanged=n)),
        "convert JSON, 10% changed": case("tenth", holding, [ferry, "convert", os.path.join(tenth, "logs.json"), "--to", target,
                                                              "--keep-backups", "1", "--report", report],
                                          expect_changes(changed=tenth_count, unchanged=n - tenth_count)),
        "convert store, new store": case("store first", None, [ferry, "convert", swiftdata, "--to", target]),
        "convert store again": case("store again", holding_store, [ferry, "convert", swiftdata, "--to", target, "--keep-backups", "1",
                                                                  "--report", report], expect_changes(unchanged=n)),
        "import, new store": case("import", None, [ferry, "import", bundle, "--to", target]),
        "import --merge, same logs": case("merge", holding, [ferry, "import", bundle, "--to", target, "--merge", "--keep-backups", "1"]),
        "import --merge, half of them": case("merge half", half, [ferry, "import", bundle, "--to", target, "--merge", "--keep-backups", "1"]),
    }
    results = measure(cases, args.runs)
    remove(target, report)

    print(f"\n{n:,} brew logs, median of {args.runs} (seconds, peak RSS MB)")
    for name, (seconds, rss, _) in results.items():
        print(f"  {name:34s} {seconds:8.2f} s {rss:8.1f} MB")

    def ratio(a, b, bound):
        value = results[a][0] / results[b][0]
        print(f"  {a} / {b}: {value:.2f}x (target <= {bound}x){'' if value <= bound else '  MISSED'}")

    ratio("convert JSON again", "convert JSON, new store", 1.5)
    ratio("convert JSON, 10% changed", "convert JSON, new store", 1.5)
    ratio("convert store, new store", "convert JSON, new store", 1.2)
    ratio("convert store again", "convert store, new store", 1.5)
    ratio("import --merge, same logs", "import, new store", 1.5)
    ratio("import --merge, half of them", "import, new store", 1.5)

    if args.growth > 1:
        big_data = generated(args.work, n * args.growth)
        big_logs = os.path.join(big_data, "logs.json")
        big_holding = prepared(big_data, "holding.ferry", lambda p: convert_into(p, big_logs))
        remove(target, report)
        shutil.copyfile(big_holding, target)
        os.sync()
        seconds, rss = run([ferry, "convert", big_logs, "--to", target, "--keep-backups", "1", "--report", report])
        with open(report) as f:
            expect_changes(unchanged=n * args.growth)(json.load(f))
        remove(target, report)
        base, base_rss, _ = results["convert JSON again"]
        bound = args.growth * 1.1
        print(f"  convert JSON again at {n * args.growth:,}: {seconds:.2f} s, {rss:.1f} MB: {seconds / base:.2f}x the {n:,} run "
              f"(target <= {bound:.1f}x){'' if seconds / base <= bound else '  MISSED'}, RSS {100 * (rss - base_rss) / base_rss:+.0f}%")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--derive"]:
        derive(*sys.argv[2:5])
    else:
        main()
