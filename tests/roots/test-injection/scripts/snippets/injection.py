import numpy as np

scores = np.array([1.0, 2.0, 3.0])
e = np.exp(scores - scores.max())
p = e / e.sum()
print("p =", p)
print("A =", np.array([[0.9, 0.1], [0.3, 0.7]]))
print("s =", 2.345678)
print("q =", 0.5)
print("n =", 3)
