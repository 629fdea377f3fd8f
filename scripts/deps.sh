#!/bin/sh
# Installs the Debian packages waypointd needs to build and test, and only those that are
# missing. Usage: scripts/deps.sh [--bench]
#   --bench  also install what `make bench` compares against (GeographicLib's C++ library) and
#            loads the companion with (wrk).
# Runs apt-get directly as root, through sudo otherwise, and says what to do when neither works.
set -eu

packages="libgps-dev libi2c-dev pkg-config gpsd gpsd-clients geographiclib-tools systemd socat netcat-openbsd tmux libexpat1-dev gpsbabel libxml2-utils python3-pip mandoc dpkg-dev debhelper lintian debootstrap libsqlite3-dev osmium-tool python3-pyosmium libmicrohttpd-dev libqrencode-dev libjs-leaflet chromium chromium-driver routino espeak-ng alsa-utils"
if [ "${1:-}" = "--bench" ]; then
    packages="$packages libgeographiclib-dev g++ wrk"
fi

if ! command -v swift >/dev/null 2>&1; then
    echo "deps: the Swift toolchain (swift 6.0 or newer) is not on PATH." >&2
    echo "deps: install it from swift.org (Debian 12 tarball or swiftly) and run this again." >&2
    exit 69
fi

missing=""
for package in $packages; do
    status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null || true)
    case "$status" in
        ii*) ;;
        *) missing="$missing $package" ;;
    esac
done

# From PyPI, for the tests only: gpxpy, an oracle in the GPX tests (read what we write, write
# what we read); selenium and axe-selenium-python, which drive Debian's chromium through the
# companion's page and run axe-core on it.
python_modules() {
    for module in gpxpy:gpxpy selenium:selenium axe_selenium_python:axe-selenium-python; do
        if ! python3 -c "import ${module%%:*}" >/dev/null 2>&1; then
            echo "deps: installing ${module#*:} (PyPI) for the tests"
            python3 -m pip install -q "${module#*:}" 2>/dev/null || python3 -m pip install -q --break-system-packages "${module#*:}"
        fi
    done
}

if [ -z "$missing" ]; then
    echo "deps: all present ($packages)"
    python_modules
    exit 0
fi

if [ "$(id -u)" -eq 0 ]; then
    run=""
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    run="sudo"
elif command -v sudo >/dev/null 2>&1 && [ -t 0 ]; then
    run="sudo"
else
    echo "deps: missing Debian packages:$missing" >&2
    echo "deps: run as root, or install them yourself: sudo apt-get install$missing" >&2
    exit 77
fi

echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
# A fresh machine has no package lists yet; refresh them once before installing.
$run apt-get update -qq
# shellcheck disable=SC2086 # the package list is meant to split into words
$run apt-get install -y -qq --no-install-recommends $missing
python_modules
