// The C library's allocator, as far as the server asks anything of it: giving freed memory back to
// the system. glibc's <malloc.h> is not part of Swift's Glibc module, so it gets a function here.
#ifndef PARLOR_CMALLOC_H
#define PARLOR_CMALLOC_H

/// Gives the free memory of every arena back to the system (glibc's malloc_trim(0)). Returns 1 when
/// some was given back, 0 when none was or the C library cannot (not glibc).
int parlor_heap_trim(void);

#endif
