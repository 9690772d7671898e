#!/usr/bin/env python3
"""What `ferry dump` reads from every real store of the shared corpus, as digests: the SHA-256 and
line count of its standard output (the corpus folder's path in it written `<corpus>/`), per store, read with the model that made it where the corpus
has it, and without (the store's model cache, else its inferred schema). CorpusDumpTests holds
today's reader to the digests recorded in Tests/Fixtures/CorpusDumps.json, which were recorded
with the whole-store reader of commit 60619b9, before stores were streamed (issue 27).

  scripts/corpus_dumps.py --ferry BINARY [--json FILE] [--label TEXT]   prints (or writes) the digests
  scripts/corpus_dumps.py --ferry A --compare B            prints the cases where two binaries differ

Run from the repository; the corpus is ../shared/corpus (or $FERRY_SHARED/corpus)."""
import argparse, hashlib, json, os, subprocess, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("FERRY_SHARED", os.path.join(os.path.dirname(ROOT), "shared"))
STORES = os.path.join(SHARED, "corpus", "coredata-sqlite")

WIBOSCO = "02__wibosco__CoreDataMigration-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
WIBOSCO_STORES = "02__wibosco__CoreDataMigration-Example/CoreDataMigration-ExampleTests/Resources/SQLite"
REVISED = "03__wibosco__CoreDataMigrationRevised-Example/CoreDataMigration-Example/CoreData/Model/CoreDataMigration_Example.xcdatamodeld"
REVISED_STORES = "03__wibosco__CoreDataMigrationRevised-Example/CoreDataMigration-ExampleTests/Resources/SQLite"
PLUS = "01__alemar11__CoreDataPlus/Tests/Resources"
WIRE = "19__wireapp__wire-ios-data-model"
# The stores whose model the corpus holds (as Tests/FerryCoreDataTests/StoreTestSupport.swift lists them).
MODELS = {
    **{f"{WIBOSCO_STORES}/CoreDataMigration_Example_{n}.sqlite": WIBOSCO for n in ("1", "2", "3", "WAL")},
    **{f"{REVISED_STORES}/CoreDataMigration_Example_{n}.sqlite": REVISED for n in ("1", "2", "3")},
    f"{PLUS}/SampleModel/Fixtures/SampleModel_V1.sqlite": f"{PLUS}/SampleModel/SampleModel.xcdatamodeld",
    f"{PLUS}/SampleModel/Fixtures/SampleModel_V2.sqlite": f"{PLUS}/SampleModel/SampleModel.xcdatamodeld",
    f"{PLUS}/SampleModel3/Fixtures/SampleModel3_V1.sqlite": f"{PLUS}/SampleModel3/SampleModel3.xcdatamodeld",
    "06__bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite": "06__bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld",
    **{f"{WIRE}/Tests/Resources/store{v}.wiredatabase": f"{WIRE}/Resources/zmessaging.xcdatamodeld" for v in ("2-3", "2-21-1", "2-40-0", "2-60-0")},
}


def stores():
    found = []
    for folder, _, files in os.walk(STORES):
        for name in files:
            if name.endswith((".sqlite", ".store", ".wiredatabase")):
                found.append(os.path.relpath(os.path.join(folder, name), STORES))
    return sorted(found)


def cases():
    for store in stores():
        yield {"store": store, "model": None}
        if store in MODELS:
            yield {"store": store, "model": MODELS[store]}


def dump(ferry, case):
    argv = [ferry, "dump", os.path.join(STORES, case["store"])]
    if case["model"]:
        argv += ["--model", os.path.join(STORES, case["model"])]
    result = subprocess.run(argv, capture_output=True)
    # A missing external file is named by its path: the corpus' place is not part of the record.
    output = result.stdout.replace((STORES + "/").encode(), b"<corpus>/")
    return {"store": case["store"], "model": case["model"], "exit": result.returncode,
            "sha256": hashlib.sha256(output).hexdigest(), "lines": output.count(b"\n")}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ferry", required=True)
    parser.add_argument("--compare")
    parser.add_argument("--json")
    parser.add_argument("--label", help="what to record as the reader (default: the binary's path)")
    args = parser.parse_args()
    for binary in filter(None, [args.ferry, args.compare]):
        if not os.access(binary, os.X_OK):
            sys.exit(f"corpus_dumps: {binary}: no ferry binary there (swift build -c release --product ferry)")
    if not os.path.isdir(STORES):
        sys.exit(f"corpus_dumps: {STORES}: no corpus stores (set FERRY_SHARED to the shared folder)")
    first = [dump(args.ferry, case) for case in cases()]
    if args.compare:
        differ = 0
        for a, b in zip(first, (dump(args.compare, case) for case in cases())):
            same = (a["exit"], a["sha256"]) == (b["exit"], b["sha256"])
            differ += not same
            print(f"{'same ' if same else 'DIFF '} {a['store']}{' --model' if a['model'] else ''}: exit {a['exit']}/{b['exit']}, "
                  f"{a['lines']}/{b['lines']} lines")
        print(f"{len(first)} cases, {differ} differ")
        return 1 if differ else 0
    text = json.dumps({"recordedWith": args.label or args.ferry, "cases": first}, indent=1) + "\n"
    if args.json:
        with open(args.json, "w") as out:
            out.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
