#!/bin/bash
# Runs systemd 252 as PID 1 of private namespaces, with the repository's waypointd.service and
# waypointd.socket, waypointd --simulate and a fake sysfs PWM tree; for
# Tests/InstallTests/ServiceUnderSystemdTests.swift (and by hand, for a look).
#
#   scripts/service-under-systemd.sh up WORK BINARY   start systemd; WORK: an empty directory
#   scripts/service-under-systemd.sh boot WORK ROOT   start ROOT's systemd on an overlay of ROOT
#   scripts/service-under-systemd.sh in WORK CMD...   run CMD inside (e.g. systemctl show ...)
#   scripts/service-under-systemd.sh down WORK        kill everything, remove mounts and cgroups
#
# Root only. Exit status 77: this machine cannot host a private systemd (the reason on stderr).
#
# `boot` is for the package test (Tests/InstallTests/PackageTests.swift): ROOT is a Debian
# system made by debootstrap (scripts/debian-root.sh) and becomes /, an overlay whose upper layer
# is in WORK, so ROOT is never written and can be kept between runs. Its own systemd starts its
# own units (nothing of the repository's: the test installs the package) with the same drop-in
# as `up` (for /usr/bin); /proc, /sys, /dev, /run, /tmp, WORK at /run/waypoint-test and the fake
# PWM tree are made as for `up`. The fake
# tree is writable by everyone there: the groups the udev rule would use exist only once the
# package is installed.
#
# What it builds: a mount, PID, UTS, IPC, network and cgroup namespace whose PID 1 is
# /lib/systemd/systemd. Inside, /run, /tmp and /usr/local/bin are tmpfs, /etc and /var are
# overlays whose upper layers are in WORK (the host's files are never written), /proc, /sys and
# /sys/fs/cgroup (cgroup2, rooted at a cgroup made for the run) are fresh, /dev is a tmpfs with
# the basic nodes and no console. The units are read from WORK/units only (SYSTEMD_UNIT_PATH):
# the two units as checked in, the drop-in waypointd.service.d/test.conf with the changes the
# test environment forces, journald's units (`in WORK journalctl` shows what systemd and the
# daemon logged), and empty stand-ins for the targets and the slice the units depend on.
# Nothing of the host's is started. The user and groups come from systemd/waypointd.sysusers, the config
# from config/waypointd.conf, the program is BINARY copied to /usr/local/bin/waypointd (the
# path in the unit). WORK is bind-mounted at /run/waypoint-test; the fake PWM tree is
# WORK/sysfs (inside: /run/waypoint-test/sysfs), group gpio writable as Raspberry Pi OS's udev
# rule makes it.
#
# Every process is in the PID namespace and dies with its PID 1; `down` kills it, and a
# `timeout` around the namespace kills it anyway after LIFETIME seconds (default 120) should
# `down` never come. The mounts exist only in the mount namespace. The cgroup made for the
# namespace is removed when the namespace ends.
set -euo pipefail

inside=/run/waypoint-test
repo=$(cd "$(dirname "$0")/.." && pwd)

die() { echo "service-under-systemd: $*" >&2; exit 1; }
unsupported() { echo "service-under-systemd: this machine cannot host a private systemd: $*" >&2; exit 77; }

# The PID (host view) of systemd, PID 1 of the namespaces.
systemd_pid() {
    local unshare_pid child
    read -r unshare_pid _ 2> /dev/null < "$1/unshare.pid" || return 1
    read -r child _ 2> /dev/null < "/proc/$unshare_pid/task/$unshare_pid/children"
    [[ -n $child ]] || return 1
    echo "$child"
}

enter() {
    local work=$1 pid
    shift
    pid=$(systemd_pid "$work") || die "no systemd running for $work"
    exec nsenter --target "$pid" --mount --pid --uts --ipc --net --cgroup -- "$@"
}

# --- inside the namespaces, as PID 1 until it execs systemd ---------------------------------
# A mount this machine refuses is a machine that cannot host the test: status 77.
mount_or_skip() {
    mount "$@" || { echo "cannot mount: mount $*" >&2; exit 77; }
}

