/// Why a command failed, as SimpleX's API reports it (`ChatError`): a chat error
/// (`{"type":"error","errorType":{...}}`), a store error (`{"type":"errorStore","storeError":{...}}`)
/// or an agent error (`{"type":"errorAgent","agentError":{...}}`), with SimpleX's type names.
public enum ChatAPIError: Error, Equatable, Sendable, CustomStringConvertible {
    // ChatErrorType
    case noActiveUser
    case userExists(contactName: String)
    case differentActiveUser(commandUserId: Int64, activeUserId: Int64)
    case invalidConnReq
    case invalidChatItemUpdate
    case invalidChatItemDelete
    case invalidForward
    /// The contact deleted us (SimpleX names the contact; here by its name).
    case contactNotActive(contactName: String)
    /// The command is not right for this chat or item, or asks for what this build does not do.
    case commandError(String)
    case internalError(String)
    // StoreError
    case contactNotFound(contactId: Int64)
    case contactNotFoundByName(contactName: String)
    case contactNotReady(contactName: String)
    case contactRequestNotFound(contactRequestId: Int64)
    case contactRequestNotFoundByName(contactName: String)
    case chatItemNotFound(itemId: Int64)
    case chatItemNotFoundByText(text: String)
    case dbException(String)
    case userContactLinkNotFound
    case duplicateContactLink
    // AgentErrorType
    /// The agent failed (`INTERNAL` with its message: the agent's errors are not typed as SimpleX's).
    case agent(String)

    /// The error as SimpleX's `ChatError` JSON.
    public var json: JSON {
        func error(_ type: String, _ fields: (String, JSON)...) -> JSON {
            ["type": "error", "errorType": .object(JSONObject([("type", .string(type))] + fields))]
        }
        func store(_ type: String, _ fields: (String, JSON)...) -> JSON {
            ["type": "errorStore", "storeError": .object(JSONObject([("type", .string(type))] + fields))]
        }
        switch self {
        case .noActiveUser: return error("noActiveUser")
        case .userExists(let name): return error("userExists", ("contactName", .string(name)))
        case .differentActiveUser(let commandUserId, let activeUserId):
            return error(
                "differentActiveUser", ("commandUserId", .int64(commandUserId)),
                ("activeUserId", .int64(activeUserId)))
        case .invalidConnReq: return error("invalidConnReq")
        case .invalidChatItemUpdate: return error("invalidChatItemUpdate")
        case .invalidChatItemDelete: return error("invalidChatItemDelete")
        case .invalidForward: return error("invalidForward")
        case .contactNotActive(let name): return error("contactNotActive", ("contactName", .string(name)))
        case .commandError(let message): return error("commandError", ("message", .string(message)))
        case .internalError(let message): return error("internalError", ("message", .string(message)))
        case .contactNotFound(let id): return store("contactNotFound", ("contactId", .int64(id)))
        case .contactNotFoundByName(let name):
            return store("contactNotFoundByName", ("contactName", .string(name)))
        case .contactNotReady(let name): return store("contactNotReady", ("contactName", .string(name)))
        case .contactRequestNotFound(let id):
            return store("contactRequestNotFound", ("contactRequestId", .int64(id)))
        case .contactRequestNotFoundByName(let name):
            return store("contactRequestNotFoundByName", ("contactName", .string(name)))
        case .chatItemNotFound(let id): return store("chatItemNotFound", ("itemId", .int64(id)))
        case .chatItemNotFoundByText(let text):
            return store("chatItemNotFoundByText", ("text", .string(text)))
        case .dbException(let message): return store("dBException", ("message", .string(message)))
        case .userContactLinkNotFound: return store("userContactLinkNotFound")
        case .duplicateContactLink: return store("duplicateContactLink")
        case .agent(let message):
            return [
                "type": "errorAgent", "agentError": ["type": "INTERNAL", "internalErr": .string(message)],
            ]
        }
    }

    public var description: String {
        switch self {
        case .noActiveUser: "no user profile yet"
        case .userExists(let name): "the user \(name) exists already"
        case .differentActiveUser(let commandUserId, let activeUserId):
            "user \(commandUserId) is not the active user (\(activeUserId))"
        case .invalidConnReq: "invalid connection link"
        case .invalidChatItemUpdate: "only your own messages can be edited"
        case .invalidChatItemDelete: "this message cannot be deleted for everyone"
        case .invalidForward: "these messages cannot be forwarded"
        case .contactNotActive(let name): "\(name): not active"
        case .commandError(let message): message
        case .internalError(let message): "internal error: \(message)"
        case .contactNotFound(let id): "no contact @\(id)"
        case .contactNotFoundByName(let name): "no contact \(name)"
        case .contactNotReady(let name): "\(name) is not connected yet"
        case .contactRequestNotFound(let id): "no contact request \(id)"
        case .contactRequestNotFoundByName(let name): "no contact request from \(name)"
        case .chatItemNotFound(let id): "no message \(id)"
        case .chatItemNotFoundByText(let text): "no message \(text)"
        case .dbException(let message): "chat database: \(message)"
        case .userContactLinkNotFound: "no chat address"
        case .duplicateContactLink: "you already have a chat address"
        case .agent(let message): message
        }
    }
}

extension ChatAPIError {
    /// The chat core's error as the API reports it.
    public init(_ error: ChatError) {
        switch error {
        case .noUser: self = .noActiveUser
        case .contactNotFound(let name):
            // The store names contacts looked up by id "#<id>".
            if name.hasPrefix("#"), let id = Int64(name.dropFirst()) {
                self = .contactNotFound(contactId: id)
            } else {
                self = .contactNotFoundByName(contactName: name)
            }
        case .itemNotFound(let what):
            if what.hasPrefix("#"), let id = Int64(what.dropFirst()) {
                self = .chatItemNotFound(itemId: id)
            } else {
                self = .chatItemNotFoundByText(text: what)
            }
        case .requestNotFound(let name): self = .contactRequestNotFoundByName(contactName: name)
        case .invalidCommand(let why): self = .commandError(why)
        case .notConnected(let name): self = .contactNotReady(contactName: name)
        case .contactNotActive(let name): self = .contactNotActive(contactName: name)
        case .agent(let why): self = .agent(why)
        case .store(let why): self = .dbException(why)
        case .file(let error): self = .commandError("\(error)")
        case .noAddress: self = .userContactLinkNotFound
        case .addressExists: self = .duplicateContactLink
        }
    }
}

extension JSON {
    /// A whole number.
    static func int64(_ value: Int64) -> JSON { .number(JSONNumber(value)) }

    /// A whole number.
    static func int(_ value: Int) -> JSON { .number(JSONNumber(value)) }
}
