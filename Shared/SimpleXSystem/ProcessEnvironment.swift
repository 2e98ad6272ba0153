import Glibc

/// The process environment as a dictionary, and the lookups the XDG paths need.
public enum ProcessEnvironment {
    /// The current process environment.
    public static var current: [String: String] {
        var result: [String: String] = [:]
        var entry = environ
        while let pointer = entry.pointee {
            let pair = String(cString: pointer)
            if let eq = pair.firstIndex(of: "=") {
                result[String(pair[..<eq])] = String(pair[pair.index(after: eq)...])
            }
            entry += 1
        }
        return result
    }

    /// `$HOME`, else the password database entry of the effective user.
    public static func home(_ environment: [String: String]) -> String? {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        guard let entry = getpwuid(geteuid()), let dir = entry.pointee.pw_dir else { return nil }
        return String(cString: dir)
    }

    /// `$XDG_CONFIG_HOME`, else `~/.config`.
    public static func configHome(_ environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config }
        return home(environment).map { "\($0)/.config" }
    }
}
