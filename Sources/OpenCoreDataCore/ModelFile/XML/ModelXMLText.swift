import Foundation

/// Brings a model file's bytes to UTF-8 text before the XML parser sees them.
///
/// Xcode writes model files in UTF-8. Files in UTF-16 or UTF-32 with a byte order mark (or UTF-16
/// without one), and files declaring ISO-8859-1, are converted; anything else that is not valid UTF-8 is
/// refused with the line of the first bad byte. The parser thus only ever reads valid UTF-8 and never
/// guesses an encoding from damaged bytes.
enum ModelXMLText {
    /// The UTF-8 bytes of the XML in `data`, with its declaration naming UTF-8.
    ///
    /// - Throws: an error naming `file` and the line when the bytes are not text in a supported encoding.
    static func utf8(_ data: Data, file: URL) throws -> Data {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return try validated(Array(bytes.dropFirst(3)), file: file)
        }
        if let encoding = unicodeEncoding(of: bytes) {
            guard let text = String(data: data, encoding: encoding) else {
                throw ModelFileError.invalid("the file starts as \(encoding) text but holds bytes that are not", file: file)
            }
            return Data(declaringUTF8(text).utf8)
        }
        if String(validating: bytes, as: UTF8.self) != nil {
            return data
        }
        if declaresLatin1(bytes), let text = String(data: data, encoding: .isoLatin1) {
            return Data(declaringUTF8(text).utf8)
        }
        return try validated(bytes, file: file)
    }

    /// `bytes` when they are valid UTF-8; otherwise an error naming the line of the first bad byte.
    private static func validated(_ bytes: [UInt8], file: URL) throws -> Data {
        if String(validating: bytes, as: UTF8.self) != nil { return Data(bytes) }
        var line = 1
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        decoding: while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar):
                if scalar == "\n" { line += 1 }
            case .emptyInput:
                break decoding
            case .error:
                break decoding
            }
        }
        throw ModelFileError.invalid("the file is not UTF-8 text: invalid byte sequence", at: .init(file: file, line: line))
    }

    /// The UTF-16 or UTF-32 encoding the first bytes show (a byte order mark, or `<?` in UTF-16), if any.
    private static func unicodeEncoding(of bytes: [UInt8]) -> String.Encoding? {
        let head = Array(bytes.prefix(4))
        if head == [0x00, 0x00, 0xFE, 0xFF] || head == [0xFF, 0xFE, 0x00, 0x00] { return .utf32 }
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) { return .utf16 }
        if head == [0x00, 0x3C, 0x00, 0x3F] { return .utf16BigEndian }
        if head == [0x3C, 0x00, 0x3F, 0x00] { return .utf16LittleEndian }
        return nil
    }

    /// Whether the XML declaration names ISO-8859-1 (Latin-1).
    private static func declaresLatin1(_ bytes: [UInt8]) -> Bool {
        guard let end = bytes.prefix(200).firstIndex(of: 0x3E) else { return false }
        let declaration = String(decoding: bytes[..<end], as: UTF8.self).lowercased()
        guard declaration.hasPrefix("<?xml") else { return false }
        return declaration.contains("iso-8859-1") || declaration.contains("latin1")
    }

    /// `text` with the encoding its XML declaration names replaced by UTF-8 (or no declaration change
    /// when it names none); the byte order mark is dropped.
    private static func declaringUTF8(_ text: String) -> String {
        var text = text
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") else { return text }
        let declaration = String(text[..<end.lowerBound])
        guard let encoding = declaration.range(of: #"encoding\s*=\s*["'][^"']*["']"#, options: .regularExpression) else {
            return text
        }
        let fixed = declaration.replacingCharacters(in: encoding, with: #"encoding="UTF-8""#)
        return fixed + text[end.lowerBound...]
    }
}
