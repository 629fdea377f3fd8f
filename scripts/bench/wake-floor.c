// For `make bench`: the CPU a process costs on this machine that does nothing but sleep and
// wake HZ times a second for SECONDS, as a share of one core. The daemon wakes about 60 times a
// second while guiding; this is the part of its CPU that the wake-ups alone cost here (on a
// virtual machine each one is expensive), whatever the daemon does when awake.
// Usage: wake-floor HZ SECONDS   prints: wake-floor HZ PERCENT
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

int main(int argc, char **argv) {
    if (argc != 3) {
        fprintf(stderr, "usage: wake-floor HZ SECONDS\n");
        return 64;
    }
    double hz = atof(argv[1]), seconds = atof(argv[2]);
    if (!(hz > 0 && hz <= 10000 && seconds > 0 && seconds <= 3600)) {
        fprintf(stderr, "wake-floor: HZ must be in (0, 10000] and SECONDS in (0, 3600]\n");
        return 64;
    }
    long period = (long)(1e9 / hz);
    struct timespec next;
    clock_gettime(CLOCK_MONOTONIC, &next);
    for (long i = 0; i < (long)(hz * seconds); i++) {
        next.tv_nsec += period;
        while (next.tv_nsec >= 1000000000L) {
            next.tv_nsec -= 1000000000L;
            next.tv_sec += 1;
        }
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) != 0) {}
    }
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    double cpu = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
    printf("wake-floor %g %.4f\n", hz, cpu / seconds * 100);
    return 0;
}
