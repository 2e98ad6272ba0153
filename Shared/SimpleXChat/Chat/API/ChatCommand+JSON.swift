extension ComposedMessage {
    /// Reads `{"msgContent":{...},"quotedItemId":5}`; `fileSource` and `mentions` are optional.
    public init(json: JSON) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: "composedMessage")
        let quotedItemId = try fields.optionalInt("quotedItemId")
        self.init(
            fileSource: fields.optionalValue("fileSource"), quotedItemId: quotedItemId.map(Int64.init),
            msgContent: try fields.decode("msgContent"), mentions: try Self.mentions(fields))
    }

    /// `{"quotedItemId":5,"msgContent":{...},"mentions":{}}`, in SimpleX's field order, absent
    /// optionals left out.
    public var json: JSON {
        var object = JSONObject()
        if let fileSource { object["fileSource"] = fileSource }
        if let quotedItemId { object["quotedItemId"] = .number(JSONNumber(quotedItemId)) }
        object["msgContent"] = msgContent.json
        object["mentions"] = .object(mentions)
        return .object(object)
    }

    static func mentions(_ fields: JSONFields) throws(ChatProtocolError) -> JSONObject {
        guard let value = fields.optionalValue("mentions") else { return JSONObject() }
        guard case .object(let object) = value else {
            throw .wrongType(path: fields.fieldPath("mentions"), expected: "object", found: value.kindName)
        }
        return object
    }
}

extension UpdatedMessage {
    /// Reads `{"msgContent":{...},"mentions":{}}` (`mentions` optional).
    public init(json: JSON) throws(ChatProtocolError) {
        let fields = try JSONFields(json, path: "updatedMessage")
        self.init(msgContent: try fields.decode("msgContent"), mentions: try ComposedMessage.mentions(fields))
    }

    /// `{"msgContent":{...},"mentions":{}}`.
    public var json: JSON { ["msgContent": msgContent.json, "mentions": .object(mentions)] }
}

extension MsgReaction {
    /// `{"type":"emoji","emoji":"👍"}` ("type" first, as SimpleX's apps and API write it); an
    /// unknown reaction as it came.
    var apiJSON: JSON {
        switch self {
        case .emoji(let emoji): ["type": "emoji", "emoji": .string(emoji.rawValue)]
        case .unknown: json
        }
    }
}
