#!/usr/bin/env python3
"""The formats a bundle carries for other apps, checked with the tools people use (run by
`make test`; needs frictionless[json], icalendar and pyld, which `make setup` installs).

For the converted Samples/ and for a store converted from the corpus's foreign formats
(../shared/corpus/formats: Paprika, schema.org, Nextcloud, Tandoor, Mealie, Cooklang,
Beanconqueror), exports a bundle, unpacks it and checks:
- `frictionless validate` passes on data/datapackage.json with every resource (NDJSON and CSV,
  keys and foreign keys), and the rows it reads per table equal the store's;
- each CSV part starts with the header (frictionless drops a later part's first line unread);
- the `icalendar` package parses every .ics (CRLF, folded lines of at most 75 octets that never
  split a character, BEGIN/END paired, UID and DTSTAMP on each entry); the VTODOs per app equal
  the store's assignments, the VEVENTs its dated projects and planned meals, and there is a
  STATUS:COMPLETED for each completed assignment;
- `pyld` expands every JSON-LD file (offline: schema.org's context is given locally with its
  `http://schema.org/` vocabulary) to schema:Recipe nodes with a name, recipeIngredient and
  recipeInstructions; the files are one per recipe of the store, plus the list;
- Ferry's own readers read recipes.jsonld and the .paprikarecipes back to recipes equal in
  title, ingredient lines and steps to what was written;
- `ferry export --as` writes each format alone, and the same store gives the same bytes twice.
Exits 1 naming each failure.
"""
import argparse
import csv
import glob
import gzip
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import zipfile

import frictionless
from icalendar import Calendar
from pyld import jsonld

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = os.environ.get("FERRY_SHARED", os.path.join(ROOT, "..", "shared"))
V2_PROFILE = "https://datapackage.org/profiles/2.0/datapackage.json"
SDO = "http://schema.org/"
# schema.org's own context (https://schema.org/docs/jsonldcontext.jsonld) has this header; the
# tests run offline, so the loader gives it locally. Terms not listed expand through @vocab.
SDO_CONTEXT = {"@context": {
    "type": "@type", "id": "@id", "@vocab": SDO, "schema": SDO,
    **{t: {"@id": "schema:" + t, "@type": "@id"} for t in ("url", "image", "sameAs")},
    **{t: {"@id": "schema:" + t, "@type": "Date"} for t in ("datePublished", "dateModified", "dateCreated")}}}
SDO_URLS = {p + h + s for p in ("http://", "https://") for h in ("schema.org", "www.schema.org")
            for s in ("", "/", "/docs/jsonldcontext.jsonld", "/docs/jsonldcontext.json")}

failures = []


def fail(where, message):
    failures.append(f"{where}: {message}")


def as_list(value):
    return value if isinstance(value, list) else [value]


def run(*args):
    result = subprocess.run(args, capture_output=True, text=True)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(args)} exited {result.returncode}:\n{result.stderr}")
    return result


# ---------------------------------------------------------------- the Data Package
def check_datapackage(data, store, label):
    path = os.path.join(data, "datapackage.json")
    descriptor = json.load(open(path, encoding="utf-8"))
    if descriptor.get("$schema") != V2_PROFILE:
        fail(label, f'datapackage.json: "$schema" is {descriptor.get("$schema")!r}, not {V2_PROFILE}')
    for resource in descriptor["resources"]:
        fields = [field["name"] for field in resource["schema"]["fields"]]
        if resource.get("format") == "csv":
            for part in as_list(resource["path"]):
                with open(os.path.join(data, part), encoding="utf-8", newline="") as handle:
                    header = next(csv.reader(handle), None)
                if header != fields:
                    fail(label, f"{part}: header {header} is not the schema's fields {fields}")
        elif resource.get("format") == "ndjson":
            # frictionless reads the columns from the first line and fills missing keys with null.
            for part in as_list(resource["path"]):
                with open(os.path.join(data, part), encoding="utf-8") as handle:
                    for number, line in enumerate(handle, 1):
                        if list(json.loads(line)) != fields:
                            fail(label, f"{part} line {number}: keys are not the schema's fields")
                            break
    report = frictionless.validate(path, type="package")
    for error in report.errors:
        fail(label, f"datapackage.json: {error.message}")
    rows = {}
    for task in report.tasks:
        rows[task.name] = task.stats.get("rows") or 0
        for error in task.errors[:10]:
            fail(label, f"frictionless, resource {task.name}: {error.type}: {error.message}")
    names = {resource["name"] for resource in descriptor["resources"]}
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE 'sqlite_%' AND name NOT IN ('grdb_migrations', 'ferry_record_digest', 'ferry_record_digest_stamp')")]
        for table in tables:
            count = db.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
            for name in (table, f"{table}-csv"):
                if name not in names:
                    fail(label, f"datapackage.json has no resource {name}")
                elif rows.get(name) != count:
                    fail(label, f"resource {name}: frictionless read {rows.get(name)} rows, the store has {count}")
    return rows


