"""Two Adam steps on f(theta) = theta^2 from -3: only the main quantities are printed."""

import numpy as np

alpha = 0.1
beta_1, beta_2 = 0.9, 0.999
theta = -3.0
g = np.array([-6.0, -5.8])
m_1 = 0.1 * g[0]
m_2 = beta_1 * m_1 + (1 - beta_1) * g[1]
v_2 = beta_2 * (0.001 * 36) + 0.001 * g[1] ** 2
print("g =", g)
print("m_1 =", m_1)
print("m_2 =", m_2)
print("v_1 =", 0.001 * 36)
print("v_2 =", round(v_2, 10))
print("m_hat_2 =", m_2 / (1 - beta_1**2))
print("A =", np.array([[0.9, 0.1], [0.3, 0.7]]), "(row-major)")
print("P_22 =", 1 / (1 + np.exp(-1)))
print("drop =", 1 - 7.8406 / 9)
print("lambda_1 =", 2 + np.sqrt(2))
