import SimpleXChat
import SimpleXDesktop

/// Where a standalone share's files stand, from the chat core's file events (`ChatFileEvent`):
/// what the terminal's progress bar and the notification show. A value with no I/O, tested on its
/// own; `ShareSender` feeds it and `ProgressDisplay` shows it.
struct ShareProgress: Equatable, Sendable {
    struct Transfer: Equatable, Sendable {
        let fileId: Int64
        let name: String
        let size: Int64
        /// Tenths the core reported (`sndProgress`): 0, 10, ... 90, and 100 when complete.
        var percent = 0
        var state = State.offered
    }

    enum State: Equatable, Sendable {
        /// Offered, not accepted yet; chunks going out; every chunk with the relay; over without it.
        case offered, sending, handedOver
        case failed(String)

        var isOver: Bool {
            switch self {
            case .offered, .sending: false
            case .handedOver, .failed: true
            }
        }
    }

    let contactName: String
    private(set) var transfers: [Transfer]
    /// No completion after the slow-network threshold (30 s, as the iOS share extension).
    var slow = false

    init(contactName: String, files: [ChatFile]) {
        self.contactName = contactName
        transfers = files.map { Transfer(fileId: $0.fileId, name: $0.fileName, size: $0.fileSize) }
    }

    /// Takes `event` into account; false when it is not about one of these files.
    mutating func apply(_ event: ChatFileEvent) -> Bool {
        let (file, state, percent): (ChatFile, State, Int?) =
            switch event {
            case .sndStarted(_, let file): (file, .sending, 0)
            case .sndProgress(_, let file, let percent): (file, .sending, percent)
            case .sndComplete(_, let file): (file, .handedOver, 100)
            case .sndError(_, let file, let reason): (file, .failed(reason), nil)
            case .sndCancelledByRecipient(_, let file): (file, .failed("\(contactName) cancelled it"), nil)
            case .rcvAccepted(_, let file), .rcvStarted(_, let file), .rcvProgress(_, let file, _),
                .rcvComplete(_, let file), .rcvError(_, let file, _), .rcvCancelledBySender(_, let file):
                (file, .offered, nil)
            }
        guard file.direction == .sent, let index = transfers.firstIndex(where: { $0.fileId == file.fileId })
        else {
            return false
        }
        if let percent { transfers[index].percent = max(transfers[index].percent, percent) }
        transfers[index].state = state
        return true
    }

    var total: Int64 { transfers.reduce(0) { $0 + $1.size } }

    /// Bytes with the relay, as far as the core's tenths tell.
    var handedOver: Int64 { transfers.reduce(0) { $0 + $1.size * Int64($1.percent) / 100 } }

    /// 0–100 over all the files, by size (by count when they are all empty).
    var percent: Int {
        guard total > 0 else {
            return transfers.isEmpty ? 100 : transfers.reduce(0) { $0 + $1.percent } / transfers.count
        }
        return Int(transfers.reduce(0) { $0 + $1.size * Int64($1.percent) } / total)
    }

    /// Every transfer handed over or failed: nothing more to wait for.
    var isFinished: Bool {
        transfers.allSatisfy(\.state.isOver)
    }

    /// Some file was accepted (its transfer started or is over).
    var isAccepted: Bool { transfers.contains { $0.state != .offered } }

    var failures: [(name: String, reason: String)] {
        transfers.compactMap { if case .failed(let reason) = $0.state { ($0.name, reason) } else { nil } }
    }

    private var what: String { transfers.count == 1 ? transfers[0].name : "\(transfers.count) files" }

    /// One terminal line, at most `width` columns: a bar while sending, a wait before.
    func terminalLine(width: Int) -> String {
        let slowNote = slow ? "  Slow network?" : ""
        guard isAccepted else {
            return Self.fit(
                "waiting for \(contactName) to accept \(what) (\(FileChunking.readableSize(total)))…"
                    + slowNote, width)
        }
        let figures =
            " \(String(repeating: " ", count: max(0, 3 - String(percent).count)))\(percent)% "
            + "\(FileChunking.readableSize(handedOver)) of \(FileChunking.readableSize(total)) to \(contactName)"
            + slowNote
        let barWidth = max(10, min(40, width - figures.count - 2))
        let filled = barWidth * percent / 100
        let bar =
            "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: barWidth - filled)
            + "]"
        return Self.fit(bar + figures, width)
    }

    /// The notification that is replaced as the transfer goes on.
    var notification: DesktopNotification {
        var body =
            isAccepted
            ? "\(what): \(percent)% (\(FileChunking.readableSize(handedOver)) of \(FileChunking.readableSize(total)))"
            : "\(what): waiting for \(contactName) to accept"
        if slow { body += "\nSlow network?" }
        return DesktopNotification(
            summary: "SimpleX Chat: sending to \(contactName)", body: body, icon: "simplex-chat",
            category: "transfer",
            desktopEntry: "simplex-chat", transient: true, timeoutMs: 0,
            progress: Int32(isAccepted ? percent : 0))
    }

    private static func fit(_ line: String, _ width: Int) -> String {
        line.count <= width ? line : String(line.prefix(max(1, width - 1))) + "…"
    }
}
