import Foundation
import SimpleXSystem

/// The `smp-server` program; the executable's main only calls `run`.
public enum ServerMain {
    /// Runs the command line; `start` returns only when the server stops (SIGTERM / SIGINT).
    public static func run(_ arguments: [String], environment: [String: String] = ProcessEnvironment.current) -> Int32 {
        let command: ServerCommand
        do {
            command = try ServerCommand.parse(arguments)
        } catch {
            standardError("smp-server: \(error)")
            return 64
        }
        do {
            switch command {
            case .help:
                standardOutput(ServerCommand.usage)
            case .initialize(let directory, let host, let port):
                let files = try RelayFiles.resolve(directory, environment: environment)
                let address = try files.initialize(host: host, port: port)
                standardOutput("smp-server initialized in \(files.directory)")
                standardOutput(address.map { "address: \($0)" } ?? "address: chosen at start (port 0)")
            case .address(let directory):
                standardOutput("\(try RelayFiles.resolve(directory, environment: environment).address())")
            case .start(let directory, let port):
                try serve(files: RelayFiles.resolve(directory, environment: environment), port: port)
            }
            return 0
        } catch {
            standardError("smp-server: \(error)")
            return 1
        }
    }

    private static func serve(files: RelayFiles, port: UInt16?) throws(RelayError) {
        let config = try files.loadConfig()
        let identity = try files.loadIdentity()
        let server = try RelayServer(files: files, config: config, identity: identity, port: port, log: standardError)
        standardOutput("listening on \(config.listen):\(server.port)")
        standardOutput("address: \(server.address)")
        standardError("smp-server: serving \(files.directory) (store \(files.storeDirectory(config)))")

        let stopped = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in [SIGTERM, SIGINT, SIGUSR1] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler {
                if signalNumber == SIGUSR1 {
                    server.logStatistics()
                } else {
                    stopped.signal()
                }
            }
            source.resume()
            sources.append(source)
        }
        stopped.wait()
        standardError("smp-server: stopping")
        server.stop()
        sources.forEach { $0.cancel() }
    }

    static func standardOutput(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    @Sendable static func standardError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
