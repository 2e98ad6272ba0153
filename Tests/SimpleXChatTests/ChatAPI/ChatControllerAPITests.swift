import Foundation
import SimpleXCrypto
import Testing
import TestSupport

@testable import SimpleXChat

/// `ChatController.execute` on a real chat database, offline: contacts and items are written
/// through a second connection to the same file, then read, paged, marked and changed through
/// the command API.
@Suite struct ChatControllerAPITests {
    /// A group directory with alice, her contacts bob (connected) and carol (not yet), bob's
    /// chat holding items 1...5 (2 and 4 sent by alice), and the controller open on it.
    final class Fixture {
        let directory: TemporaryDirectory
        let store: ChatStore
        let chat: ChatController
        let user: ChatUser
        let bob: ChatContact
        let carol: ChatContact

        init() async throws {
            directory = try TemporaryDirectory("chat-api")
            user = try ChatController.createUser(
                groupDirectory: directory.path, profile: Profile(displayName: "alice", fullName: ""))
            store = try ChatStore(path: directory.path + "/simplex_v1_chat.db")
            try store.insertPendingConnection(user, agentConnectionID: "conn-bob")
            let made = try store.createContact(
                user, profile: Profile(displayName: "bob", fullName: "Bob"), agentConnectionID: "conn-bob")
            try store.setReady(agentConnectionID: "conn-bob")
            bob = try store.contact(id: made.contactId)
            try store.insertPendingConnection(user, agentConnectionID: "conn-carol")
            carol = try store.createContact(
                user, profile: Profile(displayName: "carol", fullName: ""), agentConnectionID: "conn-carol")
            for (index, text) in ["one", "two", "three", "four", "five"].enumerated() {
                let sent = index % 2 == 1
                _ = try store.insertItem(
                    user, contact: bob, direction: sent ? .sent : .received, content: .text(text),
                    status: sent ? .sndSent : .rcvNew,
                    sharedMsgId: SharedMsgID(bytes: Array(repeating: UInt8(index), count: 12)))
            }
            chat = try await ChatController.open(
                groupDirectory: directory.path, secrets: try AgentSecrets(key: SecureBytes.random(count: 32)))
        }

        func run(_ text: String) async throws -> ChatResponse {
            await chat.execute(try ChatCommand.parse(text))
        }

        func close() async {
            store.close()
            await chat.stop()
        }
    }

    static func texts(_ response: ChatResponse) -> [String] {
        guard case .apiChat(_, let chat) = response else { return ["not apiChat: \(response.responseType)"] }
        return chat.chatItems.map(\.text)
    }

