#include "COpenCoreDataRuntime.h"

// A thread-local variable is read and written with plain loads and stores relative to the thread
// pointer, where a POSIX thread-specific key costs a call into the C library each time.
_Thread_local void *ocd_threadSlots[OCD_THREAD_SLOT_COUNT];