# ---------------------------------------------------------------- iCalendar
def check_ics(path, label):
    name, raw = os.path.basename(path), open(path, "rb").read()
    where = f"{label} {name}"
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as error:
        fail(where, f"not UTF-8 (a fold splits a character?): {error}")
    lines = raw.split(b"\r\n")
    if b"\n" in raw.replace(b"\r\n", b"") or lines[-1] != b"":
        fail(where, "lines do not all end with CRLF")
    long = [number for number, line in enumerate(lines, 1) if len(line) > 75]
    if long:
        fail(where, f"{len(long)} lines longer than 75 octets, the first is line {long[0]}")
    text = re.sub(rb"\r\n[ \t]", b"", raw).decode("utf-8", "replace")
    open_components = []
    for number, line in enumerate(text.split("\r\n"), 1):
        key, _, value = line.partition(":")
        if key == "BEGIN":
            open_components.append(value)
        elif key == "END" and (not open_components or open_components.pop() != value):
            fail(where, f"line {number}: END:{value} does not close the open component")
    if open_components:
        fail(where, f"components left open: {open_components}")
    counts = {"VTODO": 0, "VEVENT": 0, "completed": 0, "uids": set()}
    try:
        calendar = Calendar.from_ical(raw)
    except Exception as error:  # icalendar raises ValueError on a broken VTODO line
        fail(where, f"icalendar refused it: {error}")
        return counts
    if str(calendar.get("VERSION", "")) != "2.0" or "PRODID" not in calendar:
        fail(where, "VCALENDAR needs VERSION:2.0 and PRODID")
    for component in calendar.walk():
        for prop, message in component.errors:
            fail(where, f"{component.name} {component.get('UID', '')}: {prop or 'line'}: {message}")
        if component.name in ("VTODO", "VEVENT"):
            counts[component.name] += 1
            counts["uids"].add(str(component.get("UID")))
            for required in ("UID", "DTSTAMP"):
                if required not in component:
                    fail(where, f"a {component.name} without {required}")
            if "RRULE" in component and "DTSTART" not in component:
                fail(where, f"{component.get('UID')}: RRULE without DTSTART")
        if component.name == "VTODO" and str(component.get("STATUS", "")) == "COMPLETED":
            counts["completed"] += 1
    return counts


def expected_calendar(store):
    """What each app's calendar should hold, from the store, by the rules of Formats/export-formats.md."""
    expected = {}
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        for app, todos, completed in db.execute("""SELECT source_app, count(*), sum(completed_at IS NOT NULL OR lower(status) IN ('completed', 'done', 'finished'))
                                                   FROM project WHERE kind = 'assignment' AND deleted_at IS NULL GROUP BY 1"""):
            expected.setdefault(app, {"VTODO": 0, "VEVENT": 0, "completed": 0}).update(VTODO=todos, completed=completed)
        for app, events in db.execute("SELECT source_app, count(*) FROM project WHERE kind != 'assignment' AND deleted_at IS NULL AND start_at LIKE '____-__-__T%Z' GROUP BY 1"):
            expected.setdefault(app, {"VTODO": 0, "VEVENT": 0, "completed": 0})["VEVENT"] += events
        for app, meals in db.execute("""SELECT p.source_app, count(*) FROM project_step s JOIN project p ON p.id = s.project_id
                                        WHERE p.kind = 'meal-plan' AND p.deleted_at IS NULL AND coalesce(s.due_at, s.start_at) LIKE '____-__-__%' GROUP BY 1"""):
            expected.setdefault(app, {"VTODO": 0, "VEVENT": 0, "completed": 0})["VEVENT"] += meals
    return {app: counts for app, counts in expected.items() if counts["VTODO"] + counts["VEVENT"] > 0}


# ---------------------------------------------------------------- schema.org JSON-LD
def offline_loader(url, options=None):
    if url in SDO_URLS:
        return {"contentType": "application/ld+json", "contextUrl": None, "documentUrl": url, "document": SDO_CONTEXT}
    raise jsonld.JsonLdError(f"offline: refusing to load {url}", "jsonld.LoadDocumentError", code="loading document failed")


