import Foundation
import Testing

@testable import SimpleXChat

/// Responses and events byte for byte in SimpleX's tagged JSON: `{"result":{"type":...}}`, errors
/// as `{"error":{...}}`, fields in SimpleX's order.
@Suite struct ChatResponseJSONTests {
    static let alice = ChatUser(
        userId: 1, profile: Profile(displayName: "alice", fullName: "Alice A"), localDisplayName: "alice")
    static let aliceJSON =
        #"{"userId":1,"localDisplayName":"alice","profile":{"displayName":"alice","fullName":"Alice A","localAlias":""},"activeUser":true,"sendRcptsContacts":true}"#
    static let bob = ChatContact(
        contactId: 2, localDisplayName: "bob", profile: Profile(displayName: "bob", fullName: ""),
        localAlias: "Bobby",
        agentConnectionID: "conn1", ready: true)
    static let bobJSON =
        #"{"contactId":2,"localDisplayName":"bob","profile":{"displayName":"bob","fullName":"","localAlias":"Bobby"},"#
        + #""activeConn":{"agentConnId":"conn1","connType":"contact","connStatus":"ready"},"contactStatus":"active","#
        + #""chatSettings":{"enableNtfs":"all","favorite":false}}"#
    static let time = Date(timeIntervalSince1970: 1_700_000_000.5)
    static let msgId = SharedMsgID(bytes: Array(1...12))

    static func item(_ id: Int64, _ direction: ChatItemDirection, _ text: String, status: ChatItemStatus)
        -> ChatItem
    {
        ChatItem(
            itemId: id, contactId: 2, direction: direction, content: .text(text), status: status,
            timestamp: time, edited: false,
            deleted: false, forwarded: false, sharedMsgId: msgId, quote: nil, reactions: [])
    }

