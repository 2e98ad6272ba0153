internal import CDBus
import Foundation
import SimpleXCrypto

/// The Secret Service D-Bus calls behind `SecretServiceClient`.
extension SecretServiceClient {
    /// Calls a Secret Service method without D-Bus activation, translating "nobody owns the
    /// name" into `chat.simplex.Error.SecretServiceUnavailable`.
    func call(
        _ path: String, _ interface: String, _ method: String, _ arguments: [DBusValue] = []
    ) async throws -> [DBusValue] {
        try await call(
            path, interface, method,
            encode: { (writer) throws(DBusError) in try writer.append(arguments) },
            decode: { (reader) throws(DBusError) in try reader.readAll() })
    }

    func call<T: Sendable>(
        _ path: String, _ interface: String, _ method: String,
        encode: @escaping @Sendable (inout DBusMessageWriter) throws(DBusError) -> Void,
        decode: @escaping @Sendable (inout DBusMessageReader) throws(DBusError) -> T
    ) async throws -> T {
        var target = DBusLoop.CallTarget(
            destination: Self.busName, path: path, interface: interface, method: method)
        target.autoStart = false
        do {
            return try await connection.call(target, timeout: timeout, encode: encode, decode: decode)
        } catch let error as DBusError
            where error.name == DBusError.serviceUnknownName
            || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner"
        {
            throw DBusError.secretServiceUnavailable("\(Self.busName) has no owner on the session bus")
        }
    }

    /// Opens a `plain` session for `body` and closes it afterwards.
    func withSession<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        let reply = try await call(
            Self.servicePath, Self.serviceInterface, "OpenSession", [.string("plain"), .variant(.string(""))])
        guard reply.count == 2, let session = reply[1].objectPath else {
            throw DBusError.failed("OpenSession answered an unexpected reply")
        }
        do {
            let result = try await body(session)
            _ = try? await call(session, Self.sessionInterface, "Close")
            return result
        } catch {
            _ = try? await call(session, Self.sessionInterface, "Close")
            throw error
        }
    }

    /// Items (in any collection) whose attributes include `attributes`.
    func searchItems(_ attributes: [String: String]) async throws -> (unlocked: [String], locked: [String]) {
        let reply = try await call(
            Self.servicePath, Self.serviceInterface, "SearchItems", [.stringDictionary(attributes)])
        guard reply.count == 2, let unlocked = reply[0].array, let locked = reply[1].array else {
            throw DBusError.failed("SearchItems answered an unexpected reply")
        }
        return (unlocked.compactMap(\.objectPath), locked.compactMap(\.objectPath))
    }

    /// Unlocks `objects`, or fails with `SecretServiceLocked` when that needs a prompt.
    func unlock(_ objects: [String], what: String) async throws {
        let reply = try await call(
            Self.servicePath, Self.serviceInterface, "Unlock",
            [.array(elementSignature: "o", objects.map { .objectPath($0) })])
        guard reply.count == 2, let prompt = reply[1].objectPath else {
            throw DBusError.failed("Unlock answered an unexpected reply")
        }
        // A prompt object means the service wants to ask the user; we never call Prompt.Prompt.
        guard prompt == Self.noObject else { throw DBusError.secretServiceLocked(what) }
    }

    /// Unlocks the default collection if it is locked.
    func unlockDefaultCollection() async throws {
        let reply: [DBusValue]
        do {
            reply = try await call(
                Self.defaultCollection, "org.freedesktop.DBus.Properties", "Get",
                [.string(Self.collectionInterface), .string("Locked")])
        } catch let error as DBusError where error.name.hasPrefix("org.freedesktop.") {
            throw DBusError.secretServiceNoDefaultCollection(error.description)
        }
        guard let locked = reply.first?.variant?.bool else {
            throw DBusError.failed("the default collection's Locked property is not a boolean")
        }
        if locked { try await unlock([Self.defaultCollection], what: "the default collection") }
    }

    /// The secret of `item`, copied from the reply straight into `SecureBytes`.
    func secret(of item: String, session: String) async throws -> SecureBytes {
        try await call(
            item, Self.itemInterface, "GetSecret",
            encode: { (writer) throws(DBusError) in try writer.append(.objectPath(session)) },
            decode: { (reader) throws(DBusError) in
                // Secret: (o session, ay parameters, ay value, s content_type)
                try reader.container(CDBus_typeStruct) { (fields) throws(DBusError) in
                    _ = try fields.read()
                    _ = try fields.read()
                    return try fields.readByteArray { raw in
                        let secret = SecureBytes(count: raw.count) { $0.copyMemory(from: raw) }
                        // Best effort: the message is ours and about to be freed; wipe its copy.
                        if let base = raw.baseAddress {
                            UnsafeMutableRawPointer(mutating: base).initializeMemory(
                                as: UInt8.self, repeating: 0, count: raw.count)
                        }
                        return secret
                    }
                }
            })
    }

    /// `CreateItem` in the default collection with replace = true.
    func createItem(label: String, attributes: [String: String], secret: SecureBytes, session: String)
        async throws
    {
        let properties = DBusValue.variantDictionary([
            "org.freedesktop.Secret.Item.Label": .string(label),
            "org.freedesktop.Secret.Item.Attributes": .stringDictionary(attributes),
        ])
        let reply = try await call(
            Self.defaultCollection, Self.collectionInterface, "CreateItem",
            encode: { (writer) throws(DBusError) in
                try writer.append(properties)
                try writer.container(CDBus_typeStruct, nil) { (fields) throws(DBusError) in
                    try fields.append(.objectPath(session))
                    try fields.append(.byteArray([]))
                    // The caller awaits this call, so `secret` is alive and unchanged while we read it.
                    let appended = secret.withUnsafeBytes { raw in
                        Result { () throws(DBusError) in try fields.appendByteArray(raw) }
                    }
                    try appended.get()
                    try fields.append(.string("application/octet-stream"))
                }
                try writer.append(.bool(true))
            },
            decode: { (reader) throws(DBusError) in try reader.readAll() })
        guard reply.count == 2, let prompt = reply[1].objectPath else {
            throw DBusError.failed("CreateItem answered an unexpected reply")
        }
        guard prompt == Self.noObject else { throw DBusError.secretServiceLocked("the default collection") }
    }
}
