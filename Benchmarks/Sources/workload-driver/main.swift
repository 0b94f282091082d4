import Foundation
import Workloads

// Runs one workload of one contender once, for profiling:
//   workload-driver insert|fetch [contender name]
// e.g. `valgrind --tool=callgrind .build/release/workload-driver fetch OpenCoreData`.
// Without a contender it lists them; with `all` it runs each and prints wall times.

let arguments = Array(CommandLine.arguments.dropFirst())
guard let workload = arguments.first, ["insert", "fetch"].contains(workload) else {
    print("usage: workload-driver insert|fetch [contender|all]")
    exit(2)
}
let names = workload == "insert" ? Contenders.insert.map { $0.name } : Contenders.fetch.map { $0.name }
guard arguments.count > 1 else {
    print(names.joined(separator: "\n"))
    exit(0)
}
let wanted = arguments.dropFirst().joined(separator: " ")
let chosen = wanted == "all" ? names : names.filter { $0 == wanted }
guard !chosen.isEmpty else {
    print("unknown contender \(wanted); one of: \(names.joined(separator: ", "))")
    exit(2)
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

do {
    if workload == "insert" {
        for contender in Contenders.insert where chosen.contains(contender.name) {
            let directory = try ScratchDirectory()
            let instance = try contender.init(url: directory.file("Insert.sqlite"))
            let seconds = try time { try instance.run(count: Shape.insertCount) }
            print("insert \(contender.name): \(String(format: "%.3f", seconds)) s")
        }
    } else {
        let fixture = try FetchFixture()
        let expected = Shape.checksum(rows: Shape.fetchCount)
        for contender in Contenders.fetch where chosen.contains(contender.name) {
            let instance = try contender.init(url: fixture.url)
            var sum: Int64 = 0
            let seconds = try time { sum = try instance.run() }
            guard sum == expected else { throw WorkloadError("\(contender.name) read \(sum), not \(expected)") }
            print("fetch \(contender.name): \(String(format: "%.3f", seconds)) s")
        }
    }
} catch {
    print("failed: \(error)")
    exit(1)
}
