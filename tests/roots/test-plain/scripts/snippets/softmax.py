import numpy as np

z = np.array([1.0, 2.0, 3.0])
e = np.exp(z - z.max())
print("z =", z)
print("e =", e)
print("p =", e / e.sum())
