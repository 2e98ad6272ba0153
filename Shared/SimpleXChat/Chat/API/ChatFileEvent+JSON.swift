import Foundation

extension ChatFile {
    /// SimpleX's `CIFile` shape, with what the store keeps.
    var json: JSON {
        var object: JSONObject = [
            "fileId": .int64(fileId), "fileName": .string(fileName), "fileSize": .int64(fileSize),
            "fileStatus": ["type": .string(statusType)],
        ]
        if let filePath { object["filePath"] = .string(filePath) }
        return .object(object)
    }

    /// `CIFileStatus` type names (SimpleX writes them in camel case).
    private var statusType: String {
        switch status {
        case .sndStored: "sndStored"
        case .sndTransfer: "sndTransfer"
        case .sndComplete: "sndComplete"
        case .sndCancelled: "sndCancelled"
        case .sndError: "sndError"
        case .rcvInvitation: "rcvInvitation"
        case .rcvAccepted: "rcvAccepted"
        case .rcvTransfer: "rcvTransfer"
        case .rcvComplete: "rcvComplete"
        case .rcvCancelled: "rcvCancelled"
        case .rcvError: "rcvError"
        }
    }
}

extension ChatFileEvent {
    /// SimpleX's event type for a file transfer change.
    var eventType: String {
        switch self {
        case .rcvAccepted: "rcvFileAccepted"
        case .rcvStarted: "rcvFileStart"
        case .rcvProgress: "rcvFileProgressSMP"
        case .rcvComplete: "rcvFileComplete"
        case .rcvError: "rcvFileError"
        case .rcvCancelledBySender: "rcvFileSndCancelled"
        case .sndStarted: "sndFileStart"
        case .sndProgress: "sndFileProgressSMP"
        case .sndComplete: "sndFileComplete"
        case .sndError: "sndFileError"
        case .sndCancelledByRecipient: "sndFileRcvCancelled"
        }
    }

    /// The event's members besides `type` and `user`.
    var members: JSONObject {
        switch self {
        case .rcvAccepted(let contact, let file), .rcvStarted(let contact, let file),
            .rcvComplete(let contact, let file),
            .rcvCancelledBySender(let contact, let file), .sndStarted(let contact, let file),
            .sndComplete(let contact, let file),
            .sndCancelledByRecipient(let contact, let file):
            return ["contact": contact.json, "file": file.json]
        case .rcvProgress(let contact, let file, let percent),
            .sndProgress(let contact, let file, let percent):
            return ["contact": contact.json, "file": file.json, "percent": .int(percent)]
        case .rcvError(let contact, let file, let reason), .sndError(let contact, let file, let reason):
            return ["contact": contact.json, "file": file.json, "reason": .string(reason)]
        }
    }
}