def check_jsonld(path, label):
    where = f"{label} {os.path.basename(path)}"
    try:
        nodes = jsonld.expand(json.load(open(path, encoding="utf-8")), {"documentLoader": offline_loader})
    except Exception as error:
        fail(where, f"pyld cannot expand it: {str(error)[:300]}")
        return 0
    recipes = 0
    for node in nodes:
        if SDO + "Recipe" not in node.get("@type", []):
            fail(where, f"node {node.get('@id')} is not a schema:Recipe: {node.get('@type')}")
            continue
        recipes += 1
        if not node.get(SDO + "name"):
            fail(where, f"Recipe {node.get('@id')} has no name")
        for prop in ("recipeIngredient", "recipeInstructions"):
            # Present on every recipe; empty only where the store holds none.
            if (SDO + prop) not in node:
                fail(where, f"Recipe {node.get('@id')} has no {prop}")
    return recipes


# ---------------------------------------------------------------- round trips
def one_line(text):
    """A step or ingredient as Paprika's one-line-each text holds it: line breaks as spaces."""
    return " ".join(part.strip() for part in re.split(r"[\r\n]+", text or "") if part.strip())


def recipes_of(store):
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        result = {}
        # Recipes deleted in their app stay in the tables, not in the formats.
        for rid, title, instructions in db.execute("SELECT id, title, instructions FROM recipe WHERE deleted_at IS NULL"):
            lines = [row[0] for row in db.execute("SELECT description FROM material_line WHERE recipe_id = ? ORDER BY position", (rid,))]
            steps = [row[0] for row in db.execute("SELECT coalesce(instruction, title) FROM recipe_step WHERE recipe_id = ? ORDER BY position", (rid,))]
            # A recipe without steps is written with its instructions, a step a line.
            steps = steps or [line.strip() for line in (instructions or "").splitlines() if line.strip()]
            result.setdefault(title, []).append(([one_line(line) for line in lines], [one_line(step) for step in steps]))
        return {title: sorted(found) for title, found in result.items()}


def written_recipes(recipes_jsonld):
    """What recipes.jsonld says of each recipe: title, ingredient lines, step texts."""
    graph = json.load(open(recipes_jsonld, encoding="utf-8"))["@graph"]
    result = {}
    for node in graph:
        steps = []
        def walk(value):
            if isinstance(value, str):
                steps.extend(line.strip() for line in value.splitlines() if line.strip())
            elif isinstance(value, list):
                for element in value:
                    walk(element)
            elif isinstance(value, dict):
                if "itemListElement" in value:
                    walk(value["itemListElement"])
                elif "text" in value:
                    steps.append(value["text"].strip())
        walk(node.get("recipeInstructions"))
        lines = [line.strip() for line in node.get("recipeIngredient", []) if isinstance(line, str) and line.strip()]
        result.setdefault(node["name"], []).append(([one_line(line) for line in lines], [one_line(step) for step in steps]))
    return {title: sorted(found) for title, found in result.items()}


def round_trip(ferry, data, work, label):
    source = os.path.join(data, "formats", "schema-org", "recipes.jsonld")
    expected = written_recipes(source)
    # What was written is the store's: every title, and each recipe's steps (ingredient lines
    # also carry quantities, units and parameters, which the store keeps in columns).
    original = recipes_of(os.path.join(work, "store.ferry"))
    if sorted(original) != sorted(expected):
        fail(label, f"recipes.jsonld titles differ from the store's: {sorted(set(original) ^ set(expected))[:3]}")
    for title, found in original.items():
        if sorted(steps for _, steps in found) != sorted(steps for _, steps in expected.get(title, [])):
            fail(label, f"recipes.jsonld: the steps of {title!r} differ from the store's")
    for name, path in (("schema-org", source), ("paprika", os.path.join(data, "formats", "paprika", "recipes.paprikarecipes"))):
        store = os.path.join(work, f"back-{name}.ferry")
        run(ferry, "convert", path, "--from", name, "--to", store)
        found = recipes_of(store)
        if found != expected:
            missing = sorted(set(expected) ^ set(found))[:3]
            differing = [title for title in expected if title in found and found[title] != expected[title]][:3]
            fail(label, f"{name} read back differs: titles only on one side {missing}; differing {differing}")
    with zipfile.ZipFile(os.path.join(data, "formats", "paprika", "recipes.paprikarecipes")) as archive:
        names = archive.namelist()
        if len(names) != sum(len(found) for found in expected.values()):
            fail(label, f"the .paprikarecipes holds {len(names)} recipes, recipes.jsonld {sum(len(f) for f in expected.values())}")
        for name in names:
            json.loads(gzip.decompress(archive.read(name)))


