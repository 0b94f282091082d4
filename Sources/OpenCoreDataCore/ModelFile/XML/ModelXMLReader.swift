import Foundation

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads a model file's XML into a `ModelXMLElement` tree.
enum ModelXMLReader {
    /// Parses `data` (the text of `file`) and returns its root element.
    ///
    /// - Throws: an error naming the file and line when the XML is malformed or truncated.
    static func read(_ data: Data, file: URL) throws -> ModelXMLElement {
        let data = try ModelXMLText.utf8(data, file: file)
        if let line = entityDeclarationLine(in: data) {
            throw ModelFileError.invalid(
                "the file declares XML entities (<!ENTITY …>), which Xcode model files never contain; refused so that no entity is expanded or fetched",
                at: .init(file: file, line: line))
        }
        if let line = XMLProcessingInstructions.firstLine(in: data) {
            throw ModelFileError.invalid(
                "the file holds an XML processing instruction (<?…?>) besides the XML declaration, which Xcode model files never do",
                at: .init(file: file, line: line))
        }
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        parseLock.lock()
        let ok = parser.parse()
        parseLock.unlock()
        if !ok || builder.root == nil || !builder.stack.isEmpty {
            let line = builder.errorLine ?? (parser.lineNumber > 0 ? parser.lineNumber : nil)
            let reason: String
            if builder.tooDeep {
                reason = "elements are nested more than \(maxDepth) deep; a model file nests only a few levels"
            } else if let error = parser.parserError ?? builder.error {
                reason = "malformed XML (parser error \((error as NSError).code))"
            } else if builder.root == nil {
                reason = data.isEmpty ? "the file is empty" : "no XML element found"
            } else {
                reason = "the XML ends before the <\(builder.stack.last?.name ?? "model")> element is closed (truncated file)"
            }
            throw ModelFileError.invalid(reason, at: .init(file: file, line: line))
        }
        guard let root = builder.root else {
            throw ModelFileError.invalid("no XML element found", file: file)
        }
        return root
    }

    /// Serializes parsing: Foundation's XML parser on Linux wraps libxml2, whose error and entity state
    /// is not safe to use from several threads at once; model files parse in milliseconds, so one parse at a
    /// time costs little.
    private static let parseLock = NSLock()

    /// The deepest element nesting accepted. Xcode writes at most about six levels (model, entity,
    /// attribute, userInfo, entry); the limit keeps hostile files from exhausting the stack.
    static let maxDepth = 64

    /// The 1-based line of the first `<!ENTITY` declaration in the UTF-8 `data`, or `nil` when it has
    /// none.
    ///
    /// Model files have no document type declaration; refusing entity declarations up front keeps entity
    /// expansion bombs and external entities away from the XML parser.
    static func entityDeclarationLine(in data: Data) -> Int? {
        let marker = Array("<!ENTITY".utf8)
        let bytes = [UInt8](data)
        guard bytes.count >= marker.count else { return nil }
        var line = 1
        for index in 0...(bytes.count - marker.count) {
            if bytes[index] == 0x0A { line += 1 }
            if bytes[index] == 0x3C, bytes[index..<(index + marker.count)].elementsEqual(marker) {
                return line
            }
        }
        return nil
    }

    /// Collects parser events into elements. Used on one thread, for one parse.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [ModelXMLElement] = []
        var root: ModelXMLElement?
        var error: Error?
        var errorLine: Int?
        /// Set when the document nests deeper than ``ModelXMLReader/maxDepth``; parsing then stops.
        var tooDeep = false

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
        ) {
            guard !tooDeep else { return }
            if stack.count >= ModelXMLReader.maxDepth {
                tooDeep = true
                errorLine = parser.lineNumber > 0 ? parser.lineNumber : nil
                parser.abortParsing()
                return
            }
            stack.append(
                ModelXMLElement(
                    name: elementName, attributes: attributeDict, children: [],
                    line: parser.lineNumber))
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
            qualifiedName qName: String?
        ) {
            guard !tooDeep, let finished = stack.popLast() else { return }
            if stack.isEmpty {
                root = finished
            } else {
                stack[stack.count - 1].children.append(finished)
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if error == nil, !tooDeep {
                error = parseError
                errorLine = parser.lineNumber > 0 ? parser.lineNumber : nil
            }
        }
    }
}
