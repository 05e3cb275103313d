import numpy as np

tol = 0.01
beta_1 = 0.9
w = [0.25, 0.35]
z_1 = np.array([1.0, 0.5, 1.0])
scores = np.array([1.0, 2.0, 3.0])
e = np.exp(scores - scores.max())
print("z_1_minus_max =", z_1 - z_1.max())
print("g =", 0.0)
print("p =", e / e.sum())
