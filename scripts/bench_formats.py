#!/usr/bin/env python3
"""Times `ferry convert` of N schema.org recipes (release build): recipes made from the shapes
of the corpus's real JSON-LD files (each file's recipe again and again, with its own name, URL
and ingredients), written as NDJSON (one Recipe node a line) and as one JSON-LD @graph. Prints
recipes per second and the peak RSS of each.

  scripts/bench_formats.py [--records N] [--ferry PATH]

Issue 41's bar: 100,000 recipes at 5,000 or more a second, RSS under 150 MB."""
import argparse, glob, json, os, resource, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus", "formats", "schema-org")


def templates():
    found = []
    for path in sorted(glob.glob(os.path.join(CORPUS, "*.json"))):
        with open(path, encoding="utf-8") as handle:
            value = json.load(handle)
        if isinstance(value, dict) and value.get("@type") == "Recipe":
            found.append(value)
    if not found:
        sys.exit(f"bench_formats: no schema.org recipes in {CORPUS}")
    return found


def recipes(count):
    shapes = templates()
    for index in range(count):
        recipe = dict(shapes[index % len(shapes)])
        recipe["name"] = f"{recipe.get('name', 'Recipe')} #{index}"
        recipe["url"] = f"https://bench.example/recipes/{index}"
        ingredients = list(recipe.get("recipeIngredient") or [])
        if ingredients:
            ingredients[0] = f"{index % 7 + 1} {ingredients[0]}"
        recipe["recipeIngredient"] = ingredients
        yield recipe


def convert(ferry, source, store):
    for path in glob.glob(store + "*"):
        os.unlink(path)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    result = subprocess.run([ferry, "convert", source, "--from", "schema-org", "--to", store], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.monotonic() - start
    if result.returncode != 0:
        sys.exit(f"bench_formats: convert failed ({result.returncode}): {result.stderr.decode(errors='replace').strip()[-300:]}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    return elapsed, max(peak, before.ru_maxrss) / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--records", type=int, default=100_000)
    parser.add_argument("--ferry", default=os.path.join(ROOT, ".build", "release", "ferry"))
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="ferry-bench-formats-") as work:
        ndjson = os.path.join(work, "recipes.ndjson")
        with open(ndjson, "w", encoding="utf-8") as handle:
            for recipe in recipes(args.records):
                handle.write(json.dumps(recipe, ensure_ascii=False) + "\n")
        graph = os.path.join(work, "recipes.jsonld")
        with open(graph, "w", encoding="utf-8") as handle:
            json.dump({"@context": "https://schema.org", "@graph": list(recipes(args.records))}, handle, ensure_ascii=False)
        for label, source in [("NDJSON, a node a line", ndjson), ("one JSON-LD @graph", graph)]:
            elapsed, rss = convert(args.ferry, source, os.path.join(work, "out.ferry"))
            size = os.path.getsize(source) / (1 << 20)
            rate = args.records / elapsed
            verdict = "meets" if rate >= 5_000 and rss < 150 else "misses"
            print(f"{args.records:,} schema.org recipes ({label}, {size:.0f} MB): {elapsed:.1f} s, "
                  f"{rate:,.0f} recipes/s, peak RSS {rss:.0f} MB ({verdict} the bar of 5,000/s under 150 MB)")


if __name__ == "__main__":
    main()
