import OpenCoreDataCore

/// One section of a fetched results controller's current results.
struct FetchedSection {
    var name: String
    var objects: [AnyObject]
}

/// Grouping an ordered list of objects into sections.
enum FetchedSectionGrouping {
    /// Groups objects by section name, sections in the order their first object appears; objects keep
    /// their order within a section. Without a section key path there is always exactly one section.
    static func group(
        _ objects: [AnyObject], sectioned: Bool,
        name: (AnyObject) -> String
    ) -> [FetchedSection] {
        guard sectioned else { return [FetchedSection(name: "", objects: objects)] }
        var sections: [FetchedSection] = []
        var indexByName: [String: Int] = [:]
        for object in objects {
            let sectionName = name(object)
            if let index = indexByName[sectionName] {
                sections[index].objects.append(object)
            } else {
                indexByName[sectionName] = sections.count
                sections.append(FetchedSection(name: sectionName, objects: [object]))
            }
        }
        return sections
    }
}

/// The longest increasing subsequence of a list of integers, as indices into the list.
enum LongestIncreasingSubsequence {
    static func indices(of values: [Int]) -> [Int] {
        guard !values.isEmpty else { return [] }
        // tails[k]: index of the smallest last value of an increasing subsequence of length k + 1.
        var tails: [Int] = []
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var result: [Int] = []
        var current = tails.last ?? -1
        while current >= 0 {
            result.append(current)
            current = previous[current]
        }
        return result.reversed()
    }
}
