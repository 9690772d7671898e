#!/usr/bin/env python3
"""Ferry's benchmark (`make bench`): times, throughput and peak memory of ferry convert, export and
verify on N generated BrewGuide brew logs, against the tools people use for the same jobs.

  ferry convert logs.json / logs.ndjson      vs  sqlite-utils insert --pk id of the same rows flattened to one level
                                                 (logs-flat.json / .ndjson: keyed by the real UUID, as .import gets them)
                                             and the sqlite3 shell's .import of the same rows as CSV
                                                 into a table of the same shape and key
  ferry export STORE                         vs  the same content by hand: sqlite3 .backup, sqlite3 -json of every
                                                 table, tar --zstd of both (at least 5 runs); ferry's peak of staged
                                                 files on disk is printed too (a bundle stages no table)
  ferry verify BUNDLE                        vs  tar --zstd -x + sha256sum of the unpacked files

Each case runs --runs times, cases alternating in rotated order; the median time and the peak RSS
(the largest ru_maxrss of the process tree) are reported. Prints a table and writes JSON.
Usage: scripts/bench.py [--records N] [--runs R] [--ferry PATH] [--work DIR] [--json FILE]"""
import argparse, json, os, shutil, statistics, subprocess, sys, threading, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(argv, shell=False, cwd=None):
    """Runs a command; returns (seconds, peak RSS in MB of the command's processes)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, shell=shell, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - start
    stderr = process.stderr.read().decode(errors="replace")
    process.stderr.close()
    code = os.waitstatus_to_exitcode(status)
    if code != 0:
        raise SystemExit(f"bench: {argv if isinstance(argv, str) else ' '.join(argv)} failed ({code}):\n{stderr[-2000:]}")
    # For a shell pipeline, the shell's own usage covers itself; children's peaks come from RUSAGE_CHILDREN below.
    return seconds, usage.ru_maxrss / 1024


class StagedBytes:
    """Polls the bytes of files under folders of `folder` whose names start with `prefix` while a
    command runs (every 20 ms), keeping the peak: what an export stages on disk."""

    def __init__(self, folder, prefix):
        self.folder, self.prefix, self.peak = folder, prefix, 0
        self.done = threading.Event()

    def poll(self):
        while not self.done.wait(0.02):
            total = 0
            try:
                for name in os.listdir(self.folder):
                    if name.startswith(self.prefix):
                        for d, _, files in os.walk(os.path.join(self.folder, name)):
                            for f in files:
                                try:
                                    total += os.path.getsize(os.path.join(d, f))
                                except OSError:
                                    pass
            except OSError:
                pass
            self.peak = max(self.peak, total)

    def __enter__(self):
        self.thread = threading.Thread(target=self.poll, daemon=True)
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.done.set()
        self.thread.join()


def remove(*paths):
    for path in paths:
        if os.path.isdir(path):
            shutil.rmtree(path)
        else:
            for suffix in ("", "-journal", "-wal", "-shm"):
                if os.path.exists(path + suffix):
                    os.unlink(path + suffix)
        backups = path + ".backups"
        if os.path.isdir(backups):
            shutil.rmtree(backups)


def have(program):
    return shutil.which(program) is not None


def positive(text):
    """An argparse type: an integer of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, not {value}")
    return value


def generated(work, n):
    """The folder of N generated brew logs (logs.json, logs.ndjson, logs.csv), made when missing."""
    data = os.path.join(work, f"data-{n}")
    if not os.path.exists(os.path.join(data, "logs-flat.json")):
        print(f"bench: generating {n} brew logs in {data}", file=sys.stderr)
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts/gen_brewlogs.py"), str(n), data], check=True)
    return data


def write_json(path, report):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as out:
        json.dump(report, out, indent=2)


def require_ferry(path):
    if not os.access(path, os.X_OK):
        raise SystemExit(f"bench: {path}: no ferry executable there; run `make release` first or pass --ferry")


