import Benchmark
import Workloads

/// Fetch 200,000 rows and read each of their ten Integer 64 values, from one WAL file.
enum FetchBenchmarks {
    nonisolated(unsafe) static var fixture: FetchFixture?

    static func register() {
        let expected = Shape.checksum(rows: Shape.fetchCount)
        for contender in Contenders.fetch {
            Benchmark(
                "Fetch 200k x 10 Int64: \(contender.name)", configuration: Measured.configuration(iterations: 10),
                closure: { benchmark in
                    for _ in benchmark.scaledIterations {
                        guard let url = fixture?.url else { throw WorkloadError("the fetch fixture was not made") }
                        let instance = try contender.init(url: url)
                        benchmark.startMeasurement()
                        let sum = try instance.run()
                        benchmark.stopMeasurement()
                        blackHole(sum)
                        guard sum == expected else { throw WorkloadError("\(contender.name) read \(sum), not \(expected)") }
                    }
                },
                setup: {
                    if fixture == nil { fixture = try FetchFixture() }
                })
        }
    }
}
