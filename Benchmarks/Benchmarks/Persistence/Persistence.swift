import Benchmark

/// Every suite of this target; a new suite is a new file with a `register()` and one line here.
let benchmarks: @Sendable () -> Void = {
    InsertBenchmarks.register()
    FetchBenchmarks.register()
}

/// What every benchmark measures: time (wall and CPU), allocations, ARC traffic and peak memory.
enum Measured {
    static let metrics: [BenchmarkMetric] = [
        .wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, .retainCount, .releaseCount, .throughput,
    ]

    /// Few, long iterations: each one is a whole workload of tens of thousands of rows.
    static func configuration(iterations: Int) -> Benchmark.Configuration {
        .init(metrics: metrics, timeUnits: .milliseconds, warmupIterations: 1,
              maxDuration: .seconds(60), maxIterations: iterations)
    }
}
