// libi2c (libi2c-dev) has no pkg-config file: the module map links it by name.
#ifndef WAYPOINT_CI2C_SHIM_H
#define WAYPOINT_CI2C_SHIM_H
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>
#endif
