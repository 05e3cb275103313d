import numpy as np

print("X =", np.array([[0.5, 0.25], [0.125, 0.0625]]))
