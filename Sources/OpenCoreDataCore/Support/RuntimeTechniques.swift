/// The switches of the techniques that lean on the Swift runtime's internals or on invariants no type
/// enforces (`Docs/Internals.md` lists each, with its invariant and its gain).
///
/// Each technique is on unless the build names its compilation condition, and every one of them is off
/// when the build names `OCD_PLAIN_SWIFT`: with `swift build -Xswiftc -DOCD_NO_BOXED_INSTANCE`, say, or
/// with `OCD_PLAIN_SWIFT=1 swift build`, which `Package.swift` turns into the condition. A technique
/// that is off leaves its site to the plain Swift path beside it, which gives the same results. The
/// constants fold away in an optimized build, so a switch costs nothing while it is on.
enum RuntimeTechniques {
    /// Property names compared by their bits (`StringRepresentation`); off: `OCD_NO_STRING_REPRESENTATION`.
    static var stringRepresentation: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_STRING_REPRESENTATION
        false
        #else
        true
        #endif
    }

    /// The instance an `Any?` holds read in place (`BoxedInstance`); off: `OCD_NO_BOXED_INSTANCE`.
    static var boxedInstance: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_BOXED_INSTANCE
        false
        #else
        true
        #endif
    }

    /// A fetch's `[NSManagedObject]` returned as the request's `[T]` without a copy; off:
    /// `OCD_NO_TYPED_RESULTS_CAST`.
    static var typedResultsCast: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_TYPED_RESULTS_CAST
        false
        #else
        true
        #endif
    }

    /// A managed object's context held as an unretained pointer; off (a `weak` reference):
    /// `OCD_NO_UNRETAINED_CONTEXT`.
    static var unretainedContext: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_UNRETAINED_CONTEXT
        false
        #else
        true
        #endif
    }

    /// Back references held through the runtime's conditional retain (`NonRetaining`); off (a `weak`
    /// reference): `OCD_NO_NONRETAINING`.
    static var nonRetaining: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_NONRETAINING
        false
        #else
        true
        #endif
    }

    /// A class's overrides of `NSManagedObject`'s hooks found in its vtable (`ManagedObjectOverrides`);
    /// off (every class counts as overriding every hook, so accessors take the general path):
    /// `OCD_NO_VTABLE_LOOKUP`.
    static var vtableLookup: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_VTABLE_LOOKUP
        false
        #else
        true
        #endif
    }

    /// Hash tables keyed by already mixed hashes without the general-purpose hasher (`_rawHashValue`);
    /// off: `OCD_NO_RAW_HASH`, which leaves the keys' `hash(into:)` to `Set` and `Dictionary`.
    static var rawHash: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_RAW_HASH
        false
        #else
        true
        #endif
    }

    /// Software prefetch hints (`ocd_prefetchForReading` and friends); off: `OCD_NO_PREFETCH_HINTS`, which
    /// makes every hint ask for nothing.
    static var prefetchHints: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_PREFETCH_HINTS
        false
        #else
        true
        #endif
    }

    /// Generic values converted by reinterpreting their bits after a type comparison (`typeComparedCast`);
    /// off (a checked `as!`): `OCD_NO_REINTERPRETED_VALUES`.
    static var reinterpretedValues: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_REINTERPRETED_VALUES
        false
        #else
        true
        #endif
    }

    /// Stored properties marked `@exclusivity(unchecked)`; off (the runtime checks every access):
    /// `OCD_NO_UNCHECKED_EXCLUSIVITY`. The attribute itself is compiled under the same condition at each
    /// property; this constant only reports it.
    static var uncheckedExclusivity: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_EXCLUSIVITY
        false
        #else
        true
        #endif
    }

    /// Values that hold their slot layout without a reference count; off (a strong reference):
    /// `OCD_NO_UNRETAINED_LAYOUT`.
    static var unretainedLayout: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_UNRETAINED_LAYOUT
        false
        #else
        true
        #endif
    }

    /// Objects used without being retained (`Unmanaged.withBorrowedReference`); off (each use retains):
    /// `OCD_NO_BORROWED_REFERENCES`.
    static var borrowedReferences: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_BORROWED_REFERENCES
        false
        #else
        true
        #endif
    }

    /// Per-thread pointer slots in C thread-local storage (`ThreadPointerSlot`); off (POSIX
    /// thread-specific keys): `OCD_NO_C_THREAD_SLOTS`.
    static var cThreadSlots: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_C_THREAD_SLOTS
        false
        #else
        true
        #endif
    }

    /// Log entries indexed only when a lookup needs it (`LazilyIndexedLog`); off (indexed as they are
    /// appended): `OCD_NO_LAZY_INDEXING`.
    static var lazyIndexing: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_LAZY_INDEXING
        false
        #else
        true
        #endif
    }

    /// A first fetch's faults registered before they are indexed (`DeferredRegistration.swift`, its
    /// `_read` and `_modify` accessors); off (each object indexed as it is made): `OCD_NO_DEFERRED_REGISTRATION`.
    static var deferredRegistration: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_DEFERRED_REGISTRATION
        false
        #else
        true
        #endif
    }

    /// Value slots that hold no reference copied, overwritten and freed as bytes (`PropertySlotStorage`);
    /// off (every slot through the enum's value witnesses): `OCD_NO_BYTE_COPIED_SLOTS`.
    static var byteCopiedSlots: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_BYTE_COPIED_SLOTS
        false
        #else
        true
        #endif
    }

    /// `unsafelyUnwrapped`, `unsafeDowncast` and the unchecked slot read, whose checks only debug builds
    /// make (`UncheckedOperations.swift`); off (checked in every build): `OCD_NO_UNCHECKED_OPERATIONS`.
    static var uncheckedOperations: Bool {
        #if OCD_PLAIN_SWIFT || OCD_NO_UNCHECKED_OPERATIONS
        false
        #else
        true
        #endif
    }
}
