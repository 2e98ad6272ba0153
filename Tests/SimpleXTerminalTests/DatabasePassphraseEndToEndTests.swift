import Foundation
import Testing
import TestSupport

/// The database passphrase through `simplex-chat --cli` as a user meets it: set with
/// `/db encrypt`, removed from the keychain with `/db store off`, asked at start (a wrong one
/// refused, asked again), changed with `/db key` while the process is killed part way, and the
/// conversation still there after each start.
@Suite(.serialized)
struct DatabasePassphraseEndToEndTests {
    static let message = "the eagle lands at noon"

    /// `simplex-chat --cli` for `directory` that answers the passphrase prompt with `passphrase`
    /// (the first answer may be a wrong one, which must be refused and asked again).
    static func start(
        _ directory: TemporaryDirectory, relay: RelayProcess, answers: [String], extra: [String: String?] = [:]
    ) async throws -> ChildProcess {
        let process = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["--cli", "-s", relay.address],
            environment: CLIUser.environment(directory).merging(extra) { $1 })
        _ = try await process.line(timeout: .seconds(30)) { $0.contains("Database passphrase") }
        for (index, answer) in answers.enumerated() {
            process.send(answer)
            if index < answers.count - 1 {
                _ = try await process.line(timeout: .seconds(30)) {
                    $0.contains("error: wrong database passphrase; nothing was changed")
                }
            }
        }
        _ = try await process.line(timeout: .seconds(30)) { $0 == "Current user: alice" }
        return process
    }

    /// Alice and Bob connected through a relay, with Bob's message at Alice.
    static func conversation() async throws -> (RelayProcess, CLIUser, CLIUser) {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await CLIUser.connect(alice, bob)
        bob.send("@alice \(message)")
        try await alice.expect(message)
        return (relay, alice, bob)
    }

    static func expectConversation(_ process: ChildProcess) async throws {
        process.send("/tail @bob 5")
        _ = try await process.line(timeout: .seconds(30)) { $0.contains(message) }
    }

    @Test func aPassphraseIsSetAskedAtStartAndSurvivesAKillDuringAChange() async throws {
        let (relay, alice, bob) = try await Self.conversation()
        try await bob.quit()

        // No passphrase is set: there is no current one to give.
        alice.send("/db key x y")
        try await alice.expect("error: no database passphrase is set (the key is random): use /db encrypt NEW")
        alice.send("/db encrypt first-secret")
        try await alice.expect("database passphrase changed (the passphrase, kept in the keychain)")
        #expect(try await alice.process.wait() == 0)

        // Kept in the keychain: not asked; then removed from it.
        let stored = try await CLIUser("alice", relay: relay, directory: alice.directory)
        try await Self.expectConversation(stored.process)
        stored.send("/db store off")
        try await stored.expect("database passphrase removed from the keychain: asked at every start")
        try await stored.quit()

        // Asked at start: a wrong one is refused and asked again.
        let asked = try await Self.start(alice.directory, relay: relay, answers: ["wrong guess", "first-secret"])
        try await Self.expectConversation(asked)
        asked.send("/db key wrong-guess second")
        _ = try await asked.line { $0.contains("error: wrong current database passphrase; nothing was changed") }
        asked.send("/q")
        #expect(try await asked.wait() == 0)
        #expect(!asked.allOutput.joined().contains("first-secret"))  // never echoed or printed

        // Killed before the commit: the old passphrase opens everything; after it, the new one.
        var current = "first-secret"
        for (step, committed) in [("copiedAgent", false), ("renamedChat", true), ("replacedParameters", true)] {
            let changing = try await Self.start(
                alice.directory, relay: relay, answers: [current], extra: ["SIMPLEX_TEST_KILL_AT_REKEY_STEP": step])
            let next = "secret-after-\(step)"
            changing.send("/db key \(current) \(next)")
            let status = try await changing.wait()
            #expect(status != 0, "the change was not stopped at \(step)")
            if committed { current = next }
            let reopened = try await Self.start(alice.directory, relay: relay, answers: [current])
            try await Self.expectConversation(reopened)
            reopened.send("/q")
            #expect(try await reopened.wait() == 0)
        }
        let group = alice.directory.appending("group")
        let names = try FileManager.default.contentsOfDirectory(atPath: group)
        #expect(names.filter { $0.hasSuffix(".rekeying") || $0.hasSuffix(".rekey") || $0.hasSuffix(".kdf.new") } == [])

        // -e cannot ask: a clear one-line error.
        let execute = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["-e", "/_get chat @1 count=1"], environment: CLIUser.environment(alice.directory))
        #expect(try await execute.wait() != 0)
        #expect(execute.allErrors.contains { $0.contains("the database passphrase is not stored in the keychain") })
        let status = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["status"], environment: CLIUser.environment(alice.directory))
        _ = try await status.wait()
        #expect(status.allOutput.contains { $0.hasPrefix("database") && $0.contains("passphrase not stored in the keychain") })
    }

    /// The share helper, run while nothing else does after a change was killed part way (the chat
    /// database already under the new key, the agent's not yet), finishes the change first, as
    /// the client would, and sends; the client then opens everything.
    @Test func aShareAfterAChangeWasKilledPartWayFinishesItAndSends() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alice", relay: relay)
        let bob = try await CLIUser("bob", relay: relay)
        try await CLIUser.connect(alice, bob)
        alice.send("/db encrypt first-secret")
        try await alice.expect("database passphrase changed (the passphrase, kept in the keychain)")
        #expect(try await alice.process.wait() == 0)

        let changing = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["--cli", "-s", relay.address],
            environment: CLIUser.environment(alice.directory).merging(["SIMPLEX_TEST_KILL_AT_REKEY_STEP": "renamedChat"]) { $1 })
        _ = try await changing.line(timeout: .seconds(30)) { $0 == "Current user: alice" }
        changing.send("/db key first-secret second-secret")
        #expect(try await changing.wait() != 0, "the change was not stopped part way")
        let group = alice.directory.appending("group")
        #expect(try FileManager.default.contentsOfDirectory(atPath: group).contains { $0.hasSuffix(".rekeying") })

        let share = try ChildProcess(
            try BuiltProducts.path("simplex-share"), ["--to", "@bob", "--text", "sent after the crash"],
            environment: CLIUser.environment(alice.directory))
        #expect(try await share.wait() == 0, "\(share.allErrors)")
        try await bob.expect("sent after the crash")
        #expect(try FileManager.default.contentsOfDirectory(atPath: group).filter {
            $0.hasSuffix(".rekeying") || $0.hasSuffix(".rekey") || $0.hasSuffix(".kdf.new")
        } == [])
        let reopened = try await CLIUser("alice", relay: relay, directory: alice.directory)
        reopened.send("/tail @bob 5")
        try await reopened.expect("sent after the crash")
        try await reopened.quit()
        try await bob.quit()
    }

    /// SimpleX's API form for scripts: `/_db encryption {…}` through `simplex-chat -e -` (the
    /// command on standard input: an argument would show the passphrase to `ps`), `cmdOk` on
    /// success, an `error` for a wrong current passphrase, which changes nothing.
    @Test func scriptsChangeThePassphraseWithTheAPICommandOnStandardInput() async throws {
        let (_, alice, bob) = try await Self.conversation()
        try await alice.quit()
        try await bob.quit()

        func execute(_ command: String, stdin: Bool = true) async throws -> (status: Int32, process: ChildProcess) {
            let process = try ChildProcess(
                try BuiltProducts.path("simplex-chat"), ["-e", stdin ? "-" : command],
                environment: CLIUser.environment(alice.directory))
            if stdin {
                process.send(command)
                process.closeInput()
            }
            return (try await process.wait(), process)
        }
        let argument = try await execute(#"/_db encryption {"currentKey":"","newKey":"api-secret"}"#, stdin: false)
        #expect(argument.status == 64)
        #expect(argument.process.allErrors.contains { $0.contains("give the command on standard input") })
        let set = try await execute(#"/_db encryption {"currentKey":"","newKey":"api-secret"}"#)
        #expect(set.status == 0, "\(set.process.allErrors)")
        #expect(set.process.allOutput.contains { $0.contains(#""type":"cmdOk""#) }, "\(set.process.allOutput)")
        let wrong = try await execute(#"/_db encryption {"currentKey":"not-it","newKey":"other"}"#)
        #expect(wrong.status == 1)
        #expect(wrong.process.allOutput.contains { $0.hasPrefix(#"{"error":"#) && $0.contains("wrong current database passphrase; nothing was changed") }, "\(wrong.process.allOutput)")
        let malformed = try await execute(#"/_db encryption {"newKey":"other"}"#)
        #expect(malformed.status == 64)
        #expect(malformed.process.allErrors.contains { $0.contains("usage: /_db encryption") })
        for run in [set, wrong, malformed] {
            #expect(!(run.process.allOutput + run.process.allErrors).joined().contains("api-secret"))
        }
        // The new passphrase (kept in the keychain) opens the conversation; the old random key is gone.
        #expect(FileManager.default.fileExists(atPath: alice.directory.appending("group/simplex_v1_db.kdf")))
        let read = try await execute("/_get chat @1 count=5")
        #expect(read.status == 0, "\(read.process.allErrors)")
        #expect(read.process.allOutput.joined().contains(Self.message))
        let change = try await execute("/db key api-secret api-secret-2")
        #expect(change.status == 0, "\(change.process.allErrors)")
        let again = try await execute(#"/_db encryption {"currentKey":"api-secret","newKey":"x"}"#)
        #expect(again.status == 1)
    }
}
