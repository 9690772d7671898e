#!/usr/bin/env python3
"""N BrewGuide brew-log DTOs (the shape of ../shared/bench/gen_brewlogs_dto.py: a `summary` object
and the brew parameters beside it), written three ways with the same records:
  OUT/logs.json    one JSON array         (ferry convert --from brewguide)
  OUT/logs.ndjson  one record per line    (ferry convert, sqlite-utils insert --nl)
  OUT/logs.csv     the same rows, flat    (the sqlite3 shell's .import)
  OUT/logs-flat.ndjson, OUT/logs-flat.json  the same flat rows as JSON (sqlite-utils insert --pk id: keyed
                   by the real UUID, one column per field, as the other tools get them)
Usage: gen_brewlogs.py N OUT [SEED]"""
import csv, json, os, random, sys, uuid

def records(n, rng):
    recipes = [str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper() for _ in range(200)]
    for i in range(n):
        summary = {"id": str(uuid.UUID(int=rng.getrandbits(128), version=4)).upper(), "timestamp": 700000000 + i * 61.25,
                   "method": "v60", "recipeNameAtBrew": "Recipe %d" % (i % 200), "rating": rng.randint(1, 5),
                   "recipeId": recipes[i % 200]}
        if i % 3 == 0:
            summary["tasteTag"] = rng.choice(["too_bitter", "too_sour", "too_weak", "too_strong"])
        record = {"summary": summary, "doseGrams": round(rng.uniform(12, 22), 1), "targetYieldGrams": 250,
                  "waterTemperatureCelsius": 94, "grindLabel": "medium"}
        if i % 2:
            record["note"] = "Brew note %d, bright and sweet" % i
        yield record

COLUMNS = ["id", "timestamp", "method", "recipe_name", "rating", "recipe_id", "taste_tag", "dose", "yield", "temperature", "grind", "note"]

def main():
    n, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 1)
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "logs.json"), "w") as array, open(os.path.join(out, "logs.ndjson"), "w") as lines, \
            open(os.path.join(out, "logs.csv"), "w", newline="") as flat, \
            open(os.path.join(out, "logs-flat.ndjson"), "w") as flat_lines, open(os.path.join(out, "logs-flat.json"), "w") as flat_array:
        table = csv.writer(flat)
        table.writerow(COLUMNS)
        array.write("[")
        flat_array.write("[")
        for i, record in enumerate(records(n, rng)):
            text = json.dumps(record, separators=(",", ":"))
            array.write(("," if i else "") + text)
            lines.write(text + "\n")
            s = record["summary"]
            table.writerow([s["id"], s["timestamp"], s["method"], s["recipeNameAtBrew"], s["rating"], s["recipeId"],
                            s.get("tasteTag", ""), record["doseGrams"], record["targetYieldGrams"],
                            record["waterTemperatureCelsius"], record["grindLabel"], record.get("note", "")])
            row = dict(zip(COLUMNS, [s["id"], s["timestamp"], s["method"], s["recipeNameAtBrew"], s["rating"], s["recipeId"],
                                     s.get("tasteTag"), record["doseGrams"], record["targetYieldGrams"],
                                     record["waterTemperatureCelsius"], record["grindLabel"], record.get("note")]))
            text = json.dumps(row, separators=(",", ":"))
            flat_lines.write(text + "\n")
            flat_array.write(("," if i else "") + text)
        array.write("]")
        flat_array.write("]")

if __name__ == "__main__":
    main()
