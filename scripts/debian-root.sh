#!/bin/sh
# Makes, once, the throwaway Debian 12 system the package test installs into, and prints its
# path: debootstrap's minbase variant plus systemd (to run the units) and the libraries the
# package depends on (the test root has no network to fetch them). Kept between runs in
# WAYPOINT_TEST_CACHE (default /var/cache/waypointd-test); the test never writes it (it boots
# an overlay of it), so one made once serves every run. Delete the directory to make it again.
#
#   scripts/debian-root.sh          the root's path on stdout, made first if missing
#
# Root only (debootstrap makes device nodes and owners). Needs debootstrap and a Debian mirror
# (WAYPOINT_DEBIAN_MIRROR, default http://deb.debian.org/debian): about 2 minutes the first time.
set -eu

cache=${WAYPOINT_TEST_CACHE:-/var/cache/waypointd-test}
mirror=${WAYPOINT_DEBIAN_MIRROR:-http://deb.debian.org/debian}
# Whatever the package's Depends: names beyond minbase (dpkg -i installs no dependencies).
include=systemd,libexpat1,libi2c0,libsqlite3-0,libmicrohttpd12,libqrencode4,libjs-leaflet
# Named after what it includes: a root made for an older list is not reused for a newer one.
root=$cache/debian-12-minbase-$(printf %s "$include" | cksum | cut -d' ' -f1)

if [ -x "$root/lib/systemd/systemd" ] && [ -e "$root/.complete" ]; then
    echo "$root"
    exit 0
fi
[ "$(id -u)" -eq 0 ] || { echo "debian-root: debootstrap needs root" >&2; exit 77; }
command -v debootstrap > /dev/null || { echo "debian-root: no debootstrap (make deps installs it)" >&2; exit 69; }

mkdir -p "$cache"
# Made beside, then renamed: an interrupted run leaves no half root behind under the real name.
rm -rf "$root.partial"
if ! debootstrap --variant=minbase --include="$include" bookworm "$root.partial" "$mirror" > "$cache/debootstrap.log" 2>&1; then
    tail -n 20 "$cache/debootstrap.log" >&2
    echo "debian-root: debootstrap failed (log: $cache/debootstrap.log)" >&2
    exit 1
fi
# Nothing else should start there but what the package brings: no login prompts on consoles
# that do not exist.
rm -f "$root.partial/etc/systemd/system/getty.target.wants/"*
: > "$root.partial/.complete"
rm -rf "$root"
mv "$root.partial" "$root"
echo "$root"
