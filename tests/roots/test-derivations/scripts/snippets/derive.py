"""What the page derives by hand: a determinant, a column of weights, rows by name, a tiny
probability, an entropy in bits, a table of logarithms, a gradient step, two eigenvalues and an
estimate with its margin."""

import numpy as np

G = np.array([[3.0, 1.5], [1.5, 13.25]])
print("G =", G)
print("steps =", [3.0 * 13.25, 1.5 * 1.5])
print("det_G =", round(float(np.linalg.det(G)), 10))
print("w =", np.array([[0.35], [-0.04]]))  # a column, as numpy prints one: [[a] [b]]
print("z_1 =", np.array([0.5, 0.25]))
print("z_3 =", np.array([0.75, 0.125]))
print("exponent =", -10.5)
print("p_tail =", np.exp(-10.5))
p = np.array([0.5, 0.3, 0.2])
terms = -p * np.log2(p)
print("terms =", terms)
print("H =", terms.sum())
x = np.array([0.25, 0.5])
print("x =", x)
print("log2 =", np.log2(x))
x0 = np.array([0.3, -0.3])
print("x0 =", x0)
print("g =", np.array([[3, 1], [1, 2]]) @ x0 + np.array([-1, 1]))
eigenvalues = np.linalg.eigvalsh(np.array([[3.0, 1.0], [1.0, 2.0]]))
print("lambda_1 =", eigenvalues[1])
print("lambda_2 =", eigenvalues[0])
print("lambda_max =", eigenvalues.max())
print("p_hat =", 0.5)
print("margin =", 0.088)
print("rate =", 1.5)
print("exponent_2 =", -1.5)
print("p_zero =", np.exp(-1.5))
