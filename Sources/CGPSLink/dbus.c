// Why this file exists: waypointd links libgps's static archive (libgps.a), not libgps.so.
//
// libgps.so depends on libdbus-1, which brings libsystemd, libgcrypt, libgpg-error, libcap,
// liblzma, libzstd and liblz4 into the process: about 1 MB of resident memory on a Pi with
// 512 MB, for a feature waypointd never uses. gps_open() can also reach gpsd over D-Bus (the
// host "DBUS"; gpsd's own header, not installed, declares these two functions), so the archive's
// libgps_core.o refers to them. Defining them here means the linker never takes
// libgps_dbus.o, and with it libdbus, from the archive. waypointd only connects over TCP; asked
// for D-Bus, gps_open() now fails with ENOTSUP instead.

#include <errno.h>

struct gps_data_t;

int gps_dbus_open(struct gps_data_t *data) {
    (void)data;
    errno = ENOTSUP;
    return -1;
}

int gps_dbus_mainloop(struct gps_data_t *data, int timeout, void (*hook)(struct gps_data_t *)) {
    (void)data;
    (void)timeout;
    (void)hook;
    errno = ENOTSUP;
    return -1;
}
