import Foundation

/// Finds XML processing instructions (`<?target data?>`) other than the XML declaration.
///
/// Foundation's XML parser on Linux stops the program on a processing instruction without data
/// (`<?pi?>`): it hands libxml2's missing data to `strlen`. Xcode's model and mapping files hold no
/// processing instruction but the declaration, so a file with another is refused before it is parsed.
enum XMLProcessingInstructions {
    /// The byte sequences the scan looks for.
    private enum Marker {
        static let commentStart = Array("<!--".utf8), commentEnd = Array("-->".utf8)
        static let cdataStart = Array("<![CDATA[".utf8), cdataEnd = Array("]]>".utf8)
        static let instructionStart = Array("<?".utf8), instructionEnd = Array("?>".utf8)
        static let declarationStart = Array("<?xml".utf8)
    }

    /// The 1-based line of the first processing instruction in `data` that is not the XML declaration
    /// at its start, outside comments and CDATA sections; `nil` when it has none.
    static func firstLine(in data: Data) -> Int? {
        let bytes = [UInt8](data)
        let count = bytes.count
        var line = 1
        var index = 0
        func starts(_ marker: [UInt8], at position: Int) -> Bool {
            position + marker.count <= count && bytes[position..<position + marker.count].elementsEqual(marker)
        }
        /// Moves `index` past `end`, counting lines; `false` when the data ends first.
        func skip(past end: [UInt8]) -> Bool {
            while index < count {
                if starts(end, at: index) {
                    index += end.count
                    return true
                }
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                index += 1
            }
            return false
        }
        while index < count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\n") {
                line += 1
                index += 1
            } else if starts(Marker.commentStart, at: index) {
                index += Marker.commentStart.count
                if !skip(past: Marker.commentEnd) { return nil }
            } else if starts(Marker.cdataStart, at: index) {
                index += Marker.cdataStart.count
                if !skip(past: Marker.cdataEnd) { return nil }
            } else if starts(Marker.instructionStart, at: index) {
                // The declaration, `<?xml` followed by white space, may open the file (after a byte-order mark).
                let isDeclaration =
                    (index == 0 || (index == 3 && bytes.starts(with: [0xEF, 0xBB, 0xBF])))
                    && starts(Marker.declarationStart, at: index) && index + 5 < count
                    && [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index + 5])
                if !isDeclaration { return line }
                index += Marker.instructionStart.count
                if !skip(past: Marker.instructionEnd) { return nil }
            } else {
                index += 1
            }
        }
        return nil
    }
}
