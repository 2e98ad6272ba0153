import Foundation
import SimpleXCrypto
import SimpleXProtocol
import SimpleXSystem

/// The relay's files in its config directory (0700): `identity.key` (the Ed25519 identity seed,
/// 0600), `smp-server.ini`, and the store directory.
public struct RelayFiles: Sendable {
    public let directory: String

    public init(directory: String) { self.directory = directory }

    /// `--config DIR`, else `$XDG_CONFIG_HOME/smp-server`, else `~/.config/smp-server`.
    public static func resolve(
        _ option: String?, environment: [String: String] = ProcessEnvironment.current
    ) throws(RelayError) -> RelayFiles {
        if let option, !option.isEmpty { return RelayFiles(directory: option) }
        guard let config = ProcessEnvironment.configHome(environment) else {
            throw .setup("no config directory: pass --config DIR or set HOME")
        }
        return RelayFiles(directory: "\(config)/smp-server")
    }

    public var identityPath: String { "\(directory)/identity.key" }
    public var configPath: String { "\(directory)/smp-server.ini" }

    public func storeDirectory(_ config: ServerConfig) -> String {
        config.storePath.hasPrefix("/") ? config.storePath : "\(directory)/\(config.storePath)"
    }

    /// `smp-server init`: a new identity and config; refuses to overwrite an existing server.
    /// Returns the address, or nil when the port is 0 (chosen, and printed, at start).
    public func initialize(host: String?, port: UInt16?) throws(RelayError) -> SMPServerAddress? {
        if FileManager.default.fileExists(atPath: identityPath) {
            let existing = (try? address()).map { " (address \($0))" } ?? ""
            throw .setup("a server is already initialized in \(directory)\(existing): to start over, remove that directory")
        }
        var config = ServerConfig()
        if let host { config.host = host }
        if let port { config.port = port }
        // Check the host before anything is written, so a mistake leaves nothing behind.
        do {
            _ = try SMPServerAddress(keyHash: [UInt8](repeating: 0, count: 32), hosts: [config.host], port: 1)
        } catch {
            throw .setup("invalid host '\(config.host)': \(error)")
        }
        do {
            try PrivateDirectory.ensure(directory, createParents: true)
            try AtomicFile.write(Array(config.text.utf8), to: configPath, mode: 0o600)
            try PrivateDirectory.ensure(storeDirectory(config), createParents: true)
        } catch {
            throw .setup("cannot write the configuration in \(directory): \(error)")
        }
        let seed: SecureBytes
        do { seed = try SecretFile(path: identityPath).create() } catch { throw .setup(error.message("the identity key file")) }
        guard config.port != 0 else { return nil }
        return try address(identity: identity(seed: seed), config: config)
    }

    public func loadConfig() throws(RelayError) -> ServerConfig {
        let read: [UInt8]?
        do { read = try AtomicFile.read(configPath) } catch { throw .setup("cannot read the configuration: \(error)") }
        guard let bytes = read else { throw .setup("no configuration in \(directory): run `smp-server init` first") }
        do { return try ServerConfig(text: String(decoding: bytes, as: UTF8.self)) } catch { throw .setup("\(error)") }
    }

    public func loadIdentity() throws(RelayError) -> ServerIdentity {
        let seed: SecureBytes?
        do { seed = try SecretFile(path: identityPath).read() } catch { throw .setup(error.message("the identity key file")) }
        guard let seed else { throw .setup("no server identity in \(directory): run `smp-server init` first") }
        return try identity(seed: seed)
    }

    /// The address clients use: the identity fingerprint, the configured host and port.
    public func address() throws(RelayError) -> SMPServerAddress {
        let config = try loadConfig()
        guard config.port != 0 else {
            throw .setup("the port is 0, chosen when the server starts: `smp-server start` prints the address")
        }
        return try address(identity: loadIdentity(), config: config)
    }

    func address(identity: ServerIdentity, config: ServerConfig, port: UInt16? = nil) throws(RelayError) -> SMPServerAddress {
        do {
            return try SMPServerAddress(keyHash: identity.fingerprint, hosts: [config.host], port: port ?? config.port)
        } catch {
            throw .setup("invalid server address: \(error)")
        }
    }

    private func identity(seed: SecureBytes) throws(RelayError) -> ServerIdentity {
        do { return try ServerIdentity(seed: seed) } catch { throw .setup("the identity key file \(identityPath) is unusable: \(error)") }
    }
}

/// Why the relay cannot start or go on.
public enum RelayError: Error, Equatable, CustomStringConvertible {
    case setup(String)
    case store(String)
    case network(String)

    public var description: String {
        switch self {
        case .setup(let message), .store(let message), .network(let message): return message
        }
    }
}
