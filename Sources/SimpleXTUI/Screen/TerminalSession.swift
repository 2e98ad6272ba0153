import Foundation
import Glibc
import SimpleXSystem
import Synchronization

/// The terminal's size in cells.
public struct TerminalSize: Hashable, Sendable {
    public var width: Int
    public var height: Int

    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
}

/// What the session reports: decoded input, or a new size (after SIGWINCH or a resume, when the
/// app should invalidate its renderer and redraw).
public enum TerminalEvent: Equatable, Sendable {
    case input(InputEvent)
    case resize(width: Int, height: Int)
}

/// The real terminal: raw mode and the full-screen modes in and out, its size, its input as
/// events and our output to it. The only place the TUI does terminal I/O.
///
/// While entered, the terminal is put back on every way out: `leave()`, `exit()`, SIGTERM and
/// SIGHUP (then the process dies of the signal as it would have), and crashes (the handlers write
/// precomputed bytes with write(2) and call tcsetattr, nothing else, then pass the signal on).
public final class TerminalSession: Sendable {
    /// The descriptor termios and input are on, and the one output goes to (often the same).
    public let inputDescriptor: Int32
    public let outputDescriptor: Int32
    private let ownsDescriptor: Bool
    /// Self-pipe: the signal handlers write the signal number, `stop` writes 0.
    let wakeRead: Int32
    let wakeWrite: Int32

    struct State {
        var original: termios?
        var raw = termios()
        var entered = false
        var readerStarted = false
        var readerRunning = false
        var continuation: AsyncStream<TerminalEvent>.Continuation?
    }

    /// Guards the terminal modes and serializes output, so frames and mode changes never interleave.
    let state = Mutex(State())

    /// The sequences `enter()` writes, in order; `leave()` undoes them in reverse.
    static let enterSequence: [UInt8] = [
        "?1049h",  // alternate screen (saves the cursor and the main screen)
        "?25l",  // hide the cursor; the renderer shows it in the compose field
        "?2004h",  // bracketed paste
        "?1000h", "?1006h",  // mouse press/release/wheel, SGR coordinates
        "?1004h",  // focus in/out
        ">1u",  // kitty keyboard: push "disambiguate escape codes"
        ">4;1m",  // xterm modifyOtherKeys 1 (Shift+Enter and friends)
    ].flatMap(ControlSequence.csi)

    static let leaveSequence: [UInt8] =
        ControlSequence.endSynchronizedUpdate + closeLink + ControlSequence.resetStyle
        + [">4;0m", "<u", "?1004l", "?1006l", "?1000l", "?2004l", "?25h", "?1049l"].flatMap(
            ControlSequence.csi)

    private static let closeLink: [UInt8] = {
        var out: [UInt8] = []
        ControlSequence.hyperlink(nil, into: &out)
        return out
    }()

    /// The controlling terminal: stdin and stdout when both are one, else /dev/tty.
    public static func open() throws(SystemError) -> TerminalSession {
        if isatty(STDIN_FILENO) == 1, isatty(STDOUT_FILENO) == 1 {
            return try TerminalSession(input: STDIN_FILENO, output: STDOUT_FILENO, owns: false)
        }
        let fd = try retryingOnInterrupt("open", path: "/dev/tty") {
            Glibc.open("/dev/tty", O_RDWR | O_NOCTTY | O_CLOEXEC)
        }
        do {
            return try TerminalSession(input: fd, output: fd, owns: true)
        } catch {
            Glibc.close(fd)
            throw error
        }
    }

    /// A session on a terminal descriptor the caller keeps open (and closes after the session).
    public convenience init(descriptor: Int32) throws(SystemError) {
        try self.init(input: descriptor, output: descriptor, owns: false)
    }

    private init(input: Int32, output: Int32, owns: Bool) throws(SystemError) {
        guard isatty(input) == 1 else { throw SystemError(errno: ENOTTY, call: "isatty") }
        var fds: [Int32] = [-1, -1]
        try retryingOnInterrupt("pipe") { pipe(&fds) }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        inputDescriptor = input
        outputDescriptor = output
        ownsDescriptor = owns
        wakeRead = fds[0]
        wakeWrite = fds[1]
    }

    deinit {
        leave()
        Glibc.close(wakeRead)
        Glibc.close(wakeWrite)
        if ownsDescriptor { Glibc.close(inputDescriptor) }
    }

    /// The size the terminal reports (80×24 when it reports none, as some ptys do).
    public func size() throws(SystemError) -> TerminalSize {
        var window = winsize()
        try retryingOnInterrupt("ioctl TIOCGWINSZ") { ioctl(outputDescriptor, UInt(TIOCGWINSZ), &window) }
        guard window.ws_col > 0, window.ws_row > 0 else { return TerminalSize(width: 80, height: 24) }
        return TerminalSize(width: Int(window.ws_col), height: Int(window.ws_row))
    }

    /// The pixels of one cell, from the window's pixel size the terminal reports with its size;
    /// nil where it reports none (many ptys, tmux).
    public func cellPixelSize() -> CellPixelSize? {
        var window = winsize()
        let result = retryingOnInterruptIgnoringFailure { ioctl(outputDescriptor, UInt(TIOCGWINSZ), &window) }
        guard result == 0, window.ws_col > 0, window.ws_row > 0, window.ws_xpixel >= window.ws_col,
            window.ws_ypixel >= window.ws_row
        else { return nil }
        return CellPixelSize(
            width: Int(window.ws_xpixel) / Int(window.ws_col),
            height: Int(window.ws_ypixel) / Int(window.ws_row))
    }

