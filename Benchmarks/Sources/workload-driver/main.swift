import Foundation
import Workloads

// Runs one workload once, one contender or all of them, for profiling and quick timings:
//   workload-driver insert|fetch|small-fetch|<a Workload's raw value, e.g. walk, text-dates, update> [contender|all]
// e.g. `valgrind --tool=callgrind .build/release/workload-driver fetch OpenCoreData`.
// Without a contender it lists them; with `all` it runs each and prints wall times.
// OCD_BENCH_ROWS=N overrides the row count of the insert, fetch, small-fetch, text-dates, wide and update workloads (e.g. smaller under valgrind);
// OCD_BENCH_REPEAT=N runs the insert, fetch and small-fetch workloads N times in the process and prints their minimum and median.

let workloads = ["insert", "fetch", "small-fetch"] + Workload.allCases.map(\.rawValue)
let arguments = Array(CommandLine.arguments.dropFirst())
guard let workload = arguments.first, workloads.contains(workload) else {
    print("usage: workload-driver \(workloads.joined(separator: "|")) [contender|all]")
    exit(2)
}
let fileWorkload = Workload(rawValue: workload)
let names: [String] =
    switch workload {
    case "insert": Contenders.insert.map { $0.name }
    case "fetch", "small-fetch": Contenders.fetch.map { $0.name }
    default: fileWorkload?.contenders.map { $0.name } ?? []
    }
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
let rows = ProcessInfo.processInfo.environment["OCD_BENCH_ROWS"].flatMap(Int.init)
let repeats = max(1, ProcessInfo.processInfo.environment["OCD_BENCH_REPEAT"].flatMap(Int.init) ?? 1)

/// One time, or the minimum and median of several runs in this process.
func summary(_ times: [Double]) -> String {
    let sorted = times.sorted()
    if sorted.count == 1 { return String(format: "%.5f s", sorted[0]) }
    return String(format: "min %.5f s, median %.5f s of %d", sorted[0], sorted[sorted.count / 2], sorted.count)
}

func time(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func peakResidentMiB() -> String {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return "?" }
    let kiB = Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    return String(format: "%.0f MiB", kiB / 1024)
}

do {
    switch workload {
    case "insert":
        for contender in Contenders.insert where chosen.contains(contender.name) {
            var times: [Double] = [], releases: [Double] = []
            for _ in 0..<repeats {
                let directory = try ScratchDirectory()
                var instance: (any InsertContender)? = try contender.init(url: directory.file("Insert.sqlite"))
                times.append(try time { try instance?.run(count: rows ?? Shape.insertCount) })
                try InsertCheck.verify(url: directory.file("Insert.sqlite"), rows: rows ?? Shape.insertCount)
                // What letting go of the saved objects costs (for OpenCoreData, the context and the cached
                // rows of the save), outside the timing as in the benchmarks.
                releases.append(time { instance = nil })
            }
            print("insert \(contender.name): \(summary(times)), peak RSS so far \(peakResidentMiB()); released in \(summary(releases))")
        }
    case "small-fetch":
        // Shape.smallFetchRepeats fetches of the rows over one instance, after one outside the timing.
        let count = rows ?? Shape.smallFetchCount
        let fixture = try FetchFixture(rows: count)
        let expected = Shape.checksum(rows: count)
        for contender in Contenders.fetch where chosen.contains(contender.name) {
            var times: [Double] = []
            for _ in 0..<repeats {
                let instance = try contender.init(url: fixture.url)
                guard try instance.run() == expected else { throw WorkloadError("\(contender.name) read a wrong sum") }
                var sum: Int64 = 0
                times.append(try time { for _ in 0..<Shape.smallFetchRepeats { sum &+= try instance.run() } })
                guard sum == expected &* Int64(Shape.smallFetchRepeats) else {
                    throw WorkloadError("\(contender.name) read \(sum), not \(expected) times \(Shape.smallFetchRepeats)")
                }
            }
            print("small-fetch \(contender.name): \(summary(times)) for \(Shape.smallFetchRepeats), peak RSS so far \(peakResidentMiB())")
        }
    case "fetch":
        let count = rows ?? Shape.fetchCount
        let fixture = try FetchFixture(rows: count)
        let expected = Shape.checksum(rows: count)
        for contender in Contenders.fetch where chosen.contains(contender.name) {
            var times: [Double] = [], releases: [Double] = []
            for _ in 0..<repeats {
                var instance: (any FetchContender)? = try contender.init(url: fixture.url)
                var sum: Int64 = 0
                times.append(try time { sum = try instance?.run() ?? 0 })
                guard sum == expected else { throw WorkloadError("\(contender.name) read \(sum), not \(expected)") }
                // What letting go of the fetched rows costs (for OpenCoreData, the context and its objects),
                // outside the timing of the fetch as in the benchmarks.
                releases.append(time { instance = nil })
            }
            print("fetch \(contender.name): \(summary(times)), peak RSS so far \(peakResidentMiB()); released in \(summary(releases))")
        }
    default:
        guard let fileWorkload else { exit(2) }
        let fixture = try fileWorkload.makeFixture()
        for contender in fileWorkload.contenders where chosen.contains(contender.name) {
            let prepared = try PreparedRun(fileWorkload, contender, fixture: fixture)
            var result: Int64 = 0
            let seconds = try time { result = try prepared.contender.run() }
            try prepared.check(fileWorkload, result: result)
            print("\(workload) \(contender.name): \(String(format: "%.3f", seconds)) s, peak RSS so far \(peakResidentMiB())")
        }
    }
} catch {
    print("failed: \(error)")
    exit(1)
}
