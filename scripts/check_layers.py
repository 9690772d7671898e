#!/usr/bin/env python3
"""Checks the package's layering from Package.swift and the sources (run by `make test`):
every module a target imports is declared among its dependencies, no target imports a library
target below it in reverse (the declared graph has no cycle by construction), and the readers
(model, Core Data, canonical, convert) have no path to libarchive, so that an app can embed them;
every declared dependency is imported somewhere (a library target's, and the tests'); and the
domain model, FerryCanonical, stands on FerryJSON alone among Ferry's targets.
Exits 1 naming each violation."""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
READERS = ["FerryModel", "FerryCoreData", "FerryCanonical", "FerryConvert"]
# Targets held to a fixed set of Ferry targets beneath them.
ALLOWED = {"FerryCanonical": {"FerryJSON"}}
# Products of other packages and the system modules, by the name a source imports.
EXTERNAL = {"GRDB": "GRDB", "GRDBSQLite": "GRDBSQLite", "Crypto": "Crypto", "ArgumentParser": "ArgumentParser"}
PLUGINS = {"EmbedModels", "GenerateManual"}
SYSTEM = {"Foundation", "FoundationXML", "Glibc", "Musl", "Testing", "XCTest", "Dispatch", "Darwin"}


def balanced(text, start, open_char, close_char):
    """The text from `start` (an opening character) to its matching closing one."""
    depth = 0
    for index in range(start, len(text)):
        if text[index] == open_char:
            depth += 1
        elif text[index] == close_char:
            depth -= 1
            if depth == 0:
                return text[start:index + 1]
    raise SystemExit("check_layers: Package.swift is not balanced")


def targets():
    text = re.sub(r"//[^\n]*", "", open(os.path.join(ROOT, "Package.swift")).read())
    found = {}
    for match in re.finditer(r'\.(target|testTarget|executableTarget|systemLibrary)\(', text):
        block = balanced(text, match.end() - 1, "(", ")")
        name = re.search(r'name:\s*"([^"]+)"', block).group(1)
        names = set()
        start = block.find("dependencies:")
        if start >= 0:
            deps = balanced(block, block.index("[", start), "[", "]")
            deps = re.sub(r'package:\s*"[^"]+"', "", deps)
            names = set(re.findall(r'"([^"]+)"', deps))
        path = re.search(r'path:\s*"([^"]+)"', block)
        folder = path.group(1) if path else os.path.join("Tests" if match.group(1) == "testTarget" else "Sources", name)
        found[name] = (match.group(1), names, folder)
    return found


def imports(folder):
    modules = {}
    for directory, _, files in os.walk(os.path.join(ROOT, folder)):
        for file in files:
            if not file.endswith(".swift"):
                continue
            path = os.path.join(directory, file)
            for line in open(path, encoding="utf-8"):
                match = re.match(r'(?:@testable |@_exported )?import (\w+)\s*$', line)
                if match:
                    modules.setdefault(match.group(1), os.path.relpath(path, ROOT))
    return modules


def main():
    graph = targets()
    problems = []
    for name, (kind, deps, folder) in graph.items():
        if kind == "systemLibrary":
            continue
        imported = imports(folder)
        for module, where in imported.items():
            if module in SYSTEM or module == name:
                continue
            if module not in deps and EXTERNAL.get(module) not in deps:
                problems.append(f"{where}: imports {module}, which target {name} does not declare")
        # A plugin or a system library is linked, not imported; a product name may differ from its module.
        modules = {module: module for module in imported} | {EXTERNAL[m]: m for m in imported if m in EXTERNAL}
        for dep in sorted(deps):
            # An executable is declared for the tests that run it, not imported.
            if dep not in modules and graph.get(dep, ("",))[0] not in ("systemLibrary", "executableTarget") and dep not in PLUGINS:
                problems.append(f"Package.swift: target {name} declares {dep} and no file of it imports it")
        ferry = {dep for dep in deps if dep in graph}
        if name in ALLOWED and not ferry <= ALLOWED[name]:
            problems.append(f"Package.swift: {name} may stand on {', '.join(sorted(ALLOWED[name]))} only; it declares {', '.join(sorted(ferry - ALLOWED[name]))}")

    def reaches(start, goal, seen=()):
        if start == goal:
            return [goal]
        for dep in sorted(graph.get(start, (None, set()))[1]):
            if dep not in seen:
                path = reaches(dep, goal, seen + (start,))
                if path:
                    return [start] + path
        return None

    for reader in READERS:
        path = reaches(reader, "CLibArchive")
        if path:
            problems.append(f"Package.swift: {reader} links libarchive through {' -> '.join(path)}")
    for problem in problems:
        print(f"check_layers: {problem}", file=sys.stderr)
    if problems:
        return 1
    print(f"check_layers: {len(graph)} targets, every import declared and every declaration imported, FerryCanonical on FerryJSON alone, {', '.join(READERS)} link without libarchive")
    return 0


if __name__ == "__main__":
    sys.exit(main())
