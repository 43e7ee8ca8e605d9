// malloccount: an LD_PRELOAD library that counts heap allocation calls and, at exit, writes
//
//     malloccount: mallocs=N frees=M bytes=B
//
// to standard error. scripts/bench runs a release binary on N and 10N inputs under it; the
// difference is the steady-state allocation count, which must be zero for the receiver core.
//
// mallocs counts every call that asks for memory: malloc, calloc, realloc (except a realloc to
// size 0, which frees), posix_memalign, aligned_alloc, memalign, valloc, pvalloc. frees counts
// free of a non-NULL pointer plus every realloc that releases its old block, so mallocs − frees
// is the number of blocks still live. bytes is the sum of the sizes asked for.
//
// Build: cc -O2 -shared -fPIC -o libmalloccount.so malloccount.c
// Use:   LD_PRELOAD=./libmalloccount.so ./program
//
// MALLOCCOUNT_FILE=PATH also keeps the three counters, as little-endian 64-bit words (mallocs,
// frees, bytes), in PATH, a shared mapping another process may read at any time: a long run's
// steady state is then the difference of two readings in the same process, which start-up
// (Swift's hash seeds vary the allocations of a dictionary's growth) does not enter.
//
// Why glibc's __libc_* entry points and not dlsym(RTLD_NEXT): dlsym itself calls calloc, which
// would recurse into this file before the real pointer is known. The __libc_* functions are the
// real allocator, exported by every glibc since 2.2.5, so no bootstrap buffer is needed and the
// blocks stay genuine glibc chunks: malloc_usable_size, which the Swift runtime calls on array
// storage, keeps working without being wrapped. glibc routes its own internal allocations
// (strdup, reallocarray, stdio buffers) through the interposable symbols, so those are counted.
// Linux with glibc only; a static binary or a musl one is not interposed and reports nothing.

#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <stddef.h>
#include <stdint.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void __libc_free(void *pointer);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void *__libc_valloc(size_t size);
extern void *__libc_pvalloc(size_t size);

// Relaxed order is enough: a reader wants a count, not an order between the counters.
enum { MALLOCS, FREES, BYTES, COUNTERS };
static atomic_ullong own[COUNTERS];
static atomic_ullong *counters = own;

static inline void count_allocation(size_t size) {
    atomic_fetch_add_explicit(&counters[MALLOCS], 1, memory_order_relaxed);
    atomic_fetch_add_explicit(&counters[BYTES], (unsigned long long)size, memory_order_relaxed);
}

static inline void count_free(void) {
    atomic_fetch_add_explicit(&counters[FREES], 1, memory_order_relaxed);
}

// Runs before the program's main, while the process has one thread: the counts so far move to
// the shared mapping. No allocation here (open, ftruncate and mmap do not allocate, nor does
// unsetenv: the variable goes, so a child the program starts keeps its own counts, and does not
// truncate the file under this process's mapping).
__attribute__((constructor)) static void malloccount_share(void) {
    const char *path = getenv("MALLOCCOUNT_FILE");
    if (path == NULL || *path == '\0') return;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    unsetenv("MALLOCCOUNT_FILE");
    if (fd < 0) return;
    size_t size = sizeof own;
    void *shared = ftruncate(fd, (off_t)size) == 0 ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0) : MAP_FAILED;
    close(fd);
    if (shared == MAP_FAILED) return;
    atomic_ullong *mapped = shared;
    for (int i = 0; i < COUNTERS; i++)
        atomic_store_explicit(&mapped[i], atomic_load_explicit(&own[i], memory_order_relaxed), memory_order_relaxed);
    counters = mapped;
}

void *malloc(size_t size) {
    count_allocation(size);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    size_t total;
    // An overflowing request fails inside glibc; count the call, not a wrapped-around size.
    if (__builtin_mul_overflow(count, size, &total)) total = SIZE_MAX;
    count_allocation(total);
    return __libc_calloc(count, size);
}

void *realloc(void *pointer, size_t size) {
    if (pointer != NULL && size == 0) {
        // glibc frees the block and returns NULL (REALLOC_ZERO_BYTES_FREES).
        count_free();
        return __libc_realloc(pointer, size);
    }
    count_allocation(size);
    void *result = __libc_realloc(pointer, size);
    // On failure the old block stays live; otherwise it is released (or reused in place).
    if (pointer != NULL && result != NULL) count_free();
    return result;
}

void free(void *pointer) {
    if (pointer == NULL) return;
    count_free();
    __libc_free(pointer);
}

int posix_memalign(void **out, size_t alignment, size_t size) {
    // POSIX: a power of two that is a multiple of sizeof(void *), else EINVAL and no call.
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 || alignment % sizeof(void *) != 0)
        return EINVAL;
    count_allocation(size);
    // posix_memalign reports through its result and must leave errno alone.
    int saved = errno;
    void *result = __libc_memalign(alignment, size);
    errno = saved;
    if (result == NULL) return ENOMEM;
    *out = result;
    return 0;
}

void *aligned_alloc(size_t alignment, size_t size) {
    count_allocation(size);
    return __libc_memalign(alignment, size);
}

void *memalign(size_t alignment, size_t size) {
    count_allocation(size);
    return __libc_memalign(alignment, size);
}

void *valloc(size_t size) {
    count_allocation(size);
    return __libc_valloc(size);
}

void *pvalloc(size_t size) {
    count_allocation(size);
    return __libc_pvalloc(size);
}

// Appends the decimal digits of `value` at `cursor`; returns the new end.
static char *append_decimal(char *cursor, unsigned long long value) {
    char digits[20];
    int used = 0;
    do {
        digits[used++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (used > 0) *cursor++ = digits[--used];
    return cursor;
}

static char *append_text(char *cursor, const char *text) {
    while (*text != '\0') *cursor++ = *text++;
    return cursor;
}

// write(2), not stdio: stdio may allocate a buffer, and at exit it may already be torn down.
__attribute__((destructor)) static void malloccount_report(void) {
    char line[128];
    char *cursor = line;
    cursor = append_text(cursor, "malloccount: mallocs=");
    cursor = append_decimal(cursor, atomic_load_explicit(&counters[MALLOCS], memory_order_relaxed));
    cursor = append_text(cursor, " frees=");
    cursor = append_decimal(cursor, atomic_load_explicit(&counters[FREES], memory_order_relaxed));
    cursor = append_text(cursor, " bytes=");
    cursor = append_decimal(cursor, atomic_load_explicit(&counters[BYTES], memory_order_relaxed));
    *cursor++ = '\n';
    const char *start = line;
    while (start < cursor) {
        ssize_t written = write(STDERR_FILENO, start, (size_t)(cursor - start));
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        start += written;
    }
}
