#!/usr/bin/env bash
# Runs the built test suite (`make test`) and ends with one line on what was skipped and why:
# without ../shared/corpus the corpus tests skip; under FERRY_REQUIRE_CORPUS=1 (CI) nothing may.
set -uo pipefail
swift="${SWIFT:-swift}"
log="$(mktemp "${TMPDIR:-/tmp}/ferry-test-log.XXXXXX")"
trap 'rm -f "$log"' EXIT
"$swift" test --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
skipped=$(grep -cE '^. Test .* skipped' "$log" || true)
if [ "$skipped" -gt 0 ]; then
    reasons=$(grep -E '^. Test .* skipped' "$log" | sed -E 's/.* skipped: //' | sort | uniq -c | sort -rn | head -3 | sed -E 's/^ *([0-9]+) /\1: /' | paste -sd ';' -)
    echo "run_tests: $skipped tests skipped ($reasons)"
    if [ "${FERRY_REQUIRE_CORPUS:-}" = "1" ]; then
        echo "run_tests: FERRY_REQUIRE_CORPUS=1, yet tests skipped" >&2
        status=1
    fi
else
    echo "run_tests: no test skipped"
fi
exit "$status"
