import Glibc
import SimpleXSystem
import Synchronization
import TestSupport
import Testing

@testable import SimpleXTUI

/// The session on a real pty: raw mode and the screen modes go on and come off, input arrives as
/// events, SIGWINCH is a resize. Serialized: the signal handlers are process-wide.
@Suite(.serialized) struct ScreenTerminalSessionTests {
    /// A pty pair, closed at the end of the test.
    final class Pty {
        let master: Int32
        let slave: Int32

        init() throws {
            var master: Int32 = -1
            var slave: Int32 = -1
            guard openpty(&master, &slave, nil, nil, nil) == 0 else {
                throw SystemErrorForTest(call: "openpty")
            }
            self.master = master
            self.slave = slave
        }

        deinit {
            close(master)
            close(slave)
        }

        func termios() -> Glibc.termios {
            var value = Glibc.termios()
            tcgetattr(slave, &value)
            return value
        }

        func resize(width: Int, height: Int, pixels: (width: Int, height: Int) = (0, 0)) {
            var window = winsize(
                ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: UInt16(pixels.width),
                ws_ypixel: UInt16(pixels.height))
            _ = ioctl(master, UInt(TIOCSWINSZ), &window)
        }

        func type(_ text: String) {
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }

        /// What the session wrote, read until `until` holds (or 20 s pass).
        func output(until done: ([UInt8]) -> Bool) -> [UInt8] {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            let deadline = ContinuousClock.now + .seconds(20)
            while !done(received), ContinuousClock.now < deadline {
                var fd = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
                guard poll(&fd, 1, 100) > 0 else { continue }
                let count = read(master, &buffer, buffer.count)
                if count > 0 { received += buffer[0..<count] }
            }
            return received
        }
    }

    struct SystemErrorForTest: Error { let call: String }

    /// Events gathered from the session's stream by a task, for `eventually` to look at.
    final class Collected: Sendable {
        let events = Mutex<[TerminalEvent]>([])
        var all: [TerminalEvent] { events.withLock { $0 } }
        func contains(_ event: TerminalEvent) -> Bool { all.contains(event) }
    }

