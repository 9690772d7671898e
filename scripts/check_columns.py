#!/usr/bin/env python3
"""Checks that each canonical column is named in one place (run by `make test`): its
declaration in `Sources/FerryStore/Schema/Tables/`, and the migrations' SQL. Anywhere else a
string literal holding a declared column's name (`"started_at"`, or `started_at` inside SQL
text) is a violation: the code names the declaration (`LogTable.startedAt`) instead.

A line that says so (`// Molten's own field names`) names an app's field that happens to be
spelled as a column; a file that reads a whole snake_case schema of another app says so once
(`// Strings here are Mealie's own field names, not canonical columns.`). Only names with an underscore are held to it: `id`, `title` or `kind` are also the keys of
every app's JSON. FerryCanonical, below the store, names the few columns its links and marks
set (`parent_id`, `created_at`); `CanonicalTablesTests` checks each of those is declared.
Exits 1 naming each file, line and name."""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLES = os.path.join("Sources", "FerryStore", "Schema", "Tables")
EXEMPT = [TABLES, os.path.join("Sources", "FerryStore", "Schema", "StoreMigrations.swift"), os.path.join("Sources", "FerryCanonical")]


def declared():
    names = set()
    for file in os.listdir(os.path.join(ROOT, TABLES)):
        text = open(os.path.join(ROOT, TABLES, file), encoding="utf-8").read()
        names.update(re.findall(r'CanonicalColumn\("([a-z_]+)"', text))
        for owner, kind in re.findall(r'Join\("([a-z_]+)", "([a-z_]+)"\)', text):
            names.update({owner + "_id", kind + "_id"})
    return {name for name in names if "_" in name}


def literals(text):
    """(line, content) of each string literal, comments left out."""
    found = []
    position = 0
    pattern = re.compile(r'//[^\n]*|/\*.*?\*/|"""(.*?)"""|"((?:[^"\\\n]|\\.)*)"', re.S)
    for match in pattern.finditer(text):
        if match.group(0).startswith("/"):
            continue
        content = match.group(1) if match.group(1) is not None else match.group(2)
        found.append((text.count("\n", 0, match.start()) + 1, content or ""))
    return found


def violations(text, names):
    """(line, name) of each declared column named in a string of `text`."""
    if re.search(r"^// Strings here are \w+'s own field names, not canonical columns\.$", text, re.M):
        return []
    own = {number for number, line in enumerate(text.split("\n"), 1) if re.search(r"//.*'s own field names", line)}
    found = []
    for line, content in literals(text):
        if line not in own:
            found += [(line, word) for word in sorted(set(re.findall(r"[a-z][a-z0-9_]*", content)) & names)]
    return found


def self_test(names):
    sample = '\n'.join([
        'let a = row.text("started_at")',
        '// a comment naming started_at is fine',
        'let b = fields.string("startedAt", "started_at")   // BrewGuide\'s own field names',
        'let c = """',
        '    SELECT id, source_app FROM log',
        '    """',
        'let d = "\\(LogTable.startedAt) = ?"',
    ])
    found = violations(sample, names)
    assert found == [(1, "started_at"), (4, "source_app")], found
    print("check_columns: self-test passed")


def main():
    names = declared()
    if "--self-test" in sys.argv:
        return self_test(names)
    if len(names) < 40:
        sys.exit(f"check_columns: found only {len(names)} declared column names in {TABLES}; has the declaration style changed?")
    problems = []
    for directory, _, files in os.walk(os.path.join(ROOT, "Sources")):
        for file in sorted(files):
            path = os.path.relpath(os.path.join(directory, file), ROOT)
            if not file.endswith(".swift") or any(path == exempt or path.startswith(exempt + os.sep) for exempt in EXEMPT):
                continue
            for line, word in violations(open(os.path.join(ROOT, path), encoding="utf-8").read(), names):
                problems.append(f"{path}:{line}: the column {word} is named in a string; use its declaration in {TABLES}")
    # FerryCanonical cannot see the declarations: whatever column it names must be a declared one.
    canonical = os.path.join(ROOT, "Sources", "FerryCanonical")
    for directory, _, files in os.walk(canonical):
        for file in sorted(f for f in files if f.endswith(".swift")):
            path = os.path.join(directory, file)
            for line, content in literals(open(path, encoding="utf-8").read()):
                if re.fullmatch(r"[a-z]+(_[a-z]+)*_(id|at)", content) and content not in names:
                    problems.append(f"{os.path.relpath(path, ROOT)}:{line}: {content} looks like a column but no table declares it")
    for problem in problems:
        print(problem)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
