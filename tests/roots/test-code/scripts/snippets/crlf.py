import numpy as np

y = np.array([0.25, 0.75])
print("y =", y)
