/// The unread badge on the launcher icon (KDE Plasma's task manager, Dash to Dock, Unity):
/// `com.canonical.Unity.LauncherEntry.Update(s appURI, a{sv} properties)`, a signal any process of
/// the application may emit, for the desktop file `simplex-chat.desktop`.
public enum LauncherBadge {
    public static let interface = "com.canonical.Unity.LauncherEntry"
    public static let appURI = "application://simplex-chat.desktop"
    /// Where the signal comes from; the spec lets it be any object of the application's.
    public static let path = "/chat/simplex/LauncherEntry"

    /// The properties for `count` (hidden at zero).
    public static func properties(_ count: Int) -> DBusValue {
        .variantDictionary(["count": .int64(Int64(count)), "count-visible": .bool(count > 0)])
    }

    /// Shows `count` (0 hides the badge); a failure is not worth telling anyone.
    public static func show(_ count: Int, on bus: DBusConnection) async {
        try? await bus.emitSignal(
            path: path, interface: interface, name: "Update", arguments: [.string(appURI), properties(count)])
    }
}
