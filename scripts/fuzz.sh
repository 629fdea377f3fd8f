#!/bin/bash
# make fuzz: builds the libFuzzer targets (Fuzz/Sources) with -sanitize=fuzzer in a build
# directory of their own, then runs each target for SECONDS (default 60), two at a time (the
# machine's two cores), starting from the seeds kept in Fuzz/corpus/TARGET. New inputs the
# fuzzer finds go to .build/fuzz/corpus/TARGET (not committed); a crash is saved as
# .build/fuzz/crash-TARGET-*, printed, and fails the run: turn it into a regression test.
#
# usage: scripts/fuzz.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-60}
shift || true
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(json request coordinate configuration recording gpx location companion)
case $seconds in '' | *[!0-9]*) echo "fuzz.sh: SECONDS must be a whole number, not '$seconds'" >&2; exit 64 ;; esac

scratch=.build/fuzz
WAYPOINT_FUZZ=1 swift build --scratch-path "$scratch" --product waypoint-fuzz \
    -Xswiftc -sanitize=fuzzer -Xswiftc -sanitize=address -Xswiftc -use-ld=lld
fuzzer="$scratch/debug/waypoint-fuzz"

run_one() {
    local target=$1 seconds=$2 scratch=$3 fuzzer=$4
    mkdir -p "$scratch/corpus/$target"
    # -max_len: the protocol's line limit; -rss_limit_mb: far above what any target needs, so a
    # leak or a blow-up is a finding; -timeout: one input taking 10 s is a finding too.
    if WAYPOINT_FUZZ_TARGET=$target "$fuzzer" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=1024 \
        -timeout=10 -print_final_stats=1 -artifact_prefix="$scratch/crash-$target-" \
        "$scratch/corpus/$target" "Fuzz/corpus/$target" > "$scratch/$target.log" 2>&1; then
        runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$scratch/$target.log")
        echo "fuzz $target: ${runs:-?} inputs in ${seconds} s, no finding"
    else
        echo "fuzz $target: FINDING (log: $scratch/$target.log)"
        tail -n 40 "$scratch/$target.log"
        return 1
    fi
}
export -f run_one

printf '%s\n' "${targets[@]}" | xargs -P 2 -I{} bash -c 'run_one "$@"' _ {} "$seconds" "$scratch" "$fuzzer"
