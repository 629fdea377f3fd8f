// libgps, Debian 12 (gpsd 3.22, API 11) and Debian 13 (gpsd 3.25, API 14).
// Version differences are absorbed here with GPSD_API_MAJOR_VERSION guards (issue 3).
#ifndef WAYPOINT_CGPS_SHIM_H
#define WAYPOINT_CGPS_SHIM_H
#include <gps.h>

/// The libgps API major version this module was compiled against.
static inline int cgps_api_major_version(void) { return GPSD_API_MAJOR_VERSION; }

#endif
