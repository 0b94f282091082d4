import OpenCoreDataCore

/// The information a fetched results controller gives about one section of its results.
public protocol NSFetchedResultsSectionInfo {
    /// The name of the section: the value of the controller's section key path for its objects.
    var name: String { get }
    /// The title of the section in the section index.
    var indexTitle: String? { get }
    /// The number of objects in the section.
    var numberOfObjects: Int { get }
    /// The objects in the section, in order.
    var objects: [Any]? { get }
}

/// One section of a fetched results controller's results, as it was when the value was made.
final class FetchedResultsSectionInfo: NSObject, NSFetchedResultsSectionInfo {
    let name: String
    let indexTitle: String?
    let storedObjects: [AnyObject]

    init(name: String, indexTitle: String?, objects: [AnyObject]) {
        self.name = name
        self.indexTitle = indexTitle
        storedObjects = objects
        super.init()
    }

    var numberOfObjects: Int { storedObjects.count }

    var objects: [Any]? { storedObjects }

    override var description: String {
        "<NSFetchedResultsSectionInfo name=\"\(name)\" indexTitle=\(indexTitle.map { "\"\($0)\"" } ?? "nil") numberOfObjects=\(numberOfObjects)>"
    }
}
