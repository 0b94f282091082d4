import Foundation

extension NSManagedObjectModel {
    /// Returns the version checksum of each version of the versioned model at the given URL.
    ///
    /// - Parameter modelURL: An `.xcdatamodeld` bundle (on Apple platforms, the compiled `.momd`).
    /// - Returns: A dictionary that maps each version's name (its folder name without the extension,
    ///   such as `"Model 2"`) to that version's ``versionChecksum``, the value
    ///   `NSManagedObjectModelReference` and staged migration use to identify it.
    /// - Throws: The error ``load(from:)`` throws when the bundle or one of its versions cannot be read.
    public class func checksumsForVersionedModel(at modelURL: URL) throws -> [String: String] {
        var checksums: [String: String] = [:]
        for version in try versions(inBundleAt: modelURL) {
            checksums[version.name] = try version.loadModel().versionChecksum
        }
        return checksums
    }
}
