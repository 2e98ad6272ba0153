import Foundation
import Glibc

/// The input side: one thread blocks in poll(2) on the terminal and the wake pipe (zero CPU while
/// idle), decodes what it reads and yields events; a lone ESC is flushed after `escapeTimeout`.
extension TerminalSession {
    /// How long a lone ESC waits for the rest of a sequence before it is the Escape key.
    static let escapeTimeout: Int32 = 25

    /// The session's events: input as it is decoded, and resizes. One stream per session (a
    /// second call returns a finished stream); it ends when the terminal goes away, and ending
    /// it (cancelling the loop over it) stops the reader.
    public func events() -> AsyncStream<TerminalEvent> {
        let (stream, continuation) = AsyncStream<TerminalEvent>.makeStream(bufferingPolicy: .unbounded)
        let start = state.withLock { (state: inout State) -> Bool in
            guard !state.readerStarted else { return false }
            state.readerStarted = true
            state.readerRunning = true
            state.continuation = continuation
            return true
        }
        guard start else {
            continuation.finish()
            return stream
        }
        continuation.onTermination = { [weak self] _ in self?.stopReader() }
        let thread = Thread { [self] in
            readLoop(continuation)
            state.withLock {
                $0.continuation = nil
                $0.readerRunning = false
            }
            continuation.finish()
        }
        thread.name = "terminal-input"
        thread.start()
        return stream
    }

    private func stopReader() {
        var byte: UInt8 = 0
        _ = Glibc.write(wakeWrite, &byte, 1)
    }

    private func readLoop(_ continuation: AsyncStream<TerminalEvent>.Continuation) {
        // Threads inherit their creator's mask, and a Dispatch worker blocks signals: this thread
        // takes the terminal's signals, so at least one thread always can.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signo in TerminalSignals.terminating + TerminalSignals.waking { sigaddset(&signals, signo) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        var decoder = InputDecoder()
        var buffer = [UInt8](repeating: 0, count: 4096)
        var fds = [
            pollfd(fd: inputDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
        ]
        func deliver(_ events: [InputEvent]) {
            for event in events { continuation.yield(.input(event)) }
        }
        while true {
            let timeout = decoder.hasPending ? Self.escapeTimeout : -1
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if ready == 0 {
                deliver(decoder.flushPending())
                continue
            }
            if fds[1].revents != 0 {
                var signals = [UInt8](repeating: 0, count: 64)
                let count = Glibc.read(wakeRead, &signals, signals.count)
                for signo in signals.prefix(max(0, count)) {
                    if signo == 0 { return }
                    handleSignal(Int32(signo))
                }
            }
            let input = fds[0].revents
            if input & Int16(POLLIN) != 0 {
                let count = buffer.withUnsafeMutableBytes {
                    Glibc.read(inputDescriptor, $0.baseAddress, $0.count)
                }
                if count > 0 {
                    deliver(decoder.feed(buffer[0..<count]))
                } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                    return  // the terminal is gone
                }
            } else if input & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 {
                return
            }
        }
    }

    private func handleSignal(_ signo: Int32) {
        switch signo {
        case SIGWINCH:
            if let size = try? size() { report(size) }
        case SIGCONT:
            reassert()
            if let size = try? size() { report(size) }
        case SIGTSTP:
            // Sent by `kill` (the keyboard's Ctrl+Z is a key in raw mode): stop as asked, cleanly.
            try? suspend()
        default:
            break
        }
    }
}
