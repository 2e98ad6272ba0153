internal import CSodium

/// libsodium's one-time process setup, run lazily before any other libsodium call.
public enum Sodium {
    /// `sodium_init`'s result, computed once; a Swift `static let` is initialized thread-safely
    /// (swift_once), and sodium_init returns 0 on the first call and 1 when already initialized.
    private static let initStatus: Int32 = sodium_init()

    /// Initializes libsodium if that has not happened yet; calling it again is cheap.
    public static func initialize() throws {
        guard initStatus >= 0 else { throw CryptoError.sodiumInitFailed }
    }

    /// For the non-throwing entry points (hashing, random bytes, key generation): libsodium cannot
    /// be used at all without a successful init, so continuing would be unsafe.
    static func requireInitialized() {
        if initStatus < 0 {
            preconditionFailure(CryptoError.sodiumInitFailed.description)
        }
    }
}
