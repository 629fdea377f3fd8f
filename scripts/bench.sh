#!/bin/sh
# Prints the benchmark table of `make bench`: one line per metric, `name value unit`, then the
# whole daemon's resource budgets (scripts/bench/daemon.py: about two minutes of real time).
# Usage: scripts/bench.sh RELEASE_BIN_DIR
# Our geodesic inverse is timed beside GeographicLib's C++ Geodesic::Inverse on the same inputs
# (the short and long rows of the reference table) when g++ and libgeographiclib-dev are present.
set -eu
bin=${1:?usage: scripts/bench.sh RELEASE_BIN_DIR}
root=$(cd "$(dirname "$0")/.." && pwd)
table="$root/Tests/GeodesyTests/Data/geodesic_inverse.tsv"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

# Same inputs for both implementations: walking-scale rows and long rows of the reference table.
awk -F'\t' '$8 == "short" || $8 == "short_cardinal"' "$table" >"$work/short.tsv"
awk -F'\t' '$8 == "long" || $8 == "random"' "$table" >"$work/long.tsv"

# A counting allocator, preloaded, lets the bench report heap allocations per sample.
preload=""
if command -v gcc >/dev/null 2>&1 && gcc -shared -fPIC -O2 -o "$work/count-allocations.so" \
    "$root/scripts/bench/count-allocations.c" 2>/dev/null; then
    preload="$work/count-allocations.so"
fi
LD_PRELOAD="$preload" "$bin/waypoint-bench"
for set in short long; do
    "$bin/waypoint-bench" geodesic "$work/$set.tsv" | sed "s/^geodesic.inverse.file/geodesic.inverse.table-$set/"
done
# GPX import and trail export, each in its own process so its peak memory is its own.
"$bin/waypoint-bench" gpx-import
"$bin/waypoint-bench" trail-export
# From the sample at which the wearer's heading enters the zone to the motor's first duty rise,
# on the daemon's own threads in real time (about two minutes), with and without a gyroscope.
"$bin/waypoint-bench" latency

if command -v g++ >/dev/null 2>&1 && [ -f /usr/include/GeographicLib/Geodesic.hpp ]; then
    g++ -O2 -o "$work/geographiclib-inverse" "$root/scripts/bench/geographiclib-inverse.cpp" -lGeographicLib
    for set in short long; do
        "$work/geographiclib-inverse" "$work/$set.tsv" 2>/dev/null |
            sed "s/^geographiclib.inverse.file/geographiclib.inverse.table-$set/"
    done
else
    echo "# GeographicLib comparison skipped: needs g++ and libgeographiclib-dev (scripts/deps.sh --bench)"
fi

# The offline map: import, index size, search and where through the socket, memory.
if command -v osmium >/dev/null 2>&1; then
    python3 "$root/scripts/bench/places.py" "$bin"
    # A region's size: a synthetic city of 3.1 million places (WAYPOINT_BENCH_CITY_PLACES),
    # written once under .build/bench-city/, imported again whenever waypointd changed.
    python3 "$root/scripts/bench/city.py" "$bin"
else
    echo "# places skipped: needs osmium-tool (make deps installs it)"
fi

# The phone companion: requests a second, event latency, its memory and CPU with pages open.
python3 "$root/scripts/bench/web.py" "$bin"

# The button: release to the motor's confirmation, and to the voice's start (issue 42).
python3 "$root/scripts/bench/button.py" "$bin"

# The whole daemon, release build, guiding and idle, beside gpsd serving a recorded log.
# What waking alone costs on this machine, for scale (a virtual machine's timer wake-ups are dear).
floor=""
if command -v gcc >/dev/null 2>&1 && gcc -O2 -o "$work/wake-floor" "$root/scripts/bench/wake-floor.c" 2>/dev/null; then
    floor="$work/wake-floor"
fi
python3 "$root/scripts/bench/daemon.py" "$bin" ${preload:+--preload "$preload"} ${floor:+--wake-floor "$floor"}