    static func sameSettings(_ a: termios, _ b: termios) -> Bool {
        withUnsafeBytes(of: a) { x in withUnsafeBytes(of: b) { y in x.elementsEqual(y) } }
    }

    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard haystack.count >= needle.count else { return false }
        return (0...(haystack.count - needle.count)).contains {
            haystack[$0..<($0 + needle.count)].elementsEqual(needle)
        }
    }

    @Test func enterSetsRawModeAndLeaveRestoresTheOriginalTerminal() throws {
        let pty = try Pty()
        let original = pty.termios()
        #expect(original.c_lflag & tcflag_t(ICANON | ECHO) != 0)
        let session = try TerminalSession(descriptor: pty.slave)
        try session.enter()
        #expect(session.isEntered)
        let raw = pty.termios()
        #expect(raw.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)
        #expect(raw.c_iflag & tcflag_t(ICRNL | IXON) == 0)
        #expect(withUnsafeBytes(of: raw.c_cc) { $0[Int(VMIN)] } == 1)
        let entered = pty.output { $0.count >= TerminalSession.enterSequence.count }
        #expect(entered == TerminalSession.enterSequence)
        #expect(Self.contains(entered, Array("\u{1B}[?1049h".utf8)))
        #expect(Self.contains(entered, Array("\u{1B}[?2004h".utf8)))
        #expect(Self.contains(entered, Array("\u{1B}[>1u".utf8)))

        session.leave()
        #expect(!session.isEntered)
        #expect(Self.sameSettings(pty.termios(), original))
        let left = pty.output { $0.count >= TerminalSession.leaveSequence.count }
        #expect(left == TerminalSession.leaveSequence)
        #expect(Self.contains(left, Array("\u{1B}[?1049l".utf8)))
        #expect(Self.contains(left, Array("\u{1B}[?25h".utf8)))
        #expect(Self.contains(left, Array("\u{1B}[<u".utf8)))
        // Leaving twice writes nothing more: the next bytes on the wire are ours.
        session.leave()
        try session.write(Array("X".utf8))
        #expect(pty.output { !$0.isEmpty } == Array("X".utf8))
    }

    @Test func theSignalPathRestoresTheTerminalWithThePrecomputedBytes() throws {
        let pty = try Pty()
        let original = pty.termios()
        let session = try TerminalSession(descriptor: pty.slave)
        try session.enter()
        _ = pty.output { $0.count >= TerminalSession.enterSequence.count }
        // What a SIGTERM, SIGHUP or crash handler runs, minus the re-raise.
        TerminalSignals.restoreTerminal()
        #expect(Self.sameSettings(pty.termios(), original))
        #expect(
            pty.output { $0.count >= TerminalSession.leaveSequence.count } == TerminalSession.leaveSequence)
        // Only once: a second signal finds nothing to restore.
        TerminalSignals.restoreTerminal()
        session.leave()
        #expect(Self.sameSettings(pty.termios(), original))
    }

    /// A child process (forked: it inherits the pty) enters the session and is sent `signo`; it
    /// must die of that signal, and the terminal must be back as it was.
    @Test(arguments: [SIGTERM, SIGHUP, SIGSEGV])
    func aSignalRestoresTheTerminalAndTheProcessDiesOfIt(signo: Int32) throws {
        let pty = try Pty()
        let original = pty.termios()
        let session = try TerminalSession(descriptor: pty.slave)
        // Run the path once here, so the child does no first-time runtime work after fork().
        try session.enter()
        session.leave()
        _ = pty.output {
            $0.count >= TerminalSession.enterSequence.count + TerminalSession.leaveSequence.count
        }

        let child = fork()
        if child == 0 {
            // The forking thread may be a Dispatch worker that blocks signals: unblock this one.
            var set = sigset_t()
            sigemptyset(&set)
            sigaddset(&set, signo)
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
            // A crash is passed on to the handler before ours: here the default (the test runner's
            // is Swift's backtracer, which would print a backtrace and exit on its own terms).
            if signo == SIGSEGV { signal(SIGSEGV, SIG_DFL) }
            do { try session.enter() } catch { _exit(3) }
            kill(getpid(), signo)
            _exit(4)  // not reached when the handler re-raises
        }
        #expect(child > 0)
        var status: Int32 = 0
        let deadline = ContinuousClock.now + .seconds(20)
        var reaped: Int32 = 0
        while reaped == 0, ContinuousClock.now < deadline {
            reaped = waitpid(child, &status, WNOHANG)
            if reaped == 0 { usleep(10_000) }
        }
        if reaped == 0 {
            kill(child, SIGKILL)
            waitpid(child, &status, 0)
            Issue.record("the child did not end")
            return
        }
        // WIFSIGNALED / WTERMSIG are macros: the low 7 bits are the signal, 0 for a normal exit.
        #expect(status & 0x7F == signo)
        let written = pty.output { Self.contains($0, TerminalSession.leaveSequence) }
        #expect(Self.contains(written, TerminalSession.enterSequence))
        #expect(Self.contains(written, TerminalSession.leaveSequence))
        #expect(Self.sameSettings(pty.termios(), original))
    }

    @Test func onlyOneSessionIsEnteredAtATime() throws {
        let first = try Pty()
        let second = try Pty()
        let a = try TerminalSession(descriptor: first.slave)
        let b = try TerminalSession(descriptor: second.slave)
        try a.enter()
        #expect(throws: SystemError.self) { try b.enter() }
        #expect(second.termios().c_lflag & tcflag_t(ICANON) != 0)
        a.leave()
        try b.enter()
        b.leave()
    }

    @Test func theCellSizeComesFromTheWindowsPixelsWhereTheTerminalGivesThem() throws {
        let pty = try Pty()
        let session = try TerminalSession(descriptor: pty.slave)
        pty.resize(width: 120, height: 36, pixels: (1084, 688))  // xterm, DejaVu Sans Mono 11
        #expect(session.cellPixelSize() == CellPixelSize(width: 9, height: 19))
        pty.resize(width: 120, height: 36)
        #expect(session.cellPixelSize() == nil, "no pixels (tmux, many ptys): the renderer assumes a size")
    }

    @Test func aDescriptorThatIsNotATerminalIsRefused() throws {
        var fds: [Int32] = [-1, -1]
        #expect(pipe(&fds) == 0)
        defer { fds.forEach { close($0) } }
        #expect(throws: SystemError(errno: ENOTTY, call: "isatty")) {
            try TerminalSession(descriptor: fds[0])
        }
    }

    @Test func inputArrivesAsEventsAndSIGWINCHAsAResize() async throws {
        let pty = try Pty()
        pty.resize(width: 123, height: 45)
        let session = try TerminalSession(descriptor: pty.slave)
        #expect(try session.size() == TerminalSize(width: 123, height: 45))
        try session.enter()
        let collected = Collected()
        let stream = session.events()
        let consumer = Task {
            for await event in stream { collected.events.withLock { $0.append(event) } }
        }

        pty.type("hi\u{1B}[A\u{1B}[200~pasted\rtext\u{1B}[201~\u{1B}[13;2u")
        let expected: [TerminalEvent] = [
            .input(.text("hi")), .input(.key(.up)), .input(.paste("pasted\ntext")),
            .input(.key(.enter, .shift)),
        ]
        #expect(await eventually { collected.contains(.input(.key(.enter, .shift))) })
        #expect(
            collected.all.map(\.coalescable).coalescingText() == expected.map(\.coalescable).coalescingText())

        // A lone ESC becomes the Escape key once no more bytes follow.
        pty.type("\u{1B}")
        #expect(await eventually { collected.contains(.input(.key(.escape))) })

        pty.resize(width: 100, height: 40)
        kill(getpid(), SIGWINCH)  // as the terminal sends it: to the process, not a thread
        #expect(await eventually { collected.contains(.resize(width: 100, height: 40)) })

        // Ending the stream stops the reader.
        consumer.cancel()
        await consumer.value
        #expect(await eventually { !session.isReading })
        session.leave()
    }

    @Test func theReaderEndsWhenTheTerminalGoesAway() async throws {
        var pty: Pty? = try Pty()
        let slave = dup(pty!.slave)
        defer { close(slave) }
        let session = try TerminalSession(descriptor: slave)
        let stream = session.events()
        let consumer = Task { () -> Int in
            var count = 0
            for await _ in stream { count += 1 }
            return count
        }
        pty = nil  // closes the master: the slave hangs up
        #expect(await consumer.value == 0)
        #expect(await eventually { !session.isReading })
    }
}

extension TerminalEvent {
    /// The event as an input event (a resize as a marker key), to join text split across reads.
    var coalescable: InputEvent {
        switch self {
        case .input(let event): event
        case .resize(let width, let height): .key(.function(1000 * width + height))
        }
    }
}
