import Benchmark

/// Every suite of this target; a new suite is a new file with a `register()` and one line here.
let benchmarks: @Sendable () -> Void = {
    InsertBenchmarks.register()
    FetchBenchmarks.register()
    SmallFetchBenchmarks.register()
    FileWorkloadBenchmarks.register()
}

/// What every benchmark measures: time (wall and CPU), allocations, peak memory and throughput.
/// Retain/release counts are left out: they need the `RuntimeInterposer` trait, whose package this
/// machine does not have (see README.md).
enum Measured {
    static let metrics: [BenchmarkMetric] = [
        .wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident, .throughput,
    ]

    /// Few, long iterations: each one is a whole workload of tens of thousands of rows or more. A
    /// benchmark stops after `iterations` measured runs or 30 s, whichever comes first.
    static func configuration(iterations: Int, warmup: Int = 1, extra: [BenchmarkMetric] = []) -> Benchmark.Configuration {
        .init(
            metrics: metrics + extra, timeUnits: .milliseconds, warmupIterations: warmup,
            maxDuration: .seconds(30), maxIterations: iterations)
    }
}
