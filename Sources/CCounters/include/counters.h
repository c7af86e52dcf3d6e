#ifndef MIGRATIONBENCH_COUNTERS_H
#define MIGRATIONBENCH_COUNTERS_H

#include <stdint.h>

// Opens the hardware counter of instructions retired in user mode by the calling thread
// (perf_event_open(2), PERF_COUNT_HW_INSTRUCTIONS, exclude_kernel, exclude_hv). Returns the file descriptor, or -1
// with the errno in *error (ENOENT, EOPNOTSUPP or ENODEV where the machine has no such counter, EACCES where
// perf_event_paranoid forbids it, ENOSYS off Linux).
int migrationbench_instructions_open(int *error);

// The counter's value, or -1 when it cannot be read.
int64_t migrationbench_instructions_read(int fd);

// 1 when the process runs under valgrind, 0 otherwise (and when built without valgrind's headers).
int migrationbench_running_on_valgrind(void);

// 1 when built with valgrind's client-request headers, so that the two calls below do something.
int migrationbench_has_valgrind_headers(void);

// CALLGRIND_ZERO_STATS: the counts start again from zero.
void migrationbench_callgrind_zero(void);

// CALLGRIND_DUMP_STATS_AT(name): the counts since the last zero or dump are written as a profile part
// whose description names `name`, then zeroed.
void migrationbench_callgrind_dump(const char *name);

// The same with the name `prefix` followed by `index` in decimal, formatted on the stack: a part dumped between
// two segments of the profiler must not allocate (an allocation there would be counted in the next one).
void migrationbench_callgrind_dump_indexed(const char *prefix, long index);

#endif
