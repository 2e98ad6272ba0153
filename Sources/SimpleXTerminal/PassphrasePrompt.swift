import Foundation
import SimpleXCrypto

/// Reads a database passphrase typed at start: from the terminal with echo off, or a line of
/// standard input when it is not a terminal (scripts). Never from argv or the environment.
enum PassphrasePrompt {
    /// Prints `prompt` and reads one line; nil at the end of the input.
    static func read(_ prompt: String, output: (String) -> Void) -> SecureBytes? {
        output(prompt)
        let terminal = isatty(STDIN_FILENO) == 1
        var saved = termios()
        if terminal, tcgetattr(STDIN_FILENO, &saved) == 0 {
            var quiet = saved
            quiet.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet)
        }
        defer {
            if terminal {
                tcsetattr(STDIN_FILENO, TCSAFLUSH, &saved)
                output("")
            }
        }
        // Byte by byte from the descriptor: nothing after the line is taken from the reader that follows.
        var bytes: [UInt8] = []
        defer { for index in bytes.indices { bytes[index] = 0 } }
        var byte: UInt8 = 0
        while true {
            let count = Foundation.read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 { if bytes.isEmpty { return nil } else { break } }
            if byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return SecureBytes(copying: bytes)
    }
}
