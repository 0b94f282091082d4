#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The files an open SQLite store writes through (the store file, and in WAL mode its `-wal` and
/// `-shm`), as they were when the store connected, so that a write can tell that another program deleted
/// or replaced one of them.
///
/// SQLite's open connections keep writing into the files they opened. When another program deletes the
/// `-wal` or replaces the store file, a save would still return without error, into a file that no longer
/// has the store's name, and be gone when the process exits; a deleted `-shm` lets two processes keep two
/// WAL indexes of one store. Every write transaction of the store compares the files' identities (device
/// and inode) with these before it commits, and fails instead (rolling back, so the context keeps its
/// changes).
struct SQLiteStoreFiles: Sendable {
    /// The device and inode of a file.
    struct Identity: Equatable, Sendable {
        let device: UInt64
        let inode: UInt64

        /// The identity of the file at `path`, or nil when nothing is there.
        init?(path: String) {
            var status = stat()
            guard stat(path, &status) == 0 else { return nil }
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    private let url: URL
    private let files: [(suffix: String, identity: Identity)]

    /// The identities of the store file at `url` and, when `wal`, of its `-wal` and `-shm` as they are now.
    init(url: URL, wal: Bool) {
        self.url = url
        files = (wal ? ["", "-wal", "-shm"] : [""]).compactMap { suffix in
            Identity(path: url.path + suffix).map { (suffix, $0) }
        }
    }

    /// Throws when a file the store writes through is no longer at its path.
    ///
    /// - Throws: ``NSSQLiteError`` naming the file that was deleted or replaced.
    func check() throws {
        for (suffix, identity) in files {
            let current = Identity(path: url.path + suffix)
            guard current != identity else { continue }
            let what = current == nil ? "was deleted" : "was replaced"
            throw NSError(
                domain: NSCocoaErrorDomain, code: NSSQLiteError,
                userInfo: [
                    NSLocalizedDescriptionKey: "The store file \(url.path)\(suffix) \(what) by another program while the store was open; "
                        + "nothing was written. Remove the store from its coordinator and add it again.",
                    NSFilePathErrorKey: url.path + suffix,
                    NSURLErrorKey: url,
                ])
        }
    }
}
