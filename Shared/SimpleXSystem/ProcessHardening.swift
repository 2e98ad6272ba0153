internal import CSystem
import Glibc

/// Protections for a process that holds secrets (keychain items, the database key).
public enum ProcessHardening {
    /// No core dumps, no ptrace or /proc/<pid>/mem access by other processes of the user, and
    /// files created private (umask 077), as the reference asks of services holding secrets.
    public static func protectSecrets() {
        _ = CSystem_setDumpable(0)
        umask(0o077)
    }

    /// Whether core dumps are still possible (for tests).
    public static var isDumpable: Bool { CSystem_isDumpable() == 1 }
}
