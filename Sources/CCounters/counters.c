#include "counters.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#if defined(__linux__)
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#define MIGRATIONBENCH_VALGRIND 1
#endif
#endif

int migrationbench_instructions_open(int *error) {
#if defined(__linux__)
    struct perf_event_attr attributes;
    memset(&attributes, 0, sizeof attributes);
    attributes.type = PERF_TYPE_HARDWARE;
    attributes.size = sizeof attributes;
    attributes.config = PERF_COUNT_HW_INSTRUCTIONS;
    attributes.exclude_kernel = 1;
    attributes.exclude_hv = 1;
    long fd = syscall(SYS_perf_event_open, &attributes, 0, -1, -1, 0);
    if (fd < 0) {
        *error = errno;
        return -1;
    }
    return (int)fd;
#else
    *error = ENOSYS;
    return -1;
#endif
}

int64_t migrationbench_instructions_read(int fd) {
#if defined(__linux__)
    uint64_t value = 0;
    if (read(fd, &value, sizeof value) != (ssize_t)sizeof value) return -1;
    return (int64_t)value;
#else
    (void)fd;
    return -1;
#endif
}

int migrationbench_running_on_valgrind(void) {
#ifdef MIGRATIONBENCH_VALGRIND
    return RUNNING_ON_VALGRIND ? 1 : 0;
#else
    return 0;
#endif
}

int migrationbench_has_valgrind_headers(void) {
#ifdef MIGRATIONBENCH_VALGRIND
    return 1;
#else
    return 0;
#endif
}

void migrationbench_callgrind_zero(void) {
#ifdef MIGRATIONBENCH_VALGRIND
    CALLGRIND_ZERO_STATS;
#endif
}

void migrationbench_callgrind_dump(const char *name) {
#ifdef MIGRATIONBENCH_VALGRIND
    CALLGRIND_DUMP_STATS_AT(name);
#else
    (void)name;
#endif
}

void migrationbench_callgrind_dump_indexed(const char *prefix, long index) {
#ifdef MIGRATIONBENCH_VALGRIND
    char name[96];
    snprintf(name, sizeof name, "%s%ld", prefix, index);
    CALLGRIND_DUMP_STATS_AT(name);
#else
    (void)prefix;
    (void)index;
#endif
}
