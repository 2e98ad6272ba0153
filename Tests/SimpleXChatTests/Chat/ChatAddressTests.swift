import Foundation
import SimpleXProtocol
import TestSupport
import Testing

@testable import SimpleXChat

/// The user's contact address through the command API (`/_address`, `/_show_address`,
/// `/_delete_address`), with a real relay: made once, shown, and deleted with the requests
/// still waiting on it, while contacts made through it stay.
@Suite(.serialized)
struct ChatAddressTests {
    typealias Reading = ChatControllerReadingTests

    @Test func anAddressIsMadeShownAndDeletedWithItsWaitingRequests() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("chat-address")
        let alice = try await Reading.user("alice", relay: relay, in: directory)
        let bob = try await Reading.user("bob", relay: relay, in: directory)
        let carol = try await Reading.user("carol", relay: relay, in: directory)

        let none = await alice.chat.execute("/_show_address 1")
        #expect(none.chatError == .userContactLinkNotFound)
        #expect(none.jsonText.contains(#""storeError":{"type":"userContactLinkNotFound"}"#))
        guard case .userContactLinkCreated(_, let link) = await alice.chat.execute("/_address 1") else {
            Issue.record("no address made")
            return
        }
        #expect(link.hasPrefix("simplex:/contact#/?v="))
        #expect(await alice.chat.execute("/_address 1").chatError == .duplicateContactLink)
        let shown = await alice.chat.execute("/_show_address 1")
        guard case .userContactLink(_, let shownLink) = shown else {
            Issue.record("not shown: \(shown)")
            return
        }
        #expect(shownLink == link)
        #expect(shown.jsonText.contains(#""contactLink":{"connLinkContact":{"connFullLink":"\#(link)"}"#))
        #expect(await alice.chat.execute("/_show_address 2").chatError != nil)

        // Bob's request is accepted; carol's is still waiting when the address goes.
        try await bob.chat.connect(link: link)
        _ = try await alice.events.next { if case .contactRequest = $0 { true } else { nil } }
        let bobContact = try await alice.chat.acceptContact("bob")
        try await carol.chat.connect(link: link)
        _ = try await alice.events.next { event -> Bool? in
            if case .contactRequest(let request) = event, request.localDisplayName == "carol" {
                true
            } else {
                nil
            }
        }
        let deleted = await alice.chat.execute("/_delete_address 1")
        #expect(deleted.responseType == "userContactLinkDeleted", "\(deleted)")
        #expect(await alice.chat.execute("/_show_address 1").chatError == .userContactLinkNotFound)
        #expect(await alice.chat.execute("/_delete_address 1").chatError == .userContactLinkNotFound)
        await #expect(throws: ChatError.requestNotFound("carol")) {
            try await alice.chat.acceptContact("carol")
        }
        // Bob is still a contact, and messages go both ways.
        _ = try await bob.events.next { if case .contactConnected = $0 { true } else { nil } }
        _ = try await bob.chat.send(to: "alice", .text("still here"))
        _ = try await alice.events.next { event -> Bool? in
            if case .newItem(let contact, let item) = event, contact.contactId == bobContact.contactId,
                item.text == "still here"
            {
                true
            } else {
                nil
            }
        }
        // A new address is a new link.
        guard case .userContactLinkCreated(_, let newLink) = await alice.chat.execute("/_address 1") else {
            Issue.record("no new address")
            return
        }
        #expect(newLink != link)
        for user in [alice, bob, carol] { await user.chat.stop() }
    }
}
