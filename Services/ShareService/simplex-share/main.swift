// simplex-share: the share helper. A thin main over SimpleXShareService.
import Glibc
import SimpleXShareService
import SimpleXSystem

// While it runs the chat, the agent's keys are in this process.
ProcessHardening.protectSecrets()
exit(await ShareMain.run(Array(CommandLine.arguments.dropFirst())))