inner() {
    local work=$1 root=${2:-}
    : > "$work/inner-started"
    mount_or_skip --make-rprivate /
    local host=""
    if [[ -n $root ]]; then
        # ROOT under an overlay becomes /; the host's tree stays reachable at /.host until the
        # mounts below have taken what they need from it.
        mkdir -p "$work/overlay/root.upper" "$work/overlay/root.work" "$work/newroot"
        mount_or_skip -t overlay overlay -o "lowerdir=$root,upperdir=$work/overlay/root.upper,workdir=$work/overlay/root.work" "$work/newroot"
        mkdir -p "$work/newroot/.host"
        cd "$work/newroot"
        pivot_root . .host || { echo "cannot pivot_root into $root" >&2; exit 77; }
        cd /
        host=/.host
    fi
    mount_or_skip -t proc proc /proc
    mount_or_skip -t sysfs sysfs /sys
    mount_or_skip -t cgroup2 cgroup2 /sys/fs/cgroup
    mount_or_skip -t tmpfs -o mode=0755 tmpfs /run
    mkdir -p "$inside"
    mount_or_skip --bind "$host$work" "$inside"
    mount_or_skip -t tmpfs -o mode=1777 tmpfs /tmp
    # A /dev of its own, as systemd-nspawn makes it; without a /dev/console, so that systemd's
    # messages stay off the host's console (journald collects them).
    local dev=$inside/dev
    mkdir "$dev"
    mount_or_skip -t tmpfs -o mode=0755,nosuid tmpfs "$dev"
    for node in null zero full random urandom tty; do
        touch "$dev/$node"
        mount_or_skip --bind "$host/dev/$node" "$dev/$node"
    done
    mkdir "$dev/pts" "$dev/shm"
    mount_or_skip -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$dev/pts"
    ln -s pts/ptmx "$dev/ptmx"
    mount_or_skip -t tmpfs -o mode=1777,nosuid,nodev tmpfs "$dev/shm"
    ln -s /proc/self/fd "$dev/fd"
    ln -s /proc/self/fd/0 "$dev/stdin"
    ln -s /proc/self/fd/1 "$dev/stdout"
    ln -s /proc/self/fd/2 "$dev/stderr"
    mount_or_skip --move "$dev" /dev
    if [[ -n $root ]]; then
        umount -l /.host
        rmdir /.host
        chmod -R a+rwX "$inside/sysfs/sys/class/pwm"
        : > /etc/machine-id
        export container=waypoint-test
        exec /lib/systemd/systemd --system --log-target=journal --log-level=info --show-status=no
    fi
    for directory in etc var; do
        mkdir -p "$inside/overlay/$directory.upper" "$inside/overlay/$directory.work"
        mount_or_skip -t overlay overlay -o "lowerdir=/$directory,upperdir=$inside/overlay/$directory.upper,workdir=$inside/overlay/$directory.work" "/$directory"
    done
    mount_or_skip -t tmpfs -o mode=0755 tmpfs /usr/local/bin
    install -m 0755 "$inside/waypointd" /usr/local/bin/waypointd

    # What `make install` and its postinst equivalent would do.
    systemd-sysusers "$inside/waypointd.sysusers"
    install -d -m 0755 /etc/waypointd
    install -m 0644 "$inside/waypointd.conf" /etc/waypointd/waypointd.conf
    : > /etc/machine-id
    # Raspberry Pi OS's udev rule: chgrp -R gpio, chmod -R g=u on the PWM chip.
    chgrp -R gpio "$inside/sysfs/sys/class/pwm"
    chmod -R g=u "$inside/sysfs/sys/class/pwm"

    export SYSTEMD_UNIT_PATH=$inside/units container=waypoint-test
    exec /lib/systemd/systemd --system --unit=waypoint-test.target --log-target=journal \
        --log-level=info --show-status=no
}

