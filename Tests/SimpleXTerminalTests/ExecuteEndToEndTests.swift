import Foundation
import Testing
import TestSupport

/// `simplex-chat -e '<command>'` as a script uses it: a user made by the line mode's first run,
/// then one command a process, each printing SimpleX's JSON; a message sent with `-e` reaches a
/// contact whose line mode is running, through a real relay.
@Suite(.serialized)
struct ExecuteEndToEndTests {
    struct Run {
        let status: Int32
        let out: [String]
        let err: [String]

        /// The one line printed, as a JSON object.
        func json() throws -> [String: Any] {
            guard out.count == 1,
                let object = try JSONSerialization.jsonObject(with: Data(out[0].utf8)) as? [String: Any]
            else {
                throw TestSupportError("expected one JSON line, got \(out) (stderr \(err))")
            }
            return object
        }
    }

    static func execute(_ command: String, in directory: TemporaryDirectory) async throws -> Run {
        let process = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["-e", command],
            environment: CLIUser.environment(directory))
        let status = try await process.wait(timeout: .seconds(60))
        return Run(status: status, out: process.allOutput, err: process.allErrors)
    }

    @Test func oneCommandAProcessPrintingSimpleXJSON() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await LineModeEndToEndTests.connect(alice, bob)
        alice.send("@bob hello bob")
        try await bob.expectLine(#"\d\d:\d\d alice> hello bob"#)
        // -e takes core.lock as the line mode does: not while alice's is running.
        let locked = try await Self.execute("/u", in: alice.directory)
        #expect(locked.status == 1)
        #expect(locked.out.isEmpty)
        #expect(
            locked.err.count == 1
                && locked.err[0].contains(
                    "(core.lock is held by pid \(alice.process.pid) (simplex-chat)): quit it (simplex-chat --cli) and try again"
                ))
        try await alice.quit()

        let user = try await Self.execute("/u", in: alice.directory)
        #expect(user.status == 0, "\(user.err)")
        #expect(
            user.out == [
                #"{"result":{"type":"activeUser","user":{"userId":1,"localDisplayName":"alice","#
                    + #""profile":{"displayName":"alice","fullName":"","localAlias":""},"activeUser":true,"sendRcptsContacts":true}}}"#
            ])

        let chats = try await Self.execute("/_get chats 1 pcc=on", in: alice.directory)
        #expect(chats.status == 0, "\(chats.err)")
        let result = try #require(try chats.json()["result"] as? [String: Any])
        #expect(result["type"] as? String == "apiChats")
        let list = try #require(result["chats"] as? [[String: Any]])
        #expect(list.count == 1)
        let chatInfo = try #require(list.first?["chatInfo"] as? [String: Any])
        let contact = try #require(chatInfo["contact"] as? [String: Any])
        #expect(chatInfo["type"] as? String == "direct")
        #expect(contact["localDisplayName"] as? String == "bob")
        let items = try #require(list.first?["chatItems"] as? [[String: Any]])
        let meta = try #require(items.first?["meta"] as? [String: Any])
        #expect(meta["itemText"] as? String == "hello bob")
        let bobId = try #require(contact["contactId"] as? Int)

        let markdown = try await Self.execute("/_parse markdown *bold*", in: alice.directory)
        #expect(markdown.status == 0)
        #expect(
            markdown.out == [
                #"{"result":{"type":"apiParsedMarkdown","formattedText":[{"format":{"type":"bold"},"text":"bold"}]}}"#
            ])

        // A message sent by -e leaves before the process ends, and bob's line mode shows it.
        let sent = try await Self.execute(
            #"/_send @\#(bobId) live=off ttl=default json [{"msgContent":{"type":"text","text":"sent with -e"}}]"#,
            in: alice.directory)
        #expect(sent.status == 0, "\(sent.err)")
        #expect((try sent.json()["result"] as? [String: Any])?["type"] as? String == "newChatItems")
        try await bob.expectLine(#"\d\d:\d\d alice> sent with -e"#)

        let missing = try await Self.execute("/_get chat @99 count=5", in: alice.directory)
        #expect(missing.status == 1)
        #expect(
            missing.out == [
                #"{"error":{"type":"errorStore","storeError":{"type":"contactNotFound","contactId":99}}}"#
            ])

        let unknown = try await Self.execute("/frobnicate now", in: alice.directory)
        #expect(unknown.status == 64)
        #expect(unknown.out.isEmpty)
        #expect(
            unknown.err == [
                "simplex-chat: unknown command /frobnicate (commands are SimpleX's, e.g. /u, /_get chats 1 pcc=on)"
            ])
        try await bob.quit()
    }

    @Test func anInvitationMadeWithExecuteIsJoinedFromTheLineMode() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        try await alice.quit()
        let made = try await Self.execute("/_connect 1 incognito=off", in: alice.directory)
        #expect(made.status == 0, "\(made.err)")
        let result = try #require(try made.json()["result"] as? [String: Any])
        #expect(result["type"] as? String == "invitation")
        let link = try #require((result["connLinkInvitation"] as? [String: Any])?["connFullLink"] as? String)
        #expect(link.hasPrefix("simplex:/invitation#/?v="))
        #expect((result["connection"] as? [String: Any])?["pccConnStatus"] as? String == "new")
        let pending = try await Self.execute("/_get chats 1 pcc=on", in: alice.directory)
        let chats = try #require(
            (try pending.json()["result"] as? [String: Any])?["chats"] as? [[String: Any]])
        #expect((chats.first?["chatInfo"] as? [String: Any])?["type"] as? String == "contactConnection")

        let bob = try await CLIUser("bob", relay: relay)
        bob.send("/c \(link)")
        try await bob.expect("connection request sent!")
        let back = try await CLIUser("alice", relay: relay, directory: alice.directory)
        try await back.expectLine("bob: contact is connected")
        try await bob.expectLine("alice: contact is connected")
        for user in [back, bob] { try await user.quit() }
    }

    @Test func withoutAUserItSaysToMakeOneFirst() async throws {
        let directory = try TemporaryDirectory("execute-nouser")
        let run = try await Self.execute("/_get chats 1 pcc=on", in: directory)
        #expect(run.status == 1)
        #expect(run.out == [#"{"error":{"type":"error","errorType":{"type":"noActiveUser"}}}"#])
        #expect(
            run.err == [
                "simplex-chat: no user profile yet: run simplex-chat --cli first (or simplex-chat -e '/create user <name>')"
            ])
        // Parsing markdown needs no user (as in SimpleX).
        let parsed = try await Self.execute("/_parse markdown *hi*", in: directory)
        #expect(parsed.status == 0, "\(parsed.err)")
        #expect(
            parsed.out == [
                #"{"result":{"type":"apiParsedMarkdown","formattedText":[{"format":{"type":"bold"},"text":"hi"}]}}"#
            ])
        let made = try await Self.execute("/create user dora", in: directory)
        #expect(made.status == 0, "\(made.err)")
        #expect((try made.json()["result"] as? [String: Any])?["type"] as? String == "activeUser")
        let chats = try await Self.execute("/_get chats 1", in: directory)
        #expect(
            chats.out.first?.hasPrefix(
                #"{"result":{"type":"apiChats","user":{"userId":1,"localDisplayName":"dora""#) == true)
    }
}
