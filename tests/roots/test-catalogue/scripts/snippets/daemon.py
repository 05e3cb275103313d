import os
import time

read, write = os.pipe()
if os.fork() == 0:  # the classic daemon: a new session, then a second fork
    os.setsid()
    if os.fork() == 0:
        os.write(write, str(os.getpid()).encode())
        time.sleep(60)
    os._exit(0)
os.wait()
print("x = 0.5")
print("daemon =", int(os.read(read, 32)))
