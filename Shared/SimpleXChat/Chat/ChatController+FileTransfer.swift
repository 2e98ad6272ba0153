import Foundation
import SimpleXProtocol

/// The file transfers themselves: the events of files' own connections, chunks out and in,
/// and resuming after a restart.
///
/// Resuming: a chunk is recorded once it is handed to the agent (whose send queue persists it),
/// and once it is written to the partial file in `tmp/` before its message is acknowledged. After
/// a restart the sender hands over the chunks not yet recorded, the agent delivers what was
/// waiting, and the receiver's agent gives it again what it had not acknowledged; a chunk that
/// comes twice is written at its place again and counted once. The SHA-512 digest checked at the end catches
/// whatever went wrong in between: a mismatch deletes the file and says so.
extension ChatController {
    /// Events of a file's own connection; false when `event` is not about one.
    func handleFileEvent(_ event: AgentEvent) async throws(ChatError) -> Bool {
        guard let id = event.fileConnectionID, let file = try store.file(agentConnectionID: id) else {
            return false
        }
        let contact = try filePeer(file)
        switch event {
        case .confirmation:
            // The sender joined the connection we offered for the file.
            guard file.status == .rcvAccepted else { break }
            do { try await agent.allowConnection(id, connInfo: try encode(.ok)) } catch {
                throw .agent("\(error)")
            }
        case .connected:
            if file.status == .rcvAccepted {
                try store.setFileStatus(file, .rcvTransfer)
                emit(.file(.rcvStarted(contact, try store.file(id: file.fileId, user))))
            } else if file.status == .sndStored {
                try store.setFileStatus(file, .sndTransfer)
                let sending = try store.file(id: file.fileId, user)
                emit(.file(.sndStarted(contact, sending)))
                try await sendChunks(sending, contact: contact, connection: id)
            }
        case .message(_, let message):
            var finished = false
            if file.direction == .received, file.status == .rcvTransfer || file.status == .rcvAccepted {
                finished = try await receiveChunk(message.body, file: file, contact: contact)
            }
            // No receipts on a file's connection: the transfer's own completion says it all.
            try? await agent.ackMessage(id, agentMsgID: message.agentMsgID)
            if finished { try? await agent.deleteConnection(id) }
        case .sent(_, let agentMsgID):
            if file.status.isFinal {
                // The cancel chunk went out (chunks queued before it may still be reported SENT
                // first): nothing more to send on this connection.
                if try store.markSndChunkSent(file, agentMsgID: agentMsgID) {
                    try? await agent.deleteConnection(id)
                }
            } else if file.status == .sndTransfer, try store.markSndChunkSent(file, agentMsgID: agentMsgID) {
                try await chunkSent(file, contact: contact, connection: id)
            }
        case .sendFailed(_, _, let reason):
            guard file.direction == .sent, !file.status.isFinal else {
                // A cancel chunk that cannot go: the recipient is gone already.
                try? await agent.deleteConnection(id)
                break
            }
            // AUTH: the recipient deleted the connection, which is how it cancels.
            let cancelled = reason.hasSuffix("AUTH")
            try store.finishFile(file, cancelled ? .sndCancelled : .sndError)
            let failed = try store.file(id: file.fileId, user)
            emit(
                .file(
                    cancelled
                        ? .sndCancelledByRecipient(contact, failed)
                        : .sndError(contact, failed, reason: reason)))
            try? await agent.deleteConnection(id)
        case .info, .delivered, .receiveFailed, .subscriptionEnded, .contactRequest, .relayDown, .relayUp:
            break
        }
        return true
    }

    /// Hands the next chunks to the agent, up to `FileChunking.sendWindow` not yet with the relay.
    func sendChunks(_ file: ChatFile, contact: ChatContact, connection: String) async throws(ChatError) {
        let chunking = file.chunking
        let (queued, unsent) = try store.sndChunkCounts(file)
        guard let next = chunking.nextChunks(queued: queued, unsent: unsent) else { return }
        let source: LocalFileReader
        do throws(ChatFileError) {
            let opened = try LocalFileReader(path: file.filePath ?? "", key: file.fileKey)
            guard opened.size == file.fileSize else {
                throw ChatFileError.changedWhileSending(path: file.filePath ?? "")
            }
            source = opened
        } catch {
            return try await failSending(file, contact: contact, connection: connection, error)
        }
        for number in next {
            let bytes: [UInt8]
            do throws(ChatFileError) {
                bytes = try source.read(at: chunking.offset(of: number), count: chunking.length(of: number))
                guard bytes.count == chunking.length(of: number) else {
                    throw ChatFileError.changedWhileSending(path: source.path)
                }
            } catch {
                return try await failSending(file, contact: contact, connection: connection, error)
            }
            let agentMsgID: Int64
            do {
                agentMsgID = try await agent.sendMessage(
                    connection, body: try FileChunk.chunk(number: UInt32(number), bytes: bytes).encoded())
            } catch {
                throw .agent("\(error)")
            }
            try store.insertSndChunk(file, number: number, agentMsgID: agentMsgID)
        }
    }

