import Foundation
import SimpleXChat

/// How long a standalone share waits for its files, and the environment knobs that change it.
struct TransferWaits: Sendable {
    /// For the contact to accept a file offered (their client accepts images at once); after it
    /// the files stay offered and go when they accept, sent by whichever process runs the chat.
    var acceptance: Duration = .seconds(5)
    /// Without any progress once accepted: the rest goes when SimpleX Chat runs next.
    var stall: Duration = .seconds(30)
    /// Without completion before "Slow network?" is shown (the iOS share extension's 30 s).
    var slowNetwork: Duration = .seconds(30)

    /// The defaults, or `SIMPLEX_SHARE_ACCEPT_WAIT_MS`, `_STALL_WAIT_MS` and `_SLOW_AFTER_MS`
    /// (tests do not wait 30 s to see the slow-network text).
    init(environment: [String: String] = [:]) {
        func milliseconds(_ name: String) -> Duration? {
            environment["SIMPLEX_SHARE_\(name)_MS"].flatMap { Int($0) }.map { .milliseconds(max(0, $0)) }
        }
        acceptance = milliseconds("ACCEPT_WAIT") ?? acceptance
        stall = milliseconds("STALL_WAIT") ?? stall
        slowNetwork = milliseconds("SLOW_AFTER") ?? slowNetwork
    }
}

extension ShareSender {
    private enum Input: Sendable {
        case file(ChatFileEvent)
        case slowNetwork
        case check
    }

    /// Waits while `contact` accepts the offered `files` and the core hands them to the relay,
    /// showing the progress on `display`; returns where they stand when every one is over, or
    /// when nothing was accepted within `waits.acceptance`, or nothing moved for `waits.stall`.
    func waitForTransfers(
        _ files: [ChatFile], of chat: ChatController, to contact: ChatContact, display: ProgressDisplay?
    ) async -> ShareProgress {
        var progress = ShareProgress(contactName: contact.viewName, files: files)
        let (inputs, input) = AsyncStream<Input>.makeStream()
        // The core's events were kept since it opened: none of these files' is missed.
        let events = Task {
            for await event in chat.events {
                if case .file(let file) = event { input.yield(.file(file)) }
            }
        }
        let slow = Task { [slowNetwork = waits.slowNetwork] in
            try? await Task.sleep(for: slowNetwork)
            if !Task.isCancelled { input.yield(.slowNetwork) }
        }
        let checks = Task {
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                input.yield(.check)
            }
        }
        defer {
            events.cancel()
            slow.cancel()
            checks.cancel()
            input.finish()
        }
        let clock = ContinuousClock()
        let start = clock.now
        var moved = start
        await display?.update(progress)
        for await next in inputs {
            switch next {
            case .file(let event):
                guard progress.apply(event) else { break }
                moved = clock.now
                await display?.update(progress)
            case .slowNetwork:
                progress.slow = true
                await display?.update(progress)
            case .check:
                break
            }
            if progress.isFinished { break }
            if progress.isAccepted ? clock.now - moved > waits.stall : clock.now - start > waits.acceptance {
                break
            }
        }
        await display?.finish()
        return progress
    }
}
