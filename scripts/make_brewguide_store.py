#!/usr/bin/env python3
"""A BrewGuide SwiftData store holding the brew logs of a generated logs.ndjson (scripts/gen_brewlogs.py),
for the store cases of the benchmark: the schema, metadata and entity numbers of the sample store
Samples/brewguide/BrewGuide.store (written by `make samples` as Core Data lays it out), its rows
replaced by one BrewLog row per log and one Recipe row per recipe the logs name.
Usage: make_brewguide_store.py LOGS.ndjson OUT.store"""
import json, os, shutil, sqlite3, sys, uuid

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sample_copy(sample, out):
    """A connection to a copy of a sample store at OUT.partial, without a journal (renamed into
    place when whole); a store at OUT is removed first."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(out + suffix):
            os.unlink(out + suffix)
    shutil.copyfile(os.path.join(ROOT, sample), out + ".partial")
    db = sqlite3.connect(out + ".partial")
    db.execute("PRAGMA journal_mode = OFF")
    db.execute("PRAGMA synchronous = OFF")
    return db


def main():
    logs, out = sys.argv[1], sys.argv[2]
    db = sample_copy("Samples/brewguide/BrewGuide.store", out)
    numbers = dict(db.execute("SELECT Z_NAME, Z_ENT FROM Z_PRIMARYKEY"))
    for table in ("ZBREWLOG", "ZRECIPESTEP", "ZRECIPE"):
        db.execute(f"DELETE FROM {table}")
    recipes = {}

    def recipe(text, name):
        if text not in recipes:
            recipes[text] = len(recipes) + 1
            db.execute("INSERT INTO ZRECIPE (Z_PK, Z_ENT, Z_OPT, ZNAME, ZMETHOD, ZID) VALUES (?, ?, 1, ?, 'v60', ?)",
                       (recipes[text], numbers["Recipe"], name, uuid.UUID(text).bytes))
        return recipes[text]

    def rows():
        with open(logs) as lines:
            for key, line in enumerate(lines, start=1):
                r = json.loads(line)
                s = r["summary"]
                yield (key, numbers["BrewLog"], s.get("rating"), recipe(s["recipeId"], s["recipeNameAtBrew"]) if "recipeId" in s else None,
                       r.get("doseGrams"), r.get("targetYieldGrams"), s["timestamp"], r.get("waterTemperatureCelsius"),
                       r.get("grindLabel"), s.get("method"), r.get("note"), s.get("recipeNameAtBrew"), s.get("tasteTag"),
                       uuid.UUID(s["id"]).bytes)

    db.executemany("""INSERT INTO ZBREWLOG (Z_PK, Z_ENT, Z_OPT, ZRATING, ZRECIPE, ZDOSEGRAMS, ZTARGETYIELDGRAMS, ZTIMESTAMP,
                      ZWATERTEMPERATURECELSIUS, ZGRINDLABEL, ZMETHOD, ZNOTE, ZRECIPENAMEATBREW, ZTASTETAG, ZID)
                      VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows())
    count = db.execute("SELECT count(*) FROM ZBREWLOG").fetchone()[0]
    db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'BrewLog'", (count,))
    db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Recipe'", (len(recipes),))
    db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 0 WHERE Z_NAME = 'RecipeStep'")
    db.commit()
    db.close()
    os.rename(out + ".partial", out)
    print(f"make_brewguide_store: {count} logs, {len(recipes)} recipes in {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
