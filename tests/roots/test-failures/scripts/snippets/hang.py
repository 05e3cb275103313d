import time

print("h = 0.5", flush=True)
time.sleep(60)
