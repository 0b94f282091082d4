import Benchmark
import Workloads

/// Insert 50,000 rows of ten Integer 64 values in one transaction, into a new WAL file; the file's row
/// count and sum checked afterwards.
enum InsertBenchmarks {
    static func register() {
        for contender in Contenders.insert {
            Benchmark("Insert 50k x 10 Int64: \(contender.name)", configuration: Measured.configuration(iterations: 10)) { benchmark in
                for _ in benchmark.scaledIterations {
                    let directory = try ScratchDirectory()
                    let instance = try contender.init(url: directory.file("Insert.sqlite"))
                    benchmark.startMeasurement()
                    try instance.run(count: Shape.insertCount)
                    benchmark.stopMeasurement()
                    try InsertCheck.verify(url: directory.file("Insert.sqlite"), rows: Shape.insertCount)
                }
            }
        }
    }
}
