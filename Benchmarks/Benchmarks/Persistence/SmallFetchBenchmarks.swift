import Benchmark
import Workloads

/// Fetch 100 rows and read each of their ten Integer 64 values, 1,000 times over one connection or
/// context: what each fetch costs beyond its rows, as an app that fetches a screenful at a time pays it.
enum SmallFetchBenchmarks {
    nonisolated(unsafe) static var fixture: FetchFixture?

    static func register() {
        let expected = Shape.checksum(rows: Shape.smallFetchCount)
        for contender in Contenders.fetch {
            Benchmark(
                "Small fetch 100 x 10 Int64, 1000 times: \(contender.name)",
                configuration: Measured.configuration(iterations: 10),
                closure: { benchmark in
                    for _ in benchmark.scaledIterations {
                        guard let url = fixture?.url else { throw WorkloadError("the small-fetch fixture was not made") }
                        let instance = try contender.init(url: url)
                        // Once outside the measurement: statements prepared, the context's objects registered.
                        guard try instance.run() == expected else { throw WorkloadError("\(contender.name) read a wrong sum") }
                        var sum: Int64 = 0
                        benchmark.startMeasurement()
                        for _ in 0..<Shape.smallFetchRepeats { sum &+= try instance.run() }
                        benchmark.stopMeasurement()
                        blackHole(sum)
                        guard sum == expected &* Int64(Shape.smallFetchRepeats) else {
                            throw WorkloadError("\(contender.name) read \(sum), not \(expected) times \(Shape.smallFetchRepeats)")
                        }
                    }
                },
                setup: {
                    if fixture == nil { fixture = try FetchFixture(rows: Shape.smallFetchCount) }
                })
        }
    }
}
