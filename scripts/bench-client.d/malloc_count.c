// A malloc counter for scripts/bench-client, preloaded (LD_PRELOAD) into the benchmark: it counts
// calls to malloc, calloc, realloc and posix_memalign and forwards them to libc (free too, except
// for the few blocks served from the bootstrap buffer while dlsym looks libc's calloc up, which
// libc must never see). The benchmark reads
// the count through menurank_malloc_count (found with dlsym) before and after its loop.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdatomic.h>
#include <string.h>

static atomic_ulong count;
static void *(*real_malloc)(size_t);
static void *(*real_calloc)(size_t, size_t);
static void *(*real_realloc)(void *, size_t);
static int (*real_memalign)(void **, size_t, size_t);
static void (*real_free)(void *);

unsigned long menurank_malloc_count(void) { return atomic_load(&count); }

// dlsym may itself call calloc: serve that one from a static buffer.
static char bootstrap[4096];
static size_t bootstrap_used;

void *malloc(size_t size) {
    if (!real_malloc) real_malloc = dlsym(RTLD_NEXT, "malloc");
    atomic_fetch_add(&count, 1);
    return real_malloc(size);
}

void *calloc(size_t n, size_t size) {
    if (!real_calloc) {
        size_t want = (n * size + 15) & ~(size_t)15;
        if (bootstrap_used + want <= sizeof bootstrap) {
            void *p = bootstrap + bootstrap_used;
            bootstrap_used += want;
            return p;
        }
        real_calloc = dlsym(RTLD_NEXT, "calloc");
    }
    atomic_fetch_add(&count, 1);
    return real_calloc(n, size);
}

static int from_bootstrap(void *p) {
    return (char *)p >= bootstrap && (char *)p < bootstrap + sizeof bootstrap;
}

void free(void *p) {
    if (!p || from_bootstrap(p)) return;
    if (!real_free) real_free = dlsym(RTLD_NEXT, "free");
    real_free(p);
}

void *realloc(void *p, size_t size) {
    if (!real_realloc) real_realloc = dlsym(RTLD_NEXT, "realloc");
    atomic_fetch_add(&count, 1);
    if (p && from_bootstrap(p)) {
        // Moved out of the bootstrap buffer (its blocks are at most the buffer's size).
        void *q = real_realloc(NULL, size);
        if (q) {
            size_t left = (size_t)(bootstrap + sizeof bootstrap - (char *)p);
            memcpy(q, p, size < left ? size : left);
        }
        return q;
    }
    return real_realloc(p, size);
}

int posix_memalign(void **p, size_t alignment, size_t size) {
    if (!real_memalign) real_memalign = dlsym(RTLD_NEXT, "posix_memalign");
    atomic_fetch_add(&count, 1);
    return real_memalign(p, alignment, size);
}
