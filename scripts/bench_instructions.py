#!/usr/bin/env python3
"""Counts the instructions `ferry convert` executes per record, per thread, under valgrind's
callgrind: a figure that does not move with this machine's hour-to-hour speed (wall times vary
by up to half), so two builds can be compared in one run each. Needs valgrind.

  scripts/bench_instructions.py [--records N] [--ferry PATH ...]

Each --ferry (default: the release build) is copied without its debug information (valgrind
cannot read the DWARF Swift 6.3 writes), then converts N generated brew logs (NDJSON, default
20,000) into a new store. Prints instructions per record for each thread and in all: thread 1 is
the store's, 2 takes the log rows, 3 reads and normalizes (4 and on: SQLite's sorter helpers).
Used by issue 6's work: 165,114 per record at d964485, 139,800 after the reading changes, 132,863 at
fb26aef, 103,907 after reading brew logs in place."""
import argparse, glob, os, shutil, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, generated, positive  # noqa: E402


def run(argv, what):
    """Runs a step; a failure stops the script with its name and exit status, not a traceback."""
    result = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0:
        detail = result.stderr.decode(errors="replace").strip().splitlines()[-1:] or [""]
        raise SystemExit(f"bench_instructions: {what} failed (exit {result.returncode}) {detail[0]}".rstrip())


def count(ferry, data, work):
    stripped = os.path.join(work, "ferry")
    run(["strip", "--strip-debug", "-o", stripped, ferry], f"{ferry}: strip --strip-debug")
    store = os.path.join(work, "store.ferry")
    for path in glob.glob(store + "*"):
        shutil.rmtree(path) if os.path.isdir(path) else os.unlink(path)
    out = os.path.join(work, "callgrind.out")
    for path in glob.glob(out + "*"):
        os.unlink(path)
    run(["valgrind", "--tool=callgrind", "--separate-threads=yes", f"--callgrind-out-file={out}.%p",
         stripped, "convert", os.path.join(data, "logs.ndjson"), "--from", "brewguide", "--to", store],
        f"{ferry}: ferry convert under callgrind")
    threads = {}
    for path in sorted(glob.glob(out + ".*-*")):
        with open(path) as file:
            for line in file:
                if line.startswith(("summary:", "totals:")):
                    threads[path.rsplit("-", 1)[-1]] = int(line.split()[1])
                    break
    return threads


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=positive, default=20_000)
    parser.add_argument("--ferry", action="append")
    args = parser.parse_args()
    if not shutil.which("valgrind"):
        raise SystemExit("bench_instructions: needs valgrind (apt-get install valgrind)")
    binaries = args.ferry or [os.path.join(ROOT, ".build/release/ferry")]
    for ferry in binaries:
        if not (os.path.isfile(ferry) and os.access(ferry, os.X_OK)):
            raise SystemExit(f"bench_instructions: {ferry}: no ferry executable there; run `make release` first or pass --ferry")
    data = generated(os.path.join(ROOT, "out/bench"), args.records)
    for ferry in binaries:
        with tempfile.TemporaryDirectory(prefix="ferry-instructions-") as work:
            threads = count(ferry, data, work)
        per_record = {thread: total / args.records for thread, total in threads.items() if total > 1_000_000}
        if not per_record:
            raise SystemExit(f"bench_instructions: {ferry}: no thread ran a million instructions; is it ferry?")
        parts = "  ".join(f"thread {thread}: {value:,.0f}" for thread, value in sorted(per_record.items()))
        print(f"{ferry}: {sum(per_record.values()):,.0f} instructions per record  ({parts})")


if __name__ == "__main__":
    main()
