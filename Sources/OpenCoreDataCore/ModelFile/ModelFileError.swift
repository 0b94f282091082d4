import Foundation

/// Builds the errors the Xcode model file reader throws.
///
/// Every error is in `NSCocoaErrorDomain`. A path that does not exist gives Foundation's
/// `NSFileReadNoSuchFileError` (260), the documented code for a missing file. Every other problem
/// (malformed or truncated XML, an unknown attribute type, a relationship to a missing entity, a missing
/// `contents` file, an Xcode 3 binary model, a damaged `.xccurrentversion`) gives Core Data's
/// `NSCoreDataError` (134060), its documented code for a nonspecific Core Data error: Apple's loader reports
/// these cases only by returning `nil`, so no more specific code exists.
///
/// The message names the file and, where known, the XML line, the entity and the property. The user info
/// also carries `NSFilePathErrorKey` and, when known, the line under `ModelFileError.lineKey`.
enum ModelFileError {
    /// Foundation's code for a file that does not exist.
    static let noSuchFileCode = 260
    /// Core Data's nonspecific error code.
    static let coreDataCode = 134060
    /// The user info key holding the 1-based XML line of the problem.
    static let lineKey = "OCDModelFileLine"

    /// Where in a model file a problem is.
    struct Location {
        var file: URL
        var line: Int?
        var entity: String?
        var property: String?

        init(file: URL, line: Int? = nil, entity: String? = nil, property: String? = nil) {
            self.file = file
            self.line = line
            self.entity = entity
            self.property = property
        }
    }

    /// An error about a model file's contents.
    static func invalid(_ message: String, at location: Location) -> NSError {
        var prefix = location.file.path
        if let line = location.line { prefix += ":\(line)" }
        var subject: [String] = []
        if let entity = location.entity { subject.append("entity '\(entity)'") }
        if let property = location.property { subject.append("property '\(property)'") }
        let text = subject.isEmpty ? "\(prefix): \(message)" : "\(prefix): \(subject.joined(separator: ", ")): \(message)"
        var info: [String: Any] = [NSLocalizedDescriptionKey: text, NSFilePathErrorKey: location.file.path]
        if let line = location.line { info[lineKey] = line }
        return NSError(domain: NSCocoaErrorDomain, code: coreDataCode, userInfo: info)
    }

    /// An error about a file as a whole (no line).
    static func invalid(_ message: String, file: URL) -> NSError {
        invalid(message, at: Location(file: file))
    }

    /// The error for a path that does not exist.
    static func noSuchFile(_ url: URL) -> NSError {
        NSError(
            domain: NSCocoaErrorDomain, code: noSuchFileCode,
            userInfo: [
                NSLocalizedDescriptionKey: "\(url.path): no such file or directory; expected an .xcdatamodeld bundle or an .xcdatamodel folder",
                NSFilePathErrorKey: url.path,
            ])
    }
}
