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
}
