// libsystemd: sd_notify and sd_listen_fds. sd_journal_send is variadic and unusable from Swift;
// the daemon logs to stderr with <N> priority prefixes instead.
#ifndef WAYPOINT_CSYSTEMD_SHIM_H
#define WAYPOINT_CSYSTEMD_SHIM_H
#include <systemd/sd-daemon.h>
#endif
