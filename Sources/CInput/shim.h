// The evdev interface (linux/input.h): its ioctl requests are function-like macros, which Swift
// cannot call, so each is wrapped here once, as is the time of a record (whose fields differ
// between 64-bit and 32-bit time64 ABIs).
#ifndef WAYPOINT_CINPUT_SHIM_H
#define WAYPOINT_CINPUT_SHIM_H
#include <linux/input.h>
#include <sys/ioctl.h>
#include <time.h>
#include <string.h>

/// The size of one record as this kernel ABI writes it, bytes (24 on 64-bit Linux).
static inline int waypoint_input_event_size(void) { return (int)sizeof(struct input_event); }

/// The seconds of one record's time stamp.
static inline double waypoint_input_event_seconds(const struct input_event *event) {
    return (double)event->input_event_sec + (double)event->input_event_usec / 1e6;
}

/// Fills a record (simulated devices and tests write what the kernel would).
static inline void waypoint_input_event_fill(struct input_event *event, double seconds, unsigned short type,
                                             unsigned short code, int value) {
    memset(event, 0, sizeof *event);
    event->input_event_sec = (long)seconds;
    event->input_event_usec = (long)((seconds - (double)(long)seconds) * 1e6);
    event->type = type;
    event->code = code;
    event->value = value;
}

/// EVIOCGRAB: 1 takes every event of the device for this descriptor alone, 0 gives it back.
static inline int waypoint_input_grab(int fd, int on) { return ioctl(fd, EVIOCGRAB, (void *)(long)on); }

/// EVIOCGNAME: the device's name, NUL-terminated within `length` bytes.
static inline int waypoint_input_name(int fd, char *name, int length) { return ioctl(fd, EVIOCGNAME(length), name); }

/// EVIOCGBIT(EV_KEY): a bit for each key code the device can send, `length` bytes of them.
static inline int waypoint_input_key_bits(int fd, unsigned char *bits, int length) {
    return ioctl(fd, EVIOCGBIT(EV_KEY, length), bits);
}

/// EVIOCSCLOCKID: the records' time stamps on CLOCK_MONOTONIC, which jumps with no clock set.
static inline int waypoint_input_use_monotonic(int fd) {
    int clock = CLOCK_MONOTONIC;
    return ioctl(fd, EVIOCSCLOCKID, &clock);
}

/// CLOCK_MONOTONIC now, seconds: the clock of the records after EVIOCSCLOCKID.
static inline double waypoint_input_monotonic_seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}
#endif
