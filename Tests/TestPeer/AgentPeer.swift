import Foundation
@_spi(Testing) import SimpleXChat
import SimpleXProtocol
import Synchronization

/// `simplex-test-peer agent <group-dir> <smp://server>[,<server>]`: one user's agent in its own
/// process, driven line by line on standard input; replies and events go to standard output.
///
/// Commands: `invite`, `address`, `join <link> <info>`, `allow <conn> <info>`,
/// `accept <invitation> <info>`, `reject <invitation>`, `send <conn> <text>`,
/// `sendmany <conn> <count> <prefix>`, `delete <conn>`, `replay <conn>`, `tamper <conn>`,
/// `lose <conn> <text>` (encrypted but never sent), `quit`.
///
/// Received messages are the "app": each is appended to `<group-dir>/received.log` and synced
/// before it is acknowledged (with a receipt), and a message id already in the log is not
/// written again, as the chat core's unique index would refuse it. The log is what a test
/// reads to check exactly-once delivery across kill -9.
func runAgentPeer(_ arguments: [String]) async throws -> Int32 {
    guard arguments.count == 2 else {
        FileHandle.standardError.write(Data("usage: simplex-test-peer agent <group-dir> <servers>\n".utf8))
        return 64
    }
    let directory = arguments[0]
    let servers = try arguments[1].split(separator: ",").map { try SMPServerAddress($0) }
    let keychain = try await KeychainStore.open(
        path: directory + "/keychain", masterKey: KeyFileMasterKey(path: directory + "/keychain.key"))
    let agent = try await Agent.open(
        config: AgentConfig(
            databasePath: AgentConfig.databasePath(groupDirectory: directory), servers: servers,
            clientOptions: SMPClientOptions(backoff: SMPBackoff(initial: .milliseconds(100), maximum: .seconds(1))),
            retry: SMPBackoff(initial: .milliseconds(100), maximum: .seconds(1))),
        secrets: try AgentSecrets.load(from: keychain))
    let log = try ReceivedLog(path: directory + "/received.log")
    let eventsTask = Task {
        for await event in agent.events { await show(event, agent: agent, log: log) }
    }
    await agent.start()
    say("ready")
    for await line in standardInputLines() {
        let words = line.split(separator: " ", maxSplits: 3).map(String.init)
        guard let command = words.first else { continue }
        if command == "quit" { break }
        do {
            try await run(command, Array(words.dropFirst()), agent: agent)
        } catch {
            say("error \(command) \(error)")
        }
    }
    await agent.stop()
    await eventsTask.value
    return 0
}

private func run(_ command: String, _ words: [String], agent: Agent) async throws {
    switch (command, words.count) {
    case ("invite", 0):
        let (id, link) = try await agent.createInvitation()
        say("invitation \(id) \(link)")
    case ("address", 0):
        let (id, link) = try await agent.createContactAddress()
        say("address \(id) \(link)")
    case ("join", 2):
        let link = try ConnectionLink(words[0])
        say("joined \(try await agent.joinConnection(link, connInfo: Array(words[1].utf8)))")
    case ("allow", 2):
        try await agent.allowConnection(words[0], connInfo: Array(words[1].utf8))
        say("allowed \(words[0])")
    case ("accept", 2):
        say("accepted \(try await agent.acceptContact(words[0], connInfo: Array(words[1].utf8)))")
    case ("reject", 1):
        try await agent.rejectContact(words[0])
        say("rejected \(words[0])")
    case ("send", 2):
        say("queued \(words[0]) \(try await agent.sendMessage(words[0], body: Array(words[1].utf8)))")
    case ("sendmany", 3):
        guard let count = Int(words[1]) else { throw AgentError.state("count") }
        for index in 1...count { try await agent.sendMessage(words[0], body: Array("\(words[2])-\(index)".utf8)) }
        say("queued-all \(words[0]) \(count)")
    case ("delete", 1):
        try await agent.deleteConnection(words[0])
        say("deleted \(words[0])")
    case ("lose", 2):
        try await agent.loseMessage(words[0], body: Array(words[1].utf8))
        say("lost \(words[0])")
    case ("replay", 1), ("tamper", 1):
        try await agent.resendLastMessage(words[0], tamper: command == "tamper")
        say("resent \(words[0])")
    default:
        say("error unknown command \(command)")
    }
}

private func show(_ event: AgentEvent, agent: Agent, log: ReceivedLog) async {
    switch event {
    case .confirmation(let id, let info): say("event confirmation \(id) \(String(decoding: info, as: UTF8.self))")
    case .info(let id, let info): say("event info \(id) \(String(decoding: info, as: UTF8.self))")
    case .connected(let id): say("event connected \(id)")
    case .contactRequest(let address, let invitation, let info):
        say("event request \(address) \(invitation) \(String(decoding: info, as: UTF8.self))")
    case .message(let id, let message):
        let text = String(decoding: message.body, as: UTF8.self)
        do {
            try log.append(connection: id, message: message, text: text)
            say("event message \(id) \(message.agentMsgID) \(message.integrity) \(text)")
            try await agent.ackMessage(id, agentMsgID: message.agentMsgID, receipt: true)
        } catch {
            say("error message \(error)")
        }
    case .sent(let id, let msgID): say("event sent \(id) \(msgID)")
    case .delivered(let id, let msgID, let ok): say("event delivered \(id) \(msgID) \(ok ? "ok" : "badHash")")
    case .sendFailed(let id, let msgID, let reason): say("event sendFailed \(id) \(msgID.map(String.init) ?? "-") \(reason)")
    case .receiveFailed(let id, let reason): say("event receiveFailed \(id) \(reason)")
    case .subscriptionEnded(let id): say("event end \(id)")
    case .relayDown(let server): say("event down \(server)")
    case .relayUp(let server): say("event up \(server)")
    }
}

private func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Lines of standard input, read on a thread of their own (a blocking read must not hold a
/// cooperative thread).
private func standardInputLines() -> AsyncStream<String> {
    let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    Thread {
        while let line = readLine() { continuation.yield(line) }
        continuation.finish()
    }.start()
    return stream
}

/// The "app" side of the test peer: received messages, synced, at most once per message id.
private final class ReceivedLog: Sendable {
    private let path: String
    private let last = Mutex<[String: Int64]>([:])

    init(path: String) throws {
        self.path = path
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var latest: [String: Int64] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count >= 2, let id = Int64(parts[1]) { latest[String(parts[0])] = max(latest[String(parts[0])] ?? 0, id) }
        }
        last.withLock { $0 = latest }
    }

    func append(connection: String, message: AgentReceivedMessage, text: String) throws {
        let fresh = last.withLock { latest in
            guard message.agentMsgID > latest[connection] ?? 0 else { return false }
            latest[connection] = message.agentMsgID
            return true
        }
        guard fresh else { return }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? handle.close() }
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("\(connection) \(message.agentMsgID) \(message.integrity) \(text)\n".utf8))
        try handle.synchronize()
    }
}
