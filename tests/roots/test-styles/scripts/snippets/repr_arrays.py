import numpy as np

B = np.array([[1.0, 2.0], [3.0, 4.0]]) / 7.0
print("B =", repr(B))
print("c =", repr(np.array([-0.5, 0.25, -1.0 / 3.0])))
