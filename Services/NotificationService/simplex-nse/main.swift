// simplex-nse: the background receiving service. A thin main over SimpleXNotificationService.
import Glibc
import SimpleXNotificationService
import SimpleXSystem

// The agent's keys and the messages are held in this process; what it writes is the user's only.
ProcessHardening.protectSecrets()
umask(0o077)
exit(await ServiceMain.run(Array(CommandLine.arguments.dropFirst())))
