import Foundation
import Synchronization

/// A child process started by a test, with its standard output read line by line and its
/// standard error kept for diagnostics. Killed (SIGKILL) when released if still running.
public final class ChildProcess: Sendable {
    public let executable: String
    private let process: Process
    private let stdinPipe: Pipe
    private let output: OutputLines
    private let errors: OutputLines

    /// Starts `executable` with `arguments`; `environment` entries are added to (or, with a nil
    /// value, removed from) the test's own environment.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String?] = [:]
    ) throws {
        self.executable = executable
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdinPipe = Pipe()
        let stdoutPipe = Pipe()
        let stderrPipe = Pipe()
        process.standardInput = stdinPipe
        process.standardOutput = stdoutPipe
        process.standardError = stderrPipe
        try process.run()
        self.process = process
        self.stdinPipe = stdinPipe
        output = OutputLines(stdoutPipe.fileHandleForReading)
        errors = OutputLines(stderrPipe.fileHandleForReading)
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// Writes one line to the child's standard input.
    public func send(_ line: String) {
        stdinPipe.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Closes the child's standard input.
    public func closeInput() {
        try? stdinPipe.fileHandleForWriting.close()
    }

    /// Waits for the next stdout line for which `predicate` holds (lines before it are consumed).
    public func line(
        timeout: Duration = .seconds(30), where predicate: @Sendable (String) -> Bool = { _ in true }
    ) async throws -> String {
        try await output.next(timeout: timeout, where: predicate, describe: describe)
    }

    /// Every stdout line seen so far (consumed or not).
    public var allOutput: [String] { output.all }
    /// Every stderr line seen so far.
    public var allErrors: [String] { errors.all }

    /// Waits for the process to exit and returns its status (exit code, or signal + 128).
    @discardableResult
    public func wait(timeout: Duration = .seconds(60)) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now > deadline {
                throw TestSupportError("\(describe()) did not exit within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
        await output.waitForEOF()
        await errors.waitForEOF()
        return process.terminationReason == .uncaughtSignal
            ? process.terminationStatus + 128 : process.terminationStatus
    }

    /// Sends `signal` to the child.
    public func kill(_ signal: Int32 = SIGKILL) {
        if process.isRunning { Foundation.kill(process.processIdentifier, signal) }
    }

    private func describe() -> String {
        let name = (executable as NSString).lastPathComponent
        return "\(name) (stdout: \(output.all.suffix(20)), stderr: \(errors.all.suffix(20)))"
    }

    // Never waits: a deinit often runs on one of the few cooperative threads, and
    // `waitUntilExit` there can starve the whole test run. Foundation reaps the child later.
    deinit {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
    }
}

/// Lines read from a pipe by a background thread.
final class OutputLines: Sendable {
    private struct State {
        var lines: [String] = []
        var consumed = 0
        var eof = false
    }
    private let state = Mutex(State())

    init(_ handle: FileHandle) {
        let thread = Thread { [self] in
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: 0x0A) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    state.withLock { $0.lines.append(line) }
                }
            }
            if !buffer.isEmpty {
                let rest = String(decoding: buffer, as: UTF8.self)
                state.withLock { $0.lines.append(rest) }
            }
            state.withLock { $0.eof = true }
        }
        thread.start()
    }

    var all: [String] { state.withLock { $0.lines } }

    /// Waits (without blocking a thread) until the pipe is drained, at most 5 s.
    func waitForEOF() async {
        let deadline = ContinuousClock.now + .seconds(5)
        while !state.withLock({ $0.eof }), ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    func next(
        timeout: Duration, where predicate: (String) -> Bool, describe: () -> String
    ) async throws -> String {
        let deadline = ContinuousClock.now + timeout
        while true {
            let (found, eof): (String?, Bool) = state.withLock { s in
                while s.consumed < s.lines.count {
                    let line = s.lines[s.consumed]
                    s.consumed += 1
                    if predicate(line) { return (line, s.eof) }
                }
                return (nil, s.eof)
            }
            if let found { return found }
            if eof { throw TestSupportError("output ended before the expected line: \(describe())") }
            if ContinuousClock.now > deadline {
                throw TestSupportError("timed out waiting for a line: \(describe())")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
