// simplex-bench: the figures each issue names, measured on this machine in one run.
// Benchmarks are not tests: nothing here passes or fails; `make bench` prints the figures.
// SIMPLEX_BENCH_ONLY=<section>[,<section>] runs only the named sections (foundation, crypto,
// throughput, store, ratchet, agent, chat, crypt, nse, share, groups, tui; chat-reading and chat-receive for
// either half of chat; tui-cold, tui-keys, tui-scroll, tui-search, tui-flood for one part of tui),
// for profiling one figure.
import Foundation
import TestSupport

let only = ProcessInfo.processInfo.environment["SIMPLEX_BENCH_ONLY"].map {
    Set($0.split(separator: ",").map(String.init))
}
func runs(_ section: String) -> Bool { only?.contains(section) ?? true }

print("simplex-bench — \(ProcessInfo.processInfo.activeProcessorCount) cores")
// Relays and test peers a crashed test run left behind would take CPU from the figures.
let strays = StrayChildren.reap()
if !strays.isEmpty { print("stopped \(strays.count) left-over test processes (relays, test peers) of a crashed earlier run") }
if runs("foundation") {
    print("")
    print("## Shared state (issue 2)")
    for line in try await foundationBenchmarkLines() { print("  " + line) }
}
if runs("crypto") {
    print("")
    print("## Crypto wrapper overhead vs a C loop (issue 2)")
    for line in cryptoBenchmarkLines() { print("  " + line) }
}
if runs("throughput") {
    print("")
    print("## Relay throughput: 16 KB send → deliver → ACK, and Redis PUBLISH/SUBSCRIBE (issue 3)")
    for line in try await relayThroughputBenchmarkLines() { print("  " + line) }
}
if runs("store") {
    print("")
    print("## Relay memory per idle queue, restart with 1M queues, fuzzing (issue 3)")
    for line in try await relayStoreBenchmarkLines() { print("  " + line) }
}
if runs("ratchet") {
    print("")
    print("## Double ratchet (issue 4)")
    for line in try ratchetBenchmarkLines() { print("  " + line) }
}
if runs("agent") {
    print("")
    print("## Agent end to end (issue 4)")
    for line in try await agentBenchmarkLines() { print("  " + line) }
}
if runs("chat") || runs("chat-reading") || runs("chat-receive") {
    print("")
    print("## Chat core (issue 5)")
    for line in try await chatBenchmarkLines() { print("  " + line) }
}
if runs("crypt") {
    print("")
    print("## Databases encrypted at rest against plain (issue 25)")
    for line in try databaseEncryptionBenchmarkLines() { print("  " + line) }
    for line in try await encryptedChatComparisonLines() { print("  " + line) }
}
if runs("nse") {
    print("")
    print("## Notification service (issue 21)")
    for line in try await nseBenchmarkLines() { print("  " + line) }
}
if runs("share") {
    print("")
    print("## Share helper")
    for line in try await shareBenchmarkLines() { print("  " + line) }
}
if runs("groups") {
    print("")
    print("## Groups")
    for line in try await groupBenchmarkLines() { print("  " + line) }
}
if runs("tui") || only?.contains(where: { $0.hasPrefix("tui-") }) == true {
    print("")
    print("## Full-screen client (issue 23)")
    for line in try await tuiBenchmarkLines() { print("  " + line) }
}
