import Testing

@testable import SimpleXChat

/// Message content, reactions, file invitations and profiles, each against hand-written JSON in
/// SimpleX's shapes (keys in aeson's sorted order).
@Suite struct ChatProtocolContentTests {
    private func roundTrip(_ content: MsgContent, _ expected: String) throws {
        #expect(content.json.compactText == expected)
        #expect(try MsgContent(json: JSON(parsing: expected)) == content)
    }

    @Test func eachContentTypeHasSimplexShape() throws {
        try roundTrip(.text("hello"), #"{"text":"hello","type":"text"}"#)
        try roundTrip(
            .link(
                text: "https://simplex.chat",
                preview: LinkPreview(
                    uri: "https://simplex.chat", title: "SimpleX", description: "Private",
                    image: "data:image/png;base64,iVBO")),
            #"{"preview":{"description":"Private","image":"data:image/png;base64,iVBO","title":"SimpleX","uri":"https://simplex.chat"},"text":"https://simplex.chat","type":"link"}"#
        )
        try roundTrip(
            .image(text: "", image: "data:image/jpg;base64,/9j/4AAQ"),
            #"{"image":"data:image/jpg;base64,/9j/4AAQ","text":"","type":"image"}"#)
        try roundTrip(
            .video(text: "clip", image: "data:image/jpg;base64,AA==", duration: 42),
            #"{"duration":42,"image":"data:image/jpg;base64,AA==","text":"clip","type":"video"}"#)
        try roundTrip(.voice(text: "", duration: 65), #"{"duration":65,"text":"","type":"voice"}"#)
        try roundTrip(.file("report.pdf"), #"{"text":"report.pdf","type":"file"}"#)
        try roundTrip(
            .report(text: "buy now", reason: .spam), #"{"reason":"spam","text":"buy now","type":"report"}"#)
        try roundTrip(
            .chat(text: "join us", chatLink: ["type": "group", "connLink": "https://smp.example/g#abc"]),
            #"{"chatLink":{"type":"group","connLink":"https://smp.example/g#abc"},"text":"join us","type":"chat"}"#
        )
    }

    @Test func linkPreviewContentIsKeptWhenPresent() throws {
        let json =
            #"{"preview":{"content":{"duration":30,"type":"video"},"description":"","image":"","title":"t","uri":"u"},"text":"u","type":"link"}"#
        let content = try MsgContent(json: JSON(parsing: json))
        guard case .link(_, let preview) = content else {
            Issue.record("not a link: \(content)")
            return
        }
        #expect(preview.content == ["duration": 30, "type": "video"])
        #expect(content.json.compactText == json)
    }

    @Test func reportReasonsIncludeUnknownOnes() throws {
        for reason in ["spam", "content", "community", "profile", "other"] {
            #expect(ReportReason(rawValue: reason).rawValue == reason)
            if case .unknown = ReportReason(rawValue: reason) { Issue.record("\(reason) is a known reason") }
        }
        let json = #"{"reason":"impersonation","text":"","type":"report"}"#
        let content = try MsgContent(json: JSON(parsing: json))
        #expect(content == .report(text: "", reason: .unknown("impersonation")))
        #expect(content.json.compactText == json)
        #expect(content.displayText == "report impersonation")
        #expect(MsgContent.report(text: "fake", reason: .profile).displayText == "report profile: fake")
    }

    @Test func unknownContentIsKeptAndShownAsText() throws {
        let json = #"{"type":"poll","text":"Lunch?","options":["pizza","sushi"],"multiple":false}"#
        let content = try MsgContent(json: JSON(parsing: json))
        #expect(content.type == "poll")
        #expect(content.text == "Lunch?")
        #expect(content.displayText == "Lunch?")
        #expect(content.json.compactText == json, "written back unchanged, in its own key order")
        let noText = try MsgContent(json: JSON(parsing: #"{"type":"sticker","pack":7}"#))
        #expect(noText.text == "unknown message type")
        #expect(
            noText.json.compactText == #"{"type":"sticker","pack":7}"#, "the placeholder text is not added")
        let oddText = try MsgContent(json: JSON(parsing: #"{"type":"sticker","text":5}"#))
        #expect(oddText.text == "unknown message type")
    }

    @Test func voiceDisplayTextHasItsDuration() {
        #expect(MsgContent.voice(text: "", duration: 65).displayText == "voice message (01:05)")
        #expect(MsgContent.voice(text: "hi", duration: 600).displayText == "voice message (10:00); hi")
    }

    @Test func knownContentMissingAFieldIsAnError() {
        #expect(throws: ChatProtocolError.missingField("content.text")) {
            try MsgContent(json: JSON(parsing: #"{"type":"text"}"#))
        }
        #expect(throws: ChatProtocolError.missingField("content.duration")) {
            try MsgContent(json: JSON(parsing: #"{"type":"voice","text":""}"#))
        }
        #expect(throws: ChatProtocolError.missingField("content.preview.uri")) {
            try MsgContent(
                json: JSON(
                    parsing: #"{"type":"link","text":"","preview":{"title":"","description":"","image":""}}"#)
            )
        }
        #expect(throws: ChatProtocolError.missingField("content.type")) {
            try MsgContent(json: JSON(parsing: #"{"text":"hello"}"#))
        }
        #expect(
            throws: ChatProtocolError.wrongType(path: "content.duration", expected: "number", found: "string")
        ) {
            try MsgContent(json: JSON(parsing: #"{"type":"voice","text":"","duration":"5"}"#))
        }
        #expect(
            throws: ChatProtocolError.invalidValue(
                path: "content.duration", reason: "not a whole number: 1.5")
        ) {
            try MsgContent(json: JSON(parsing: #"{"type":"voice","text":"","duration":1.5}"#))
        }
        #expect(throws: ChatProtocolError.wrongType(path: "content", expected: "object", found: "string")) {
            try MsgContent(json: "hello")
        }
    }

    @Test func fileInvitationHasSimplexShape() throws {
        let full = FileInvitation(
            fileName: "notes.txt", fileSize: 1_048_576, fileDigest: FileDigest(bytes: [9, 8, 7]),
            fileConnReq: "simplex:/invitation#/?v=1000", fileInline: .offer,
            fileDescr: FileDescr(
                fileDescrText: "name: notes.txt\nsize: 1mb\n", fileDescrPartNo: 0, fileDescrComplete: true))
        let json =
            #"{"fileConnReq":"simplex:/invitation#/?v=1000","fileDescr":{"fileDescrComplete":true,"fileDescrPartNo":0,"fileDescrText":"name: notes.txt\nsize: 1mb\n"},"fileDigest":"CQgH","fileInline":"offer","fileName":"notes.txt","fileSize":1048576}"#
        #expect(full.json.compactText == json)
        #expect(try FileInvitation(json: JSON(parsing: json), path: "file") == full)
        let bare = FileInvitation(fileName: "photo.jpg", fileSize: 12345)
        #expect(bare.json.compactText == #"{"fileName":"photo.jpg","fileSize":12345}"#)
        #expect(
            throws: ChatProtocolError.invalidValue(
                path: "file.fileInline", reason: "unknown inline mode later")
        ) {
            try FileInvitation(
                json: JSON(parsing: #"{"fileName":"a","fileSize":1,"fileInline":"later"}"#), path: "file")
        }
    }

    @Test func profileHasSimplexShapeAndKeepsUnknownFields() throws {
        let profile = Profile(
            displayName: "alice", fullName: "Alice", shortDescr: "hi", image: "data:image/png;base64,iVBO",
            contactLink: "simplex:/contact#/?v=1000", preferences: ["voice": ["allow": "yes"]])
        let json =
            #"{"contactLink":"simplex:/contact#/?v=1000","displayName":"alice","fullName":"Alice","image":"data:image/png;base64,iVBO","preferences":{"voice":{"allow":"yes"}},"shortDescr":"hi"}"#
        #expect(profile.json.compactText == json)
        #expect(try Profile(json: JSON(parsing: json)) == profile)
        #expect(
            Profile(displayName: "bob", fullName: "").json.compactText
                == #"{"displayName":"bob","fullName":""}"#)

        let newer = try Profile(
            json: JSON(parsing: #"{"displayName":"bot","fullName":"","peerType":"bot","image":null}"#))
        #expect(newer.image == nil)
        #expect(newer.otherFields["peerType"] == "bot")
        #expect(newer.json.compactText == #"{"displayName":"bot","fullName":"","peerType":"bot"}"#)
        #expect(throws: ChatProtocolError.missingField("profile.fullName")) {
            try Profile(json: JSON(parsing: #"{"displayName":"alice"}"#))
        }
    }
}
