// LD_PRELOAD library for `make bench`: counts calls to malloc, calloc, realloc,
// posix_memalign and aligned_alloc in the process.
//
// - waypoint-bench looks up waypoint_allocation_count with dlsym; without this library it says n/a.
// - The whole-daemon run (scripts/bench/daemon.py) reads the count from outside the process: with
//   WAYPOINT_ALLOCATION_COUNTER=FILE in the environment, the counter lives in FILE, mapped
//   shared, so another process can read it at any moment without waking the daemon.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static atomic_ulong local_count;
// Where the count goes: local_count until the constructor has mapped the shared file.
static atomic_ulong *counter = &local_count;

unsigned long waypoint_allocation_count(void) { return atomic_load(counter); }

__attribute__((constructor)) static void map_shared_counter(void) {
    const char *path = getenv("WAYPOINT_ALLOCATION_COUNTER");
    if (path == NULL) return;
    int descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
    if (descriptor < 0) return;
    void *page = MAP_FAILED;
    if (ftruncate(descriptor, sizeof(atomic_ulong)) == 0) {
        page = mmap(NULL, sizeof(atomic_ulong), PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0);
    }
    close(descriptor);
    if (page == MAP_FAILED) return;
    atomic_ulong *shared = page;
    // Allocations before this point (the dynamic loader, libc's start-up) are carried over.
    atomic_store(shared, atomic_load(&local_count));
    counter = shared;
}

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

void *malloc(size_t size) {
    atomic_fetch_add(counter, 1);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    atomic_fetch_add(counter, 1);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    atomic_fetch_add(counter, 1);
    return __libc_realloc(pointer, size);
}

int posix_memalign(void **pointer, size_t alignment, size_t size) {
    atomic_fetch_add(counter, 1);
    *pointer = __libc_memalign(alignment, size);
    return *pointer ? 0 : 12;  // ENOMEM
}

void *aligned_alloc(size_t alignment, size_t size) {
    atomic_fetch_add(counter, 1);
    return __libc_memalign(alignment, size);
}
