import numpy as np

# numpy's default printing: 8 significant digits, aligned columns, negative entries.
W = np.array([[0.5, -0.25, 1.0 / 3.0], [-2.0 / 3.0, 0.125, -1.0 / 7.0]])
print("W =", W)
print("W_sum =", W.sum())
# A long vector wraps over several lines of output.
t = np.linspace(0.0, 1.0, 13)
print("t =", t)
