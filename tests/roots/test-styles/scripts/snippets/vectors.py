import numpy as np

v = np.array([0.6, -0.8, 0.0]) / 0.5
print("v =", v)
u = np.array([[1.0], [2.0], [-3.0]]) / 3.0
print("u =", u)
r = np.array([0.1, 0.2, 0.3]) * 2
print("r =", r)
P = np.array([[0.9, 0.1], [0.25, 0.75]])
P2 = P @ P
print("P =", P2)
print("x =", 1.0 / 3.0)
