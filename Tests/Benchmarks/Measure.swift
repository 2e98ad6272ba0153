import Foundation

/// Runs `body` in batches until at least `duration` has passed; returns operations per second.
func operationsPerSecond(
    for duration: Duration = .seconds(1), batch: Int = 100, _ body: () throws -> Void
) rethrows -> Double {
    let clock = ContinuousClock()
    // Warm up caches and lazy initialisation outside the measurement.
    for _ in 0..<min(batch, 10) { try body() }
    var count = 0
    let start = clock.now
    var elapsed = Duration.zero
    while elapsed < duration {
        for _ in 0..<batch { try body() }
        count += batch
        elapsed = clock.now - start
    }
    return Double(count) / elapsed.seconds
}

extension Duration {
    var seconds: Double {
        let (s, attoseconds) = components
        return Double(s) + Double(attoseconds) / 1e18
    }
}

/// "12,345" style grouping for figures.
func grouped(_ value: Double) -> String {
    let digits = String(Int(value.rounded()))
    var out = ""
    for (i, c) in digits.reversed().enumerated() {
        if i > 0 && i % 3 == 0 { out.append(",") }
        out.append(c)
    }
    return String(out.reversed())
}

/// Fixed-point formatting without Foundation's `String(format:)`.
func format(_ value: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let scaled = Int((value * scale).rounded())
    let sign = scaled < 0 ? "-" : ""
    let magnitude = abs(scaled)
    let whole = magnitude / Int(scale)
    guard decimals > 0 else { return sign + "\(whole)" }
    let fraction = String(magnitude % Int(scale))
    return sign + "\(whole)." + String(repeating: "0", count: decimals - fraction.count) + fraction
}

/// Profiling one phase: with SIMPLEX_BENCH_PERF_CTL naming the control fifo of
/// `perf record --control=fifo:<ctl> -D -1`, the measured phases switch the recording on and off.
enum PerfControl {
    private static let path = ProcessInfo.processInfo.environment["SIMPLEX_BENCH_PERF_CTL"]

    static func enable() { write("enable\n") }
    static func disable() { write("disable\n") }

    private static func write(_ command: String) {
        guard let path, let handle = FileHandle(forWritingAtPath: path) else { return }
        handle.write(Data(command.utf8))
        try? handle.close()
    }
}

/// How many rounds a throughput figure is measured in (SIMPLEX_BENCH_ROUNDS, 3 by default): on a
/// shared 2-core machine one round can differ from the next by a fifth, so the median is the
/// figure, with every round beside it.
let benchRounds = max(1, ProcessInfo.processInfo.environment["SIMPLEX_BENCH_ROUNDS"].flatMap { Int($0) } ?? 3)

/// The round with the median `rate`, and every round's rate in the order run ("2,035, 1,946, 1,933").
func medianRound<Round>(_ rounds: [Round], rate: (Round) -> Double) -> (median: Round, rates: String) {
    let median = rounds.sorted { rate($0) < rate($1) }[rounds.count / 2]
    return (median, rounds.map { grouped(rate($0)) }.joined(separator: ", "))
}