def arguments():
    """The options every benchmark script takes."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=positive, default=1_000_000)
    parser.add_argument("--runs", type=positive, default=3)
    parser.add_argument("--ferry", default=os.path.join(ROOT, ".build/release/ferry"))
    parser.add_argument("--work", default=os.path.join(ROOT, "out/bench"))
    return parser


def main():
    parser = arguments()
    parser.add_argument("--json", default=os.path.join(ROOT, "out/bench.json"))
    parser.add_argument("--skip-sqlite-utils", action="store_true", help="sqlite-utils takes minutes at 1M records")
    args = parser.parse_args()
    ferry, n = args.ferry, args.records
    require_ferry(ferry)
    data = generated(args.work, n)
    array, lines, flat = (os.path.join(data, name) for name in ("logs.json", "logs.ndjson", "logs.csv"))
    megabytes = os.path.getsize(array) / 1e6
    scratch = os.path.join(args.work, "scratch")
    os.makedirs(scratch, exist_ok=True)
    store = os.path.join(scratch, "store.ferry")

    sqlite_utils = shutil.which("sqlite-utils")
    if not sqlite_utils and not args.skip_sqlite_utils:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "sqlite-utils"], check=False)
        sqlite_utils = shutil.which("sqlite-utils")

    schema = ("CREATE TABLE log (id TEXT PRIMARY KEY NOT NULL, timestamp REAL, method TEXT, recipe_name TEXT, rating INTEGER, "
              "recipe_id TEXT, taste_tag TEXT, dose REAL, yield REAL, temperature REAL, grind TEXT, note TEXT);")

    def convert(source):
        def case():
            remove(store)
            return run([ferry, "convert", source, "--from", "brewguide", "--to", store])
        return case

    def sqlite_utils_insert(source, *options):
        def case():
            target = os.path.join(scratch, "sqlite-utils.db")
            remove(target)
            return run([sqlite_utils, "insert", target, "logs", source, "--pk", "id", *options])
        return case

    def sqlite3_import():
        target = os.path.join(scratch, "sqlite3.db")
        remove(target)
        return run(["sqlite3", target, schema, ".import --csv --skip 1 " + flat + " log"])

    cases = {"ferry convert (JSON array)": convert(array), "ferry convert (NDJSON)": convert(lines),
             "sqlite3 .import (CSV)": sqlite3_import}
    if sqlite_utils and not args.skip_sqlite_utils:
        # Of the array, sqlite-utils loads the whole file before it inserts a row.
        # Flat rows: given the nested DTOs, sqlite-utils would key nothing by the UUID (it sits inside `summary`)
        # and store `summary` as one JSON text, doing less than every other tool here.
        cases["sqlite-utils insert (JSON array)"] = sqlite_utils_insert(os.path.join(data, "logs-flat.json"))
        cases["sqlite-utils insert (NDJSON)"] = sqlite_utils_insert(os.path.join(data, "logs-flat.ndjson"), "--nl")
    results = measure(cases, args.runs)

    # The store of the last convert run is what export and verify work on.
    remove(store)
    run([ferry, "convert", lines, "--from", "brewguide", "--to", store])
    bundle = os.path.join(scratch, "store.tar.zst")
    unpacked = os.path.join(scratch, "unpacked")

    staged = {"ferry export": 0}

    def export():
        remove(bundle)
        with StagedBytes(scratch, ".store.tar.zst.export.") as watch:  # ScratchFiles: .<target>.<purpose>.ferry-…
            result = run([ferry, "export", store, "-o", bundle])
        staged["ferry export"] = max(staged["ferry export"], watch.peak)
        return result

    # The same export without its HTML view: what the view adds in time and in bytes.
    bare_bundle = os.path.join(scratch, "store-no-view.tar.zst")

    def export_without_view():
        remove(bare_bundle)
        return run([ferry, "export", store, "-o", bare_bundle, "--no-view"])

    # The same export without the other apps' formats: what they add in time and in bytes.
    formatless_bundle = os.path.join(scratch, "store-no-formats.tar.zst")

    def export_without_formats():
        remove(formatless_bundle)
        return run([ferry, "export", store, "-o", formatless_bundle, "--formats", "none"])

    export()
    remove(unpacked)
    os.makedirs(unpacked)
    subprocess.run(["tar", "--zstd", "-xf", bundle, "-C", unpacked], check=True)
    bag = os.path.join(unpacked, "store")
    payload = os.path.join(bag, "data")

    tables = subprocess.run(["sqlite3", store, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"],
                            capture_output=True, text=True, check=True).stdout.split()
    by_hand = os.path.join(scratch, "by-hand")

    def backup_json_and_tar():
        reference = os.path.join(scratch, "reference.tar.zst")
        remove(by_hand, reference)
        os.makedirs(os.path.join(by_hand, "tables"))
        steps = [run(["sqlite3", store, f".backup '{os.path.join(by_hand, 'store.sqlite')}'"])]
        for table in tables:
            steps.append(run(f"sqlite3 -json '{store}' 'SELECT * FROM \"{table}\"' > '{os.path.join(by_hand, 'tables', table + '.json')}'",
                             shell=True))
        steps.append(run(["tar", "--zstd", "-cf", reference, "-C", scratch, "by-hand"]))
        return sum(step[0] for step in steps), max(step[1] for step in steps)

    def verify():
        return run([ferry, "verify", bundle])

    def untar_and_hash():
        target = os.path.join(scratch, "untar")
        remove(target)
        os.makedirs(target)
        first = run(["tar", "--zstd", "-xf", bundle, "-C", target])
        second = run(f"find '{target}' -type f -print0 | xargs -0 sha256sum > /dev/null", shell=True)
        return first[0] + second[0], max(first[1], second[1])

    hand = "sqlite3 .backup + -json + tar --zstd"
    results.update(measure({"ferry export": export, "ferry export --no-view": export_without_view,
                            "ferry export --formats none": export_without_formats, hand: backup_json_and_tar},
                           max(args.runs, 5)))
    hand_mb = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(by_hand) for f in fs) / 1e6
    results.update(measure({"ferry verify": verify, "tar --zstd -x + sha256sum": untar_and_hash}, args.runs))

    bundle_mb = os.path.getsize(bundle) / 1e6
    bare_bundle_mb = os.path.getsize(bare_bundle) / 1e6
    formatless_bundle_mb = os.path.getsize(formatless_bundle) / 1e6
    payload_mb = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(bag) for f in fs) / 1e6
    sizes = {"ferry convert (JSON array)": megabytes, "ferry convert (NDJSON)": os.path.getsize(lines) / 1e6,
             "sqlite3 .import (CSV)": os.path.getsize(flat) / 1e6, "sqlite-utils insert (NDJSON)": os.path.getsize(os.path.join(data, "logs-flat.ndjson")) / 1e6,
             "sqlite-utils insert (JSON array)": os.path.getsize(os.path.join(data, "logs-flat.json")) / 1e6,
             "ferry export": payload_mb, "ferry export --no-view": payload_mb, "ferry export --formats none": payload_mb, hand: hand_mb,
             "ferry verify": payload_mb, "tar --zstd -x + sha256sum": payload_mb}
    rows = []
    for name, (seconds, rss, all_runs) in results.items():
        rows.append({"case": name, "seconds": round(seconds, 3), "runs": [round(s, 3) for s in all_runs],
                     "records_per_second": round(n / seconds), "mb_per_second": round(sizes[name] / seconds, 1),
                     "peak_rss_mb": round(rss, 1)})

    def ratio(a, b):
        return round(results[a][0] / results[b][0], 2) if a in results and b in results else None

    ratios = {
        "sqlite-utils / ferry convert (NDJSON)": ratio("sqlite-utils insert (NDJSON)", "ferry convert (NDJSON)"),
        "sqlite-utils / ferry convert (JSON array)": ratio("sqlite-utils insert (JSON array)", "ferry convert (JSON array)"),
        "ferry convert (JSON array) / sqlite3 .import": ratio("ferry convert (JSON array)", "sqlite3 .import (CSV)"),
        "ferry convert (NDJSON) / sqlite3 .import": ratio("ferry convert (NDJSON)", "sqlite3 .import (CSV)"),
        "ferry export / (.backup + -json + tar --zstd)": ratio("ferry export", hand),
        "ferry verify throughput / (untar + sha256sum)": ratio("tar --zstd -x + sha256sum", "ferry verify"),
        "ferry export / ferry export --no-view (time)": ratio("ferry export", "ferry export --no-view"),
        "bundle / bundle --no-view (compressed size)": round(bundle_mb / bare_bundle_mb, 3),
        # The formats (schema.org, Paprika, iCalendar, CSV + Data Package): at most 1.25 in both.
        "ferry export / ferry export --formats none (time)": ratio("ferry export", "ferry export --formats none"),
        "bundle / bundle --formats none (compressed size)": round(bundle_mb / formatless_bundle_mb, 3),
    }
    # The references' versions, as their speed is part of every ratio.
    versions = {"sqlite3": version(["sqlite3", "--version"]),
                "sqlite-utils": version([sqlite_utils, "--version"]) if sqlite_utils and not args.skip_sqlite_utils else None,
                "zstd": version(["zstd", "--version"])}
    report = {"records": n, "export_staged_peak_mb": round(staged["ferry export"] / 1e6, 1), "input_mb": round(megabytes, 1), "bundle_mb": round(bundle_mb, 1),
              "bundle_without_view_mb": round(bare_bundle_mb, 1), "bundle_without_formats_mb": round(formatless_bundle_mb, 1), "payload_mb": round(payload_mb, 1),
              "runs": args.runs, "machine": os.uname().nodename, "cpus": os.cpu_count(), "versions": versions, "results": rows,
              "ratios": ratios}
    write_json(args.json, report)
    print(f"\n{n} brew logs, {megabytes:.0f} MB of JSON; bundle {bundle_mb:.1f} MB ({payload_mb:.0f} MB unpacked), "
          f"{bare_bundle_mb:.1f} MB without its view; median of {args.runs} (export and its reference: of {max(args.runs, 5)})")
    print("; ".join(f"{name} {text}" for name, text in versions.items() if text))
    print(f"{'case':34} {'seconds':>8} {'records/s':>11} {'MB/s':>8} {'peak RSS MB':>12}")
    for row in rows:
        print(f"{row['case']:34} {row['seconds']:8.2f} {row['records_per_second']:11,} {row['mb_per_second']:8.1f} {row['peak_rss_mb']:12.1f}")
    print()
    for name, value in ratios.items():
        if value is not None:
            print(f"{name:48} {value:6.2f}")
    print(f"ferry export: at most {staged['ferry export'] / 1e6:.1f} MB staged on disk at once (the store's snapshot, the recipes' and calendars' formats and the view's "
          f"pages; the tables' NDJSON is {sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(os.path.join(payload, 'tables')) for f in fs) / 1e6:.0f} MB)")
    print(f"\nwrote {args.json}")


def version(argv):
    """The first line a tool prints of its version, or None when it cannot say."""
    try:
        result = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except OSError:
        return None
    lines = (result.stdout or result.stderr).strip().splitlines()
    return lines[0] if result.returncode == 0 and lines else None


def measure(cases, runs):
    """Runs each case `runs` times, rotating the order each round (A B C, B C A, …)."""
    times = {name: [] for name in cases}
    peaks = {name: 0.0 for name in cases}
    names = list(cases)
    for round_number in range(runs):
        order = names[round_number % len(names):] + names[:round_number % len(names)]
        for name in order:
            # Each case starts with nothing left to write back: otherwise the kernel flushes the
            # previous case's output (a 700 MB store) during whichever case comes next.
            os.sync()
            seconds, rss = cases[name]()
            print(f"bench: {name}: {seconds:.2f} s, {rss:.0f} MB", file=sys.stderr)
            times[name].append(seconds)
            peaks[name] = max(peaks[name], rss)
    return {name: (statistics.median(times[name]), peaks[name], times[name]) for name in names}


if __name__ == "__main__":
    main()
