import Foundation
import SimpleXCrypto

/// A file sent or received in a chat (SimpleX `CIFile` with its transfer), as the store keeps it.
public struct ChatFile: Equatable, Sendable {
    /// The number `/fr` and `/fc` take; unique in this database, never reused.
    public let fileId: Int64
    public let contactId: Int64
    /// The item that offered the file, and its message id (`x.file.acpt.inv` names the file by it).
    public let itemId: Int64?
    public let sharedMsgId: SharedMsgID?
    public let direction: ChatItemDirection
    /// As the sender named it (sanitized on receipt: no directories).
    public let fileName: String
    public let fileSize: Int64
    /// Sent: the file being sent (absolute). Received: where it is saved, once accepted.
    public var filePath: String?
    public var status: ChatFileStatus
    /// SHA-512 of the file's bytes, when the sender gave it.
    public let digest: [UInt8]?
    public let chunkSize: Int
    /// A group's file: its group and the member it goes to or came from (nil on the user's offer to
    /// the whole group); `contactId` is 0 then.
    public var groupId: Int64? = nil
    public var groupMemberId: Int64? = nil
    /// The key `filePath` is sealed with at rest (privacyEncryptLocalFiles; `LocalFileCipher`),
    /// nil for a plain file. Kept in the chat database, never shown or logged.
    public var fileKey: SecureBytes? = nil

    /// The chunks the file travels in (at least one, so an empty file is sent too).
    public var chunking: FileChunking { FileChunking(fileSize: fileSize, chunkSize: chunkSize) }
}

/// Where a file transfer stands (SimpleX `CIFileStatus`; the raw values are the store's).
public enum ChatFileStatus: String, Sendable, Equatable, CaseIterable {
    /// Offered, not accepted yet; accepted, connecting; chunks going out; all sent.
    case sndStored = "snd_stored", sndTransfer = "snd_transfer", sndComplete = "snd_complete"
    case sndCancelled = "snd_cancelled", sndError = "snd_error"
    /// Offered to us; accepted, connecting; chunks coming in; saved and verified.
    case rcvInvitation = "rcv_invitation", rcvAccepted = "rcv_accepted", rcvTransfer = "rcv_transfer"
    case rcvComplete = "rcv_complete", rcvCancelled = "rcv_cancelled", rcvError = "rcv_error"

    /// Nothing more will happen to the transfer.
    public var isFinal: Bool {
        switch self {
        case .sndComplete, .sndCancelled, .sndError, .rcvComplete, .rcvCancelled, .rcvError: true
        default: false
        }
    }
}

/// What happens to a file transfer without the user asking (SimpleX's `CRRcvFile*` / `CRSndFile*`).
public enum ChatFileEvent: Equatable, Sendable {
    /// An offered image was accepted automatically (privacyAcceptImages).
    case rcvAccepted(ChatContact, ChatFile)
    case rcvStarted(ChatContact, ChatFile)
    /// Another tenth of the file arrived: `percent` is 10, 20, ... 90.
    case rcvProgress(ChatContact, ChatFile, percent: Int)
    /// Saved to `filePath` and its digest checked.
    case rcvComplete(ChatContact, ChatFile)
    /// The transfer failed; nothing was saved.
    case rcvError(ChatContact, ChatFile, reason: String)
    case rcvCancelledBySender(ChatContact, ChatFile)
    case sndStarted(ChatContact, ChatFile)
    case sndProgress(ChatContact, ChatFile, percent: Int)
    /// Every chunk is with the relay.
    case sndComplete(ChatContact, ChatFile)
    case sndError(ChatContact, ChatFile, reason: String)
    case sndCancelledByRecipient(ChatContact, ChatFile)
}

/// Why a file cannot be sent or received: one line for the user, in SimpleX's words where it has them.
public enum ChatFileError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(path: String)
    case notARegularFile(path: String)
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case tooLarge(name: String, size: Int64, limit: Int64)
    /// No file with this number (or not one that can be received or cancelled).
    case noFile(Int64)
    case alreadyReceiving(name: String)
    case alreadyExists(path: String)
    case alreadyDone(name: String, ChatFileStatus)
    case changedWhileSending(path: String)
    case digestMismatch
    case invalidChunk(String)
    /// A file sealed at rest does not authenticate: altered, truncated or replaced on disk.
    case tampered(path: String)
    /// The file is not here to be saved or opened (not received yet, failed or cancelled).
    case notReceived(name: String, ChatFileStatus)

    public var description: String {
        switch self {
        case .notFound(let path): "file not found: \(path)"
        case .notARegularFile(let path): "not a regular file: \(path)"
        case .unreadable(let path, let reason): "cannot read file \(path): \(reason)"
        case .unwritable(let path, let reason): "cannot write file \(path): \(reason)"
        case .tooLarge(let name, let size, let limit):
            "file size exceeds the limit: \(name) has \(size) bytes, the limit is \(limit) (\(FileChunking.readableSize(limit)))"
        case .noFile(let id): "file \(id) not found"
        case .alreadyReceiving(let name): "file is already being received: \(name)"
        case .alreadyExists(let path): "file already exists: \(path)"
        case .alreadyDone(let name, let status):
            switch status {
            case .sndCancelled, .rcvCancelled: "file cancelled: \(name)"
            case .sndComplete, .rcvComplete: "file transfer is complete: \(name)"
            default: "file transfer failed: \(name)"
            }
        case .changedWhileSending(let path): "the file \(path) changed after it was offered; send it again"
        case .digestMismatch:
            "the received file does not match the sender's digest (damaged or changed in transit); it was deleted"
        case .invalidChunk(let why): "error receiving file: \(why)"
        case .notReceived(let name, let status):
            "file \(name) is not here (\(status.rawValue.replacingOccurrences(of: "_", with: " ")), or deleted)"
        case .tampered(let path):
            "the stored file \(path) was modified or damaged (it does not authenticate); its contents were not used"
        }
    }
}
