import numpy as np

np.set_printoptions(precision=4, suppress=True)
A = np.array([[2.0, -1.0], [-1.0, 2.0]]) / 3.0
print("A =\n", A)
w, b = 0.3, 0.1
print("w =", w, "and b =", b)
y = 2 * w + b
print("y =", y)
np.set_printoptions(sign="+")
g = np.array([0.125, -0.5])
print("g =", g)
