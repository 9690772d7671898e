#!/usr/bin/env python3
"""Seeds for one fuzz target: the files under the given folders that the target reads, each at most
1 MB, named by content hash. Usage: fuzz-seeds.py TARGET DEST FOLDER..."""
import hashlib, os, sys

LIMIT = 1 << 20


def wanted(target, path, head):
    name = os.path.basename(path)
    if target == "json":
        return name.endswith((".json", ".ndjson"))
    if target == "brewlog":
        return name.endswith((".json", ".ndjson")) and b"recipeNameAtBrew" in head
    if target == "model":
        return name == "contents" or (name.endswith(".xml") and b"<model" in head)
    if target == "plist":
        return head.startswith(b"bplist")
    if target == "store":
        return head.startswith(b"SQLite format 3\0")
    if target == "paprika":
        return name.endswith(".paprikarecipe")
    if target == "jsonld":
        return name.endswith((".html", ".htm"))
    if target == "cooklang":
        return name.endswith((".cook", ".menu"))
    if target == "bundle":
        return name.endswith((".tar.zst", ".tar.gz", ".zip", ".ferrybundle"))
    return False


def main():
    target, dest, folders = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(dest, exist_ok=True)
    count = 0
    for folder in folders:
        for root, _, files in os.walk(folder):
            for name in files:
                path = os.path.join(root, name)
                try:
                    if os.path.getsize(path) > LIMIT:
                        continue
                    with open(path, "rb") as handle:
                        data = handle.read()
                except OSError:
                    continue
                if wanted(target, path, data[:4096]):
                    # A brew log seed is one record: each line of an NDJSON file on its own.
                    pieces = data.splitlines() if target == "brewlog" and name.endswith(".ndjson") else [data]
                    for piece in pieces:
                        with open(os.path.join(dest, hashlib.sha1(piece).hexdigest()), "wb") as out:
                            out.write(piece)
                        count += 1
    if count == 0:
        # libFuzzer also starts from nothing, but a seed of the right kind reaches deeper sooner.
        with open(os.path.join(dest, "empty"), "wb"):
            pass


main()
