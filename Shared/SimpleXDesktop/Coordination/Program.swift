import Foundation

/// Runs another program of the desktop (systemctl, a dialog, a terminal emulator) with the caller's
/// environment: its exit status and what it printed, its standard input /dev/null.
public enum Program {
    public struct Result: Sendable {
        public let status: Int32
        public let output: String
        public let errors: String

        /// Each printed line, trimmed.
        public var outputLines: [String] { Self.lines(output) }
        public var errorLines: [String] { Self.lines(errors) }

        private static func lines(_ text: String) -> [String] {
            text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    /// Runs `path` to its end; status 127 when it cannot be started. With `capture` false its
    /// output goes to /dev/null: for a program that leaves a child running (`setsid --fork`),
    /// which would otherwise hold the pipes open.
    public static func run(
        _ path: String, _ arguments: [String], environment: [String: String], capture: Bool = true,
        input: [UInt8]? = nil
    ) -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = environment
        guard capture else {
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            do { try process.run() } catch {
                return Result(status: 127, output: "", errors: "cannot run \(path): \(error)")
            }
            process.waitUntilExit()
            return Result(status: process.terminationStatus, output: "", errors: "")
        }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = input.map { _ in Pipe() }
        process.standardInput = inputPipe ?? FileHandle.nullDevice
        do { try process.run() } catch {
            return Result(status: 127, output: "", errors: "cannot run \(path): \(error)")
        }
        if let inputPipe, let input {
            // Given on standard input (the clipboard's text), then closed so the program ends.
            let writer = inputPipe.fileHandleForWriting
            DispatchQueue.global().async {
                try? writer.write(contentsOf: Data(input))
                try? writer.close()
            }
        }
        // Read both while it runs: a full pipe would stop it.
        let (stdout, stderr) = (Locked(Data()), Locked(Data()))
        let group = DispatchGroup()
        for (pipe, sink) in [(output, stdout), (errors, stderr)] {
            group.enter()
            DispatchQueue.global().async {
                sink.set(pipe.fileHandleForReading.readDataToEndOfFile())
                group.leave()
            }
        }
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, output: String(decoding: stdout.get(), as: UTF8.self),
            errors: String(decoding: stderr.get(), as: UTF8.self))
    }

    /// The first of `names` on the `PATH` of `environment`, as a full path.
    public static func find(_ name: String, environment: [String: String]) -> String? {
        let path = (environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":")
        return path.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    private final class Locked: @unchecked Sendable {
        // Written once by its reader before `group.wait()` returns, read after.
        private var value: Data
        init(_ value: Data) { self.value = value }
        func set(_ value: Data) { self.value = value }
        func get() -> Data { value }
    }
}
