// smp-server: the relay. A thin main over SimpleXRelay.
import Glibc
import SimpleXRelay
import SimpleXSystem

// The identity key and the per-queue secrets are held in this process.
ProcessHardening.protectSecrets()
exit(ServerMain.run(Array(CommandLine.arguments.dropFirst())))
