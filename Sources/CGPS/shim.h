// libgps, Debian 12 (gpsd 3.22, API 11) and Debian 13 (gpsd 3.25, API 14). The few calls whose
// C signatures differ between the two are wrapped here so that one Swift source builds on both.
#ifndef WAYPOINT_CGPS_SHIM_H
#define WAYPOINT_CGPS_SHIM_H
#include <gps.h>

/// The libgps API major version this module was compiled against.
static inline int cgps_api_major_version(void) { return GPSD_API_MAJOR_VERSION; }

/// Asks gpsd for JSON reports. Why a shim: the flags are `unsigned int` and the last argument
/// `void *` in 3.22, but `watch_t` and `const char *` in 3.25.
static inline int cgps_watch_json(struct gps_data_t *data) {
    return gps_stream(data, WATCH_ENABLE | WATCH_JSON, NULL);
}

/// Parses one gpsd JSON line without a daemon. Why a shim: 3.22 takes `char *`, 3.25
/// `const char *`; neither writes to it.
static inline int cgps_unpack(const char *line, struct gps_data_t *data) {
    return gps_unpack((char *)line, data);
}

#endif
