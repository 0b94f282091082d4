#ifndef OPENCOREDATA_RUNTIME_H
#define OPENCOREDATA_RUNTIME_H

#include <stddef.h>

/// An overridable method of `NSManagedObject` whose implementation `ocd_managedObjectMethodImplementation`
/// looks up.
typedef enum OCDManagedObjectMethod {
    /// `validateValue(_:forKey:)`.
    OCDManagedObjectMethodValidateValue,
    /// `willAccessValue(forKey:)`.
    OCDManagedObjectMethodWillAccessValue,
    /// `didAccessValue(forKey:)`.
    OCDManagedObjectMethodDidAccessValue,
    /// `willChangeValue(forKey:)`.
    OCDManagedObjectMethodWillChangeValue,
    /// `didChangeValue(forKey:)`.
    OCDManagedObjectMethodDidChangeValue,
    /// `awakeFromFetch()`.
    OCDManagedObjectMethodAwakeFromFetch,
} OCDManagedObjectMethod;

/// The implementation of an `NSManagedObject` method that instances of the class with the given Swift
/// class metadata call: the class's own override, an inherited one, or `NSManagedObject`'s. The
/// metadata must be that of `NSManagedObject` or a subclass of it.
const void *_Nullable ocd_managedObjectMethodImplementation(const void *_Nonnull classMetadata,
                                                            OCDManagedObjectMethod method);

/// Retains the Swift object at `object` unless it has begun to deinitialize; returns whether it did.
/// The object's memory must still be allocated (an unowned reference count keeps it so).
_Bool ocd_tryRetain(const void *_Nonnull object);

/// The number of pointer slots each thread has (see `ThreadPointerSlot` in OpenCoreDataCore).
#define OCD_THREAD_SLOT_COUNT 4

/// Each thread's pointer slots, all empty when the thread starts.
extern _Thread_local void *_Nullable ocd_threadSlots[OCD_THREAD_SLOT_COUNT];

/// The pointer in this thread's slot `index` (less than `OCD_THREAD_SLOT_COUNT`).
static inline void *_Nullable ocd_threadSlot(long index) {
    return ocd_threadSlots[index];
}

/// Puts `pointer` in this thread's slot `index` (less than `OCD_THREAD_SLOT_COUNT`).
static inline void ocd_setThreadSlot(long index, void *_Nullable pointer) {
    ocd_threadSlots[index] = pointer;
}

/// Asks the processor to start loading the memory at `address` into its caches, to be written soon (a
/// Swift object's reference count, for a retain). Only a hint: it never faults, whatever the address.
static inline void ocd_prefetchForWriting(const void *_Nullable address) {
    __builtin_prefetch(address, 1, 3);
}

/// Asks the processor to start loading the `length` bytes at `address` into its caches, to be read
/// soon. Only a hint: it never faults, whatever the address.
static inline void ocd_prefetchForReading(const void *_Nullable address, long length) {
    for (long offset = 0; offset < length; offset += 64) {
        __builtin_prefetch((const char *)address + offset, 0, 3);
    }
}

/// The outcomes of `ocd_inflateRaw` and `ocd_deflateRaw`.
#define OCD_DEFLATE_OK 0
/// The input is not a DEFLATE stream.
#define OCD_DEFLATE_CORRUPT 1
/// The input ends before its DEFLATE stream does.
#define OCD_DEFLATE_TRUNCATED 2
/// The stream inflates to more than the limit.
#define OCD_DEFLATE_TOO_LARGE 3
/// Memory ran out.
#define OCD_DEFLATE_NO_MEMORY 4

/// Inflates the raw DEFLATE stream (RFC 1951, no zlib or gzip header) of `inputLength` bytes at `input`
/// into a new buffer of at most `outputLimit` bytes, which the caller frees with `ocd_freeDeflateBuffer`.
/// Returns `OCD_DEFLATE_OK` with the buffer in `output` and its size in `outputLength`, or another
/// outcome with `output` null. Bytes after the end of the stream are ignored.
int ocd_inflateRaw(const void *_Nullable input, size_t inputLength, size_t outputLimit,
                   void *_Nullable *_Nonnull output, size_t *_Nonnull outputLength);

/// Compresses `inputLength` bytes at `input` as one raw DEFLATE stream at zlib's compression `level`
/// (0–9) into a new buffer, which the caller frees with `ocd_freeDeflateBuffer`.
int ocd_deflateRaw(const void *_Nullable input, size_t inputLength, int level,
                   void *_Nullable *_Nonnull output, size_t *_Nonnull outputLength);

/// Frees a buffer `ocd_inflateRaw` or `ocd_deflateRaw` made.
void ocd_freeDeflateBuffer(void *_Nullable buffer);

#endif
