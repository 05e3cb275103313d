import numpy as np

z = np.array([1.0, 2.0, 3.0])
p = np.exp(z) / np.exp(z).sum()
print("p =", [round(float(x), 4) for x in p])
print("q =", tuple(round(float(x), 4) for x in p[::-1]))
