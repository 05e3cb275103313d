import numpy as np

print("x =", 0.5)
print("M =", np.array([[0.5, 0.25], [0.125, 0.0625]]))