    @Test func activeUserChatListAndContacts() async throws {
        let f = try await Fixture()
        #expect(try await f.run("/u") == .activeUser(user: f.user))
        guard case .apiChats(_, let chats) = try await f.run("/_get chats 1 pcc=on") else {
            throw TestSupportError("no apiChats")
        }
        #expect(chats.map(\.chatInfo) == [.direct(contact: f.bob), .direct(contact: f.carol)])
        #expect(chats[0].chatItems.map(\.text) == ["five"])
        #expect(chats[0].chatStats == ChatStats(unreadCount: 3, minUnreadItemId: 1, unreadChat: false))
        #expect(try await f.run("/_contacts 1") == .contactsList(user: f.user, contacts: [f.bob, f.carol]))
        #expect(
            try await f.run("/_get chats 2").chatError
                == .differentActiveUser(commandUserId: 2, activeUserId: 1))
        await f.close()
    }

    @Test func aContentFilterPagesOnlyItemsOfThatType() async throws {
        let f = try await Fixture()
        let link = LinkPreview(
            uri: "https://simplex.chat", title: "SimpleX", description: "", image: "", content: nil)
        for content in [
            MsgContent.text("words"), .image(text: "cat", image: "data:image/jpg;base64,AA=="),
            .link(text: "site", preview: link), .image(text: "dog", image: "data:image/jpg;base64,AA=="),
        ] {
            _ = try f.store.insertItem(
                f.user, contact: f.carol, direction: .received, content: content, status: .rcvNew,
                sharedMsgId: nil)
        }
        let id = f.carol.contactId
        #expect(Self.texts(try await f.run("/_get chat @\(id) content=image count=10")) == ["cat", "dog"])
        #expect(Self.texts(try await f.run("/_get chat @\(id) content=image count=1")) == ["dog"])
        #expect(Self.texts(try await f.run("/_get chat @\(id) content=link count=10")) == ["site"])
        #expect(Self.texts(try await f.run("/_get chat @\(id) content=file count=10")) == [])
        #expect(Self.texts(try await f.run("/_get chat @\(id) content=image count=10 search=do")) == ["dog"])
        await f.close()
    }

    @Test func clearingAChatDeletesItsItemsAndOnlyThose() async throws {
        let f = try await Fixture()
        _ = try f.store.insertItem(
            f.user, contact: f.carol, direction: .received, content: .text("carol's"), status: .rcvNew,
            sharedMsgId: nil)
        let response = try await f.run("/_clear chat @\(f.bob.contactId)")
        guard case .chatCleared(_, .direct(let contact)) = response else {
            Issue.record("not chatCleared: \(response.responseType)")
            return
        }
        #expect(contact.contactId == f.bob.contactId)
        #expect(response.json.compactText.hasPrefix(#"{"result":{"type":"chatCleared","user":"#))
        #expect(Self.texts(try await f.run("/_get chat @\(f.bob.contactId) count=10")) == [])
        #expect(Self.texts(try await f.run("/_get chat @\(f.carol.contactId) count=10")) == ["carol's"])
        guard case .apiChats(_, let chats) = try await f.run("/_get chats 1") else {
            Issue.record("not apiChats")
            return
        }
        let bob = chats.first {
            if case .direct(let c) = $0.chatInfo { c.contactId == f.bob.contactId } else { false }
        }
        #expect(bob?.chatItems.isEmpty == true)
        #expect(bob?.chatStats.unreadCount == 0)
        #expect(try await f.run("/_clear chat @99").chatError == .contactNotFound(contactId: 99))
        await f.close()
    }

    /// A chat whose last item offers a file: the chat list and the chat's page carry the file
    /// (SimpleX `CIFile`) with the item, so a preview can name it.
    @Test func itemsCarryTheFileTheyOffer() async throws {
        let f = try await Fixture()
        let item = try f.store.insertItem(
            f.user, contact: f.bob, direction: .received, content: .file(""), status: .rcvNew,
            sharedMsgId: SharedMsgID(bytes: Array(repeating: 9, count: 12)))
        let file = try f.store.insertFile(
            f.user, contact: f.bob, item: item, name: "photo.jpg", path: nil, size: 30_000, digest: nil,
            status: .rcvInvitation)
        let expected =
            #""file":{"fileId":\#(file.fileId),"fileName":"photo.jpg","fileSize":30000,"fileStatus":{"type":"rcvInvitation"}}"#
        let list = try await f.run("/_get chats 1")
        guard case .apiChats(_, let chats) = list else {
            Issue.record("not apiChats: \(list.responseType)")
            return
        }
        let bob = chats.first {
            if case .direct(let c) = $0.chatInfo { c.contactId == f.bob.contactId } else { false }
        }
        #expect(bob?.chatItems.map(\.file?.fileName) == ["photo.jpg"])
        #expect(list.json.compactText.contains(expected))
        let page = try await f.run("/_get chat @\(f.bob.contactId) count=2")
        #expect(page.json.compactText.contains(expected))
        await f.close()
    }

    @Test func chatPages() async throws {
        let f = try await Fixture()
        let id = f.bob.contactId
        #expect(Self.texts(try await f.run("/_get chat @\(id) count=2")) == ["four", "five"])
        #expect(Self.texts(try await f.run("/_get chat @\(id) before=3 count=5")) == ["one", "two"])
        #expect(Self.texts(try await f.run("/_get chat @\(id) after=3 count=1")) == ["four"])
        #expect(
            Self.texts(try await f.run("/_get chat @\(id) around=3 count=1")) == ["two", "three", "four"])
        #expect(Self.texts(try await f.run("/_get chat @\(id) initial=1")) == ["one", "two"])
        // Search matches words by their start (the word index), not letters inside them.
        #expect(Self.texts(try await f.run("/_get chat @\(id) count=10 search=t")) == ["two", "three"])
        #expect(Self.texts(try await f.run("/_get chat @\(id) count=10 search=o")) == ["one"])
        // A search pages like the chat: before, after and around work with it too.
        #expect(Self.texts(try await f.run("/_get chat @\(id) before=3 count=5 search=t")) == ["two"])
        #expect(Self.texts(try await f.run("/_get chat @\(id) after=2 count=5 search=t")) == ["three"])
        #expect(try await f.run("/_get chat @99 count=5").chatError == .contactNotFound(contactId: 99))
        #expect(try await f.run("/_get chat #1 count=5").chatError == .commandError("no group #1"))
        #expect(
            try await f.run("/_get chat *1 count=5").chatError
                == .commandError("*1: only direct chats (@contactId) are supported by this build"))
        #expect(
            try await f.run("/_get chat @\(f.carol.contactId) around=3 count=1").chatError
                == .chatItemNotFound(itemId: 3))
        await f.close()
    }

    @Test func readUnreadAndItemInfo() async throws {
        let f = try await Fixture()
        let ref = "@\(f.bob.contactId)"
        #expect(
            try await f.run("/_read chat items \(ref) 1,3")
                == .itemsReadForChat(user: f.user, chatInfo: .direct(contact: f.bob)))
        #expect(
            try f.store.chatStats(f.user, f.bob)
                == ChatStats(unreadCount: 1, minUnreadItemId: 5, unreadChat: false))
        #expect(try await f.run("/_unread chat \(ref) on") == .cmdOk(user: f.user))
        #expect(try f.store.chatStats(f.user, f.bob).unreadChat)
        #expect(try await f.run("/_read chat \(ref)") == .cmdOk(user: f.user))
        #expect(
            try f.store.chatStats(f.user, f.bob)
                == ChatStats(unreadCount: 0, minUnreadItemId: 0, unreadChat: false))
        guard case .chatItemInfo(_, let item, let info) = try await f.run("/_get item info \(ref) 2") else {
            throw TestSupportError("no chatItemInfo")
        }
        #expect(item.chatItem.text == "two")
        #expect(info.versions.isEmpty)
        #expect(try await f.run("/_get item info \(ref) 999").chatError == .chatItemNotFound(itemId: 999))
        await f.close()
    }

    @Test func aliasesMarkdownAndRelays() async throws {
        let f = try await Fixture()
        guard
            case .contactAliasUpdated(_, let contact) = try await f.run(
                "/_set alias @\(f.bob.contactId) Bobby B")
        else {
            throw TestSupportError("no contactAliasUpdated")
        }
        #expect(contact.localAlias == "Bobby B")
        #expect(
            try await f.run("/_parse markdown hi *there*")
                == .apiParsedMarkdown(formattedText: [FormattedText("hi "), FormattedText("there", .bold)]))
        #expect(
            try await f.run("/smp smp://AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8@localhost:5224")
                == .cmdOk(user: f.user))
        #expect(
            try await f.run("/smp")
                == .userProtoServers(
                    user: f.user,
                    servers: ["smp://AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=@localhost:5224"]))
        if case .commandError(let message)? = try await f.run("/smp smp://nope").chatError {
            #expect(message.hasPrefix("bad relay address smp://nope"))
        } else {
            Issue.record("a bad relay address was accepted")
        }
        #expect(try await f.run("/create user alice").chatError == .userExists(contactName: "alice"))
        await f.close()
    }

    @Test func itemChangesThatNeedNoNetwork() async throws {
        let f = try await Fixture()
        let ref = "@\(f.bob.contactId)"
        #expect(
            try await f.run(
                #"/_update item \#(ref) 1 live=off json {"msgContent":{"type":"text","text":"x"}}"#
            ).chatError
                == .invalidChatItemUpdate)
        #expect(
            try await f.run(
                #"/_update item \#(ref) 2 live=off json {"msgContent":{"type":"text","text":"two"}}"#
            ).responseType
                == "chatItemNotChanged")
        #expect(try await f.run("/_delete item \(ref) 1 broadcast").chatError == .invalidChatItemDelete)
        guard
            case .chatItemsDeleted(_, let deletions, true) = try await f.run(
                "/_delete item \(ref) 1,3 internal")
        else {
            throw TestSupportError("no chatItemsDeleted")
        }
        #expect(deletions.map(\.deletedChatItem.chatItem.text) == ["one", "three"])
        #expect(Self.texts(try await f.run("/_get chat \(ref) count=10")) == ["two", "four", "five"])
        #expect(
            try await f.run(
                #"/_send @\#(f.carol.contactId) json [{"msgContent":{"type":"text","text":"hi"}}]"#
            ).chatError
                == .contactNotReady(contactName: "carol"))
        #expect(
            try await f.run(#"/_send \#(ref) live=on json [{"msgContent":{"type":"text","text":"hi"}}]"#)
                .chatError
                == .commandError("live messages are not supported yet"))
        #expect(try await f.run("/_delete \(ref) messages").chatError != nil)
        #expect(try await f.run("/_connect 1 incognito=off simplex:/nonsense").chatError == .invalidConnReq)
        #expect(try await f.run("/_accept 42").chatError == .contactRequestNotFound(contactRequestId: 42))
        await f.close()
    }
}
