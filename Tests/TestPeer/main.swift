// simplex-test-peer: a second process for multi-process tests (GroupDefaults under concurrent
// writers, D-Bus peers calling each other, the libnotify presenter on a test's private bus).
// Each role lives in its own file; this file only dispatches.
import Foundation

let roles: [String: ([String]) async throws -> Int32] = [
    "defaults": runDefaultsPeer,
    "dbus": runDBusPeer,
    "notify": runNotifyPeer,
    "relay-store": runRelayStorePeer,
    "agent": runAgentPeer,
    "encrypted-db": runEncryptedDatabasePeer,
    "encrypt-db": runEncryptDatabasePeer,
    "rekey-db": runRekeyDatabasePeer,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let role = arguments.first, let run = roles[role] else {
    FileHandle.standardError.write(Data("usage: simplex-test-peer \(roles.keys.sorted().joined(separator: "|")) ...\n".utf8))
    exit(64)
}
do {
    exit(try await run(Array(arguments.dropFirst())))
} catch {
    FileHandle.standardError.write(Data("simplex-test-peer \(role): \(error)\n".utf8))
    exit(1)
}
