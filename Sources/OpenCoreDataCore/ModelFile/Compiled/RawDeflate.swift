import COpenCoreDataRuntime
import Foundation

/// Raw DEFLATE streams (RFC 1951: no zlib or gzip header), the compression of a store's model cache
/// (`Z_MODELCACHE.Z_CONTENT`), through zlib.
///
/// Apple's Core Data compresses the cache with zlib's level 5: recompressing the inflated archive of every
/// Apple-written store here at that level gives its bytes exactly, so ``deflate(_:)`` uses it too.
enum RawDeflate {
    /// Why a stream cannot be inflated.
    enum Failure: Error, Equatable {
        case corrupt, truncated, tooLarge(limit: Int), noMemory

        var reason: String {
            switch self {
            case .corrupt: return "the bytes are not a DEFLATE stream"
            case .truncated: return "the DEFLATE stream is truncated"
            case let .tooLarge(limit): return "the DEFLATE stream inflates to more than \(limit) bytes"
            case .noMemory: return "there is not enough memory to inflate the DEFLATE stream"
            }
        }
    }

    /// The compression level Apple's Core Data uses for model caches.
    static let appleLevel: Int32 = 5

    /// The largest inflated archive accepted: real model caches are tens of kilobytes; the largest
    /// models (hundreds of entities) a few megabytes.
    static let defaultLimit = 256 * 1024 * 1024

    /// The bytes `data` inflates to, as one raw DEFLATE stream; bytes after its end are ignored.
    static func inflate(_ data: Data, limit: Int = defaultLimit) throws(Failure) -> Data {
        var output: UnsafeMutableRawPointer?
        var length = 0
        let status = data.withUnsafeBytes { bytes in
            ocd_inflateRaw(bytes.baseAddress, bytes.count, limit, &output, &length)
        }
        defer { ocd_freeDeflateBuffer(output) }
        switch status {
        case OCD_DEFLATE_OK:
            guard let output else { return Data() }
            return Data(bytes: output, count: length)
        case OCD_DEFLATE_TRUNCATED: throw .truncated
        case OCD_DEFLATE_TOO_LARGE: throw .tooLarge(limit: limit)
        case OCD_DEFLATE_NO_MEMORY: throw .noMemory
        default: throw .corrupt
        }
    }

    /// `data` compressed as one raw DEFLATE stream at `level`.
    static func deflate(_ data: Data, level: Int32 = appleLevel) -> Data {
        var output: UnsafeMutableRawPointer?
        var length = 0
        let status = data.withUnsafeBytes { bytes in
            ocd_deflateRaw(bytes.baseAddress, bytes.count, level, &output, &length)
        }
        defer { ocd_freeDeflateBuffer(output) }
        guard status == OCD_DEFLATE_OK, let output else {
            preconditionFailure("zlib could not compress \(data.count) bytes (outcome \(status))")
        }
        return Data(bytes: output, count: length)
    }
}
