import Foundation

/// What `simplex-share` was asked: `simplex-share [--to CHAT] [--text TEXT] [--] [FILE|URI]...`.
public struct ShareRequest: Equatable, Sendable {
    /// `@name`, a name or alias, `@12` or `12`; nil asks for a choice.
    public var chat: String?
    public var text: String?
    /// Absolute paths (`file://` URIs decoded).
    public var files: [String]
}

public enum ShareCommand: Equatable, Sendable {
    case help
    case share(ShareRequest)
}

/// A mistake on the command line: one line, exit 64 (EX_USAGE).
public struct ShareUsageError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension ShareCommand {
    /// Parses the arguments after the program name; `workingDirectory` makes relative paths absolute.
    public static func parse(_ arguments: [String], workingDirectory: String) throws(ShareUsageError) -> ShareCommand {
        var request = ShareRequest(chat: nil, text: nil, files: [])
        var rest = arguments[...]
        var optionsEnded = false
        while let argument = rest.first {
            rest = rest.dropFirst()
            if !optionsEnded {
                switch argument {
                case "-h", "--help": return .help
                case "--":
                    optionsEnded = true
                    continue
                case "--to", "-t":
                    guard let chat = rest.first, !chat.isEmpty else { throw ShareUsageError("\(argument) needs a chat: @name, a name or a chat id") }
                    guard request.chat == nil else { throw ShareUsageError("only one --to") }
                    request.chat = chat
                    rest = rest.dropFirst()
                    continue
                case "--text", "-m":
                    guard let text = rest.first else { throw ShareUsageError("\(argument) needs the text to send") }
                    guard request.text == nil else { throw ShareUsageError("only one --text") }
                    request.text = text
                    rest = rest.dropFirst()
                    continue
                case let option where option.hasPrefix("-") && option.count > 1:
                    throw ShareUsageError("unknown option '\(option)': see simplex-share --help")
                default: break
                }
            }
            request.files.append(try path(of: argument, workingDirectory: workingDirectory))
        }
        return .share(request)
    }

    /// A path as given, or a `file://` URI as file managers pass it (percent-decoded).
    static func path(of argument: String, workingDirectory: String) throws(ShareUsageError) -> String {
        if argument.hasPrefix("file:") {
            guard let url = URL(string: argument), url.isFileURL,
                url.host == nil || url.host == "" || url.host == "localhost"
            else {
                throw ShareUsageError("'\(argument)' is not a local file URI (file:///path)")
            }
            return url.path
        }
        if let scheme = argument.split(separator: ":", maxSplits: 1).first, argument.contains("://"),
            scheme.allSatisfy({ $0.isLetter })
        {
            throw ShareUsageError("'\(argument)': only files and file:// URIs are shared as files (send a link with --text)")
        }
        if argument.hasPrefix("/") { return argument }
        return (workingDirectory as NSString).appendingPathComponent(argument)
    }

    public static let usage = """
        usage: simplex-share [--to CHAT] [--text TEXT] [--] [FILE|URI]...

        Sends files and text into a SimpleX chat: from a file manager (Open With, its scripts and
        actions) or from scripts. Text comes from --text, or from standard input when it is piped
        (git log -1 | simplex-share --to @bob). Each file is its own item; the text goes first.
        Files are paths or file:// URIs (as file managers pass them).

          --to, -t CHAT    @name, a name or local alias, or a chat id (@12 or 12); #group or #12 for
                           a group (text only: files in groups are not in this build yet)
          --text, -m TEXT  the text to send
          --help           this text

        When simplex-chat runs, it sends what you share and shows it at once; otherwise this helper
        takes the chat for the moment it needs (the notification service lets go, and resumes after).

        exit status: 0 sent; 64 usage; 65 an unknown, ambiguous or unusable chat, or content that
        cannot be sent; 66 a file that cannot be read; 69 no profile yet or the keychain is locked;
        75 not sent yet (the relay is down: it goes out when SimpleX Chat runs next; or the chat is
        busy in another process)
        """
}
