import Foundation
@testable import SimpleXChat
import Testing

@testable import SimpleXTerminal

struct CLIViewTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15 08:00 UTC
    var view: CLIView { CLIView(timeZone: TimeZone(identifier: "UTC")!, now: { [now] in now }) }
    let bob = ChatContact(
        contactId: 1, localDisplayName: "bob", profile: Profile(displayName: "bob", fullName: ""),
        localAlias: "", agentConnectionID: "c",
        ready: true)

    func item(_ direction: ChatItemDirection, _ text: String, at date: Date? = nil) -> ChatItem {
        ChatItem(
            itemId: 1, contactId: 1, direction: direction, content: .text(text),
            status: direction == .sent ? .sndSent : .rcvNew,
            timestamp: date ?? now.addingTimeInterval(-60), edited: false, deleted: false, forwarded: false,
            sharedMsgId: nil, quote: nil,
            reactions: [])
    }

    @Test func receivedAndSentLinesAsTheSimplexCLIPrintsThem() {
        #expect(view.item(item(.received, "hello"), contact: bob) == ["07:59 bob> hello"])
        #expect(view.item(item(.sent, "hi"), contact: bob) == ["07:59 @bob hi"])
        // Before today: month-day instead of the time.
        #expect(
            view.item(item(.received, "old", at: now.addingTimeInterval(-2 * 86_400)), contact: bob) == [
                "01-13 bob> old"
            ])
    }

    @Test func editedDeletedForwardedAndQuotedItemsAreMarked() {
        var edited = item(.received, "new")
        edited.edited = true
        #expect(view.item(edited, contact: bob) == ["07:59 bob> [edited] new"])
        var deleted = item(.received, "gone")
        deleted.deleted = true
        #expect(view.item(deleted, contact: bob) == ["07:59 bob> [marked deleted] gone"])
        var forwarded = item(.sent, "fwd")
        forwarded.forwarded = true
        #expect(view.item(forwarded, contact: bob) == ["07:59 @bob [forwarded] fwd"])
        var reply = item(.received, "a reply")
        reply.quote = ChatItemQuote(sharedMsgId: nil, sentByUser: true, content: .text("hello"))
        #expect(view.item(reply, contact: bob) == ["07:59 bob> > you: hello", "           a reply"])
    }

    @Test func aliasesNameTheContact() {
        var aliased = bob
        aliased.localAlias = "Robert"
        #expect(view.item(item(.received, "hey"), contact: aliased) == ["07:59 Robert> hey"])
    }

    @Test func eventsPrintAsTheCLIDoes() {
        #expect(view.event(.contactConnected(bob)) == ["bob: contact is connected"])
        let request = ChatContactRequest(
            requestId: 1, localDisplayName: "carol",
            profile: Profile(displayName: "carol", fullName: "Carol C"), agentInvitationID: "i")
        #expect(
            view.event(.contactRequest(request)) == [
                "carol (Carol C) wants to connect to you!", "to accept: /ac carol",
                "to reject: /rc carol (the sender will NOT be notified)",
            ])
        #expect(view.event(.contactSwitchedDevice(bob)) == ["bob: contact is connected to another client"])
    }

    @Test func aContactsProfileUpdateAsTheSimplexCLIPrintsIt() {
        func renamed(_ name: String, fullName: String) -> ChatContact {
            var contact = bob
            contact.localDisplayName = name
            contact.profile = Profile(displayName: name, fullName: fullName)
            return contact
        }
        #expect(
            view.event(.contactUpdated(renamed("bobby", fullName: "Bob B"), from: bob)) == [
                "contact bob changed to bobby (Bob B)", "use @bobby <message> to send messages",
            ])
        #expect(view.event(.contactUpdated(renamed("bob", fullName: "Robert"), from: bob)) == [
            "contact bob updated full name: Robert"
        ])
        #expect(view.event(.contactUpdated(bob, from: renamed("bob", fullName: "Robert"))) == [
            "contact bob removed full name"
        ])
        #expect(view.event(.contactUpdated(bob, from: bob)).isEmpty)
    }

    @Test func theChatListShowsUnreadCountsAndTheLastMessage() {
        let previews = [ChatPreview(contact: bob, lastItem: item(.received, "hi"), unreadCount: 2)]
        #expect(view.chats(previews) == ["@bob (2 unread): hi"])
        #expect(view.chats([]) == ["no chats"])
    }

    func event(_ event: ChatItemEvent) -> ChatItem {
        ChatItem(
            itemId: 2, contactId: 1, direction: event.direction, content: event.content,
            status: event.direction == .sent ? .sndSent : .rcvNew, timestamp: now.addingTimeInterval(-60),
            edited: false, deleted: false, forwarded: false, sharedMsgId: nil, quote: nil, reactions: [])
    }

    /// As SimpleX's CLI: an integrity error is printed as it comes, as a line from the contact;
    /// decryption errors, the encryption note and feature changes only in `/tail` (and the chat
    /// list), in the words of SimpleX's `ciContentToText`.
    @Test func eventItemsAsTheSimplexCLIPrintsThem() {
        let gap = event(.rcvIntegrityError(.msgSkipped(from: 3, to: 3)))
        #expect(view.event(.newItem(bob, gap)) == ["07:59 bob> skipped message ID 3"])
        #expect(
            view.event(.newItem(bob, event(.rcvIntegrityError(.msgSkipped(from: 3, to: 5))))) == [
                "07:59 bob> skipped message ID 3..5"
            ])
        #expect(view.item(event(.rcvIntegrityError(.msgBadId(2))), contact: bob) == ["07:59 bob> unexpected message ID 2"])
        #expect(view.item(event(.rcvIntegrityError(.msgBadHash)), contact: bob) == ["07:59 bob> incorrect message hash"])
        #expect(view.item(event(.rcvIntegrityError(.msgDuplicate)), contact: bob) == ["07:59 bob> duplicate message ID"])

        let decryption = event(.rcvDecryptionError(.ratchetHeader, count: 3))
        #expect(view.event(.newItem(bob, decryption)).isEmpty)
        #expect(view.event(.itemUpdated(bob, decryption)).isEmpty)
        #expect(
            view.item(decryption, contact: bob) == [
                "07:59 bob> decryption error, possibly due to the device change (header, 3 messages)"
            ])
        let voice = event(.rcvChatFeature(.voice, PrefEnabled(forUser: true, forContact: false), param: nil))
        #expect(view.event(.newItem(bob, voice)).isEmpty)
        #expect(view.item(voice, contact: bob) == ["07:59 bob> Voice messages: enabled for you"])
        let timer = event(.sndChatFeature(.timedMessages, PrefEnabled(forUser: true, forContact: true), param: 3_600 * 25))
        #expect(view.item(timer, contact: bob) == ["07:59 @bob Disappearing messages: enabled (1 day 1 hour)"])
        #expect(
            view.item(event(.sndChatPreference(.timedMessages, .no, param: nil)), contact: bob) == [
                "07:59 @bob you cancelled Disappearing messages"
            ])
        #expect(
            view.chats([ChatPreview(contact: bob, lastItem: event(.rcvDirectE2EEInfo), unreadCount: 0)]) == [
                "@bob: This conversation is protected by end-to-end encryption with perfect forward secrecy, repudiation and break-in recovery."
            ])
    }

    @Test func aContactsChangedPreferencesAreListedAsSimplexsCLIListsThem() {
        let user = ChatPreferences([.calls: FeaturePreference(allow: .no)])
        let old = ChatPreferences()
        let new = ChatPreferences([
            .voice: FeaturePreference(allow: .always), .calls: FeaturePreference(allow: .always),
            .timedMessages: FeaturePreference(allow: .yes, ttl: 86_400),
        ])
        #expect(
            view.event(.contactPreferencesUpdated(bob, user: user, from: old, to: new)) == [
                "bob updated preferences for you:",
                "Disappearing messages: allowed (you allow: default (yes), contact allows: yes (1 day))",
                "Voice messages: enabled (you allow: default (yes), contact allows: always)",
                "Audio/video calls: enabled for you (you allow: default (no), contact allows: always)",
            ])
        #expect(view.event(.contactPreferencesUpdated(bob, user: user, from: new, to: new)).isEmpty)
    }

    @Test func changedPreferencesAreListedAsSimplexsCLIListsThem() {
        let old = Profile(displayName: "alice", fullName: "")
        var new = old
        new.preferences = ["voice": ["allow": "no"], "timedMessages": ["allow": "yes", "ttl": 604_800]]
        #expect(
            view.preferencesUpdated(from: old, to: new) == [
                "updated preferences:", "Disappearing messages allowed: yes (1 week)", "Voice messages allowed: no",
            ])
        #expect(view.preferencesUpdated(from: new, to: new).isEmpty)
    }
}
