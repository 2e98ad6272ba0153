import SimpleXProtocol
import Testing

@testable import SimpleXChat

/// Every `x.grp.*` event, read from bodies in the shape of SimpleX's tests/ProtocolTests.hs (keys in
/// any order, the odd space) and from the reference's params, then written back: the result is
/// the same JSON with keys sorted, as SimpleX's core writes it, and reads back to the same value.
@Suite struct ChatProtocolGroupEventTests {
    static let link =
        "simplex:/invitation#/?v=1&smp=smp%3A%2F%2F1234-w%3D%3D%40smp.simplex.im%3A5223%2F3456-w%3D%3D%23%2F%3Fv%3D1-2%26dh%3DMCowBQYDK2VuAyEAjiswwI3O_NlS8Fk3HJUW870EY2bAwmttMBsvRB9eV3o%253D"
    static let aliceJSON =
        #"{"fullName":"Alice","displayName":"alice","preferences":{"reactions":{"allow":"yes"},"voice":{"allow":"yes"}}}"#
    let alice = Profile(
        displayName: "alice", fullName: "Alice",
        preferences: ["reactions": ["allow": "yes"], "voice": ["allow": "yes"]])
    let teamJSON =
        #"{"fullName":"Team","displayName":"team","groupPreferences":{"reactions":{"enable":"on"},"voice":{"enable":"on"}}}"#
    let team = GroupProfile(
        displayName: "team", fullName: "Team",
        groupPreferences: ["reactions": ["enable": "on"], "voice": ["enable": "on"]])
    let id1234 = MemberID(bytes: [1, 2, 3, 4])  // AQIDBA==
    let id5678 = MemberID(bytes: [5, 6, 7, 8])  // BQYHCA==

    /// Reads `body`, expects `event`, and writes it back as `body` with its keys sorted.
    private func check(_ body: String, _ event: GroupEvent, sourceLocation: SourceLocation = #_sourceLocation)
        throws
    {
        let message = try ChatMessage(decoding: Array(body.utf8))
        #expect(message.event == .group(event), sourceLocation: sourceLocation)
        let sorted = try JSON(parsing: Array(body.utf8)).sortedRecursively()
        // `v` and `msgId` lead, as SimpleX writes them; the rest is sorted.
        var expected = JSONObject()
        for key in ["v", "msgId", "event", "params"] { expected[key] = sorted[key] }
        #expect(
            String(decoding: try message.encoded(), as: UTF8.self) == JSON.object(expected).compactText,
            sourceLocation: sourceLocation)
        #expect(try ChatMessage(decoding: try message.encoded()) == message, sourceLocation: sourceLocation)
    }

    private func body(_ event: String, _ params: String) -> String {
        #"{"v":"1","event":""# + event + #"","params":"# + params + "}"
    }

