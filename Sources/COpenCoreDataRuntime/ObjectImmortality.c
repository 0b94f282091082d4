#include "COpenCoreDataRuntime.h"
#include <stddef.h>
#if __has_include(<dlfcn.h>)
#include <dlfcn.h>
#define OCD_HAS_DLSYM 1
#else
#define OCD_HAS_DLSYM 0
#endif

extern void *swift_retain(void *object);

typedef void (*ImmortalizeFunction)(void *object);

// Looked up by name: runtimes older than the entry point lack it, and objects then stay mortal.
static ImmortalizeFunction immortalizeFunction(void) {
    static ImmortalizeFunction function;
    static _Bool looked;
    if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
#if OCD_HAS_DLSYM
        ImmortalizeFunction found = (ImmortalizeFunction)dlsym(RTLD_DEFAULT, "_swift_stdlib_immortalize");
#else
        // Without the dynamic linker's lookup (Windows, WebAssembly) objects stay mortal.
        ImmortalizeFunction found = NULL;
#endif
        __atomic_store_n(&function, found, __ATOMIC_RELAXED);
        __atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
    }
    return __atomic_load_n(&function, __ATOMIC_RELAXED);
}

_Bool ocd_makeImmortal(void *object) {
    ImmortalizeFunction immortalize = immortalizeFunction();
    if (immortalize == NULL) return 0;
    // One strong reference that is never given back: the runtime keeps an immortal object's count as it
    // is, and a count above zero makes a release take the same early exit a retain takes.
    swift_retain(object);
    immortalize(object);
    return 1;
}
