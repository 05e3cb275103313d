import os
import time

child = os.fork()
if child == 0:  # the child outlives the snippet
    time.sleep(60)
    os._exit(0)
print("x = 0.5")
print("child =", child)
