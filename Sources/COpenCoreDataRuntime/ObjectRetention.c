#include "COpenCoreDataRuntime.h"

// The Swift runtime's conditional retain, part of its stable ABI: it returns the object, retained, or
// null for an object whose deinitialization has begun. Weak and unowned references are built on it.
extern void *swift_tryRetain(const void *object);

_Bool ocd_tryRetain(const void *object) {
    return swift_tryRetain(object) != 0;
}
