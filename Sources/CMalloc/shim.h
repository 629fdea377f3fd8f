// glibc's allocator tuning (mallopt(3)), which Swift's Glibc module does not include.
#ifndef WAYPOINT_CMALLOC_SHIM_H
#define WAYPOINT_CMALLOC_SHIM_H
#include <malloc.h>
#endif