    /// The relay accepted a chunk: done when it was the last, else progress and the next chunks.
    private func chunkSent(_ file: ChatFile, contact: ChatContact, connection: String) async throws(ChatError)
    {
        let chunking = file.chunking
        let (queued, unsent) = try store.sndChunkCounts(file)
        let sent = queued - unsent
        if sent >= chunking.chunkCount {
            try store.finishFile(file, .sndComplete)
            emit(.file(.sndComplete(contact, try store.file(id: file.fileId, user))))
            // Every chunk waits on the recipient's relay; our side of the connection is done.
            try? await agent.deleteConnection(connection)
            return
        }
        if let percent = chunking.progress(from: sent - 1, to: sent) {
            emit(.file(.sndProgress(contact, file, percent: percent)))
        }
        try await sendChunks(file, contact: contact, connection: connection)
    }

    /// Stops sending: the recipient gets a cancel chunk (the connection goes once it is sent).
    private func failSending(
        _ file: ChatFile, contact: ChatContact, connection: String, _ error: ChatFileError
    ) async throws(ChatError) {
        try store.finishFile(file, .sndError)
        emit(.file(.sndError(contact, try store.file(id: file.fileId, user), reason: error.description)))
        try await sendCancelChunk(file, connection: connection)
    }

    /// Tells the recipient the transfer is off (`FileChunk.cancel`), recorded as chunk 0 so its
    /// SENT is recognised and the connection deleted then; when it cannot go, the connection goes now.
    func sendCancelChunk(_ file: ChatFile, connection: String) async throws(ChatError) {
        do {
            let agentMsgID = try await agent.sendMessage(connection, body: try FileChunk.cancel.encoded())
            try store.insertSndChunk(file, number: 0, agentMsgID: agentMsgID)
        } catch let error as ChatError {
            throw error
        } catch {
            try? await agent.deleteConnection(connection)
        }
    }

    /// Writes a received chunk in place and records it; true when the transfer is over (complete,
    /// failed or cancelled) and its connection can go.
    private func receiveChunk(_ body: [UInt8], file: ChatFile, contact: ChatContact) async throws(ChatError)
        -> Bool
    {
        let chunking = file.chunking
        let number: Int
        let bytes: [UInt8]
        do {
            switch try FileChunk(decoding: body) {
            case .cancel:
                try store.finishFile(file, .rcvCancelled)
                TransferFiles.remove(partialPath(file))
                emit(.file(.rcvCancelledBySender(contact, try store.file(id: file.fileId, user))))
                return true
            case .chunk(let n, let data):
                (number, bytes) = (Int(n), data)
            }
        } catch let error as ChatError {
            throw error
        } catch {
            return try failReceiving(file, contact: contact, .invalidChunk("\(error)"))
        }
        let before = try store.rcvChunkCount(file)
        do {
            _ = try chunking.validate(number: UInt32(number), byteCount: bytes.count)
            let partial = try TransferFile.openPartial(partialPath(file))
            if let key = file.fileKey {
                // Sealed at its place as it arrives: no plaintext on disk, a partial file included.
                let cipher = LocalFileCipher(fileSize: file.fileSize, segmentSize: chunking.chunkSize)
                try partial.write(cipher.header, at: 0)
                try partial.write(
                    try cipher.seal(bytes, number: number, key: key), at: cipher.sealedOffset(of: number))
            } else {
                try partial.write(bytes, at: chunking.offset(of: number))
            }
        } catch {
            return try failReceiving(file, contact: contact, error)
        }
        let after = try store.insertRcvChunk(file, number: number) ? before + 1 : before
        if after >= chunking.chunkCount { return try completeReceiving(file, contact: contact) }
        if let percent = chunking.progress(from: before, to: after) {
            emit(.file(.rcvProgress(contact, file, percent: percent)))
        }
        return false
    }

