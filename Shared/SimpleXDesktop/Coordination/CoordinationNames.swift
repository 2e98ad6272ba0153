import SimpleXChat
import SimpleXCrypto

/// The session-bus names of DESIGN §4 for one group directory: which process owns which name, at
/// which object, with which versioned interface.
///
/// The user's own group directory (the XDG default) has the plain names, which the installed units
/// and activation file use. Another directory (`SIMPLEX_GROUP_DIR`: a second profile, each test's
/// user) gets the same names with a suffix derived from its path, so processes of different
/// directories on one session bus never take each other for their peers.
public struct CoordinationNames: Sendable, Equatable {
    /// The main client (`simplex-chat`).
    public let client: String
    /// The background receiving service (`simplex-nse`).
    public let service: String

    public static let clientPath = "/chat/simplex/Chat"
    public static let clientInterface = "chat.simplex.Chat1"
    public static let servicePath = "/chat/simplex/NotificationService"
    public static let serviceInterface = "chat.simplex.NotificationService1"
    /// The signal both interfaces emit when their process's state changes.
    public static let stateChanged = "StateChanged"
    /// The client's signal `ChatRead(s chatRef)`: the user read that chat in the client, so the
    /// service closes its notification (an addition to DESIGN §4's interface).
    public static let chatRead = "ChatRead"

    public static let defaultClient = "chat.simplex.Chat"
    public static let defaultService = "chat.simplex.NotificationService"

    /// The names for `container`; `environment` tells which directory is the default one.
    public init(container: GroupContainer, environment: [String: String]) {
        var defaultEnvironment = environment
        defaultEnvironment["SIMPLEX_GROUP_DIR"] = nil
        let defaultPath = try? GroupContainer.resolvePath(environment: defaultEnvironment)
        if defaultPath == container.path {
            client = Self.defaultClient
            service = Self.defaultService
        } else {
            let digest = SHA256.hash(Array(container.path.utf8)).prefix(8)
            let suffix = "d" + digest.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
            client = "\(Self.defaultClient).\(suffix)"
            service = "\(Self.defaultService).\(suffix)"
        }
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
