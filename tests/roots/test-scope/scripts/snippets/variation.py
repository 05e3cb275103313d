import numpy as np

V = 2 * np.eye(2)
print("V =", V)
print("s =", np.sqrt(2.0))
