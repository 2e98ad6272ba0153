import Foundation
import Glibc
import Synchronization

/// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34), which the Glibc module does not
/// export: the child closes every descriptor from `from` on, whatever this process left open.
@_silgen_name("posix_spawn_file_actions_addclosefrom_np")
private func spawnActionsAddCloseFrom(
    _ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ from: Int32
) -> Int32

/// A process started with `posix_spawnp` rather than Foundation's `Process`: on Linux,
/// `Process.run()` in Swift 6.3 crashes now and then (an over-read of `/proc/self/fd` entries,
/// fixed in swift-corelibs-foundation#5472), which took a whole test or bench run down with it.
/// Every descriptor but the three standard ones is closed in the child, and its signals are
/// reset (none blocked, none ignored).
public final class SpawnedProcess: Sendable {
    public let pid: Int32
    /// The exit status once reaped: the exit code, or the signal + 128.
    private let status = Mutex<Int32?>(nil)

    /// Starts `executable` (a path, or a name looked up in PATH) with `arguments` and exactly
    /// `environment`; `streams` are this process's descriptors for the child's standard input,
    /// output and error (-1: /dev/null).
    public init(_ executable: String, _ arguments: [String], environment: [String: String], streams: [Int32])
        throws
    {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, fd) in zip(Int32(0)..<3, streams) {
            if fd < 0 {
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            } else {
                posix_spawn_file_actions_adddup2(&actions, fd, target)
            }
        }
        _ = spawnActionsAddCloseFrom(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigdefault(&attributes, &all)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        // A session of its own: no controlling terminal, so a program that would ask on /dev/tty
        // (the share helper's chat picker) fails instead of waiting on the developer's terminal.
        let setsid: Int32 = 0x80  // POSIX_SPAWN_SETSID, which Swift does not import
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | setsid))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let code = posix_spawnp(&pid, executable, &actions, &attributes, argv, envp)
        guard code == 0 else {
            throw TestSupportError("cannot start \(executable): \(String(cString: strerror(code)))")
        }
        self.pid = pid
    }

    /// A pipe whose ends no other child inherits (a spawn closes them in its child but for
    /// the ones it is given).
    public static func pipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        guard Glibc.pipe(&fds) == 0 else {
            throw TestSupportError("cannot make a pipe: \(String(cString: strerror(errno)))")
        }
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        return (fds[0], fds[1])
    }

    /// The exit status if the child has exited (reaping it then), nil while it runs.
    public var exitStatus: Int32? {
        status.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            let result = waitpid(pid, &raw, WNOHANG)
            if result == pid {
                let signal = raw & 0x7f
                status = signal == 0 ? (raw >> 8) & 0xff : signal + 128
            } else if result < 0 && errno == ECHILD {
                status = -1  // reaped elsewhere: gone, its status unknown
            }
            return status
        }
    }

    public var isRunning: Bool { exitStatus == nil }

    /// Sends `signal` to the child while it runs.
    public func signal(_ signal: Int32) {
        if isRunning { Glibc.kill(pid, signal) }
    }

    /// Blocks until the child exits; its status.
    @discardableResult
    public func waitUntilExit() -> Int32 {
        while true {
            if let status = exitStatus { return status }
            usleep(5_000)
        }
    }

    // Never waits here: a deinit often runs on one of the few cooperative threads, and waiting
    // there can starve a whole run. A thread of its own reaps the killed child.
    deinit {
        guard isRunning else { return }
        let pid = self.pid
        Glibc.kill(pid, SIGKILL)
        Thread.detachNewThread {
            var raw: Int32 = 0
            _ = waitpid(pid, &raw, 0)
        }
    }
}

/// A child process started by a test, with its standard output read line by line and its
/// standard error kept for diagnostics. Killed (SIGKILL) when released if still running.
public final class ChildProcess: Sendable {
    public let executable: String
    private let process: SpawnedProcess
    private let input: FileHandle
    private let output: OutputLines
    private let errors: OutputLines

    /// Starts `executable` (a path, or a name looked up in PATH) with `arguments`; `environment`
    /// entries are added to (or, with a nil value, removed from) the test's own environment.
    public init(
        _ executable: String, _ arguments: [String] = [], environment: [String: String?] = [:]
    ) throws {
        self.executable = executable
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        var pipes: [[Int32]] = []
        for _ in 0..<3 {
            do {
                let (read, write) = try SpawnedProcess.pipe()
                pipes.append([read, write])
            } catch {
                for fd in pipes.joined() { close(fd) }
                throw error
            }
        }
        // The child's ends: stdin reads pipes[0], stdout and stderr write pipes[1] and pipes[2].
        let childEnds = [pipes[0][0], pipes[1][1], pipes[2][1]]
        defer { for fd in childEnds { close(fd) } }
        do {
            process = try SpawnedProcess(executable, arguments, environment: env, streams: childEnds)
        } catch {
            for fd in [pipes[0][1], pipes[1][0], pipes[2][0]] { close(fd) }
            throw error
        }
        input = FileHandle(fileDescriptor: pipes[0][1], closeOnDealloc: true)
        output = OutputLines(FileHandle(fileDescriptor: pipes[1][0], closeOnDealloc: true))
        errors = OutputLines(FileHandle(fileDescriptor: pipes[2][0], closeOnDealloc: true))
    }

    public var pid: Int32 { process.pid }
    public var isRunning: Bool { process.isRunning }

    /// Writes one line to the child's standard input.
    public func send(_ line: String) {
        input.write(Data((line + "\n").utf8))
    }

    /// Closes the child's standard input.
    public func closeInput() {
        try? input.close()
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
        while true {
            if let status = process.exitStatus {
                await output.waitForEOF()
                await errors.waitForEOF()
                return status
            }
            if ContinuousClock.now > deadline {
                throw TestSupportError("\(describe()) did not exit within \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Sends `signal` to the child.
    public func kill(_ signal: Int32 = SIGKILL) {
        process.signal(signal)
    }

    private func describe() -> String {
        let name = (executable as NSString).lastPathComponent
        return "\(name) (stdout: \(output.all.suffix(20)), stderr: \(errors.all.suffix(20)))"
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
