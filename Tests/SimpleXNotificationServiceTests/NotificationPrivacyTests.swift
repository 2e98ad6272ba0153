import Foundation
import SimpleXChat
import SimpleXDesktop
import Testing
import TestSupport

/// A notification never carries more than the preview mode allows: for each mode, a message, a
/// contact request and a new contact, every recorded Notify (summary, body, hints, action labels)
/// is checked for what must not be there, and the titles against the iOS strings.
@Suite(.timeLimit(.minutes(3)))
struct NotificationPrivacyTests {
    @Test(arguments: NotificationPreviewMode.allCases)
    func everyKindOfNotificationShowsOnlyWhatTheModeAllows(mode: NotificationPreviewMode) async throws {
        let users = try await NotificationServiceEndToEndTests.Users(capabilities: "body actions body-markup inline-reply")
        let server = try users.notifications
        let address = try await users.contactAddress()
        try users.defaults.set(.ntfPreviewMode, mode)
        let service = try await users.service()

        users.bob.send("@alice meet at the old mill")
        _ = try await server.notifyCalls(atLeast: 1)
        let carol = try await CLIUser("carol", relay: users.relay)
        carol.send("/c \(address)")
        _ = try await server.notifyCalls(atLeast: 2)
        try await server.emitActionInvoked(id: 2, action: "NTF_ACT_ACCEPT_CONTACT")
        try await carol.expectLine("alice: contact is connected")
        let calls = try await server.notifyCalls(atLeast: 3)

        let titles: [String]
        switch mode {
        case .message, .contact: titles = ["bob:", "carol wants to connect!", "carol is connected!"]
        case .hidden: titles = ["Contact hidden:", "Somebody wants to connect!", "A new contact is connected!"]
        }
        #expect(calls.map(\.summary) == titles)
        let bodies: [String]
        switch mode {
        case .message:
            bodies = ["meet at the old mill", "Accept contact request from carol?", "You can now chat with carol"]
        case .contact:
            bodies = ["new message", "Accept contact request from carol?", "You can now chat with carol"]
        case .hidden:
            bodies = ["new message", "Accept contact request from this contact?", "You can now chat with this contact"]
        }
        #expect(calls.map(\.body) == bodies)

        // Nothing anywhere in a call beyond what the mode shows.
        let forbidden: [String]
        switch mode {
        case .message: forbidden = ["simplex:/", "smp://"]
        case .contact: forbidden = ["meet", "old mill", "simplex:/", "smp://"]
        case .hidden: forbidden = ["bob", "carol", "meet", "old mill", "simplex:/", "smp://"]
        }
        for call in calls {
            let everything = ([call.summary, call.body, call.appIcon] + call.actions + Array(call.hints.keys) + Array(call.hints.values))
                .joined(separator: "\n").lowercased()
            for secret in forbidden { #expect(!everything.contains(secret), "\(mode): \(secret) in \(call)") }
        }
        // Action labels are fixed words, never content.
        let labels = Set(calls.flatMap { call in stride(from: 1, to: call.actions.count, by: 2).map { call.actions[$0] } })
        #expect(labels.isSubset(of: ["Open", "Mark read", "Reply", "Accept", "Accept incognito", "Reject"]), "\(labels)")
        #expect(try await service.stop() == 0)
        let log = service.process.allErrors.joined(separator: "\n")
        for secret in ["bob", "carol", "old mill", "simplex:/", "smp://"] { #expect(!log.contains(secret), "log: \(secret)") }
        for user in [users.bob, carol] { try await user.quit() }
    }
}
