#!/usr/bin/env bash
# Installs what building and testing Ferry needs and this machine lacks. Safe to run again.
set -euo pipefail

# chromium: the bundle view's test opens the exported pages in a real browser; python3-yaml: the
# Cooklang spec test reads its YAML.
packages=(libsqlite3-dev libxml2-dev libarchive-dev zlib1g-dev zstd graphviz sqlite3 chromium python3-yaml)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if ((${#missing[@]})); then
    echo "setup: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The tests validate JSON output against Formats/json/*.schema.json with Python's jsonschema.
if command -v python3 >/dev/null && ! python3 -c 'import jsonschema' 2>/dev/null; then
    echo "setup: installing Python jsonschema" >&2
    python3 -m pip install --quiet jsonschema || echo "setup: jsonschema unavailable; schema tests will be skipped" >&2
fi

# The bundle tests validate unpacked bags with the Library of Congress BagIt validator.
if command -v python3 >/dev/null && ! python3 -c 'import bagit' 2>/dev/null; then
    echo "setup: installing Python bagit" >&2
    python3 -m pip install --quiet bagit || echo "setup: bagit unavailable; the independent BagIt check will be skipped" >&2
fi

# The Cooklang tests read the spec's canonical.yaml with Python's YAML reader (python3-yaml
# above; pip where that package is not to be had).
if command -v python3 >/dev/null && ! python3 -c 'import yaml' 2>/dev/null; then
    echo "setup: installing Python PyYAML" >&2
    python3 -m pip install --quiet pyyaml || echo "setup: PyYAML unavailable; the Cooklang spec test will fail" >&2
fi

# The bundle view's test drives the system's Chromium with Playwright (no browser download).
if command -v python3 >/dev/null && ! python3 -c 'import playwright' 2>/dev/null; then
    echo "setup: installing Python playwright" >&2
    python3 -m pip install --quiet playwright
fi

# The formats a bundle carries for other apps are checked with the tools people use:
# frictionless (with its NDJSON support), icalendar and pyld.
if command -v python3 >/dev/null && ! python3 -c 'import frictionless, jsonlines, ijson, icalendar, pyld' 2>/dev/null; then
    echo "setup: installing Python frictionless[json], icalendar, pyld" >&2
    python3 -m pip install --quiet "frictionless[json]" icalendar pyld
fi

command -v swift >/dev/null || { echo "setup: swift not found on PATH (Swift 6.1 or later is needed)" >&2; exit 1; }
