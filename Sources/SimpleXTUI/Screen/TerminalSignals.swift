import Glibc
import Synchronization

/// The process-wide signal handling of an entered `TerminalSession`: on SIGTERM, SIGHUP and
/// crashes the terminal is put back before the process dies; SIGWINCH, SIGCONT and SIGTSTP wake
/// the session's reader through its pipe.
///
/// Handlers run at any instruction of any thread, so they only use async-signal-safe calls
/// (write(2), tcsetattr, sigaction, raise) on memory prepared beforehand: the restore bytes, the
/// original termios and the previous actions live in a record allocated once and never freed,
/// written only while `armed` is false.
enum TerminalSignals {
    /// Signals after which the process ends: restore, then die of the signal's default action.
    static let terminating: [Int32] = [SIGTERM, SIGHUP]
    /// Crashes (Swift's traps are SIGILL on x86-64, SIGTRAP on arm64): restore, then hand the
    /// signal to whoever had it before (Swift's backtracer, or the default core dump).
    static let crashing: [Int32] = [SIGSEGV, SIGBUS, SIGABRT, SIGILL, SIGFPE, SIGTRAP]
    /// Signals the reader handles, woken by the signal number written to its pipe.
    static let waking: [Int32] = [SIGWINCH, SIGCONT, SIGTSTP]

    struct Record {
        var outputFD: Int32 = -1
        var terminalFD: Int32 = -1
        var wakeFD: Int32 = -1
        var original = termios()
        var restoreCount = 0
    }

    static let capacity = 512
    static let armed = Atomic<Bool>(false)
    /// Which session owns the handlers (one entered session per process).
    static let claimed = Atomic<Bool>(false)
    // nonisolated(unsafe): allocated once, never freed or moved, since a handler may read them at
    // any time; written only by `arm` (by the one session holding `claimed`, under its state lock)
    // while `armed` is false, and read by handlers only after they see `armed` true.
    nonisolated(unsafe) static let record = UnsafeMutablePointer<Record>.allocate(capacity: 1)
    nonisolated(unsafe) static let restoreBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
    nonisolated(unsafe) static let previousActions = UnsafeMutablePointer<sigaction>.allocate(capacity: 65)
    static let exitHookInstalled: Bool = {
        atexit(exitHook)
        return true
    }()

    /// Installs the handlers with what they need to restore the terminal and wake the reader.
    /// The caller holds `claimed`.
    static func arm(outputFD: Int32, terminalFD: Int32, wakeFD: Int32, original: termios, restore: [UInt8]) {
        precondition(restore.count <= capacity)
        _ = exitHookInstalled
        armed.store(false, ordering: .sequentiallyConsistent)
        record.initialize(
            to: Record(
                outputFD: outputFD, terminalFD: terminalFD, wakeFD: wakeFD, original: original,
                restoreCount: restore.count))
        restore.withUnsafeBufferPointer { restoreBytes.update(from: $0.baseAddress!, count: restore.count) }
        for signo in terminating { install(signo, terminateHandler) }
        for signo in crashing { install(signo, crashHandler) }
        for signo in waking { install(signo, wakeHandler) }
        armed.store(true, ordering: .sequentiallyConsistent)
    }

    /// Puts the previous handlers back.
    static func disarm() {
        armed.store(false, ordering: .sequentiallyConsistent)
        for signo in terminating + crashing + waking { sigaction(signo, previousActions + Int(signo), nil) }
    }

    private static func install(_ signo: Int32, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = handler
        sigemptyset(&action.sa_mask)
        // SA_ONSTACK: a stack overflow's SIGSEGV can only be handled on an alternate stack, where
        // the thread has one (Swift's backtracer sets one up).
        action.sa_flags = SA_RESTART | SA_ONSTACK
        sigaction(signo, &action, previousActions + Int(signo))
    }

    /// Writes the restore bytes and puts the original termios back, once; async-signal-safe.
    static func restoreTerminal() {
        guard armed.exchange(false, ordering: .sequentiallyConsistent) else { return }
        let saved = errno
        let fd = record.pointee.outputFD
        let count = record.pointee.restoreCount
        var offset = 0
        while offset < count {
            let written = Glibc.write(fd, restoreBytes + offset, count - offset)
            if written < 0, errno == EINTR { continue }
            if written <= 0 { break }
            offset += written
        }
        var original = record.pointee.original
        tcsetattr(record.pointee.terminalFD, TCSANOW, &original)
        errno = saved
    }
}

private func terminateHandler(_ signo: Int32) {
    TerminalSignals.restoreTerminal()
    var fallback = sigaction()
    fallback.__sigaction_handler.sa_handler = SIG_DFL
    sigemptyset(&fallback.sa_mask)
    sigaction(signo, &fallback, nil)
    // Blocked while this handler runs: delivered, with the default action, when it returns.
    raise(signo)
}

private func crashHandler(_ signo: Int32) {
    TerminalSignals.restoreTerminal()
    sigaction(signo, TerminalSignals.previousActions + Int(signo), nil)
    raise(signo)
}

private func wakeHandler(_ signo: Int32) {
    let saved = errno
    var byte = UInt8(truncatingIfNeeded: signo)
    // The pipe is non-blocking: when it is full, the reader has wake-ups enough already.
    _ = Glibc.write(TerminalSignals.record.pointee.wakeFD, &byte, 1)
    errno = saved
}

/// A normal exit (exit() anywhere) that did not leave the terminal first.
private func exitHook() {
    TerminalSignals.restoreTerminal()
}
