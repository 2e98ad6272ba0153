import Foundation

/// Locates executables built by the package (the test peer, the client, the relay) next to the
/// running test bundle, so end-to-end tests run the real binaries that `swift build` produced.
public enum BuiltProducts {
    /// The build products directory: the directory of the running test executable.
    public static let directory: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0]
        var dir = (exe as NSString).deletingLastPathComponent
        // On Linux the test bundle is `<Package>PackageTests.xctest`, an executable file in the
        // products directory; on some layouts it is a directory, so step out of it.
        if dir.hasSuffix(".xctest") { dir = (dir as NSString).deletingLastPathComponent }
        return dir
    }()

    /// Absolute path of the product `name`; throws with a hint when it was not built.
    public static func path(_ name: String) throws -> String {
        let path = "\(directory)/\(name)"
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSupportError("\(path) is missing: build it first (`swift build --build-tests`)")
        }
        return path
    }
}
