import math

m = math.exp(-1.0)
print(f"m = {m:.6f}")
print(f"n = {1.0 / 3.0:.8f}")
print(f"the mean of 2 and 3 is {(2 + 3) / 2:.4f}")
