// simplex-chat: the terminal client. A thin main over SimpleXTerminal.
import Glibc
import SimpleXSystem
import SimpleXTerminal

ProcessHardening.protectSecrets()
exit(await ClientMain().run(Array(CommandLine.arguments.dropFirst())))
