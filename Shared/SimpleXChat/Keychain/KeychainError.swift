import SimpleXCrypto
import SimpleXSystem

/// Why the keychain could not be opened or changed. In every case the stored items are left
/// as they were.
public enum KeychainError: Error, Equatable, CustomStringConvertible {
    case wrongPassphrase(path: String)
    case wrongMasterKey(path: String, source: String)
    case corrupted(path: String, reason: String)
    case keyFileAccessibleByOthers(path: String, mode: UInt32)
    case keyFileNotOwned(path: String)
    case keyFileCorrupted(path: String, size: Int)
    case masterKeyMissing(path: String, source: String)
    case passphraseRequired(path: String)
    /// The databases' passphrase is not kept in the keychain (`storeDBPassphrase` off): only the
    /// client asks for it, at start.
    case databasePassphraseRequired(path: String)
    case sourceMismatch(path: String, recorded: KeychainKeySource, offered: KeychainKeySource)
    case secretServiceUnavailable(path: String, reason: String)
    case noKeyFileLocation
    case system(SystemError)
    case crypto(CryptoError)

    public var description: String {
        switch self {
        case .wrongPassphrase(let path):
            return "wrong passphrase for the keychain \(path); nothing was changed"
        case .wrongMasterKey(let path, let source):
            return "the master key from \(source) does not open the keychain \(path) "
                + "(was the key replaced?); nothing was changed"
        case .corrupted(let path, let reason):
            return "the keychain \(path) is corrupted or was tampered with (\(reason)); nothing was changed"
        case .keyFileAccessibleByOthers(let path, let mode):
            return "the keychain key file \(path) can be read or written by other users "
                + "(mode \(String(mode, radix: 8))): fix it with: chmod 600 \(path)"
        case .keyFileNotOwned(let path):
            return "the keychain key file \(path) belongs to another user: remove it or fix the owner"
        case .keyFileCorrupted(let path, let size):
            return "the keychain key file \(path) is corrupted (\(size) bytes, expected 32)"
        case .masterKeyMissing(let path, let source):
            return "the master key of the keychain \(path) is missing from \(source); "
                + "restore it, or remove the keychain to start a new one"
        case .passphraseRequired(let path):
            return "the keychain \(path) is protected by a passphrase: unlock it first"
        case .databasePassphraseRequired(let path):
            return "the database passphrase is not stored in the keychain \(path): simplex-chat asks for it at start"
        case .sourceMismatch(let path, let recorded, _):
            return "the keychain \(path) is protected by \(recorded), which is not available here"
        case .secretServiceUnavailable(let path, let reason):
            return "the keychain \(path) is protected by the Secret Service, which is not usable: \(reason)"
        case .noKeyFileLocation:
            return "no place for the keychain key file: set HOME or XDG_CONFIG_HOME"
        case .system(let error):
            return "keychain: \(error)"
        case .crypto(let error):
            return "keychain: \(error)"
        }
    }
}