    /// Every chunk is in: check the size and digest, then move the file to where it was to be
    /// saved (another name when that one was taken meanwhile) and say it is complete.
    private func completeReceiving(_ file: ChatFile, contact: ChatContact) throws(ChatError) -> Bool {
        let partial = partialPath(file)
        let target =
            file.filePath ?? FileNames.unique(file.fileName, in: filesDirectory, exists: TransferFiles.exists)
        if !TransferFiles.exists(partial), TransferFiles.exists(target),
            (try? matches(file, at: target)) == true
        {
            // Moved into place just before a restart, the status not yet written.
            return try finishReceiving(file, contact: contact, at: target)
        }
        if file.fileKey != nil, !target.hasPrefix(filesDirectory + "/"), !TransferFiles.exists(partial),
            TransferFiles.exists(target), (try? matches(file, in: LocalFileReader(path: target, key: nil))) == true
        {
            // Decrypted to the user's path just before a restart, the key not yet dropped.
            try store.setFileKey(file, nil)
            return try finishReceiving(file, contact: contact, at: target)
        }
        var path = target
        do {
            let assembled = try TransferFile.openPartial(partial)
            let sealed = file.fileKey.map { _ in LocalFileCipher(fileSize: file.fileSize, segmentSize: file.chunkSize) }
            try assembled.truncate(to: sealed?.sealedSize ?? file.fileSize)
            let reader = try LocalFileReader(path: partial, key: file.fileKey, expectedSize: file.fileSize)
            guard try matches(file, in: reader) else { throw ChatFileError.digestMismatch }
            try assembled.sync()
            if file.fileKey != nil, !target.hasPrefix(filesDirectory + "/") {
                // Saved where the user asked (`/fr id path`): theirs, in the clear; the sealed
                // partial file goes.
                let plain = try reader.readAll()
                while true {
                    try store.setFilePath(file, path)
                    if try LocalFile.writeNew(plain, to: path) { break }
                    path = FileNames.unique(
                        FileNames.sanitized(path), in: TransferFiles.directory(of: path),
                        exists: TransferFiles.exists)
                }
                TransferFiles.remove(partial)
                try store.setFileKey(file, nil)
            } else {
                while true {
                    try store.setFilePath(file, path)
                    if try TransferFiles.move(partial, to: path) { break }
                    path = FileNames.unique(
                        FileNames.sanitized(path), in: TransferFiles.directory(of: path),
                        exists: TransferFiles.exists)
                }
            }
        } catch let error as ChatError {
            throw error
        } catch let error as ChatFileError {
            return try failReceiving(file, contact: contact, error)
        } catch {
            return try failReceiving(file, contact: contact, .invalidChunk("\(error)"))
        }
        return try finishReceiving(file, contact: contact, at: path)
    }

    private func finishReceiving(_ file: ChatFile, contact: ChatContact, at path: String) throws(ChatError)
        -> Bool
    {
        try store.setFilePath(file, path)
        try store.finishFile(file, .rcvComplete)
        emit(.file(.rcvComplete(contact, try store.file(id: file.fileId, user))))
        return true
    }

    /// Whether the file has the offered size and (when given) digest; a sealed file is
    /// authenticated segment by segment on the way.
    private func matches(_ file: ChatFile, in opened: LocalFileReader) throws(ChatFileError) -> Bool {
        guard opened.size == file.fileSize else { return false }
        guard let digest = file.digest else {
            try opened.verify()
            return true
        }
        return try opened.digest() == digest
    }

    private func matches(_ file: ChatFile, at path: String) throws(ChatFileError) -> Bool {
        try matches(file, in: try LocalFileReader(path: path, key: file.fileKey))
    }

    /// The transfer failed: nothing is kept, and the user is told why.
    private func failReceiving(_ file: ChatFile, contact: ChatContact, _ error: ChatFileError)
        throws(ChatError) -> Bool
    {
        TransferFiles.remove(partialPath(file))
        try store.finishFile(file, .rcvError)
        emit(.file(.rcvError(contact, try store.file(id: file.fileId, user), reason: error.description)))
        return true
    }

}

extension AgentEvent {
    /// The connection an event is about, for the events a file's connection can have.
    fileprivate var fileConnectionID: AgentConnectionID? {
        switch self {
        case .confirmation(let id, _), .info(let id, _), .connected(let id), .message(let id, _),
            .sent(let id, _),
            .delivered(let id, _, _), .sendFailed(let id, _, _), .receiveFailed(let id, _),
            .subscriptionEnded(let id):
            id
        case .contactRequest, .relayDown, .relayUp:
            nil
        }
    }
}
