"""The examples of "What the build checks": a linear layer, an element, a unit, a step."""

import numpy as np

W = np.array([[0.5, -1.25], [2.0, 0.75]])
x = np.array([0.8, 0.4])
y = W @ x
print("W =", W)
print("x =", x)
print("y =", y)
print("t = 0.25")  # seconds
print("norm_y =", np.linalg.norm(y))
