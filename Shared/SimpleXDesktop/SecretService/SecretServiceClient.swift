import Foundation
import SimpleXCrypto

/// A client of the freedesktop Secret Service (`org.freedesktop.secrets`: gnome-keyring, KWallet,
/// KeePassXC) over our `DBusConnection`, for small secrets such as the keychain's master key.
///
/// - Items live in the default collection (alias `/org/freedesktop/secrets/aliases/default`) and
///   are found by their attributes, which are not secret.
/// - Transfer uses the `plain` session algorithm: the alternative, `dh-ietf1024-sha256-aes128-cbc-pkcs7`,
///   needs AES-128-CBC, which libsodium does not have, and would protect only against someone who
///   can read the session bus socket, which is the user's own (0700 runtime directory) and whose
///   peers could ask the service for the secret anyway.
/// - Secret bytes go between the D-Bus message buffer and `SecureBytes` directly, never through a
///   Swift array or string; the received message's copy is zeroed after use. They are never logged.
/// - Locked items and collections are unlocked with `Unlock`; when that needs a prompt (a password
///   dialog) the call fails with `chat.simplex.Error.SecretServiceLocked` instead of waiting.
/// - The client never D-Bus-activates the service: see `isAvailable(on:)`.
public final class SecretServiceClient: Sendable {
    /// The Secret Service's bus name.
    public static let busName = "org.freedesktop.secrets"
    static let servicePath = "/org/freedesktop/secrets"
    static let defaultCollection = "/org/freedesktop/secrets/aliases/default"
    static let serviceInterface = "org.freedesktop.Secret.Service"
    static let collectionInterface = "org.freedesktop.Secret.Collection"
    static let itemInterface = "org.freedesktop.Secret.Item"
    static let sessionInterface = "org.freedesktop.Secret.Session"
    /// The object path meaning "none" (no prompt needed, no item).
    static let noObject = "/"

    let connection: DBusConnection
    let timeout: Duration

    /// A client on `connection`; each Secret Service call gives up after `timeout`.
    public init(connection: DBusConnection, timeout: Duration = .seconds(10)) {
        self.connection = connection
        self.timeout = timeout
    }

    /// Whether a Secret Service runs on the bus now, i.e. `org.freedesktop.secrets` has an owner.
    ///
    /// A service that is only activatable does not count: on a headless session (ssh, a service
    /// without a desktop login) activation starts a keyring daemon whose login keyring is locked
    /// or missing, and unlocking or creating it needs a password prompt that cannot be shown. The
    /// caller then uses its reported fallback instead of failing later. A bus error counts as "no".
    public static func isAvailable(on connection: DBusConnection) async -> Bool {
        do {
            return try await connection.nameHasOwner(busName)
        } catch {
            return false
        }
    }

    /// The secret of the item whose attributes include `attributes`, or nil when there is none.
    public func lookup(attributes: [String: String]) async throws -> SecureBytes? {
        try Self.check(attributes)
        let (unlocked, locked) = try await searchItems(attributes)
        var candidates = unlocked
        if candidates.isEmpty, !locked.isEmpty {
            try await unlock(locked, what: "the item")
            candidates = locked
        }
        guard let item = candidates.min() else { return nil }
        return try await withSession { session in try await self.secret(of: item, session: session) }
    }

    /// Stores `secret` in the default collection under `attributes`, replacing an item that has
    /// the same attributes.
    public func store(label: String, attributes: [String: String], secret: SecureBytes) async throws {
        try Self.check(attributes)
        try await unlockDefaultCollection()
        try await withSession { session in
            try await self.createItem(label: label, attributes: attributes, secret: secret, session: session)
        }
    }

    /// Deletes every item whose attributes include `attributes` (none is not an error).
    public func delete(attributes: [String: String]) async throws {
        try Self.check(attributes)
        let (unlocked, locked) = try await searchItems(attributes)
        if !locked.isEmpty { try await unlock(locked, what: "the item") }
        for item in unlocked + locked {
            let reply = try await call(item, Self.itemInterface, "Delete")
            guard reply.first?.objectPath == Self.noObject else {
                throw DBusError.secretServiceLocked("the item")
            }
        }
    }

    /// An empty attribute set would match every item of the user's keyring.
    private static func check(_ attributes: [String: String]) throws {
        guard !attributes.isEmpty else {
            throw DBusError.invalidArgs(
                "Secret Service attributes must not be empty (they would match every item)")
        }
    }
}
