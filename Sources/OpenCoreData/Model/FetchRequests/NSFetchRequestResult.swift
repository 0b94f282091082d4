/// A type that a fetch request can return: managed objects, object IDs, dictionaries or counts.
///
/// `NSDictionary` and `NSNumber` conform; managed objects and managed object IDs conform as well.
public protocol NSFetchRequestResult: NSObjectProtocol {}

extension NSDictionary: NSFetchRequestResult {}
extension NSNumber: NSFetchRequestResult {}
