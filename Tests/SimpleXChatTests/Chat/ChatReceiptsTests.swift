import Foundation
import SimpleXCrypto
import SimpleXProtocol
import TestSupport
import Testing

@testable import SimpleXChat

/// Delivery receipts as a setting (SimpleX `sendRcptsContacts` and a contact's `sendRcpts`), with
/// two users connected through a real relay: the sender sees "delivered" only when the receiver's
/// setting for that contact is on, and only new messages are receipted.
@Suite(.serialized)
struct ChatReceiptsTests {
    typealias Reading = ChatControllerReadingTests

    @Test func theReceiversSettingsDecideWhetherTheSenderSeesDelivered() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("chat-receipts")
        let pair = try await Reading.connectedPair(relay: relay, in: directory)
        let (alice, bob, bobContact, aliceContact) = (
            pair.alice, pair.bob, pair.bobContact, pair.aliceContact
        )
        // A new user sends receipts, and says so in its JSON.
        guard case .activeUser(let bobUser) = await bob.chat.execute("/u") else {
            Issue.record("no active user")
            return
        }
        #expect(bobUser.sendRcptsContacts)
        #expect(bobUser.json.compactText.contains(#""sendRcptsContacts":true"#))

        /// Alice sends `text`; returns it once bob has it.
        func send(_ text: String) async throws -> ChatItem {
            let item = try await alice.chat.send(to: bobContact.localDisplayName, .text(text))
            _ = try await bob.events.next { event -> ChatItem? in
                if case .newItem(_, let received) = event, received.text == text { received } else { nil }
            }
            return item
        }
        func delivered(_ item: ChatItem) async throws {
            _ = try await alice.events.next { event -> Bool? in
                if case .itemStatus(_, let changed) = event, changed.itemId == item.itemId,
                    changed.status == .sndRcvd
                {
                    true
                } else {
                    nil
                }
            }
        }
        func status(_ item: ChatItem) async throws -> ChatItemStatus? {
            try await alice.chat.chatItems(contactId: bobContact.contactId, .last(count: 20))
                .first { $0.itemId == item.itemId }?.status
        }

        let one = try await send("one")
        try await delivered(one)

        // Off for all contacts: "two" arrives with no receipt. Then on for alice alone: "three"
        // is receipted, and as receipts go in order on one connection, none is coming for "two".
        #expect(await bob.chat.execute("/set receipts contacts off").responseType == "cmdOk")
        let two = try await send("two")
        #expect(await bob.chat.execute("/receipts @alice on").responseType == "cmdOk")
        let three = try await send("three")
        try await delivered(three)
        #expect(try await status(two) == .sndSent)
        #expect(try await bob.chat.contact(id: aliceContact.contactId).sendRcpts == true)

        // Back to the user's setting (off), then on for everyone.
        #expect(await bob.chat.execute("/receipts @alice default").responseType == "cmdOk")
        let four = try await send("four")
        #expect(await bob.chat.execute("/set receipts all on").responseType == "cmdOk")
        let five = try await send("five")
        try await delivered(five)
        #expect(try await status(four) == .sndSent)

        // An edit keeps the item's status (and is not receipted: SimpleX receipts new messages
        // only, `onlyANewMessageAsksForAReceipt`); the next new message is receipted.
        #expect(await bob.chat.execute("/receipts @alice on").responseType == "cmdOk")
        _ = try await alice.chat.edit(four, in: bobContact.localDisplayName, to: .text("four, edited"))
        _ = try await bob.events.next { event -> Bool? in
            if case .itemUpdated(_, let item) = event, item.text == "four, edited" { true } else { nil }
        }
        let six = try await send("six")
        try await delivered(six)
        #expect(try await status(four) == .sndSent)

        // clear_overrides=on: alice's own "on" is gone with the user's "off".
        #expect(
            await bob.chat.execute("/_set receipts contacts 1 off clear_overrides=on").responseType == "cmdOk"
        )
        #expect(try await bob.chat.contact(id: aliceContact.contactId).sendRcpts == nil)
        let contactJSON = try await bob.chat.contact(id: aliceContact.contactId).json.compactText
        #expect(contactJSON.contains(#""chatSettings":{"enableNtfs":"all","favorite":false}"#))
        let seven = try await send("seven")
        #expect(await bob.chat.execute("/set receipts contacts on").responseType == "cmdOk")
        let eight = try await send("eight")
        try await delivered(eight)
        #expect(try await status(seven) == .sndSent)

        // A contact that is not there is an error, and changes nothing.
        guard case .chatCmdError = await bob.chat.execute("/receipts @nobody off") else {
            Issue.record("no error for an unknown contact")
            return
        }
        // The setting is kept in the database, as the next start reads it.
        #expect(await bob.chat.execute("/set receipts all off").responseType == "cmdOk")
        await bob.chat.stop()
        await alice.chat.stop()
        let store = try ChatStore(path: directory.appending("bob") + "/simplex_v1_chat.db")
        #expect(try store.activeUser()?.sendRcptsContacts == false)
        #expect(try store.contact(id: aliceContact.contactId).sendRcpts == nil)
        store.close()
    }

    @Test func onlyANewMessageAsksForAReceipt() throws {
        func decoded(_ json: String) -> [Result<ChatMessage, ChatProtocolError>] {
            ChatMessage.decodeBody(Array(json.utf8))
        }
        let new = decoded(#"{"v":"1","event":"x.msg.new","params":{"content":{"type":"text","text":"hi"}}}"#)
        let update = decoded(
            #"{"v":"1","event":"x.msg.update","params":{"msgId":"AQIDBAUGBwgJCgsM","content":{"type":"text","text":"x"}}}"#
        )
        let reaction = decoded(
            #"{"v":"1","event":"x.msg.react","params":{"msgId":"AQIDBAUGBwgJCgsM","reaction":{"type":"emoji","emoji":"👍"},"add":true}}"#
        )
        #expect(new.count == 1 && new.allSatisfy(ChatController.hasDeliveryReceipt))
        #expect(update.count == 1 && !update.contains(where: ChatController.hasDeliveryReceipt))
        #expect(reaction.count == 1 && !reaction.contains(where: ChatController.hasDeliveryReceipt))
        #expect(!decoded("not json").contains(where: ChatController.hasDeliveryReceipt))
        // A batch with one new message in it is receipted.
        #expect((update + new).contains(where: ChatController.hasDeliveryReceipt))
    }
}