write_units() {
    local units=$1/units
    mkdir -p "$units/waypointd.service.d"
    cp "$repo/systemd/waypointd.service" "$repo/systemd/waypointd.socket" "$units/"
    for target in sysinit basic sockets shutdown; do
        printf '[Unit]\nDescription=stand-in for %s.target\nDefaultDependencies=no\n' "$target" > "$units/$target.target"
    done
    # journald, for the test to show what systemd and the daemon said.
    cp /lib/systemd/system/systemd-journald.service /lib/systemd/system/systemd-journald.socket \
        /lib/systemd/system/systemd-journald-dev-log.socket "$units/"
    printf '[Unit]\nDescription=the test system\nDefaultDependencies=no\nWants=systemd-journald.service\nAfter=systemd-journald.service\n' \
        > "$units/waypoint-test.target"
    printf '[Unit]\nDescription=stand-in for system.slice\nDefaultDependencies=no\n' > "$units/system.slice"
    write_dropin "$units/waypointd.service.d/test.conf" /usr/local/bin
}

# The drop-in FILE with the changes the test environment forces, for the program in BINDIR
# (the repository's units: /usr/local/bin; the package's: /usr/bin).
write_dropin() {
    local file=$1 bindir=$2
    mkdir -p "$(dirname "$file")"
    cat > "$file" << EOF
# The changes the test environment forces (Tests/InstallTests/ServiceUnderSystemdTests.swift,
# PackageTests.swift): no GPS receiver, IMU or PWM chip here, so --simulate and a fake sysfs
# tree; that tree is not below /sys/devices/platform, so it needs a writable hole of its own.
[Service]
ExecStart=
ExecStart=$bindir/waypointd --config /etc/waypointd/waypointd.conf --simulate --sysfs-root $inside/sysfs
ExecStopPost=
ExecStopPost=-$bindir/waypointd motor-off --config /etc/waypointd/waypointd.conf --sysfs-root $inside/sysfs
ReadWritePaths=$inside/sysfs
EOF
}

# A PWM chip with channel 0 exported and never configured, as after `echo 0 > export`.
write_sysfs() {
    local chip=$1/sysfs/sys/class/pwm/pwmchip0
    mkdir -p "$chip/pwm0"
    echo 1 > "$chip/npwm"
    : > "$chip/export"
    : > "$chip/unexport"
    echo 0 > "$chip/pwm0/period"
    echo 0 > "$chip/pwm0/duty_cycle"
    echo 0 > "$chip/pwm0/enable"
    echo normal > "$chip/pwm0/polarity"
}

up() {
    local work=$1 binary=$2
    [[ $(id -u) == 0 ]] || unsupported "not root"
    [[ -d $work && -x $binary ]] || die "usage: $0 up WORK BINARY"
    [[ -x /lib/systemd/systemd ]] || unsupported "no /lib/systemd/systemd (apt-get install systemd)"
    work=$(cd "$work" && pwd)
    install -m 0755 "$binary" "$work/waypointd"
    install -m 0644 "$repo/systemd/waypointd.sysusers" "$repo/config/waypointd.conf" "$work/"
    write_units "$work"
    start "$work"
}

boot() {
    local work=$1 root=$2
    [[ $(id -u) == 0 ]] || unsupported "not root"
    [[ -d $work && -x $root/lib/systemd/systemd ]] || die "usage: $0 boot WORK ROOT (ROOT with systemd)"
    work=$(cd "$work" && pwd)
    root=$(cd "$root" && pwd)
    # The drop-in goes into the overlay's upper layer before the overlay exists, where the
    # package's unit will find it when its postinst starts the service.
    write_dropin "$work/overlay/root.upper/etc/systemd/system/waypointd.service.d/test.conf" /usr/bin
    start "$work" "$root"
}

