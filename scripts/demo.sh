#!/bin/sh
# `make demo`: shows what waypointd can do today, on any machine, with no hardware.
# Usage: scripts/demo.sh BIN_DIR
set -eu
bin=${1:?usage: scripts/demo.sh BIN_DIR}

# Prints a command line exactly as a person would type it, then runs it.
show() {
    printf '\n$ waypointctl %s\n' "$1"
    eval "\"\$bin/waypointctl\" $1"
}

echo "waypointd demo: the navigation math every buzz depends on, and fixes from a real gpsd."
echo "(The daemon, its simulated board and the haptic motor arrive with the next issues.)"

echo
echo "== Where is the destination? Bearing and distance on the WGS84 ellipsoid =="
show 'bearing "48.8584 2.2945" "48.8530 2.3499"'
show "bearing geo:-33.8568,151.2153 \"33°51'08.3\\\"S 151°12'38.9\\\"E\""
echo
echo "A nearly antipodal pair, where Vincenty's method fails to converge:"
show 'bearing 0 0 0.5 179.7'

echo
echo "== Which way is north? Magnetic declination from WMM2025 =="
show 'declination 47.6062 -122.3321 --date 2026-07-02'
echo
echo "Near the north magnetic pole the compass is unreliable, and the daemon knows it:"
show 'declination 80 -96 --date 2026-07-02'

echo
echo "== Batch modes, for scripts and for checking against GeographicLib and NOAA =="
printf '$ printf "48.8584 2.2945 48.8530 2.3499\\n0 0 0.5 179.7\\n" | waypointctl bearing --batch\n'
printf '48.8584 2.2945 48.8530 2.3499\n0 0 0.5 179.7\n' | "$bin/waypointctl" bearing --batch
printf '$ echo "2026.5 0 51.5 -0.13" | waypointctl declination --batch\n'
echo "2026.5 0 51.5 -0.13" | "$bin/waypointctl" declination --batch

echo
echo "== Where am I? Fixes from a real gpsd replaying a recorded receiver log =="
if command -v gpsfake >/dev/null 2>&1 && command -v setsid >/dev/null 2>&1; then
    root=$(cd "$(dirname "$0")/.." && pwd)
    work=$(mktemp -d)
    port=$(( 20000 + $$ % 20000 ))
    # gpsfake runs gpsd on a pseudo-terminal and plays the log into it; its own process group
    # lets us stop both together.
    TMPDIR="$work" setsid gpsfake -n -q -c 0.05 -P "$port" "$root/Tests/GPSClientTests/Data/mt3339.log" \
        >"$work/gpsfake.log" 2>&1 &
    group=$!
    trap 'kill -s KILL -- -"$group" 2>/dev/null; rm -rf "$work"' EXIT INT TERM
    # gpsfake needs python3 (a dependency of gpsd-clients), so use it to wait for the port.
    python3 -c 'import socket, sys, time
for _ in range(100):
    try:
        socket.create_connection(("127.0.0.1", int(sys.argv[1])), 0.1).close(); break
    except OSError:
        time.sleep(0.05)' "$port"
    printf '$ waypointd gps --server 127.0.0.1:%s --count 4\n' "$port"
    "$bin/waypointd" gps --server "127.0.0.1:$port" --count 4 || true
    echo "(The log is from 2015: gpsd moves old receivers' dates forward by 1024 GPS weeks.)"
else
    echo "(skipped: needs gpsfake from gpsd-clients; run 'make deps')"
fi
