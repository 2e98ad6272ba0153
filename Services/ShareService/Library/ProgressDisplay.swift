import Foundation
import Glibc
import SimpleXDesktop
import SimpleXSystem

/// Shows a share's progress and outcome where the user looks: on the terminal (standard error,
/// else the controlling terminal) a bar redrawn in place and finished with a newline; without a
/// terminal (a file manager started the helper) a notification replaced as the transfer goes and
/// replaced by the outcome at the end. Standard output and a redirected standard error get
/// nothing, so scripts' output stays clean.
///
/// Drawing never holds up the transfer: `update` keeps the newest state and one task draws it
/// (a notification server that answers slowly skips the states in between). A notification is
/// replaced at most every `notificationInterval`, and only when its text changes: each replace
/// is a D-Bus round trip through the bus and the notification server, which on a small machine
/// took CPU from the transfer itself (a 5 MiB share sent its chunks 35% slower than the client).
actor ProgressDisplay {
    enum Target {
        /// A terminal's descriptor (/dev/tty's stays open until the process exits).
        case terminal(Int32)
        case notifications(any NotificationPresenting)
    }

    private let target: Target
    private var latest: ShareProgress?
    private var drawing: Task<Void, Never>?
    private var drewOnTerminal = false
    private var notification: NotificationHandle?
    private var shown: (content: DesktopNotification, at: ContinuousClock.Instant)?
    static let notificationInterval: Duration = .milliseconds(250)

    init(_ target: Target) { self.target = target }

    /// Standard error when it is a terminal, else /dev/tty when there is one, else notifications.
    static func forThisProcess() -> ProgressDisplay {
        if isatty(2) == 1 { return ProgressDisplay(.terminal(2)) }
        let tty = open("/dev/tty", O_WRONLY | O_CLOEXEC | O_NOCTTY)
        if tty >= 0 { return ProgressDisplay(.terminal(tty)) }
        return ProgressDisplay(
            .notifications(NotificationPresenter(appName: "SimpleX Chat", timeout: .seconds(3))))
    }

    var isTerminal: Bool { if case .terminal = target { true } else { false } }

    /// Shows `progress` soon; returns at once.
    func update(_ progress: ShareProgress) {
        latest = progress
        guard drawing == nil else { return }
        drawing = Task { await drain() }
    }

    /// Waits for the last state to be drawn; the bar's line ends here.
    func finish() async {
        await drawing?.value
        if case .terminal(let descriptor) = target, drewOnTerminal {
            write(descriptor, "\n")
            drewOnTerminal = false
        }
    }

    /// The outcome, without a terminal: the progress notification becomes it (or a new one).
    func outcome(summary: String, body: String) async {
        await finish()
        guard case .notifications(let presenter) = target else { return }
        let content = DesktopNotification(
            summary: summary, body: body, icon: "simplex-chat", category: "transfer",
            desktopEntry: "simplex-chat",
            transient: true)
        if let notification {
            _ = try? await presenter.replace(notification, with: content)
        } else {
            _ = try? await presenter.show(content)
        }
    }

    private func drain() async {
        while let pending = latest {
            // A notification waits for its interval (the states meanwhile replace `latest`);
            // the last state of a transfer does not.
            if case .notifications = target, let shown, !pending.isFinished {
                let due = shown.at.advanced(by: Self.notificationInterval)
                if ContinuousClock.now < due { try? await Task.sleep(until: due, clock: .continuous) }
            }
            guard let next = latest else { break }
            latest = nil
            await draw(next)
        }
        drawing = nil
    }

    private func draw(_ progress: ShareProgress) async {
        switch target {
        case .terminal(let descriptor):
            // Carriage return, the line, erase what a longer line before left.
            write(
                descriptor, "\r" + progress.terminalLine(width: Self.width(of: descriptor) - 1) + "\u{1B}[K")
            drewOnTerminal = true
        case .notifications(let presenter):
            let content = progress.notification
            if shown?.content == content { return }
            // No notification server is an ordinary case: the transfer goes on without one.
            if let notification {
                self.notification = (try? await presenter.replace(notification, with: content)) ?? notification
            } else {
                notification = try? await presenter.show(content)
            }
            shown = (content, ContinuousClock.now)
        }
    }

    private func write(_ descriptor: Int32, _ text: String) {
        // A terminal that went away (the window closed) only loses the bar.
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = try? bytes.withUnsafeBytes { buffer throws(SystemError) in
                try retryingOnInterrupt("write") { Glibc.write(descriptor, buffer.baseAddress, buffer.count) }
            }
            guard let written, written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }

    private static func width(of descriptor: Int32) -> Int {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
