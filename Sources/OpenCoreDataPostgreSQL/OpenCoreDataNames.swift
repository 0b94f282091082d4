import OpenCoreData

// Foundation declares these names too; the store speaks OpenCoreData's.
typealias NSPredicate = OpenCoreData.NSPredicate
typealias NSComparisonPredicate = OpenCoreData.NSComparisonPredicate
typealias NSCompoundPredicate = OpenCoreData.NSCompoundPredicate
typealias NSSortDescriptor = OpenCoreData.NSSortDescriptor
typealias NSExpression = OpenCoreData.NSExpression
