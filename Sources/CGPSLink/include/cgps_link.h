// CGPSLink has no API of its own: it is linked with libgps's static archive (see dbus.c).
#ifndef WAYPOINT_CGPS_LINK_H
#define WAYPOINT_CGPS_LINK_H
#endif
