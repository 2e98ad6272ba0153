import Foundation
import SimpleXRelay

/// `simplex-test-peer relay-store <dir> <compaction-bytes>`: a relay's queue store under load
/// until it is killed. Opens the store in `<dir>` (reusing its first queue, or creating one),
/// prints `ready`, then forever: SENDs a message, commits, prints `sent <msgId>`; when more than
/// ten messages wait, ACKs the head, commits, prints `acked <msgId>`. A line is printed only after
/// its commit returned, as the relay replies only after committing, so a test that kills this
/// process with SIGKILL can check that every printed SEND survived and no printed ACK came back.
///
/// `simplex-test-peer relay-store measure <dir> <queues>`: memory per queue and restart time
/// (build in release for meaningful figures).
func runRelayStorePeer(_ arguments: [String]) async throws -> Int32 {
    if arguments.first == "measure", arguments.count == 3, let count = Int(arguments[2]) {
        return try measureRelayStore(directory: arguments[1], queues: count)
    }
    guard arguments.count == 2, let threshold = Int(arguments[1]) else {
        FileHandle.standardError.write(
            Data(
                "usage: simplex-test-peer relay-store <dir> <compaction-bytes> | measure <dir> <queues>\n"
                    .utf8))
        return 64
    }
    let durable = try DurableQueueStore(
        directory: arguments[0],
        options: .init(syncPolicy: .interval(milliseconds: 50), compactionThreshold: threshold))
    let key = AuthKey(algorithm: .ed25519, key: Key32(w0: 1, w1: 2, w2: 3, w3: 4))
    let secret = Key32(w0: 5, w1: 6, w2: 7, w3: 8)
    let queue =
        try durable.store.allQueues().first
        ?? durable.update { $0.createQueue(recipientKey: key, recipientDHSecret: secret, mode: .messaging) }
    try durable.commit()
    let out = FileHandle.standardOutput
    out.write(Data("ready\n".utf8))
    var n = 0
    while true {
        n += 1
        let body = [UInt8](repeating: UInt8(truncatingIfNeeded: n), count: 200 + n % 1800)
        let result = try durable.update { $0.send(senderID: queue.senderID, flags: [], body: body) }
        try durable.commit()
        guard case .stored(let id) = result else {
            FileHandle.standardError.write(Data("SEND refused: \(result)\n".utf8))
            return 1
        }
        out.write(Data("sent \(id)\n".utf8))
        if (durable.store.messages(recipientID: queue.recipientID)?.count ?? 0) > 10 {
            let acked = try durable.update { store -> MessageID? in
                guard let head = store.peek(recipientID: queue.recipientID),
                    store.ack(recipientID: queue.recipientID, messageID: head.id) == .ok
                else { return nil }
                return head.id
            }
            try durable.commit()
            if let acked { out.write(Data("acked \(acked)\n".utf8)) }
        }
    }
}

/// Prints resident memory per idle queue (in memory, no messages) and the time to reopen a
/// store of `queues` queues from its snapshot.
private func measureRelayStore(directory: String, queues: Int) throws -> Int32 {
    func residentBytes() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? ""
        let pages = statm.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
    let key = AuthKey(algorithm: .ed25519, key: Key32(w0: 1, w1: 2, w2: 3, w3: 4))
    let secret = Key32(w0: 5, w1: 6, w2: 7, w3: 8)
    do {
        let before = residentBytes()
        var store = QueueStore()
        for _ in 0..<queues {
            let queue = store.createQueue(recipientKey: key, recipientDHSecret: secret, mode: .messaging)
            _ = store.secure(recipientID: queue.recipientID, senderKey: key)
        }
        let after = residentBytes()
        print("queues: \(queues), resident per idle queue in memory: \((after - before) / queues) bytes")
    }
    do {
        let durable = try DurableQueueStore(directory: directory, options: .init(compactOnOpen: false))
        for _ in stride(from: 0, to: queues, by: 10_000) {
            try durable.update { store in
                for _ in 0..<10_000 {
                    let queue = store.createQueue(
                        recipientKey: key, recipientDHSecret: secret, mode: .messaging)
                    _ = store.secure(recipientID: queue.recipientID, senderKey: key)
                }
            }
            try durable.commit()
        }
        let start = ContinuousClock.now
        try durable.compact()
        print("snapshot of \(durable.store.queueCount) queues written in \(ContinuousClock.now - start)")
        try durable.close()
    }
    let before = residentBytes()
    let start = ContinuousClock.now
    let reopened = try DurableQueueStore(directory: directory, options: .init(compactOnOpen: false))
    let elapsed = ContinuousClock.now - start
    let after = residentBytes()
    print("reopened \(reopened.store.queueCount) queues in \(elapsed)")
    print("resident per loaded queue: \((after - before) / max(queues, 1)) bytes")
    return 0
}
