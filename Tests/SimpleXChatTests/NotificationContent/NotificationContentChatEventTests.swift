import Foundation
import Testing

@testable import SimpleXChat

/// The chat core's events as notification sources: what notifies, with which names and chat ids.
@Suite struct NotificationContentChatEventTests {
    let user = ChatUser(userId: 1, profile: Profile(displayName: "alice", fullName: ""), localDisplayName: "alice")

    func bob(alias: String = "") -> ChatContact {
        ChatContact(
            contactId: 12, localDisplayName: "bob", profile: Profile(displayName: "bob", fullName: "Bob Smith"),
            localAlias: alias, agentConnectionID: "conn", ready: true)
    }

    func item(_ content: MsgContent, _ direction: ChatItemDirection = .received, deleted: Bool = false) -> ChatItem {
        ChatItem(
            itemId: 5, contactId: 12, direction: direction, content: content,
            status: direction == .received ? .rcvNew : .sndSent, timestamp: Date(), edited: false,
            deleted: deleted, forwarded: false, sharedMsgId: nil, quote: nil, reactions: [])
    }

    func content(_ event: ChatEvent, _ mode: NotificationPreviewMode = .message) -> NotificationContent? {
        NotificationContent.Source(event: event, user: user).flatMap { NotificationContent.make($0, previewMode: mode) }
    }

    @Test func aReceivedMessageNotifiesInItsChatWithTheContactsNames() throws {
        let message = try #require(content(.newItem(bob(), item(.text("hello there"))), .message))
        #expect(message.title == "bob / Bob Smith:")
        #expect(message.body == "hello there")
        #expect(message.targetChat == "@12")
        #expect(message.userId == 1)
        #expect(message.categoryIdentifier == .messageReceived)
        // The local alias names the chat; the modes hide what they hide.
        #expect(content(.newItem(bob(alias: "Bobby"), item(.text("hi"))))?.title == "Bobby:")
        #expect(content(.newItem(bob(), item(.text("hi"))), .contact)?.body == "new message")
        let hidden = try #require(content(.newItem(bob(), item(.text("hi"))), .hidden))
        #expect(hidden.title == "Contact hidden:")
        #expect(hidden.body == "new message")
    }

    @Test func sentDeletedAndChangedItemsNeverNotify() {
        #expect(NotificationContent.Source(event: .newItem(bob(), item(.text("mine"), .sent)), user: user) == nil)
        #expect(content(.newItem(bob(), item(.text("gone"), deleted: true))) == nil)
        #expect(NotificationContent.Source(event: .itemUpdated(bob(), item(.text("edited"))), user: user) == nil)
        #expect(NotificationContent.Source(event: .itemDeleted(bob(), item(.text("x"))), user: user) == nil)
        #expect(NotificationContent.Source(event: .error("relay"), user: user) == nil)
    }

    /// As SimpleX: errors, encryption notes and feature changes are items in the chat, never
    /// notifications.
    @Test func eventItemsNeverNotify() {
        let events: [ChatItemEvent] = [
            .rcvIntegrityError(.msgSkipped(from: 2, to: 4)), .rcvDecryptionError(.ratchetEarlier, count: 2),
            .rcvDirectE2EEInfo, .rcvChatFeature(.voice, PrefEnabled(forUser: false, forContact: false), param: nil),
            .rcvChatPreference(.timedMessages, .yes, param: 86400),
        ]
        for event in events {
            #expect(NotificationContent.Source(event: .newItem(bob(), item(event.content)), user: user) == nil)
        }
        // (A message of an unknown type still notifies: only the core's own items are silent.)
        #expect(content(.newItem(bob(), item(.placeholder(type: "poll", text: "a poll")))) != nil)
    }

    @Test func aMutedChatNeverNotifiesAndMentionsOnlyNotifiesMentions() {
        var muted = bob()
        muted.enableNtfs = .none
        #expect(content(.newItem(muted, item(.text("quiet please")))) == nil)
        var mentions = bob()
        mentions.enableNtfs = .mentions
        // Direct messages mention nobody: nothing notifies in a mentions-only direct chat.
        #expect(content(.newItem(mentions, item(.text("hi")))) == nil)
        #expect(content(.newItem(bob(), item(.text("hi")))) != nil)
    }

    @Test func contactsConnectingAndAskingToConnectNotify() throws {
        let connected = try #require(content(.contactConnected(bob())))
        #expect(connected.title == "bob is connected!")
        #expect(connected.targetChat == "@12")
        let request = ChatContactRequest(
            requestId: 7, localDisplayName: "carol", profile: Profile(displayName: "carol", fullName: ""),
            agentInvitationID: "inv")
        let asked = try #require(content(.contactRequest(request)))
        #expect(asked.title == "carol wants to connect!")
        #expect(asked.targetChat == "<@7")
        #expect(content(.contactRequest(request), .hidden)?.title == "Somebody wants to connect!")
    }

    @Test func mediaAndReportsCarryWhatTheirNotificationShows() {
        #expect(content(.newItem(bob(), item(.voice(text: "", duration: 75))))?.body == "Voice message (01:15)")
        #expect(content(.newItem(bob(), item(.image(text: "look", image: "data:"))))?.body == "look")
        #expect(
            content(.newItem(bob(), item(.report(text: "", reason: .spam))))?.body.hasPrefix("Report: ") == true)
    }
}