# Starts systemd in the namespaces (inner WORK [ROOT]) and waits until it has booted.
start() {
    local work=$1 root=${2:-}
    chmod 0755 "$work"
    write_sysfs "$work"

    # A cgroup of our own in the cgroup2 hierarchy, to become the namespace's root.
    local hierarchy own cgroup
    hierarchy=$(findmnt -n -t cgroup2 -o TARGET | head -n 1)
    [[ -n $hierarchy ]] || unsupported "no cgroup2 hierarchy mounted"
    own=$(sed -n 's/^0:://p' /proc/self/cgroup)
    cgroup=$hierarchy${own%/}/waypoint-test-$$
    mkdir "$cgroup" 2> "$work/cgroup.err" || unsupported "cannot create a cgroup: $(cat "$work/cgroup.err")"
    echo "$cgroup" > "$work/cgroup"

    # The namespace runs in the background; when it ends, for whatever reason, its cgroups go.
    (
        set +e
        # Only the log files: a descriptor inherited from the caller (the test's output pipes)
        # would keep the caller waiting for as long as the namespace lives.
        for descriptor in /proc/$BASHPID/fd/*; do
            descriptor=${descriptor##*/}
            ((descriptor > 2)) && eval "exec $descriptor>&-"
        done
        timeout --signal=KILL "${LIFETIME:-120}" \
            "$0" enter-cgroup "$cgroup" unshare --mount --pid --fork --uts --ipc --net --cgroup --kill-child=KILL \
            "$0" inner "$work" "$root" > "$work/systemd.log" 2>&1 &
        echo $! > "$work/timeout.pid"
        wait $!
        echo $? > "$work/exit"
        # The cgroups of the processes just killed are busy for a moment.
        for _ in $(seq 50); do
            find "$cgroup" -depth -type d -exec rmdir {} \; 2> /dev/null
            [[ -e $cgroup ]] || break
            sleep 0.1
        done
    ) < /dev/null > /dev/null 2>&1 &
    echo $! > "$work/supervisor.pid"
    trap 'down "$work"' EXIT

    # Wait for systemd to answer on its private bus.
    local deadline=$((SECONDS + 30)) timeout_pid unshare_pid
    while ((SECONDS < deadline)); do
        timeout_pid=$(cat "$work/timeout.pid" 2> /dev/null || true)
        if [[ -n $timeout_pid ]]; then
            read -r unshare_pid _ 2> /dev/null < "/proc/$timeout_pid/task/$timeout_pid/children" || true
            [[ -n ${unshare_pid:-} ]] && echo "$unshare_pid" > "$work/unshare.pid"
        fi
        if [[ -e $work/exit ]]; then
            cat "$work/systemd.log" >&2
            [[ -e $work/inner-started ]] || unsupported "cannot make the namespaces (unshare failed)"
            [[ $(cat "$work/exit") != 77 ]] || unsupported "see above"
            die "systemd ended at once (status $(cat "$work/exit"))"
        fi
        # "degraded" is booted too: a Debian root has units that fail in a container.
        if systemd_pid "$work" > /dev/null &&
            [[ $("$0" in "$work" systemctl is-system-running 2> /dev/null) =~ ^(running|degraded)$ ]]; then
            trap - EXIT
            return 0
        fi
        sleep 0.1
    done
    cat "$work/systemd.log" >&2
    die "systemd did not come up within 30 s"
}

down() {
    local work=$1 pid supervisor
    supervisor=$(cat "$work/supervisor.pid" 2> /dev/null || true)
    pid=$(cat "$work/timeout.pid" 2> /dev/null || true)
    [[ -n $pid ]] && kill -KILL "$pid" 2> /dev/null || true
    pid=$(cat "$work/unshare.pid" 2> /dev/null || true)
    [[ -n $pid ]] && kill -KILL "$pid" 2> /dev/null || true
    if [[ -n $supervisor ]]; then
        while kill -0 "$supervisor" 2> /dev/null; do sleep 0.05; done
    fi
}

case ${1:-} in
    up) up "$2" "$3" ;;
    boot) boot "$2" "$3" ;;
    in) shift; enter "$@" ;;
    down) down "$2" ;;
    inner) inner "$2" "${3:-}" ;;
    enter-cgroup) echo $$ > "$2/cgroup.procs" && shift 2 && exec "$@" ;;
    *) die "usage: $0 up WORK BINARY | boot WORK ROOT | in WORK CMD... | down WORK" ;;
esac
