/// A type that a fetch request can return: managed objects, object IDs, dictionaries or counts.
///
/// `NSDictionary` and `NSNumber` conform; managed objects and managed object IDs conform as well.
public protocol NSFetchRequestResult: NSObjectProtocol {}

/// Dictionaries are the results of fetches with `.dictionaryResultType`.
extension NSDictionary: NSFetchRequestResult {}
/// Numbers are the results of fetches with `.countResultType`.
extension NSNumber: NSFetchRequestResult {}
