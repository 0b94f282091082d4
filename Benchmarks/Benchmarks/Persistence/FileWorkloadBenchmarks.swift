import Benchmark
import Workloads

/// The workloads of issues 9 and 10 (aggregate, batch update, batch delete, batched scan, fetched results
/// controller, migration), each contender on the same fixture file or on a fresh copy of it.
enum FileWorkloadBenchmarks {
    /// The fixture of the benchmark this process runs (ordo-one runs each benchmark in its own process).
    nonisolated(unsafe) static var fixtures: [Workload: StoreFixture] = [:]

    /// Iterations of each workload, so that the whole suite stays well under 15 minutes.
    static func iterations(_ workload: Workload) -> Int {
        switch workload {
        case .aggregate, .batchUpdate, .batchDelete, .historyFetch, .count: 5
        case .batchedScan, .fetchedResults, .migration: 3
        case .prefetch, .walk: 5
        case .typedPredicateFetch, .predicateConversion: 10
        case .textAndDates, .wide, .selectiveFetch: 5
        case .update, .cascadeDelete: 5
        }
    }

    static func register() {
        for workload in Workload.allCases {
            for contender in workload.contenders {
                let configuration = Measured.configuration(
                    iterations: iterations(workload), warmup: 0,
                    extra: workload == .batchedScan ? [.peakMemoryResidentDelta] : [])
                Benchmark(
                    "\(workload.title): \(contender.name)", configuration: configuration,
                    closure: { benchmark in
                        for _ in benchmark.scaledIterations {
                            guard let fixture = fixtures[workload] else { throw WorkloadError("the \(workload.title) fixture was not made") }
                            let prepared = try PreparedRun(workload, contender, fixture: fixture)
                            benchmark.startMeasurement()
                            let result = try prepared.contender.run()
                            benchmark.stopMeasurement()
                            blackHole(result)
                            try prepared.check(workload, result: result)
                        }
                    },
                    setup: {
                        if fixtures[workload] == nil { fixtures[workload] = try workload.makeFixture() }
                    })
            }
        }
    }
}
