import numpy as np

V = np.eye(2)
print("V =", V)
print("s =", np.sqrt(0.5))
