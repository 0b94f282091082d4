import Foundation

/// Builds fetch requests from `<fetchRequest>` elements: the model's templates and the requests of
/// fetched properties.
///
/// Xcode writes `name`, `entity`, `predicateString`, `fetchLimit`, `fetchBatchSize`, `resultType`
/// (the raw value of `NSFetchRequestResultType`) and the Boolean options `includeSubentities`,
/// `includePropertyValues`, `includesPendingChanges`, `returnObjectsAsFaults` and
/// `returnDistinctResults`. An option the file does not write keeps `NSFetchRequest`'s default.
struct FetchRequestMapping {
    let file: URL
    let entitiesByName: [String: NSEntityDescription]

    /// A model-level template and its name.
    func template(_ element: ModelXMLElement) throws -> (String, NSFetchRequest<NSFetchRequestResult>) {
        guard let name = element["name"], !name.isEmpty else {
            throw ModelFileError.invalid("a <fetchRequest> template has no name", at: .init(file: file, line: element.line))
        }
        let location = ModelFileError.Location(file: file, line: element.line, entity: element["entity"])
        do {
            return (name, try request(element, location: location))
        } catch let error as NSError {
            guard error.domain == NSCocoaErrorDomain, let message = error.userInfo[NSLocalizedDescriptionKey] as? String else { throw error }
            var info = error.userInfo
            info[NSLocalizedDescriptionKey] = message + " (fetch request template '\(name)')"
            throw NSError(domain: error.domain, code: error.code, userInfo: info)
        }
    }

    /// The request an element describes; `location` names the template or fetched property in errors.
    func request(_ element: ModelXMLElement, location: ModelFileError.Location) throws -> NSFetchRequest<NSFetchRequestResult> {
        var location = location
        location.line = element.line
        guard let entityName = element["entity"], !entityName.isEmpty else {
            throw ModelFileError.invalid("the <fetchRequest> has no entity", at: location)
        }
        guard let entity = entitiesByName[entityName] else {
            throw ModelFileError.invalid("the <fetchRequest> names entity '\(entityName)', which is not an entity of the model", at: location)
        }
        let request = NSFetchRequest<NSFetchRequestResult>(entityName: entityName)
        request.entity = entity
        if let text = element["predicateString"], !text.trimmingCharacters(in: .whitespaces).isEmpty {
            request.predicate = try ModelPredicateText.predicate(text, at: location, what: "predicateString")
        }
        if let limit = try integer(element, "fetchLimit", location: location) { request.fetchLimit = limit }
        if let size = try integer(element, "fetchBatchSize", location: location) { request.fetchBatchSize = size }
        if let offset = try integer(element, "fetchOffset", location: location) { request.fetchOffset = offset }
        if let type = try integer(element, "resultType", location: location) {
            request.resultType = NSFetchRequestResultType(rawValue: UInt(type))
        }
        if let value = element["includeSubentities"] { request.includesSubentities = isYes(value) }
        if let value = element["includePropertyValues"] { request.includesPropertyValues = isYes(value) }
        if let value = element["includesPendingChanges"] { request.includesPendingChanges = isYes(value) }
        if let value = element["returnObjectsAsFaults"] { request.returnsObjectsAsFaults = isYes(value) }
        if let value = element["returnDistinctResults"] { request.returnsDistinctResults = isYes(value) }
        return request
    }

    private func integer(_ element: ModelXMLElement, _ key: String, location: ModelFileError.Location) throws -> Int? {
        guard let text = element[key] else { return nil }
        guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
            throw ModelFileError.invalid("\(key) \"\(text)\" is not a non-negative integer", at: location)
        }
        return value
    }

    private func isYes(_ text: String) -> Bool {
        ["yes", "true", "1"].contains(text.lowercased())
    }
}
