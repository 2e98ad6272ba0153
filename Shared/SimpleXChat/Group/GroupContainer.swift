import Glibc
import SimpleXSystem

/// The group data directory every process shares (iOS: the App Group container).
///
/// Resolved from `SIMPLEX_GROUP_DIR`, else `$XDG_DATA_HOME/simplex`, else
/// `~/.local/share/simplex`. It holds the databases, `files/`, `tmp/`, `groupDefaults.json`, the
/// encrypted `keychain` and `core.lock`, and must be private to its owner (mode 0700).
public struct GroupContainer: Sendable, Equatable {
    /// Absolute path of the directory.
    public let path: String

    /// Resolves the directory from the environment, creates it (and `files/`, `tmp/`) with mode
    /// 0700 when missing, and refuses one that other users can read or write.
    public static func open(
        environment: [String: String] = ProcessEnvironment.current
    ) throws(GroupContainerError) -> GroupContainer {
        try GroupContainer(path: resolvePath(environment: environment))
    }

    /// Opens (creating when missing) the container at `path`.
    public init(path: String) throws(GroupContainerError) {
        self.path = path
        try Self.ensurePrivateDirectory(path, createParents: true)
        try Self.ensurePrivateDirectory(filesDirectory, createParents: false)
        try Self.ensurePrivateDirectory(tmpDirectory, createParents: false)
    }

    /// The directory path the environment selects (nothing is created).
    public static func resolvePath(
        environment: [String: String] = ProcessEnvironment.current
    ) throws(GroupContainerError) -> String {
        if let dir = environment["SIMPLEX_GROUP_DIR"], !dir.isEmpty {
            return absolute(dir, environment: environment)
        }
        // The XDG spec says relative values are invalid and must be ignored.
        if let data = environment["XDG_DATA_HOME"], data.hasPrefix("/") {
            return "\(data)/simplex"
        }
        guard let home = ProcessEnvironment.home(environment) else { throw .noHomeDirectory }
        return "\(home)/.local/share/simplex"
    }

    public var filesDirectory: String { "\(path)/files" }
    public var tmpDirectory: String { "\(path)/tmp" }
    public var groupDefaultsPath: String { "\(path)/groupDefaults.json" }
    public var keychainPath: String { "\(path)/keychain" }
    public var chatDatabasePath: String { "\(path)/simplex_v1_chat.db" }
    /// Held (flock) by whichever process runs the chat core (DESIGN §4).
    public var coreLockPath: String { "\(path)/core.lock" }

    private static func absolute(_ path: String, environment: [String: String]) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return cwd == "/" ? "/\(path)" : "\(cwd)/\(path)"
    }

    /// Creates `path` 0700 when missing; checks an existing one is a directory owned by us and
    /// closed to group and others (`PrivateDirectory`, with the group directory's messages).
    public static func ensurePrivateDirectory(_ path: String, createParents: Bool) throws(GroupContainerError)
    {
        do {
            try PrivateDirectory.ensure(path, createParents: createParents)
        } catch {
            switch error {
            case .notADirectory(let path): throw .notADirectory(path)
            case .notOwned(let path, let owner): throw .notOwned(path, owner: owner)
            case .accessibleByOthers(let path, let mode): throw .accessibleByOthers(path, mode: mode)
            case .system(let error): throw .system(error)
            }
        }
    }
}

/// Why the group directory cannot be used; each message says how to fix it.
public enum GroupContainerError: Error, Equatable, CustomStringConvertible {
    case noHomeDirectory
    case notADirectory(String)
    case notOwned(String, owner: uid_t)
    case accessibleByOthers(String, mode: mode_t)
    case system(SystemError)

    public var description: String {
        switch self {
        case .noHomeDirectory:
            return "cannot find the group directory: set SIMPLEX_GROUP_DIR, XDG_DATA_HOME or HOME"
        case .notADirectory(let path):
            return "group directory \(path) is not a directory: move that file away or set SIMPLEX_GROUP_DIR"
        case .notOwned(let path, let owner):
            return "group directory \(path) belongs to uid \(owner), not to you (uid \(geteuid())): "
                + "use your own directory (SIMPLEX_GROUP_DIR) or fix the owner with chown"
        case .accessibleByOthers(let path, let mode):
            let octal = String(mode, radix: 8)
            return "group directory \(path) can be read or written by other users (mode \(octal)): "
                + "fix it with: chmod 700 \(path)"
        case .system(let error):
            return "group directory: \(error)"
        }
    }
}
