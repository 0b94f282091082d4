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
        let builder = TreeBuilder()
        let parser = XMLParser(data: data)
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = builder
        let ok = parser.parse()
        if !ok || builder.root == nil || !builder.stack.isEmpty {
            let line = builder.errorLine ?? (parser.lineNumber > 0 ? parser.lineNumber : nil)
            let reason: String
            if let error = parser.parserError ?? builder.error {
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

    /// Collects parser events into elements. Used on one thread, for one parse.
    private final class TreeBuilder: NSObject, XMLParserDelegate {
        var stack: [ModelXMLElement] = []
        var root: ModelXMLElement?
        var error: Error?
        var errorLine: Int?

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
            stack.append(ModelXMLElement(name: elementName, attributes: attributeDict, children: [],
                                         line: parser.lineNumber))
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?) {
            guard let finished = stack.popLast() else { return }
            if stack.isEmpty {
                root = finished
            } else {
                stack[stack.count - 1].children.append(finished)
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
            if error == nil {
                error = parseError
                errorLine = parser.lineNumber > 0 ? parser.lineNumber : nil
            }
        }
    }
}
