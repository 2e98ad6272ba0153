// The real `simplex-chat` in a pseudo-terminal, for the cold start and memory figures of the TUI
// section: spawned on the pty's slave side, its output read from the master side as a terminal
// emulator reads it.
import Foundation
import Glibc
import TestSupport

/// What one start of the client in a pty showed.
struct TUIColdStart {
    /// From spawn to the end of the first synchronized update (the first frame, before the chat
    /// list is loaded).
    let firstUpdate: Duration
    /// From spawn to the end of the first synchronized update after which the chat list's text
    /// is on the screen: the first complete frame.
    let completeFrame: Duration
    /// Bytes written up to and including the complete frame.
    let bytes: Int
    /// The client's PSS right after the complete frame, and a second later.
    let pssAtFrame: Int?
    let pssSettled: Int?
    /// The client's exit status after Ctrl+Q.
    let exitStatus: Int32
}

enum TUITerminalRun {
    static let endOfUpdate: [UInt8] = Array("\u{1B}[?2026l".utf8)

    /// Starts `binary` (no arguments: the full-screen client) in a `width` × `height` pty with
    /// exactly `environment`, waits for a synchronized update that leaves `marker` on the screen
    /// (a chat list name), samples its memory, and quits it with Ctrl+Q.
    static func coldStart(
        binary: String, environment: [String: String], width: Int, height: Int, marker: String
    ) throws -> TUIColdStart {
        var master: Int32 = -1
        var slave: Int32 = -1
        var window = winsize(ws_row: UInt16(height), ws_col: UInt16(width), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &window) == 0 else {
            throw TestSupportError("openpty: \(String(cString: strerror(errno)))")
        }
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        defer { Glibc.close(master) }
        let clock = ContinuousClock()
        let start = clock.now
        let child: SpawnedProcess
        do {
            child = try SpawnedProcess(binary, [], environment: environment, streams: [slave, slave, slave])
        } catch {
            Glibc.close(slave)
            throw error
        }
        Glibc.close(slave)

        var output: [UInt8] = []
        var scanned = 0
        var firstUpdate: Duration?
        var complete: Duration?
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let markerBytes = Array(marker.utf8)
        let deadline = start + .seconds(20)
        while complete == nil, clock.now < deadline {
            guard read(master, &buffer, &output, timeoutMilliseconds: 100) else { break }
            // Each end of an update after the last one looked at: is the marker on screen by then?
            while let end = find(endOfUpdate, in: output, from: scanned) {
                let at = clock.now - start
                scanned = end + endOfUpdate.count
                if firstUpdate == nil { firstUpdate = at }
                if find(markerBytes, in: output[..<scanned], from: 0) != nil {
                    complete = at
                    break
                }
            }
        }
        let pssAtFrame = proportionalBytes(pid: child.pid)
        // Keep reading (the client must never block on a full pty) while it settles.
        let settle = clock.now + .seconds(1)
        while clock.now < settle, read(master, &buffer, &output, timeoutMilliseconds: 50) {}
        let pssSettled = proportionalBytes(pid: child.pid)
        _ = [UInt8(0x11)].withUnsafeBytes { Glibc.write(master, $0.baseAddress, 1) }  // Ctrl+Q
        let quitDeadline = clock.now + .seconds(10)
        while child.isRunning, clock.now < quitDeadline,
            read(master, &buffer, &output, timeoutMilliseconds: 50)
        {}
        if child.isRunning { child.signal(SIGKILL) }
        let status = child.waitUntilExit()
        guard let firstUpdate, let complete else {
            let text = String(decoding: output.suffix(2_000), as: UTF8.self)
            throw TestSupportError(
                "the client drew no complete frame in 20 s (exit \(status)); it wrote: \(text)")
        }
        return TUIColdStart(
            firstUpdate: firstUpdate, completeFrame: complete, bytes: scanned, pssAtFrame: pssAtFrame,
            pssSettled: pssSettled, exitStatus: status)
    }

    /// Reads what is there within `timeoutMilliseconds` into `output`; false at the end (the
    /// client closed the pty) or on an error.
    private static func read(
        _ fd: Int32, _ buffer: inout [UInt8], _ output: inout [UInt8], timeoutMilliseconds: Int32
    ) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, timeoutMilliseconds)
        if ready < 0 { return errno == EINTR }
        if ready == 0 { return true }
        let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if count < 0 { return errno == EINTR || errno == EAGAIN }
        if count == 0 { return false }
        output += buffer[0..<count]
        return true
    }

    private static func find(_ needle: [UInt8], in haystack: some Collection<UInt8>, from offset: Int) -> Int?
    {
        let bytes = Array(haystack)
        guard needle.count <= bytes.count else { return nil }
        var index = offset
        while index + needle.count <= bytes.count {
            if bytes[index] == needle[0], Array(bytes[index..<(index + needle.count)]) == needle {
                return index
            }
            index += 1
        }
        return nil
    }
}
