import numpy as np

Z = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 2]]) / np.sqrt(2)
E = np.exp(Z - Z.max(axis=1, keepdims=True))
A = E / E.sum(axis=1, keepdims=True)
V = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
print("A =", A)
print("O =", A @ V)
