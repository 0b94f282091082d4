// OpenCoreDataCore re-exports Foundation, as Apple's CoreData module does, so that a file
// importing OpenCoreData (which re-exports this module) alone sees `Date`, `URL`, `NSError` and the
// rest of Foundation. Types OpenCoreData declares under Foundation's names (`NSPredicate`,
// `NSExpression`, `NSSortDescriptor`, …) shadow Foundation's inside such a file.
@_exported import Foundation