    @Test func activeUser() {
        #expect(
            ChatResponse.activeUser(user: Self.alice).jsonText == #"{"result":{"type":"activeUser","user":"#
                + Self.aliceJSON + "}}")
    }

    @Test func parsedMarkdown() {
        #expect(
            ChatResponse.apiParsedMarkdown(formattedText: Markdown.formattedText("*bold* text")).jsonText
                == #"{"result":{"type":"apiParsedMarkdown","formattedText":[{"format":{"type":"bold"},"text":"bold"},{"text":" text"}]}}"#
        )
        #expect(
            ChatResponse.apiParsedMarkdown(formattedText: nil).jsonText
                == #"{"result":{"type":"apiParsedMarkdown"}}"#)
    }

    @Test func sentItemWithQuoteReactionsAndMarkdown() {
        var item = Self.item(7, .sent, "a *reply*", status: .sndRcvd)
        item.edited = true
        item.quote = ChatItemQuote(sharedMsgId: nil, sentByUser: false, content: .text("hi"))
        item.reactions = [
            ChatItemReaction(emoji: "❤️", byUser: false), ChatItemReaction(emoji: "❤️", byUser: true),
        ]
        let response = ChatResponse.newChatItems(user: Self.alice, chatItems: [.direct(Self.bob, item)])
        #expect(
            response.jsonText
                == #"{"result":{"type":"newChatItems","user":"# + Self.aliceJSON
                + #","chatItems":[{"chatInfo":{"type":"direct","contact":"#
                + Self.bobJSON + #"},"chatItem":{"chatDir":{"type":"directSnd"},"#
                + #""meta":{"itemId":7,"itemTs":"2023-11-14T22:13:20.5Z","itemText":"a *reply*","#
                + #""itemStatus":{"type":"sndRcvd","msgRcptStatus":"ok","sndProgress":"complete"},"itemSharedMsgId":"AQIDBAUGBwgJCgsM","itemEdited":true},"#
                + #""content":{"type":"sndMsgContent","msgContent":{"text":"a *reply*","type":"text"}},"mentions":{},"#
                + #""formattedText":[{"text":"a "},{"format":{"type":"bold"},"text":"reply"}],"#
                + #""quotedItem":{"chatDir":{"type":"directRcv"},"content":{"text":"hi","type":"text"}},"#
                + #""reactions":[{"reaction":{"type":"emoji","emoji":"❤"},"userReacted":true,"totalReacted":2}]}}]}}"#
        )
    }

    @Test func receivedDeletedForwardedItemStatuses() {
        var item = Self.item(8, .received, "gone", status: .rcvNew)
        item.deleted = true
        item.forwarded = true
        #expect(
            item.json.compactText
                == #"{"chatDir":{"type":"directRcv"},"meta":{"itemId":8,"itemTs":"2023-11-14T22:13:20.5Z","itemText":"gone","#
                + #""itemStatus":{"type":"rcvNew"},"itemSharedMsgId":"AQIDBAUGBwgJCgsM","itemForwarded":{"type":"unknown"},"#
                + #""itemDeleted":{"type":"deleted","chatType":"direct"},"itemEdited":false},"#
                + #""content":{"type":"rcvMsgContent","msgContent":{"text":"gone","type":"text"}},"mentions":{},"reactions":[]}"#
        )
        #expect(ChatItemStatus.sndNew.json.compactText == #"{"type":"sndNew"}"#)
        #expect(ChatItemStatus.sndSent.json.compactText == #"{"type":"sndSent","sndProgress":"complete"}"#)
        #expect(ChatItemStatus.rcvRead.json.compactText == #"{"type":"rcvRead"}"#)
    }

    @Test func chatListWithStats() {
        let chat = ChatData(
            chatInfo: .direct(contact: Self.bob), chatItems: [],
            chatStats: ChatStats(unreadCount: 3, minUnreadItemId: 5, unreadChat: false))
        #expect(
            ChatResponse.apiChats(user: Self.alice, chats: [chat]).jsonText
                == #"{"result":{"type":"apiChats","user":"# + Self.aliceJSON
                + #","chats":[{"chatInfo":{"type":"direct","contact":"#
                + Self.bobJSON
                + #"},"chatItems":[],"chatStats":{"unreadCount":3,"unreadMentions":0,"reportsCount":0,"minUnreadItemId":5,"unreadChat":false}}]}}"#
        )
    }

    @Test func errorsAreSimpleXChatErrors() {
        #expect(
            ChatResponse.chatCmdError(user: Self.alice, chatError: .contactNotFound(contactId: 5)).jsonText
                == #"{"error":{"type":"errorStore","storeError":{"type":"contactNotFound","contactId":5}}}"#)
        #expect(
            ChatResponse.chatCmdError(user: nil, chatError: .noActiveUser).jsonText
                == #"{"error":{"type":"error","errorType":{"type":"noActiveUser"}}}"#)
        #expect(
            ChatAPIError.commandError("live messages are not supported yet").json.compactText
                == #"{"type":"error","errorType":{"type":"commandError","message":"live messages are not supported yet"}}"#
        )
        #expect(
            ChatAPIError.agent("relay down").json.compactText
                == #"{"type":"errorAgent","agentError":{"type":"INTERNAL","internalErr":"relay down"}}"#)
        #expect(ChatAPIError(ChatError.contactNotFound("#9")) == .contactNotFound(contactId: 9))
        #expect(ChatAPIError(ChatError.itemNotFound("#4")) == .chatItemNotFound(itemId: 4))
        #expect(ChatAPIError(ChatError.notConnected("bob")) == .contactNotReady(contactName: "bob"))
    }

    @Test func invitationAndPendingConnection() {
        let connection = PendingContactConnection(
            pccConnId: 3, pccAgentConnId: "abc", pccConnStatus: "new", createdAt: Self.time,
            updatedAt: Self.time)
        #expect(
            ChatResponse.invitation(
                user: Self.alice, connLinkInvitation: "simplex:/invitation#/?v=2", connection: connection
            ).jsonText
                == #"{"result":{"type":"invitation","user":"# + Self.aliceJSON
                + #","connLinkInvitation":{"connFullLink":"simplex:/invitation#/?v=2"},"connection":{"pccConnId":3,"pccAgentConnId":"abc","#
                + #""pccConnStatus":"new","viaContactUri":false,"localAlias":"","createdAt":"2023-11-14T22:13:20.5Z","updatedAt":"2023-11-14T22:13:20.5Z"}}}"#
        )
    }

    @Test func cmdOkAndProfileUpdate() {
        #expect(ChatResponse.cmdOk(user: nil).jsonText == #"{"result":{"type":"cmdOk"}}"#)
        let updated = ChatResponse.userProfileUpdated(
            user: Self.alice, fromProfile: Profile(displayName: "al", fullName: ""),
            toProfile: Self.alice.profile,
            updateSummary: UserProfileUpdateSummary(updateSuccesses: 2, updateFailures: 0))
        #expect(
            updated.jsonText
                == #"{"result":{"type":"userProfileUpdated","user":"# + Self.aliceJSON
                + #","fromProfile":{"displayName":"al","fullName":""},"toProfile":{"displayName":"alice","fullName":"Alice A"},"#
                + #""updateSummary":{"updateSuccesses":2,"updateFailures":0,"changedContacts":[]}}}"#)
    }

    @Test func eventsAreTaggedAsSimpleXs() {
        let item = Self.item(9, .received, "hi", status: .rcvNew)
        #expect(
            ChatEvent.newItem(Self.bob, item).json(user: Self.alice).compactText
                == #"{"result":{"type":"newChatItems","user":"# + Self.aliceJSON
                + #","chatItems":[{"chatInfo":{"type":"direct","contact":"#
                + Self.bobJSON + #"},"chatItem":"# + item.json.compactText + "}]}}")
        #expect(
            ChatEvent.contactConnected(Self.bob).eventJSON(user: Self.alice).compactText
                == #"{"type":"contactConnected","user":"# + Self.aliceJSON + #","contact":"# + Self.bobJSON
                + "}")
        let reaction = ChatEvent.itemReaction(Self.bob, item, emoji: "👍", add: true).eventJSON(
            user: Self.alice, at: Self.time)
        #expect(
            reaction["reaction"]?.compactText
                == #"{"chatInfo":{"type":"direct","contact":"# + Self.bobJSON
                + #"},"chatReaction":{"chatDir":{"type":"directRcv"},"chatItem":"#
                + item.json.compactText
                + #","sentAt":"2023-11-14T22:13:20.5Z","reaction":{"type":"emoji","emoji":"👍"}}}"#)
        #expect(
            ChatEvent.error("boom").eventJSON(user: Self.alice)["chatError"]?.compactText
                == #"{"type":"error","errorType":{"type":"internalError","message":"boom"}}"#)
    }
}
