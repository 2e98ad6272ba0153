import Foundation
import Testing

@testable import SimpleXChat

@Suite struct EchoThroughputTests {
    /// A measurement, off by default (debug builds say little about speed): SIMPLEX_NET_BENCH=1 runs it.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["SIMPLEX_NET_BENCH"] != nil))
    func echoThroughputOfSMPBlocks() async throws {
        let result = try await measureEchoThroughput(connections: 4, blocksPerConnection: 2_000)
        print(
            "echo throughput: \(Int(result.megabytesPerSecond)) MB/s, \(Int(result.blocksPerSecond)) blocks/s"
        )
        #expect(result.received == 4 * 2_000)
    }
}
