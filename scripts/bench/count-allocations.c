// LD_PRELOAD library for `make bench`: counts calls to malloc, calloc, realloc and
// posix_memalign in the process, so waypoint-bench can report heap allocations per sample.
// The bench looks up waypoint_allocation_count with dlsym; without this library it says n/a.
#define _GNU_SOURCE
#include <stddef.h>
#include <stdatomic.h>

static atomic_ulong allocations;

unsigned long waypoint_allocation_count(void) { return atomic_load(&allocations); }

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void *__libc_memalign(size_t, size_t);

void *malloc(size_t size) {
    atomic_fetch_add(&allocations, 1);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    atomic_fetch_add(&allocations, 1);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    atomic_fetch_add(&allocations, 1);
    return __libc_realloc(pointer, size);
}

int posix_memalign(void **pointer, size_t alignment, size_t size) {
    atomic_fetch_add(&allocations, 1);
    *pointer = __libc_memalign(alignment, size);
    return *pointer ? 0 : 12;  // ENOMEM
}

void *aligned_alloc(size_t alignment, size_t size) {
    atomic_fetch_add(&allocations, 1);
    return __libc_memalign(alignment, size);
}
