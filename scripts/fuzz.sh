#!/bin/bash
# `make fuzz`: builds one libFuzzer binary per reader (JSON, XML model, property list and keyed
# archive, Core Data store, bundle) and one for brew logs read in place against the general
# reading, linked against the project's library modules compiled with coverage and
# AddressSanitizer, and runs each for FUZZ_SECONDS (default 60) from a seed corpus of
# the project's fixtures and ../shared/corpus. New inputs go to out/fuzz/<target>/; a crash stops
# the run and leaves its input as out/fuzz/crash-<target>-*, to be fixed and kept as a test.
# Usage: scripts/fuzz.sh [target ...]   (targets: json brewlog model plist store bundle paprika jsonld cooklang)
# The fuzzer's output is filtered through a pipe; its status must still count.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${FUZZ_SECONDS:-60}
build=.build/fuzz
out=out/fuzz
targets=${*:-json brewlog model plist store bundle paprika jsonld cooklang}

# The two top library targets: every library below them is built too.
for library in FerryBundle FerryConvert; do
    # lld: gold stops with an internal error on the sanitized build plugin's warning.
    swift build -c release --build-path "$build" --target "$library" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing -Xswiftc -use-ld=lld >&2
done
bin="$build/release"
objects=$(find "$bin/" -name '*.o' -path '*.build/*' \
    ! -path '*/ferry.build/*' ! -path '*/make_sample_stores.build/*' ! -path '*Tests.build/*' ! -path '*TestSupport.build/*' \
    ! -path '*/ArgumentParser*.build/*' ! -path '*/Plugin*' ! -path '*embed_models*' ! -path '*generate_manual*' | sort)
maps=$(find Sources "$build/checkouts" -name module.modulemap 2>/dev/null | sed 's/^/-Xcc -fmodule-map-file=/')

# Seed bundles: the brewguide sample converted and exported in each archive format.
make_bundles() {
    swift build --product ferry >&2
    rm -rf "$out/bundles" && mkdir -p "$out/bundles"
    .build/debug/ferry convert Samples/brewguide --to "$out/bundles/sample.ferry" >/dev/null 2>&1
    for format in tar.zst tar.gz zip; do
        .build/debug/ferry export "$out/bundles/sample.ferry" --output "$out/bundles/sample.$format" >/dev/null
    done
}

# Foundation's own leaks on XML and property-list errors are known; any other leak is a finding.
export LSAN_OPTIONS="suppressions=$PWD/Tests/lsan-suppressions.txt:print_suppressions=0"
mkdir -p "$out"
for target in $targets; do
    case $target in
        json) source=JSONFuzz.swift; seeds="Tests/FerryJSONTests Samples ../shared/corpus/seedapps ../shared/corpus/formats/schema-org" ;;
        brewlog) source=BrewLogFuzz.swift; seeds="Samples/brewguide ../shared/corpus/seedapps/_generated" ;;
        model) source=ModelFuzz.swift; seeds="Tests/FerryModelTests/Fixtures" ;;
        plist) source=PropertyListFuzz.swift; seeds="Tests/FerryCoreDataTests ../shared/corpus" ;;
        store) source=StoreFuzz.swift; seeds="Samples ../shared/corpus" ;;
        bundle) source=BundleFuzz.swift; seeds="$out/bundles"; make_bundles ;;
        paprika) source=PaprikaFuzz.swift; seeds="Tests/Fixtures/Paprika ../shared/corpus/formats/paprika" ;;
        jsonld) source=JSONLDPageFuzz.swift; seeds="Tests/Fixtures/SchemaOrg ../shared/corpus/formats/schema-org" ;;
        cooklang) source=CooklangFuzz.swift; seeds="../shared/corpus/formats/cooklang" ;;
        *) echo "fuzz: unknown target $target (json brewlog model plist store bundle paprika jsonld cooklang)" >&2; exit 64 ;;
    esac
    binary="$bin/fuzz-$target"
    # shellcheck disable=SC2086
    swiftc -O -sanitize=fuzzer,address -use-ld=lld -parse-as-library -I "$bin/Modules" $maps \
        Fuzz/FuzzInput.swift "Fuzz/$source" $objects -lsqlite3 -larchive -lz -o "$binary"
    seed="$out/seed-$target"
    rm -rf "$seed" && mkdir -p "$seed" "$out/$target"
    scripts/fuzz-seeds.py "$target" "$seed" $seeds
    echo "fuzz: $target for ${SECONDS_PER_TARGET}s, $(ls "$seed" | wc -l) seeds" >&2
    (cd "$out" && "../../$binary" -max_total_time="$SECONDS_PER_TARGET" -timeout=10 -rss_limit_mb=2048 \
        -max_len=1048576 -artifact_prefix="crash-$target-" -print_final_stats=1 "$target" "seed-$target") 2>&1 \
        | tee "$out/$target.log" | { grep -E "^#[0-9]+ *(DONE|INITED)|stat::|ERROR|SUMMARY" || true; } >&2
done
