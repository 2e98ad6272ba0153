import Foundation
import SimpleXCrypto
import SimpleXDesktop
import TestSupport
import Testing

@Suite(.timeLimit(.minutes(1)))
struct SecretServiceClientTests {
    static let attributes = ["application": "chat.simplex.test", "keychain": "/tmp/test/keychain"]

    /// Test bytes (not a real secret) copied out for comparison.
    func bytes(_ secret: SecureBytes?) -> [UInt8]? {
        secret?.withUnsafeBytes { Array($0) }
    }

    func secret(_ bytes: [UInt8]) -> SecureBytes {
        SecureBytes(count: bytes.count) { $0.copyBytes(from: bytes) }
    }

    @Test func isAvailableIsFalseOnABusWithoutASecretService() async throws {
        let bus = try await TestBus()
        let connection = try await DBusConnection(address: bus.address)
        #expect(await SecretServiceClient.isAvailable(on: connection) == false)

        // The client does not D-Bus-activate one either (gnome-keyring may be activatable here).
        let client = SecretServiceClient(connection: connection)
        let error = await dbusError { _ = try await client.lookup(attributes: Self.attributes) }
        #expect(error?.name == "chat.simplex.Error.SecretServiceUnavailable")
        #expect(try await connection.nameHasOwner(SecretServiceClient.busName) == false)
    }

    @Test func isAvailableIsTrueWithGnomeKeyring() async throws {
        let keyring = try await TestKeyring()
        #expect(await SecretServiceClient.isAvailable(on: keyring.connection))
    }

    @Test func storeThenLookupReturnsTheSameBytes() async throws {
        let keyring = try await TestKeyring()
        let client = SecretServiceClient(connection: keyring.connection)
        let key: [UInt8] = (0..<32).map { UInt8(($0 * 37 + 5) % 256) } + [0, 0, 255]
        try await client.store(label: "SimpleX test key", attributes: Self.attributes, secret: secret(key))
        #expect(bytes(try await client.lookup(attributes: Self.attributes)) == key)

        // A second client (as a later process would) finds it too, with a subset of the attributes.
        let other = SecretServiceClient(connection: try await DBusConnection(address: keyring.bus.address))
        #expect(bytes(try await other.lookup(attributes: ["keychain": "/tmp/test/keychain"])) == key)
    }

    @Test func lookupOfMissingAttributesReturnsNil() async throws {
        let keyring = try await TestKeyring()
        let client = SecretServiceClient(connection: keyring.connection)
        try await client.store(label: "other", attributes: Self.attributes, secret: secret([1, 2, 3]))
        #expect(
            try await client.lookup(attributes: [
                "application": "chat.simplex.test", "keychain": "/elsewhere",
            ]) == nil)
        #expect(try await client.lookup(attributes: ["no-such": "attribute"]) == nil)
    }

    @Test func storingAgainReplacesTheItem() async throws {
        let keyring = try await TestKeyring()
        let client = SecretServiceClient(connection: keyring.connection)
        try await client.store(label: "first", attributes: Self.attributes, secret: secret([1, 1, 1]))
        try await client.store(label: "second", attributes: Self.attributes, secret: secret([2, 2, 2, 2]))
        #expect(bytes(try await client.lookup(attributes: Self.attributes)) == [2, 2, 2, 2])

        let found = try await keyring.service(
            "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "SearchItems",
            [.stringDictionary(Self.attributes)])
        #expect(found.first?.array?.count == 1)
    }

    @Test func deleteRemovesTheItemAndOnlyThatItem() async throws {
        let keyring = try await TestKeyring()
        let client = SecretServiceClient(connection: keyring.connection)
        let kept = ["application": "chat.simplex.test", "keychain": "/kept"]
        try await client.store(label: "doomed", attributes: Self.attributes, secret: secret([7]))
        try await client.store(label: "kept", attributes: kept, secret: secret([8]))

        try await client.delete(attributes: Self.attributes)
        #expect(try await client.lookup(attributes: Self.attributes) == nil)
        #expect(bytes(try await client.lookup(attributes: kept)) == [8])
        try await client.delete(attributes: Self.attributes)  // nothing left to delete: no error
    }

    @Test func aLockedKeyringFailsWithLockedInsteadOfPrompting() async throws {
        let keyring = try await TestKeyring()
        let client = SecretServiceClient(connection: keyring.connection)
        try await client.store(label: "key", attributes: Self.attributes, secret: secret([5, 5]))
        _ = try await keyring.service(
            "/org/freedesktop/secrets", "org.freedesktop.Secret.Service", "Lock",
            [.array(elementSignature: "o", [.objectPath("/org/freedesktop/secrets/aliases/default")])])

        let lookup = await dbusError { _ = try await client.lookup(attributes: Self.attributes) }
        #expect(lookup?.name == "chat.simplex.Error.SecretServiceLocked")
        let store = await dbusError {
            try await client.store(label: "key", attributes: Self.attributes, secret: secret([6]))
        }
        #expect(store?.name == "chat.simplex.Error.SecretServiceLocked")
    }

    @Test func emptyAttributesAreRefused() async throws {
        let bus = try await TestBus()
        let client = SecretServiceClient(connection: try await DBusConnection(address: bus.address))
        let error = await dbusError { try await client.delete(attributes: [:]) }
        #expect(error?.name == "chat.simplex.Error.InvalidArgs")
    }
}
