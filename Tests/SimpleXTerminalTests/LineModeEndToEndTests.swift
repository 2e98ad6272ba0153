import Foundation
import Testing
import TestSupport

/// Two or three `simplex-chat --cli` processes through a real relay, driven as a user types,
/// asserting what each side prints.
@Suite(.serialized)
struct LineModeEndToEndTests {
    static func connect(_ alice: CLIUser, _ bob: CLIUser) async throws {
        try await CLIUser.connect(alice, bob)
    }

    @Test func connectChatReplyEditDeleteReactForwardAndRead() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await Self.connect(alice, bob)

        alice.send("@bob hello bob")
        try await alice.expectLine(#"\d\d:\d\d @bob hello bob"#)
        try await bob.expectLine(#"\d\d:\d\d alice> hello bob"#)
        // A bare line goes to the chat last written to or received from.
        bob.send("hi alice")
        try await bob.expectLine(#"\d\d:\d\d @alice hi alice"#)
        try await alice.expectLine(#"\d\d:\d\d bob> hi alice"#)

        bob.send(">@alice (hello) a reply")
        try await alice.expectLine(#"\d\d:\d\d bob> > you: hello bob"#)
        try await alice.expectLine(#" +a reply"#)

        alice.send("! @bob (hello bob) hello, edited")
        try await bob.expectLine(#"\d\d:\d\d alice> \[edited\] hello, edited"#)
        alice.send("/i @bob hello, edited")
        try await alice.expect("earlier version")

        alice.send("+1 @bob hi alice")
        try await bob.expectLine(#"\d\d:\d\d alice> \+👍 to: hi alice"#)

        alice.send("\\ @bob hello, edited")
        try await alice.expect("message deleted")
        try await bob.expectLine(#"\d\d:\d\d alice> \[marked deleted\] \[edited\] hello, edited"#)

        alice.send("/chats")
        try await alice.expectLine(#"@bob \(\d+ unread\): a reply"#)
        alice.send("/tail @bob 2")
        try await alice.expectLine(#"\d\d:\d\d bob> hi alice"#)
        alice.send("/chats")
        try await alice.expectLine("@bob: a reply")  // read now
        alice.send("/search reply")
        try await alice.expect("a reply")

        let carol = try await CLIUser("carol", relay: relay)
        alice.send("/c")
        let link = try await alice.expect("simplex:/invitation#/?v=")
        carol.send("/c \(link)")
        try await alice.expectLine("carol: contact is connected")
        alice.send("@carol <- @bob hi alice")
        try await carol.expectLine(#"\d\d:\d\d alice> \[forwarded\] hi alice"#)

        for user in [alice, bob, carol] { try await user.quit() }
    }

    /// A `simplex:` link on the command line (a browser hands it to the desktop file's
    /// `simplex-chat --cli %u`) connects at start, as `/c <link>` does.
    @Test func aLinkOnTheCommandLineConnectsAtStart() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        alice.send("/c")
        let link = try await alice.expect("simplex:/invitation#/?v=")
        let bob = try await CLIUser("bob", relay: relay, arguments: [link])
        try await bob.expect("connection request sent!")
        try await alice.expectLine("bob: contact is connected")
        try await bob.expectLine("alice: contact is connected")
        try await alice.quit()
        try await bob.quit()
    }

    @Test func contactAddressRequestsAreAcceptedAndRejected() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        let dan = try await CLIUser("dan", relay: relay)
        alice.send("/ad")
        let address = try await alice.expect("simplex:/contact#/?v=")

        bob.send("/c \(address)")
        try await alice.expect("bob (bob) wants to connect to you!")
        try await alice.expectLine("to accept: /ac bob")
        alice.send("/ac bob")
        try await alice.expectLine("bob: contact is connected")
        try await bob.expectLine("alice: contact is connected")
        bob.send("@alice thanks for accepting")
        try await alice.expectLine(#"\d\d:\d\d bob> thanks for accepting"#)

        dan.send("/c \(address)")
        try await alice.expect("dan (dan) wants to connect to you!")
        alice.send("/rc dan")
        try await alice.expectLine("dan: contact request rejected")
        alice.send("/ac dan")
        try await alice.expectLine("error: no contact request from dan")

        // Deleting the address drops the request still waiting; contacts made through it stay.
        let erin = try await CLIUser("erin", relay: relay)
        erin.send("/c \(address)")
        try await alice.expect("erin (erin) wants to connect to you!")
        alice.send("/sa")
        try await alice.expectLine("Your chat address:")
        try await alice.expect(address)
        alice.send("/da")
        try await alice.expectLine("Your chat address is deleted - accepted contacts will remain connected.")
        try await alice.expectLine("To create a new chat address use /ad")
        alice.send("/ac erin")
        try await alice.expectLine("error: no contact request from erin")
        alice.send("/sa")
        try await alice.expectLine("error: no chat address, to create: /ad")
        bob.send("@alice still here")
        try await alice.expectLine(#"\d\d:\d\d bob> still here"#)
        alice.send("/ad")
        let newAddress = try await alice.expect("simplex:/contact#/?v=")
        #expect(newAddress != address)
        for user in [alice, bob, dan, erin] { try await user.quit() }
    }

    @Test func messagesWaitingWhileTheRecipientIsAwayArriveWhenItStartsAgain() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        var bob = try await CLIUser("bob", relay: relay)
        try await Self.connect(alice, bob)
        try await bob.quit()
        alice.send("@bob while you were away")
        try await alice.expectLine(#"\d\d:\d\d @bob while you were away"#)
        bob = try await CLIUser("bob", relay: relay, directory: bob.directory)
        try await bob.expectLine(#"\d\d:\d\d alice> while you were away"#)
        try await alice.quit()
        try await bob.quit()
    }

    /// The receiving client killed (SIGKILL) in the middle of a stream of messages and started
    /// again: no message is shown twice or out of order across the two runs, and the chat holds
    /// each once, in order. (The agent acknowledges a message on the relay once it has committed
    /// it; what the chat had not stored comes from the agent's store at the next start, and what
    /// it had stored but not acknowledged is recognised, not shown again.)
    @Test func aReceiverKilledMidStreamShowsEachMessageOnceInOrderAfterARestart() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        var bob = try await CLIUser("bob", relay: relay)
        try await Self.connect(alice, bob)
        let count = 300
        /// The numbers of the messages from alice among `lines` ("12:01 alice> m7": 7).
        func numbers(_ lines: some Sequence<String>) -> [Int] {
            lines.compactMap { line in
                line.range(of: "alice> m").flatMap { Int(line[$0.upperBound...]) }
            }
        }
        for i in 1...count { alice.send("@bob m\(i)") }
        try await bob.expectLine(#"\d\d:\d\d alice> m40"#, timeout: .seconds(60))
        bob.process.kill()
        _ = try await bob.process.wait()
        let firstRun = bob.process.allOutput
        #expect(
            !firstRun.contains { $0.hasSuffix("alice> m\(count)") }, "the stream was to be cut in the middle")

        bob = try await CLIUser("bob", relay: relay, directory: bob.directory)
        try await bob.expectLine(#"\d\d:\d\d alice> m\#(count)"#, timeout: .seconds(120))
        let shown = numbers(firstRun + bob.process.allOutput)
        // None twice, none out of order (one the killed run had stored may not have reached
        // its terminal before the kill: it is in the chat below, not shown again).
        #expect(shown == shown.sorted() && Set(shown).count == shown.count && shown.last == count)
        #expect(shown.count >= count - 5)
        bob.send("/tail @alice \(count + 10)")
        try await bob.expectLine(#"\d\d:\d\d alice> m\#(count)"#)
        let stored = numbers(bob.process.allOutput.suffix(count + 1))
        #expect(stored.suffix(count) == ArraySlice(1...count))
        try await alice.quit()
        try await bob.quit()
    }

    /// The chat's own items, as SimpleX's CLI shows them: each chat starts with its encryption
    /// note; `/set voice no` says what changed and is an item in both chats, which the contact's
    /// side prints only in `/tail`.
    @Test func theEncryptionNoteAndAFeatureTurnedOffAreItemsInBothChats() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await Self.connect(alice, bob)
        bob.send("/tail @alice")
        try await bob.expectLine(
            #"\d\d:\d\d alice> This conversation is protected by end-to-end encryption with perfect forward secrecy, repudiation and break-in recovery\."#
        )

        alice.send("/set voice no")
        try await alice.expectLine("updated preferences:")
        try await alice.expectLine("Voice messages allowed: no")
        alice.send("/tail @bob 1")
        try await alice.expectLine(#"\d\d:\d\d @bob Voice messages: off"#)
        // Bob is told as it comes, as SimpleX's CLI tells it; the item itself is for /tail.
        try await bob.expectLine("alice updated preferences for you:")
        try await bob.expect("Voice messages: off (you allow: default (yes), contact allows: no)")
        alice.send("@bob voice is off")
        try await bob.expectLine(#"\d\d:\d\d alice> voice is off"#)
        #expect(!bob.process.allOutput.contains { $0.hasSuffix("alice> Voice messages: off") })
        bob.send("/tail @alice 2")
        try await bob.expectLine(#"\d\d:\d\d alice> Voice messages: off"#)
        try await bob.expectLine(#"\d\d:\d\d alice> voice is off"#)
        // Messages are named by their text; an item of the chat's own is none of them.
        bob.send("+1 @alice Voice messages")
        try await bob.expect(#"no message starting with "Voice messages""#)

        alice.send("/set voice no")
        try await alice.expectLine("user profile did not change")
        alice.send("/set voice maybe")
        try await alice.expect("expected always, yes, no, found \"maybe\"")
        try await alice.quit()
        try await bob.quit()
    }

    /// `/p` sends the new profile to contacts (x.info): a new display name becomes the contact's
    /// name on the other side, written to from then on; a new full name alone keeps it.
    @Test func aProfileUpdateRenamesTheContactForItsContacts() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await Self.connect(alice, bob)

        bob.send("/p bobby Bob Builder")
        try await bob.expect("user profile is changed to bobby (Bob Builder)")
        try await alice.expectLine(#"contact bob changed to bobby \(Bob Builder\)"#)
        try await alice.expectLine("use @bobby <message> to send messages")
        alice.send("@bobby hi, bobby")
        try await bob.expectLine(#"\d\d:\d\d alice> hi, bobby"#)
        alice.send("@bob still there?")
        try await alice.expectLine("error: no contact bob")

        bob.send("/p bobby Robert")
        try await alice.expectLine("contact bobby updated full name: Robert")
        bob.send("@alice it is Robert now")
        try await alice.expectLine(#"\d\d:\d\d bobby> it is Robert now"#)
        for user in [alice, bob] { try await user.quit() }
    }

    @Test func clearingAChatRemovesItsMessagesHereOnly() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await Self.connect(alice, bob)
        alice.send("@bob first")
        try await bob.expectLine(#"\d\d:\d\d alice> first"#)
        bob.send("@alice second")
        try await alice.expectLine(#"\d\d:\d\d bob> second"#)

        alice.send("/clear @bob")
        try await alice.expectLine("bob: all messages are removed locally ONLY")
        alice.send("/chats")
        try await alice.expectLine("@bob")  // no last item, nothing unread
        alice.send("/search second")
        alice.send("/tail @bob")
        alice.send("@bob after clearing")
        // Neither the search nor the tail printed an old message before the next one was sent.
        let next = try await alice.expectLine(#"\d\d:\d\d (@bob after clearing|bob> second|@bob first)"#)
        #expect(next.hasSuffix("@bob after clearing"))
        // Bob's chat is untouched, and the contact still works both ways.
        try await bob.expectLine(#"\d\d:\d\d alice> after clearing"#)
        bob.send("/tail @alice 3")
        try await bob.expectLine(#"\d\d:\d\d alice> first"#)
        try await bob.expectLine(#"\d\d:\d\d @alice second"#)
        bob.send("@alice still here")
        try await alice.expectLine(#"\d\d:\d\d bob> still here"#)
        alice.send("/clear @nobody")
        try await alice.expectLine("error: no contact nobody")
        try await alice.quit()
        try await bob.quit()
    }

    @Test func deliveryReceiptsFollowTheReceiversSetting() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await Self.connect(alice, bob)
        bob.send("/receipts @alice off")
        try await bob.expectLine("ok")
        alice.send("@bob quiet")
        try await bob.expectLine(#"\d\d:\d\d alice> quiet"#)
        bob.send("/receipts @alice on")
        try await bob.expectLine("ok")
        alice.send("@bob loud")
        try await bob.expectLine(#"\d\d:\d\d alice> loud"#)

        /// Alice's item info for the message `text`: whether it shows a delivery receipt. A
        /// search for nothing ends the listing ("no messages found").
        func delivered(_ text: String) async throws -> Bool {
            alice.send("/i @bob \(text)")
            alice.send("/search no-such-words")
            let line = try await alice.process.line(timeout: .seconds(30)) {
                $0.hasPrefix("status snd_rcvd") || $0 == "no messages found"
            }
            if line == "no messages found" { return false }
            try await alice.expectLine("no messages found")
            return true
        }
        var loud = false
        for _ in 0..<100 where !loud {
            loud = try await delivered("loud")
            if !loud { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(loud)
        // Receipts go in order on a connection: none is coming for "quiet" any more.
        #expect(try await !delivered("quiet"))

        bob.send("/receipts alice off")
        try await bob.expectLine(#"error: invalid /receipts command: expected "@", found "alice off""#)
        bob.send("/set receipts contacts sometimes")
        try await bob.expect("expected on or off")
        bob.send("/set receipts all off")
        try await bob.expectLine("ok")
        try await alice.quit()
        try await bob.quit()
    }

    @Test func aDeletedContactIsToldAndCannotBeWrittenTo() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await Self.connect(alice, bob)
        alice.send("/d @bob")
        try await alice.expectLine("bob: contact is deleted")
        try await bob.expectLine(#"\d\d:\d\d alice> deleted contact"#)
        alice.send("@bob are you there")
        try await alice.expectLine("error: no contact bob")
        // Bob keeps the chat, but cannot write to alice any more: nothing is sent, no item made
        // (as SimpleX: "alice: not active").
        bob.send("@alice hello?")
        try await bob.expectLine("error: alice: not active")
        bob.send("/tail @alice 1")
        try await bob.expectLine(#"\d\d:\d\d alice> deleted contact"#)
        bob.send("/chats")
        try await bob.expectLine("@alice: deleted contact")
        bob.send("/d @alice")
        try await bob.expectLine("alice: contact is deleted")
        try await alice.quit()
        try await bob.quit()
    }

    @Test func badInputIsAOneLineErrorAndTheClientGoesOn() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        alice.send("/c simplex:/invitation#/?v=1000&smp=garbage")
        try await alice.expect("error: invalid command")
        alice.send("@nobody hello")
        try await alice.expectLine("error: no contact nobody")
        alice.send("/nonsense")
        try await alice.expectLine("error: unknown command /nonsense: type /help")
        alice.send("just words with no chat")
        try await alice.expectLine("error: invalid command: no chat yet: write @name message")
        try await alice.quit()
    }

    /// The first run asks again when the display name it gets is not one word, as SimpleX's
    /// CLI does, instead of ending the program.
    @Test func theFirstRunAsksAgainForADisplayNameThatIsNotOneWord() async throws {
        let relay = try await RelayProcess()
        let directory = try TemporaryDirectory("cli-dave")
        let process = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["--cli", "-s", relay.address],
            environment: CLIUser.environment(directory))
        _ = try await process.line { $0.hasPrefix("No user profile yet") }
        process.send("dave smith")
        _ = try await process.line { $0 == "a display name is one word, without spaces; your display name:" }
        process.send("@dave")
        _ = try await process.line { $0 == "a display name cannot start with @; your display name:" }
        process.send("  ")
        _ = try await process.line { $0 == "a display name is needed; your display name:" }
        process.send("dave")
        _ = try await process.line { $0 == "Current user: dave" }
        process.send("/q")
        #expect(try await process.wait(timeout: .seconds(30)) == 0)
        // The name is kept: the next start goes straight to the chat.
        let again = try await CLIUser("dave", relay: relay, directory: directory)
        try await again.quit()
    }

    /// In a terminal, Linux passes on 4,095 bytes of a line and drops the rest: a longer pasted
    /// message is refused whole, with a one-line error, instead of going out cut. The chat goes
    /// on, and shorter lines are sent as ever. (util-linux `script` puts a pseudo-terminal, with
    /// the kernel's line discipline, between the test and the client.)
    @Test func aLineTheTerminalCutIsRefusedInsteadOfSentCut() async throws {
        let relay = try await RelayProcess()
        let bob = try await CLIUser("bob", relay: relay)
        let directory = try TemporaryDirectory("cli-alice")
        let command = [try BuiltProducts.path("simplex-chat"), "--cli", "-s", relay.address]
            .map { "'\($0)'" }.joined(separator: " ")
        let alice = try ChildProcess(
            "/usr/bin/script", ["-qfec", command, "/dev/null"], environment: CLIUser.environment(directory))
        _ = try await alice.line { $0.contains("No user profile yet") }
        alice.send("alice")
        _ = try await alice.line { $0.contains("Current user: alice") }
        alice.send("/c")
        let link = try await alice.line { $0.hasPrefix("simplex:/invitation#") }
        bob.send("/c \(link.trimmingCharacters(in: .whitespacesAndNewlines))")
        _ = try await alice.line { $0.contains("bob: contact is connected") }

        alice.send("@bob " + String(repeating: "long text ", count: 500))
        _ = try await alice.line {
            $0.contains("error: the terminal cut this line at 4095 bytes, so nothing was sent")
        }
        alice.send("@bob a short one")
        try await bob.expectLine(#"\d\d:\d\d alice> a short one"#)
        #expect(!bob.process.allOutput.contains { $0.contains("long text") })
        alice.send("/q")
        #expect(try await alice.wait(timeout: .seconds(30)) == 0)
        try await bob.quit()
    }
}
