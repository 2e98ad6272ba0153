/// Errors of the Secret Service client.
extension DBusError {
    /// The collection or item is locked and unlocking it would need a password prompt. We never
    /// show one (a headless service or terminal client has nowhere to show it, and a prompt left
    /// pending would hang the caller); the user unlocks the keyring, usually by logging in.
    public static func secretServiceLocked(_ what: String) -> DBusError {
        DBusError(
            name: namePrefix + "SecretServiceLocked",
            message: "\(what) is locked in the Secret Service and unlocking it needs a password prompt, "
                + "which this program does not show: unlock the keyring (e.g. by logging in) and retry")
    }

    /// No Secret Service (`org.freedesktop.secrets`) runs on the session bus.
    public static func secretServiceUnavailable(_ reason: String) -> DBusError {
        DBusError(name: namePrefix + "SecretServiceUnavailable", message: "no Secret Service: \(reason)")
    }

    /// The Secret Service has no default collection (alias `default`); creating one needs a prompt.
    public static func secretServiceNoDefaultCollection(_ reason: String) -> DBusError {
        DBusError(
            name: namePrefix + "SecretServiceNoDefaultCollection",
            message: "the Secret Service has no default collection: \(reason)")
    }
}
