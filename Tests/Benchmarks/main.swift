// simplex-bench: the figures each issue names, measured on this machine in one run.
// Benchmarks are not tests: nothing here passes or fails; `make bench` prints the figures.
import Foundation

print("simplex-bench — \(ProcessInfo.processInfo.activeProcessorCount) cores")
print("")
print("## Shared state (issue 2)")
for line in try await foundationBenchmarkLines() { print("  " + line) }
print("")
print("## Crypto wrapper overhead vs a C loop (issue 2)")
for line in cryptoBenchmarkLines() { print("  " + line) }
print("")
print("## Relay throughput: 16 KB send → deliver → ACK, and Redis PUBLISH/SUBSCRIBE (issue 3)")
for line in try await relayThroughputBenchmarkLines() { print("  " + line) }
print("")
print("## Relay memory per idle queue, restart with 1M queues, fuzzing (issue 3)")
for line in try await relayStoreBenchmarkLines() { print("  " + line) }
