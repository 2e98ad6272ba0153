import Glibc

/// A directory only its owner may enter: the group directory, the relay's store, the key file's folder.
package enum PrivateDirectory {
    /// Creates `path` 0700 when missing (and, with `createParents`, its missing parents, also 0700
    /// as the XDG spec asks); checks an existing one is a directory owned by us and closed to group
    /// and others.
    package static func ensure(_ path: String, createParents: Bool) throws(PrivateDirectoryError) {
        var st = stat()
        if stat(path, &st) != 0 {
            guard errno == ENOENT else { throw .system(SystemError(errno: errno, call: "stat", path: path)) }
            if createParents { try createParentDirectories(of: path) }
            if mkdir(path, 0o700) != 0 && errno != EEXIST {
                throw .system(SystemError(errno: errno, call: "mkdir", path: path))
            }
            // mkdir's mode is filtered by the umask; make it exactly 0700.
            chmod(path, 0o700)
            guard stat(path, &st) == 0 else {
                throw .system(SystemError(errno: errno, call: "stat", path: path))
            }
        }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw .notADirectory(path) }
        guard st.st_uid == geteuid() else { throw .notOwned(path, owner: st.st_uid) }
        let mode = st.st_mode & 0o777
        guard mode & 0o077 == 0 else { throw .accessibleByOthers(path, mode: mode) }
    }

    /// `mkdir -p` of the parents, new ones 0700.
    private static func createParentDirectories(of path: String) throws(PrivateDirectoryError) {
        var prefix = ""
        let components = path.split(separator: "/", omittingEmptySubsequences: true).dropLast()
        for component in components {
            prefix += "/\(component)"
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST {
                throw .system(SystemError(errno: errno, call: "mkdir", path: prefix))
            }
        }
    }
}

/// Why a directory cannot be used privately; each message says how to fix it.
package enum PrivateDirectoryError: Error, Equatable, CustomStringConvertible {
    case notADirectory(String)
    case notOwned(String, owner: uid_t)
    case accessibleByOthers(String, mode: mode_t)
    case system(SystemError)

    package var description: String {
        switch self {
        case .notADirectory(let path):
            return "\(path) is not a directory"
        case .notOwned(let path, let owner):
            return "directory \(path) belongs to uid \(owner), not to you (uid \(geteuid()))"
        case .accessibleByOthers(let path, let mode):
            return
                "directory \(path) can be read or written by other users (mode \(String(mode, radix: 8))): "
                + "fix it with: chmod 700 \(path)"
        case .system(let error):
            return "\(error)"
        }
    }
}
