#!/bin/sh
# `make demo`: shows what waypointd can do today, on any machine, with no hardware.
# Usage: scripts/demo.sh BIN_DIR
set -eu
bin=${1:?usage: scripts/demo.sh BIN_DIR}
# Set by the sections that start background programs; the exit trap cleans up what exists.
group=""
work=""

# Prints a command line exactly as a person would type it, then runs it.
show() {
    printf '\n$ waypointctl %s\n' "$1"
    eval "\"\$bin/waypointctl\" $1"
}

echo "waypointd demo: the navigation math, fixes from a real gpsd, and the daemon guiding a"
echo "simulated wearer to a destination on a simulated board, with no hardware."

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
    trap 'kill -s KILL -- -"$group" 2>/dev/null || true; rm -rf "$work"' EXIT INT TERM
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

echo
echo "== The daemon on a simulated board: a wearer turns until they feel the buzz, then walks =="
if command -v python3 >/dev/null 2>&1; then
    sim=$(mktemp -d)
    mkdir -p "$sim/sys/class/pwm/pwmchip0/pwm0" "$sim/state"
    echo 1 >"$sim/sys/class/pwm/pwmchip0/npwm"
    : >"$sim/sys/class/pwm/pwmchip0/export"
    : >"$sim/sys/class/pwm/pwmchip0/unexport"
    for attribute in period duty_cycle enable; do echo 0 >"$sim/sys/class/pwm/pwmchip0/pwm0/$attribute"; done
    printf '$ waypointd --simulate --socket %s/control.sock --state-dir %s/state --sysfs-root %s\n' "$sim" "$sim" "$sim"
    "$bin/waypointd" --simulate --socket "$sim/control.sock" --state-dir "$sim/state" --sysfs-root "$sim" \
        --log-level warning &
    daemon=$!
    trap 'kill -s KILL -- -"$group" 2>/dev/null || true; kill "$daemon" 2>/dev/null || true; rm -rf "$work" "$sim"' EXIT INT TERM
    # The control protocol is newline-delimited JSON; waypointctl's daemon commands come with
    # the control-protocol issue, so the demo speaks it directly.
    python3 - "$sim" <<'PY'
import json, os, socket, sys, time
sim = sys.argv[1]
path = os.path.join(sim, "control.sock")
for _ in range(100):
    if os.path.exists(path):
        break
    time.sleep(0.05)
client = socket.socket(socket.AF_UNIX)
client.connect(path)
stream = client.makefile("rw")
print("greeting:", stream.readline().strip())
def request(message):
    stream.write(json.dumps(message) + "\n")
    stream.flush()
    return json.loads(stream.readline())
print('> {"cmd":"go","lat":48.8559,"lon":2.2990,"name":"bench by the pond"} ->', request(
    {"cmd": "go", "lat": 48.8559, "lon": 2.2990, "name": "bench by the pond"})["class"])
duty_path = os.path.join(sim, "sys/class/pwm/pwmchip0/pwm0/duty_cycle")
def number(value, digits=0, unit=""):
    return "   -" if value is None else f"{value:6.{digits}f}{unit}"
start = time.time()
while time.time() - start < 90:
    status = request({"cmd": "status"})
    heading = (status.get("heading") or {}).get("true")
    intensity = (status.get("haptic") or {}).get("intensity") or 0
    duty = int(open(duty_path).read() or 0)
    bar = "#" * int(round(intensity * 20))
    print(f"{time.time() - start:5.1f} s  {status['state']:<10} heading {number(heading, 0, '°')}  "
          f"bearing {number(status.get('bearing'), 0, '°')}  distance {number(status.get('distance'), 1, ' m')}  "
          f"motor |{bar:<20}| duty {duty:5d} ns")
    if status["state"] == "arrived":
        break
    time.sleep(1)
PY
    kill -TERM "$daemon"
    wait "$daemon" || true
    printf 'after SIGTERM the motor is off: duty_cycle %s, enable %s\n' \
        "$(cat "$sim/sys/class/pwm/pwmchip0/pwm0/duty_cycle")" "$(cat "$sim/sys/class/pwm/pwmchip0/pwm0/enable")"
else
    echo "(skipped: needs python3, which gpsd-clients brings; run 'make deps')"
fi
