import SimpleXProtocol
import Testing

@testable import SimpleXChat

/// Every modelled event against a hand-written body in SimpleX's shape: `v`, `msgId`, `event`,
/// `params` in that order, objects inside `params` in key order, no whitespace. Each body is
/// checked byte for byte when written and read back to the same value.
@Suite struct ChatProtocolEventTests {
    let id1234 = SharedMsgID(bytes: [1, 2, 3, 4])  // AQIDBA==
    let id5678 = SharedMsgID(bytes: [5, 6, 7, 8])  // BQYHCA==
    let member = MemberID(bytes: [5, 6, 7])  // BQYH

    /// Writes `event` in a message with `v` 1000 and `msgId` AQIDBA== (or none), compares with
    /// `{"v":"1000",["msgId":"AQIDBA==",]"event":<name>,"params":<params>}`, and reads it back.
    private func check(_ event: ChatMsgEvent, withMsgId: Bool = false, params: String) throws {
        let message = ChatMessage(msgId: withMsgId ? id1234 : nil, event: event)
        let expected =
            #"{"v":"1000","# + (withMsgId ? #""msgId":"AQIDBA==","# : "") + #""event":""# + event.name
            + #"","params":"#
            + params + "}"
        #expect(String(decoding: try message.encoded(), as: UTF8.self) == expected)
        #expect(try ChatMessage(decoding: Array(expected.utf8)) == message)
    }

