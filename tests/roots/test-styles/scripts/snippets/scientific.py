import numpy as np

eps = np.finfo(np.float64).eps
print("eps =", eps)
print("tiny =", 1.2e-5)
print("h =", np.array([1e-3, 2.5e-4, 6.25e-5]))
print(f"big = {6.02214076e23:.4e}")
