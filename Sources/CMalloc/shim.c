#include "CMalloc.h"

// Any C library header defines __GLIBC__ on glibc; the check below needs one included first.
#include <stdlib.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

int parlor_heap_trim(void) {
#if defined(__GLIBC__)
    return malloc_trim(0);
#else
    return 0;
#endif
}
