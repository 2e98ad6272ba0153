import Foundation
import Synchronization
import Testing
import TestSupport

@testable import SimpleXChat
@testable import SimpleXDesktop
@testable import SimpleXNotificationService

/// The notifier's choices without a server: batches, the joint notification, replacing, closing on
/// read, the badge count and the locked screen, recorded by a presenter that only writes down.
@Suite struct ChatNotifierTests {
    final class RecordingPresenter: NotificationPresenting {
        enum Call: Equatable {
            case show(DesktopNotification)
            case replace(UInt32, DesktopNotification)
            case close(UInt32)
        }
        let calls = Mutex<[Call]>([])
        let nextID = Mutex<UInt32>(1)
        let capabilities: [String]
        let events: AsyncStream<NotificationEvent> = AsyncStream { $0.finish() }

        init(capabilities: [String] = ["body", "actions"]) { self.capabilities = capabilities }

        func show(_ notification: DesktopNotification) async throws -> NotificationHandle {
            calls.withLock { $0.append(.show(notification)) }
            return nextID.withLock { id in
                defer { id += 1 }
                return NotificationHandle(serverID: id, key: UInt64(id))
            }
        }
        func replace(_ handle: NotificationHandle, with notification: DesktopNotification) async throws
            -> NotificationHandle
        {
            calls.withLock { $0.append(.replace(handle.serverID, notification)) }
            return handle
        }
        func close(_ handle: NotificationHandle) async throws { calls.withLock { $0.append(.close(handle.serverID)) } }
        func serverCapabilities() async throws -> [String] { capabilities }
        var recorded: [Call] { calls.withLock { $0 } }
    }

    let user = ChatUser(userId: 1, profile: Profile(displayName: "alice", fullName: ""), localDisplayName: "alice")

    func contact(_ id: Int64, _ name: String) -> ChatContact {
        ChatContact(
            contactId: id, localDisplayName: name, profile: Profile(displayName: name, fullName: ""), localAlias: "",
            agentConnectionID: "conn\(id)", ready: true)
    }

    func message(_ text: String, from contact: ChatContact, id: Int64 = 5) -> ChatEvent {
        .newItem(
            contact,
            ChatItem(
                itemId: id, contactId: contact.contactId, direction: .received, content: .text(text), status: .rcvNew,
                timestamp: Date(), edited: false, deleted: false, forwarded: false, sharedMsgId: nil, quote: nil,
                reactions: []))
    }

    func notifier(_ presenter: RecordingPresenter, locked: Bool = false) throws -> (ChatNotifier, GroupDefaults, TemporaryDirectory) {
        let directory = try TemporaryDirectory("notifier")
        let defaults = GroupDefaults(container: try GroupContainer(path: directory.appending("group")))
        return (ChatNotifier(presenter: presenter, defaults: defaults, sessionLocked: { locked }, log: { _ in }), defaults, directory)
    }

    @Test func aBatchFromOneChatShowsItsLatestAndOneFromSeveralChatsAJointOne() async throws {
        let presenter = RecordingPresenter()
        let (notifier, defaults, directory) = try notifier(presenter)
        defer { withExtendedLifetime(directory) {} }
        let bob = contact(1, "bob")
        let carol = contact(2, "carol")
        await notifier.notify([message("first", from: bob), message("second", from: bob)], user: user)
        await notifier.notify([message("hi", from: carol), message("third", from: bob)], user: user)
        await notifier.notify([message("fourth", from: bob)], user: user)
        let calls = presenter.recorded
        #expect(calls.count == 3)
        guard case .show(let single) = calls[0], case .show(let joint) = calls[1], case .replace(1, let next) = calls[2]
        else {
            Issue.record("unexpected calls \(calls)")
            return
        }
        #expect(single.summary == "bob:" && single.body == "second")
        #expect(joint.summary == "New messages" && joint.body == "From: carol and bob")
        #expect(joint.actions.isEmpty)
        // bob's own notification is replaced in place by his next message.
        #expect(next.body == "fourth")
        // Each notifying message counts on the badge.
        #expect(defaults[.ntfBadgeCount] == 5)
    }

    @Test func aChatReadClosesItsNotification() async throws {
        let presenter = RecordingPresenter()
        let (notifier, _, directory) = try notifier(presenter)
        defer { withExtendedLifetime(directory) {} }
        let bob = contact(1, "bob")
        await notifier.notify([message("read me", from: bob)], user: user)
        await notifier.notify([.chatRead(bob)], user: user)
        #expect(presenter.recorded.last == .close(1))
        // Its next message is a new notification, not a replacement of the closed one.
        await notifier.notify([message("again", from: bob)], user: user)
        guard case .show(let again)? = presenter.recorded.last else {
            Issue.record("not shown anew: \(presenter.recorded)")
            return
        }
        #expect(again.body == "again")
    }

    @Test func whileLockedEveryNotificationIsHidden() async throws {
        let presenter = RecordingPresenter(capabilities: ["body", "actions", "inline-reply"])
        let (notifier, defaults, directory) = try notifier(presenter, locked: true)
        defer { withExtendedLifetime(directory) {} }
        try defaults.set(.ntfPreviewMode, .message)
        await notifier.notify([message("the code is 1234", from: contact(1, "bob"))], user: user)
        guard case .show(let shown)? = presenter.recorded.first else {
            Issue.record("nothing shown")
            return
        }
        #expect(shown.summary == "Contact hidden:")
        #expect(shown.body == "new message")
        #expect(shown.actions.map(\.label) == ["Open", "Mark read", "Reply"])
    }

    @Test func whileTheClientIsLockedEveryNotificationIsHiddenAndAfterUnlockShownAgain() async throws {
        let presenter = RecordingPresenter(capabilities: ["body", "actions"])
        let (notifier, defaults, directory) = try notifier(presenter)
        defer { withExtendedLifetime(directory) {} }
        try defaults.set(.ntfPreviewMode, .message)
        try defaults.set(.appLocked, true)
        await notifier.notify([message("the code is 1234", from: contact(1, "bob"))], user: user)
        try defaults.set(.appLocked, false)
        await notifier.notify([message("unlocked now", from: contact(2, "carol"))], user: user)
        let shown = presenter.recorded.compactMap { call -> DesktopNotification? in
            if case .show(let notification) = call { return notification }
            return nil
        }
        #expect(shown.count == 2)
        #expect(shown.first?.summary == "Contact hidden:")
        #expect(shown.first?.body == "new message")
        #expect(shown.last?.summary == "carol:")
        #expect(shown.last?.body == "unlocked now")
    }
}
