/// A chat's own settings (SimpleX `ChatSettings`), as `/_settings` sets them whole.
public struct ChatSettings: Equatable, Sendable {
    /// Which received messages notify; `none` mutes the chat.
    public var enableNtfs: NotificationChat.NotificationSetting
    /// Delivery receipts to this contact: on, off, or nil to follow the user's setting.
    public var sendRcpts: Bool?
    public var favorite: Bool

    public init(enableNtfs: NotificationChat.NotificationSetting = .all, sendRcpts: Bool? = nil, favorite: Bool = false) {
        self.enableNtfs = enableNtfs
        self.sendRcpts = sendRcpts
        self.favorite = favorite
    }

    /// Reads `{"enableNtfs":"all"|"mentions"|"none","sendRcpts":true|false|null,"favorite":false}`;
    /// `sendRcpts` and `favorite` may be left out (null and false).
    public init(json: JSON) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: "chatSettings")
        let text = try fields.string("enableNtfs")
        guard let enableNtfs = NotificationChat.NotificationSetting(rawValue: text) else {
            throw .invalidValue(path: fields.fieldPath("enableNtfs"), reason: "\(text) is not all, mentions or none")
        }
        self.init(
            enableNtfs: enableNtfs, sendRcpts: try fields.optionalBool("sendRcpts"),
            favorite: try fields.optionalBool("favorite") ?? false)
    }

    /// In SimpleX's field order.
    public var json: JSON {
        jsonObject([
            "enableNtfs": .string(enableNtfs.rawValue), "sendRcpts": sendRcpts.map(JSON.bool), "favorite": .bool(favorite),
        ])
    }
}

extension NotificationChat.NotificationSetting {
    /// The value of the chat database's `enable_ntfs` column: 0 none, 1 all, 2 mentions.
    init(enableNtfsColumn value: Int64) {
        switch value {
        case 0: self = .none
        case 2: self = .mentions
        default: self = .all
        }
    }

    var enableNtfsColumn: Int64 {
        switch self {
        case .none: 0
        case .all: 1
        case .mentions: 2
        }
    }
}

extension ChatContact {
    /// The contact's chat settings.
    public var chatSettings: ChatSettings {
        ChatSettings(enableNtfs: enableNtfs, sendRcpts: sendRcpts, favorite: favorite)
    }
}