def check_bundle(ferry, store, work, label):
    bundle = os.path.join(work, "bundle.tar.zst")
    run(ferry, "export", store, "-o", bundle)
    # The bag's folder is named after the file: the same name, in another folder.
    os.makedirs(os.path.join(work, "again"))
    again = os.path.join(work, "again", "bundle.tar.zst")
    run(ferry, "export", store, "-o", again)
    if open(bundle, "rb").read() != open(again, "rb").read():
        fail(label, "the same store exported twice gave different bytes")
    run(ferry, "verify", bundle)
    unpacked = os.path.join(work, "unpacked")
    os.makedirs(unpacked)
    run("tar", "--zstd", "-xf", bundle, "-C", unpacked)
    data = os.path.join(unpacked, "bundle", "data")
    rows = check_datapackage(data, store, label)
    calendars = {os.path.basename(path)[:-4]: check_ics(path, label) for path in sorted(glob.glob(os.path.join(data, "formats", "ical", "*.ics")))}
    expected = expected_calendar(store)
    if set(calendars) != set(expected):
        fail(label, f"calendars {sorted(calendars)}, expected one per app with dated records: {sorted(expected)}")
    for app, counts in expected.items():
        found = calendars.get(app, {})
        for key in ("VTODO", "VEVENT", "completed"):
            if found.get(key) != counts[key]:
                fail(label, f"{app}.ics: {found.get(key)} {key}, the store has {counts[key]}")
    files = sorted(glob.glob(os.path.join(data, "formats", "schema-org", "*.jsonld")))
    recipes = {os.path.basename(path): check_jsonld(path, label) for path in files}
    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
        ids = {row[0] for row in db.execute("SELECT id FROM recipe WHERE deleted_at IS NULL")}
    if {name[:-7] for name in recipes if name != "recipes.jsonld"} != ids:
        fail(label, "the JSON-LD files are not one per recipe of the store")
    if recipes.get("recipes.jsonld") != len(ids):
        fail(label, f"recipes.jsonld holds {recipes.get('recipes.jsonld')} recipes, the store {len(ids)}")
    round_trip(ferry, data, work, label)
    for kind, name in (("schema-org", "one.jsonld"), ("paprika", "one.paprikarecipes"), ("ics", "one.ics"), ("csv", "one.zip")):
        path = os.path.join(work, name)
        run(ferry, "export", store, "--as", kind, "-o", path)
        if kind == "ics":
            counts = check_ics(path, label)
            total = sum(c["VTODO"] + c["VEVENT"] for c in expected.values())
            if counts["VTODO"] + counts["VEVENT"] != total:
                fail(label, f"--as ics holds {counts['VTODO'] + counts['VEVENT']} entries, the bundle's calendars {total}")
        elif kind == "schema-org" and check_jsonld(path, label) != len(ids):
            fail(label, "--as schema-org does not hold every recipe")
        elif kind == "csv":
            with zipfile.ZipFile(path) as archive:
                archive.extractall(os.path.join(work, "csv-zip"))
            report = frictionless.validate(os.path.join(work, "csv-zip", "datapackage.json"), type="package")
            if not report.valid:
                fail(label, f"--as csv: frictionless finds it invalid: {[e.message for e in report.errors][:3]} {[e.message for t in report.tasks for e in t.errors][:3]}")
    return {"rows": sum(rows.values()), "calendars": {app: {k: v for k, v in c.items() if k != "uids"} for app, c in calendars.items()},
            "jsonld": len(files)}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--ferry", required=True)
    arguments = parser.parse_args()
    ferry = os.path.abspath(arguments.ferry)
    corpus = os.path.join(SHARED, "corpus", "formats")
    cases = [("Samples", [os.path.join(ROOT, "Samples")])]
    if os.path.isdir(corpus):
        cases.append(("corpus formats", [os.path.join(corpus, kind) for kind in sorted(os.listdir(corpus)) if os.path.isdir(os.path.join(corpus, kind))]))
    elif os.environ.get("FERRY_REQUIRE_CORPUS") == "1":
        raise SystemExit(f"the shared corpus is not at {corpus}")
    for label, inputs in cases:
        work = tempfile.mkdtemp(prefix="ferry-formats-")
        try:
            store = os.path.join(work, "store.ferry")
            subprocess.run([ferry, "convert", *inputs, "--to", store, "--keep-going"], capture_output=True, text=True)
            if not os.path.exists(store):
                raise SystemExit(f"{label}: ferry convert wrote no store")
            summary = check_bundle(ferry, store, work, label)
            print(f"{label}: {json.dumps(summary)}")
        finally:
            shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print(f"FAIL {failure}", file=sys.stderr)
    print(f"formats checked with frictionless, icalendar and pyld: {len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
