import SimpleXRelay
print("smp-server: not built yet")