    @Test func newTextMessage() throws {
        try check(
            .msgNew(MsgContainer(content: .text("hello"))), withMsgId: true,
            params: #"{"content":{"text":"hello","type":"text"}}"#)
    }

    @Test func newMessageWithTimerAndLive() throws {
        try check(
            .msgNew(MsgContainer(content: .text("hi"), ttl: 3600, live: true)), withMsgId: true,
            params: #"{"content":{"text":"hi","type":"text"},"live":true,"ttl":3600}"#)
        try check(
            .msgNew(MsgContainer(content: .text(""), live: false)),
            params: #"{"content":{"text":"","type":"text"},"live":false}"#)
    }

    @Test func newMessageWithFile() throws {
        try check(
            .msgNew(
                MsgContainer(
                    content: .image(text: "", image: "data:image/jpg;base64,/9j/"),
                    file: FileInvitation(fileName: "photo.jpg", fileSize: 12345))),
            withMsgId: true,
            params:
                #"{"content":{"image":"data:image/jpg;base64,/9j/","text":"","type":"image"},"file":{"fileName":"photo.jpg","fileSize":12345}}"#
        )
    }

    @Test func newMessageQuotingAnother() throws {
        let quote = QuotedMsg(
            msgRef: MsgRef(msgId: id5678, sentAt: ChatTimestamp(seconds: 1, picoseconds: 1000), sent: true),
            content: .text("hello there!"))
        try check(
            .msgNew(MsgContainer(content: .text("hello to you too"), quote: quote)), withMsgId: true,
            params:
                #"{"content":{"text":"hello to you too","type":"text"},"quote":{"content":{"text":"hello there!","type":"text"},"msgRef":{"msgId":"BQYHCA==","sent":true,"sentAt":"1970-01-01T00:00:01.000000001Z"}}}"#
        )
        let groupQuote = QuotedMsg(
            msgRef: MsgRef(
                msgId: nil, sentAt: ChatTimestamp(seconds: 1_709_856_000), sent: false, memberId: member),
            content: .voice(text: "", duration: 3))
        try check(
            .msgNew(MsgContainer(content: .text("ok"), quote: groupQuote)),
            params:
                #"{"content":{"text":"ok","type":"text"},"quote":{"content":{"duration":3,"text":"","type":"voice"},"msgRef":{"memberId":"BQYH","sent":false,"sentAt":"2024-03-08T00:00:00Z"}}}"#
        )
    }

    @Test func forwardedMessage() throws {
        try check(
            .msgNew(
                MsgContainer(
                    content: .text("hello"), file: FileInvitation(fileName: "a.txt", fileSize: 3),
                    forward: true)),
            withMsgId: true,
            params:
                #"{"content":{"text":"hello","type":"text"},"file":{"fileName":"a.txt","fileSize":3},"forward":true}"#
        )
    }

    @Test func newMessageWithMentionsAndGroupFields() throws {
        let parent = MsgRef(msgId: id5678, sentAt: ChatTimestamp(seconds: 0), sent: false)
        try check(
            .msgNew(
                MsgContainer(
                    content: .text("@bob @alice"),
                    mentions: ["bob": MemberID(bytes: [4, 5, 6]), "alice": member],
                    scope: ["memberId": "BQYH", "type": "member"], asGroup: true, parent: parent)),
            params:
                #"{"asGroup":true,"content":{"text":"@bob @alice","type":"text"},"mentions":{"alice":{"memberId":"BQYH"},"bob":{"memberId":"BAUG"}},"parent":{"msgId":"BQYHCA==","sent":false,"sentAt":"1970-01-01T00:00:00Z"},"scope":{"memberId":"BQYH","type":"member"}}"#
        )
    }

    @Test func fileDescriptionPart() throws {
        try check(
            .msgFileDescr(
                msgId: id5678,
                fileDescr: FileDescr(
                    fileDescrText: "chunks:\n- 1", fileDescrPartNo: 1, fileDescrComplete: false)),
            params:
                #"{"fileDescr":{"fileDescrComplete":false,"fileDescrPartNo":1,"fileDescrText":"chunks:\n- 1"},"msgId":"BQYHCA=="}"#
        )
    }

    @Test func update() throws {
        try check(
            .msgUpdate(MsgUpdate(msgId: id5678, content: .text("edited"))),
            params: #"{"content":{"text":"edited","type":"text"},"msgId":"BQYHCA=="}"#)
        try check(
            .msgUpdate(
                MsgUpdate(
                    msgId: id5678, content: .text("typing"), mentions: ["al": member], ttl: 60, live: true,
                    prefs: ["commentsDisabled": true])),
            params:
                #"{"content":{"text":"typing","type":"text"},"live":true,"mentions":{"al":{"memberId":"BQYH"}},"msgId":"BQYHCA==","prefs":{"commentsDisabled":true},"ttl":60}"#
        )
    }

    @Test func deletion() throws {
        try check(.msgDel(msgId: id5678, memberId: nil, scope: nil), params: #"{"msgId":"BQYHCA=="}"#)
        try check(
            .msgDel(msgId: id5678, memberId: member, scope: nil),
            params: #"{"memberId":"BQYH","msgId":"BQYHCA=="}"#)
        try check(.msgDeleted, params: "{}")
    }

    @Test func reaction() throws {
        try check(
            .msgReact(msgId: id5678, memberId: nil, scope: nil, reaction: .emoji(.thumbsUp), add: true),
            params: #"{"add":true,"msgId":"BQYHCA==","reaction":{"emoji":"👍","type":"emoji"}}"#)
        try check(
            .msgReact(msgId: id5678, memberId: member, scope: nil, reaction: .emoji(.heart), add: false),
            params:
                "{\"add\":false,\"memberId\":\"BQYH\",\"msgId\":\"BQYHCA==\",\"reaction\":{\"emoji\":\"\u{2764}\",\"type\":\"emoji\"}}"
        )
    }

    @Test func fileEvents() throws {
        try check(
            .file(FileInvitation(fileName: "photo.jpg", fileSize: 12345)), withMsgId: true,
            params: #"{"file":{"fileName":"photo.jpg","fileSize":12345}}"#)
        try check(.fileAcpt(fileName: "photo.jpg"), params: #"{"fileName":"photo.jpg"}"#)
        try check(
            .fileAcptInv(
                msgId: id5678, fileConnReq: "simplex:/invitation#/?v=1000&smp=x", fileName: "photo.jpg"),
            params:
                #"{"fileConnReq":"simplex:/invitation#/?v=1000&smp=x","fileName":"photo.jpg","msgId":"BQYHCA=="}"#
        )
        try check(
            .fileAcptInv(msgId: id5678, fileConnReq: nil, fileName: "photo.jpg"),
            params: #"{"fileName":"photo.jpg","msgId":"BQYHCA=="}"#)
        try check(.fileCancel(msgId: id5678), params: #"{"msgId":"BQYHCA=="}"#)
    }

    @Test func contactEvents() throws {
        let alice = Profile(
            displayName: "alice", fullName: "Alice",
            preferences: ["reactions": ["allow": "yes"], "voice": ["allow": "yes"]])
        let aliceJSON =
            #"{"displayName":"alice","fullName":"Alice","preferences":{"reactions":{"allow":"yes"},"voice":{"allow":"yes"}}}"#
        try check(.info(alice), params: #"{"profile":"# + aliceJSON + "}")
        try check(.contact(ContactRequest(profile: alice)), params: #"{"profile":"# + aliceJSON + "}")
        try check(
            .contact(
                ContactRequest(
                    profile: alice, contactReqId: XContactID(bytes: [1, 2, 3]), welcomeMsgId: id5678,
                    requestMsg: .init(msgId: id1234, content: .text("hi, it's alice")))),
            params:
                #"{"contactReqId":"AQID","content":{"text":"hi, it's alice","type":"text"},"msgId":"AQIDBA==","profile":"#
                + aliceJSON
                + #","welcomeMsgId":"BQYHCA=="}"#)
        try check(.directDel, params: "{}")
        try check(.ok, params: "{}")
    }

    @Test func probes() throws {
        try check(.infoProbe(Probe(bytes: [0, 1, 2, 3])), params: #"{"probe":"AAECAw=="}"#)
        try check(.infoProbeCheck(ProbeHash(bytes: [0xFF, 0xEE])), params: #"{"probeHash":"_-4="}"#)
        try check(.infoProbeOk(Probe(bytes: [0, 1, 2, 3])), params: #"{"probe":"AAECAw=="}"#)
    }

    @Test func contactRequestMessageNeedsBothIdAndContent() throws {
        let body =
            #"{"v":"1000","event":"x.contact","params":{"msgId":"AQIDBA==","profile":{"displayName":"a","fullName":""}}}"#
        let message = try ChatMessage(decoding: Array(body.utf8))
        #expect(message.event == .contact(ContactRequest(profile: Profile(displayName: "a", fullName: ""))))
    }
}