    @Test func invitationAndAcceptance() throws {
        let invitation = GroupInvitation(
            fromMember: MemberIdRole(memberId: id1234, memberRole: .admin),
            invitedMember: MemberIdRole(memberId: id5678, memberRole: .member), connRequest: Self.link,
            groupProfile: team)
        try check(
            body(
                "x.grp.inv",
                #"{"groupInvitation":{"connRequest":""# + Self.link
                    + #"","invitedMember":{"memberRole":"member","memberId":"BQYHCA=="},"groupProfile":"#
                    + teamJSON
                    + #","fromMember":{"memberRole":"admin","memberId":"AQIDBA=="}}}"#), .inv(invitation))
        var withLink = invitation
        withLink.groupLinkId = GroupLinkID(bytes: [1, 2, 3, 4])
        withLink.groupSize = 3
        try check(
            body(
                "x.grp.inv",
                #"{"groupInvitation":{"connRequest":""# + Self.link
                    + #"","invitedMember":{"memberRole":"member","memberId":"BQYHCA=="},"groupProfile":"#
                    + teamJSON
                    + #","fromMember":{"memberRole":"admin","memberId":"AQIDBA=="}, "groupLinkId":"AQIDBA==","groupSize":3}}"#
            ),
            .inv(withLink))
        try check(body("x.grp.acpt", #"{"memberId":"AQIDBA=="}"#), .acpt(memberId: id1234))
    }

    @Test func announcementsAndIntroductions() throws {
        let info = MemberInfo(memberId: id1234, memberRole: .admin, profile: alice)
        let memberInfo = #"{"memberRole":"admin","memberId":"AQIDBA==","profile":"# + Self.aliceJSON + "}"
        try check(body("x.grp.mem.new", #"{"memberInfo":"# + memberInfo + "}"), .memNew(info, scope: nil))
        var versioned = info
        versioned.chatVRange = try VersionRange(json: "1-5", path: "v")
        try check(
            body(
                "x.grp.mem.intro",
                #"{"memberInfo":{"memberRole":"admin","memberId":"AQIDBA==","v":"1-5","profile":"#
                    + Self.aliceJSON
                    + "}}"), .memIntro(versioned, restrictions: nil))
        try check(
            body(
                "x.grp.mem.intro",
                #"{"memberInfo":"# + memberInfo + #","memberRestrictions":{"restriction":"blocked"}}"#),
            .memIntro(info, restrictions: MemberRestrictions(restriction: .blocked)))
        // A newer client's member key is kept and written back.
        var keyed = info
        keyed.otherFields = ["memberKey": "MCowBQ"]
        try check(
            body(
                "x.grp.mem.new",
                #"{"memberInfo":{"memberRole":"admin","memberId":"AQIDBA==","memberKey":"MCowBQ","profile":"#
                    + Self.aliceJSON + #"},"scope":{"memberId":"BQYHCA==","type":"member"}}"#),
            .memNew(keyed, scope: ["memberId": "BQYHCA==", "type": "member"]))
    }

    @Test func invitationsBetweenMembers() throws {
        let both = IntroInvitation(groupConnReq: Self.link, directConnReq: Self.link)
        let groupOnly = IntroInvitation(groupConnReq: Self.link)
        try check(
            body(
                "x.grp.mem.inv",
                #"{"memberId":"AQIDBA==","memberIntro":{"directConnReq":""# + Self.link
                    + #"","groupConnReq":""#
                    + Self.link + #""}}"#), .memInv(memberId: id1234, intro: both))
        try check(
            body(
                "x.grp.mem.inv",
                #"{"memberId":"AQIDBA==","memberIntro":{"groupConnReq":""# + Self.link + #""}}"#),
            .memInv(memberId: id1234, intro: groupOnly))
        try check(
            body(
                "x.grp.mem.fwd",
                #"{"memberIntro":{"groupConnReq":""# + Self.link
                    + #""},"memberInfo":{"memberRole":"admin","memberId":"AQIDBA==","profile":"#
                    + Self.aliceJSON
                    + "}}"),
            .memFwd(MemberInfo(memberId: id1234, memberRole: .admin, profile: alice), intro: groupOnly))
        try check(
            body("x.grp.mem.info", #"{"memberId":"AQIDBA==","profile":"# + Self.aliceJSON + "}"),
            .memInfo(memberId: id1234, profile: alice))
        try check(body("x.grp.mem.con", #"{"memberId":"AQIDBA=="}"#), .memCon(memberId: id1234))
        try check(body("x.grp.mem.con.all", #"{"memberId":"AQIDBA=="}"#), .memConAll(memberId: id1234))
        try check(
            body(
                "x.grp.direct.inv",
                #"{"connReq":""# + Self.link + #"", "content":{"text":"hello","type":"text"}}"#),
            .directInv(connReq: Self.link, content: .text("hello"), scope: nil))
        try check(
            body("x.grp.direct.inv", #"{"connReq":""# + Self.link + #""}"#),
            .directInv(connReq: Self.link, content: nil, scope: nil))
    }

    @Test func rolesRestrictionsRemovalAndLeaving() throws {
        try check(
            body("x.grp.mem.role", #"{"memberId":"AQIDBA==","role":"observer"}"#),
            .memRole(memberId: id1234, role: .observer))
        try check(
            body(
                "x.grp.mem.restrict",
                #"{"memberId":"AQIDBA==","memberRestrictions":{"restriction":"unrestricted"}}"#),
            .memRestrict(memberId: id1234, restrictions: MemberRestrictions(restriction: .unrestricted)))
        try check(
            body("x.grp.mem.del", #"{"memberId":"AQIDBA=="}"#), .memDel(memberId: id1234, messages: false))
        try check(
            body("x.grp.mem.del", #"{"memberId":"AQIDBA==","messages":true}"#),
            .memDel(memberId: id1234, messages: true))
        try check(body("x.grp.leave", "{}"), .leave)
        try check(body("x.grp.del", "{}"), .del)
    }

    @Test func profileAndPreferences() throws {
        var welcome = team
        welcome.description = "Welcome!"
        welcome.image = "data:image/png;base64,iVBORw0KGgo="
        welcome.otherFields = ["memberAdmission": ["review": "all"]]
        try check(
            body(
                "x.grp.info",
                #"{"groupProfile":{"displayName":"team","fullName":"Team","description":"Welcome!","image":"data:image/png;base64,iVBORw0KGgo=","groupPreferences":{"reactions":{"enable":"on"},"voice":{"enable":"on"}},"memberAdmission":{"review":"all"}}}"#
            ),
            .info(welcome))
        try check(
            body(
                "x.grp.prefs",
                #"{"groupPreferences":{"directMessages":{"enable":"off"},"files":{"enable":"on","role":"member"}}}"#
            ),
            .prefs(
                GroupPreferences([
                    .directMessages: .init(enable: false), .files: .init(enable: true, role: .member),
                ])))
    }

    @Test func groupLinks() throws {
        let linkInvitation = GroupLinkInvitation(
            fromMember: MemberIdRole(memberId: id1234, memberRole: .owner), fromMemberName: "alice",
            invitedMember: MemberIdRole(memberId: id5678, memberRole: .member), groupProfile: team,
            groupSize: 2)
        try check(
            body(
                "x.grp.link.inv",
                #"{"groupLinkInvitation":{"fromMember":{"memberId":"AQIDBA==","memberRole":"owner"},"fromMemberName":"alice","invitedMember":{"memberId":"BQYHCA==","memberRole":"member"},"groupProfile":"#
                    + teamJSON + #","groupSize":2}}"#), .linkInv(linkInvitation))
        try check(
            body(
                "x.grp.link.reject",
                #"{"groupLinkRejection":{"fromMember":{"memberId":"AQIDBA==","memberRole":"owner"},"invitedMember":{"memberId":"BQYHCA==","memberRole":"member"},"groupProfile":"#
                    + teamJSON + #","rejectionReason":"long_name"}}"#),
            .linkReject(
                GroupLinkRejection(
                    fromMember: linkInvitation.fromMember, invitedMember: linkInvitation.invitedMember,
                    groupProfile: team, rejectionReason: "long_name")))
        try check(body("x.grp.link.mem", #"{"profile":"# + Self.aliceJSON + "}"), .linkMem(alice))
        try check(
            body("x.grp.link.acpt", #"{"acceptance":"accepted","role":"member","memberId":"BQYHCA=="}"#),
            .linkAcpt(acceptance: "accepted", role: .member, memberId: id5678))
    }

    /// The forwarded message is a JSON value inside the params, so SimpleX writes its keys sorted
    /// too (`event`, `msgId`, `params`, `v`), unlike a message's own top level.
    @Test func forwardedMessage() throws {
        let inner = ChatMessage(
            chatVRange: try VersionRange(json: "1", path: "v"), msgId: SharedMsgID(bytes: [1, 2, 3, 4]),
            event: .msgNew(MsgContainer(content: .text("hello"))))
        try check(
            body(
                "x.grp.msg.forward",
                #"{"memberId":"AQIDBA==","memberName":"bob","msg":{"v":"1","msgId":"AQIDBA==","event":"x.msg.new","params":{"content":{"text":"hello","type":"text"}}},"msgTs":"1970-01-01T00:00:01.000000001Z"}"#
            ),
            .msgForward(
                GroupMsgForward(
                    memberId: id1234, memberName: "bob", msg: inner,
                    msgTs: ChatTimestamp(seconds: 1, picoseconds: 1000))))
    }

    @Test func badGroupEventsAreErrorsNamingTheField() {
        let cases: [(String, ChatProtocolError)] = [
            (body("x.grp.acpt", "{}"), .missingField("params.memberId")),
            (
                body("x.grp.mem.role", #"{"memberId":"AQIDBA==","role":"king"}"#),
                .invalidValue(path: "params.role", reason: "unknown member role king")
            ),
            (
                body(
                    "x.grp.msg.forward",
                    #"{"msg":{"event":"x.grp.msg.forward","params":{"msg":{"event":"x.ok","params":{}},"msgTs":"1970-01-01T00:00:01Z"}},"msgTs":"1970-01-01T00:00:01Z"}"#
                ),
                .invalidValue(path: "params.msg", reason: "a forwarded message cannot forward another")
            ),
        ]
        for (text, expected) in cases {
            #expect(throws: expected) { try ChatMessage(decoding: Array(text.utf8)) }
        }
    }

    /// One body of each `x.grp.*` event, as SimpleX's core writes it (keys sorted).
    static let samples: [String] = {
        let member = #"{"memberId":"AQIDBA==","memberRole":"admin"}"#
        let invited = #"{"memberId":"BQYHCA==","memberRole":"member"}"#
        let profile = #"{"displayName":"alice","fullName":"Alice"}"#
        let group = #"{"displayName":"team","fullName":"","groupPreferences":{"files":{"enable":"off"}}}"#
        let info = #"{"memberId":"AQIDBA==","memberRole":"admin","profile":"# + profile + #","v":"1-18"}"#
        let intro =
            #"{"directConnReq":""# + ChatProtocolGroupEventTests.link + #"","groupConnReq":""#
            + ChatProtocolGroupEventTests.link + #""}"#
        let params: [(String, String)] = [
            (
                "x.grp.inv",
                #"{"groupInvitation":{"connRequest":""# + ChatProtocolGroupEventTests.link
                    + #"","fromMember":"# + member
                    + #","groupLinkId":"AQIDBA==","groupProfile":"# + group
                    + #","groupSize":2,"invitedMember":"# + invited + "}}"
            ),
            ("x.grp.acpt", #"{"memberId":"AQIDBA=="}"#),
            (
                "x.grp.link.inv",
                #"{"groupLinkInvitation":{"accepted":"accepted","fromMember":"# + member
                    + #","fromMemberName":"alice","groupProfile":"# + group
                    + #","groupSize":3,"invitedMember":"# + invited + "}}"
            ),
            (
                "x.grp.link.reject",
                #"{"groupLinkRejection":{"fromMember":"# + member + #","groupProfile":"# + group
                    + #","invitedMember":"# + invited + #","rejectionReason":"blocked_name"}}"#
            ),
            ("x.grp.link.mem", #"{"profile":"# + profile + "}"),
            ("x.grp.link.acpt", #"{"acceptance":"pending_review","memberId":"BQYHCA==","role":"observer"}"#),
            (
                "x.grp.mem.new",
                #"{"memberInfo":"# + info + #","scope":{"memberId":"BQYHCA==","type":"member"}}"#
            ),
            (
                "x.grp.mem.intro",
                #"{"memberInfo":"# + info + #","memberRestrictions":{"restriction":"blocked"}}"#
            ),
            ("x.grp.mem.inv", #"{"memberId":"AQIDBA==","memberIntro":"# + intro + "}"),
            ("x.grp.mem.fwd", #"{"memberInfo":"# + info + #","memberIntro":"# + intro + "}"),
            ("x.grp.mem.info", #"{"memberId":"AQIDBA==","profile":"# + profile + "}"),
            ("x.grp.mem.role", #"{"memberId":"AQIDBA==","role":"moderator"}"#),
            (
                "x.grp.mem.restrict",
                #"{"memberId":"AQIDBA==","memberRestrictions":{"restriction":"unrestricted"}}"#
            ),
            ("x.grp.mem.con", #"{"memberId":"AQIDBA=="}"#),
            ("x.grp.mem.con.all", #"{"memberId":"AQIDBA=="}"#),
            ("x.grp.mem.del", #"{"memberId":"AQIDBA==","messages":true}"#),
            ("x.grp.leave", "{}"),
            ("x.grp.del", "{}"),
            (
                "x.grp.info",
                #"{"groupProfile":{"description":"Welcome!","displayName":"team","fullName":"Team","groupPreferences":{"directMessages":{"enable":"on"},"history":{"enable":"on"},"timedMessages":{"enable":"on","ttl":86400}},"image":"data:image/png;base64,iVBORw0KGgo=","memberAdmission":{"review":"all"},"shortDescr":"ours"}}"#
            ),
            (
                "x.grp.prefs",
                #"{"groupPreferences":{"files":{"enable":"on","role":"admin"},"fullDelete":{"enable":"off"},"newOne":{"enable":"on"}}}"#
            ),
            (
                "x.grp.direct.inv",
                #"{"connReq":""# + ChatProtocolGroupEventTests.link
                    + #"","content":{"text":"hi","type":"text"}}"#
            ),
            (
                "x.grp.msg.forward",
                #"{"memberId":"AQIDBA==","memberName":"bob","msg":{"event":"x.msg.new","msgId":"AQIDBA==","params":{"content":{"text":"hello","type":"text"}},"v":"1"},"msgTs":"1970-01-01T00:00:01Z"}"#
            ),
            (
                "x.grp.relay.inv",
                #"{"groupRelayInvitation":{"fromMember":"# + member + #","fromMemberProfile":"# + profile
                    + #","groupLink":"https://simplex.chat/c#abc","relayMemberId":"BQYHCA=="}}"#
            ),
            ("x.grp.relay.acpt", #"{"relayLink":"https://simplex.chat/c#def"}"#),
            ("x.grp.relay.test", #"{"challenge":"AQIDBA==","signature":"BQYHCA=="}"#),
        ]
        return params.map {
            #"{"v":"1-18","msgId":"AQIDBA==","event":""# + $0.0 + #"","params":"# + $0.1 + "}"
        }
    }()

    /// Each sample decodes to a modelled group event (none kept raw) and encodes back to the same
    /// JSON object.
    @Test func everyGroupEventDecodesAndEncodesBackToTheSameJSON() throws {
        for body in Self.samples {
            let message = try ChatMessage(decoding: Array(body.utf8))
            guard case .group = message.event else {
                Issue.record("not a modelled group event: \(body)")
                continue
            }
            let encoded = try JSON(parsing: try message.encoded())
            #expect(
                encoded.sortedRecursively() == (try JSON(parsing: body)).sortedRecursively(),
                "\(message.event.name)")
        }
    }

    @Test func noGroupEventIsKeptRaw() {
        #expect(GroupEvent.names.isDisjoint(with: ChatMsgEvent.simplexEventsKeptRaw))
        #expect(GroupEvent.names.count == 25)
        let decoded = Self.samples.compactMap { try? ChatMessage(decoding: Array($0.utf8)).event.name }
        #expect(GroupEvent.names == Set(decoded))
        #expect(
            GroupMemberRole.observer < .author && GroupMemberRole.admin < .owner
                && GroupMemberRole.relay < .observer)
    }
}
