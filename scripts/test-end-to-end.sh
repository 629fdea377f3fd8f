#!/bin/bash
# The end-to-end suites of `make test`: real daemons, clients, gpsd, a private systemd. Each suite
# runs its tests one at a time (they wait on processes and measure reaction times, and blocking
# waits would starve each other's async work of threads), but the suites run side by side in
# shards, separate test processes, since they share nothing (each daemon has its own socket,
# state directory and sysfs tree; each gpsd its own port): on two cores they mostly wait. The
# suites that measure timing to the tens of milliseconds (the player's edges, the control
# server's threads) run last, alone.
#
# usage: scripts/test-end-to-end.sh XCTEST_BUNDLE
# Each shard's log goes to .build/test-logs/SHARD.log; a failing shard's log is printed.
set -uo pipefail
cd "$(dirname "$0")/.."

bundle=${1:?usage: scripts/test-end-to-end.sh XCTEST_BUNDLE}
logs=.build/test-logs
mkdir -p "$logs"

# Every end-to-end suite, by module or suite type: what `make test`'s unit phase skips.
all='WaypointdTests|InstallTests|WaypointctlTests|GPSClientTests|HealthCheckTests|HapticPlayerRealTimeTests|ControlServerTests|ButtonReaderTests|VoiceTests'
# Run alone, after the shards: they time the player's edges and the control server's threads,
# or load the daemon on purpose (the motor under a stream of requests, the short soak).
alone='HapticPlayerRealTimeTests|ControlServerTests|MotorBoundsTests|SoakTests'
# The Debian package's tests have a target of their own (make package-test).
package='PackageTests'
# The shards, about equal in length; the last takes every end-to-end suite no other names.
shard_a='RouteEndToEndTests|WalkEndToEndTests|SupervisionTests|SignalTests|WatchInTmuxTests|BroadReplayTests|FullDiskTests'
shard_b='GuidanceWarningTests|ClientBoundsTests|ControlCommandTests|GPSCommandTests|WaypointctlTests|MotorCommandTests|SignalAtStartTests'

# Each test has a time limit of its own (.timeLimit), which names it when it is exceeded; a test
# stuck in a call that does not return is then ended with its whole shard here, the log (with
# that name) printed. Far above a shard's few minutes.
shard_limit=${WAYPOINT_SHARD_SECONDS:-1200}

run() {
    local name=$1
    shift
    timeout --kill-after=10 "$shard_limit" "$bundle" --testing-library swift-testing --no-parallel "$@" > "$logs/$name.log" 2>&1
    local status=$?
    if [ "$status" -eq 124 ] || [ "$status" -eq 137 ]; then
        echo "$name: stopped after ${shard_limit} s (WAYPOINT_SHARD_SECONDS): a test did not return" >> "$logs/$name.log"
    fi
    return "$status"
}

started=$(date +%s)
run a --filter "$shard_a" & a=$!
run b --filter "$shard_b" & b=$!
run c --filter "$all" --skip "$shard_a|$shard_b|$alone|$package" & c=$!
status=0
for shard in a b c; do
    pid=${!shard}
    if wait "$pid"; then
        echo "end-to-end shard $shard: $(grep -a 'Test run with' "$logs/$shard.log" | tail -n 1)"
    else
        echo "end-to-end shard $shard FAILED:"
        cat "$logs/$shard.log"
        status=1
    fi
done
if run alone --filter "$alone"; then
    echo "end-to-end, alone: $(grep -a 'Test run with' "$logs/alone.log" | tail -n 1)"
else
    echo "end-to-end, alone, FAILED:"
    cat "$logs/alone.log"
    status=1
fi
echo "end-to-end suites: $(( $(date +%s) - started )) s"
exit $status