    /// Whether the session is in raw mode on the alternate screen.
    public var isEntered: Bool { state.withLock { $0.entered } }

    /// Whether the reader thread is running (tests wait for it to end before closing the tty).
    var isReading: Bool { state.withLock { $0.readerRunning } }

    /// Raw mode, the alternate screen, no cursor, bracketed paste, mouse, focus reports and the
    /// keyboard enhancements; the original termios is kept for `leave()` and the signal handlers.
    public func enter() throws(SystemError) {
        try state.withLock { (state: inout State) throws(SystemError) in
            guard !state.entered else { return }
            guard
                TerminalSignals.claimed.compareExchange(
                    expected: false, desired: true, ordering: .sequentiallyConsistent
                ).exchanged
            else { throw SystemError(errno: EBUSY, call: "enter (another terminal session is entered)") }
            var original = termios()
            do throws(SystemError) {
                try retryingOnInterrupt("tcgetattr") { tcgetattr(inputDescriptor, &original) }
                let raw = Self.rawMode(from: original)
                TerminalSignals.arm(
                    outputFD: outputDescriptor, terminalFD: inputDescriptor, wakeFD: wakeWrite,
                    original: original,
                    restore: Self.leaveSequence)
                state.original = original
                state.raw = raw
                state.entered = true
                try applyRaw(raw)
                try writeAll(Self.enterSequence)
            } catch {
                if state.entered {
                    restore(&state)
                } else {
                    TerminalSignals.claimed.store(false, ordering: .sequentiallyConsistent)
                }
                throw error
            }
        }
    }

    /// Leaves everything `enter()` set, in reverse, and puts the original termios back. Safe to
    /// call when not entered (on every path out) and more than once.
    public func leave() {
        state.withLock { restore(&$0) }
    }

    /// Ctrl+Z: leaves, stops the process as the shell expects (raw mode keeps the kernel from
    /// doing it), and when continued enters again and reports a resize so the app redraws.
    public func suspend() throws(SystemError) {
        leave()
        var stop = sigaction()
        stop.__sigaction_handler.sa_handler = SIG_DFL
        sigemptyset(&stop.sa_mask)
        var previous = sigaction()
        sigaction(SIGTSTP, &stop, &previous)
        // Unblocked on this thread (a Dispatch worker blocks it), so raise stops us right here and
        // returns once the shell continues us (SIGCONT).
        var tstp = sigset_t()
        sigemptyset(&tstp)
        sigaddset(&tstp, SIGTSTP)
        var mask = sigset_t()
        pthread_sigmask(SIG_UNBLOCK, &tstp, &mask)
        raise(SIGTSTP)
        pthread_sigmask(SIG_SETMASK, &mask, nil)
        sigaction(SIGTSTP, &previous, nil)
        try enter()
        report(try size())
    }

    /// Writes all of `bytes`, through partial writes and EINTR.
    public func write(_ bytes: [UInt8]) throws(SystemError) {
        guard !bytes.isEmpty else { return }
        try state.withLock { (_: inout State) throws(SystemError) in try writeAll(bytes) }
    }

    /// Call with the state lock held.
    private func writeAll(_ bytes: [UInt8]) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes {
                Glibc.write(outputDescriptor, $0.baseAddress! + offset, $0.count - offset)
            }
            if written >= 0 {
                offset += written
                continue
            }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN {
                // Output shared with a non-blocking descriptor: wait until it drains.
                var fd = pollfd(fd: outputDescriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&fd, 1, -1)
                continue
            }
            throw SystemError(errno: code, call: "write", path: "the terminal")
        }
    }

    /// Call with the state lock held.
    private func applyRaw(_ raw: termios) throws(SystemError) {
        var raw = raw
        try retryingOnInterrupt("tcsetattr") { tcsetattr(inputDescriptor, TCSADRAIN, &raw) }
    }

    /// Call with the state lock held.
    private func restore(_ state: inout State) {
        guard state.entered else { return }
        try? writeAll(Self.leaveSequence)
        if var original = state.original {
            _ = retryingOnInterruptIgnoringFailure { tcsetattr(inputDescriptor, TCSADRAIN, &original) }
        }
        TerminalSignals.disarm()
        TerminalSignals.claimed.store(false, ordering: .sequentiallyConsistent)
        state.entered = false
        state.original = nil
    }

    /// After SIGCONT from a stop we did not ask for (SIGSTOP): the shell may have reset the
    /// terminal, so raw mode and the modes go on again.
    func reassert() {
        state.withLock { (state: inout State) in
            guard state.entered else { return }
            try? applyRaw(state.raw)
            try? writeAll(Self.enterSequence)
        }
    }

    func report(_ size: TerminalSize) {
        let continuation = state.withLock { $0.continuation }
        continuation?.yield(.resize(width: size.width, height: size.height))
    }

    /// `cfmakeraw`, and reads that return as soon as one byte is there.
    static func rawMode(from original: termios) -> termios {
        var raw = original
        cfmakeraw(&raw)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return raw
    }
}

/// tcsetattr on the way out: nothing to do about a failure but go on.
private func retryingOnInterruptIgnoringFailure(_ body: () -> Int32) -> Int32 {
    while true {
        let result = body()
        if result == -1, errno == EINTR { continue }
        return result
    }
}
