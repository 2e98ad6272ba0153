import Foundation
import Testing
import TestSupport

/// Two `simplex-chat --cli` processes through a real relay, each with its databases sealed by
/// the key in its keychain: what they said, their names and the link they connected with are in
/// no file of their group directories, running or stopped; a restart reads the chat back.
@Suite(.serialized)
struct EncryptedGroupEndToEndTests {
    /// The regular files under `directory` whose raw bytes contain one of `secrets`, with which.
    static func leaks(in directory: String, of secrets: [String]) throws -> [String] {
        var found: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: directory)
        while let relative = enumerator?.nextObject() as? String {
            let path = directory + "/" + relative
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory),
                !isDirectory.boolValue
            else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            for secret in secrets where bytes.range(of: Data(secret.utf8)) != nil {
                found.append("\(relative): \(secret)")
            }
        }
        return found
    }

    @Test func aConversationLeavesNothingReadableInEitherGroupDirectory() async throws {
        let relay = try await RelayProcess()
        let alice = try await CLIUser("alicequartz4411", relay: relay)
        let bob = try await CLIUser("bobmarble8832", relay: relay)
        alice.send("/c")
        let line = try await alice.expect("simplex:/invitation#/?v=")
        let link = String(try #require(line.firstRange(of: "simplex:/").map { line[$0.lowerBound...] }))
        bob.send("/c \(link)")
        try await alice.expectLine("\(bob.name): contact is connected")
        try await bob.expectLine("\(alice.name): contact is connected")
        alice.send("@\(bob.name) meet me under the old clock tower")
        try await bob.expect("meet me under the old clock tower")
        bob.send("@\(alice.name) bring the cipher wheel")
        try await alice.expect("bring the cipher wheel")

        let middle = String(link.dropFirst(link.count / 2 - 12).prefix(24))
        let secrets = [
            "meet me under the old clock tower", "bring the cipher wheel", alice.name, bob.name, link, middle,
        ]
        let groups = [alice.directory.appending("group"), bob.directory.appending("group")]
        for group in groups { #expect(try Self.leaks(in: group, of: secrets) == [], "running: \(group)") }
        try await alice.quit()
        try await bob.quit()
        for group in groups { #expect(try Self.leaks(in: group, of: secrets) == [], "stopped: \(group)") }

        let status = try ChildProcess(
            try BuiltProducts.path("simplex-chat"), ["status"],
            environment: CLIUser.environment(alice.directory))
        #expect(try await status.wait() == 0)
        #expect(status.allOutput.contains { $0.hasPrefix("database ") && $0.hasSuffix(", WAL, encrypted") })

        // The next run takes the key from the keychain again and reads the chat back.
        let again = try await CLIUser(alice.name, relay: relay, directory: alice.directory)
        again.send("/tail @\(bob.name) 2")
        try await again.expect("bring the cipher wheel")
        try await again.quit()
    }
}
