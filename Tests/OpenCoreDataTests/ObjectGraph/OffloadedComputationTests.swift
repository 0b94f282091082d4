import Dispatch
import Foundation
import Testing

@testable import OpenCoreDataCore

@Suite("Offloaded computations")
struct OffloadedComputationTests {
    @Test("the result is the computation's, computed exactly once, whichever thread runs it")
    func computedOnce() {
        for round in 0..<300 {
            let runs = LockedValue(0)
            let computation = OffloadedComputation {
                runs.withLock { $0 += 1 }
                return (0...round).reduce(0, +)
            }
            // Every few rounds the caller lets a worker start first; otherwise the two race.
            if round % 3 == 0 { Thread.sleep(forTimeInterval: 0.001) }
            #expect(computation.result() == round * (round + 1) / 2)
            // A worker that finds the computation taken does nothing.
            if round % 50 == 0 { Thread.sleep(forTimeInterval: 0.01) }
            #expect(runs.value == 1)
        }
    }

    @Test("a caller that asks before any thread started the computation runs it on its own thread, without waiting")
    func callerRunsUnstartedComputation() {
        // A queue whose threads cannot start anything until it resumes.
        let queue = DispatchQueue(label: "OffloadedComputationTests.suspended")
        queue.suspend()
        let caller = pthread_self()
        let ranOnCaller = LockedValue<Bool?>(nil)
        let computation = OffloadedComputation(on: queue) {
            ranOnCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 }
            return "done"
        }
        #expect(computation.result() == "done")
        #expect(ranOnCaller.value == true)
        // The worker then starts and finds nothing to do.
        queue.resume()
        queue.sync {}
        #expect(ranOnCaller.value == true)
    }

    @Test("a caller that asks while another thread runs the computation gets that thread's result")
    func callerWaitsForStartedComputation() {
        let started = DispatchSemaphore(value: 0)
        let proceed = DispatchSemaphore(value: 0)
        let caller = pthread_self()
        let ranOnCaller = LockedValue<Bool?>(nil)
        let computation = OffloadedComputation {
            ranOnCaller.withLock { $0 = pthread_equal(pthread_self(), caller) != 0 }
            started.signal()
            proceed.wait()
            return 42
        }
        started.wait()
        proceed.signal()
        #expect(computation.result() == 42)
        #expect(ranOnCaller.value == false)
    }
}
