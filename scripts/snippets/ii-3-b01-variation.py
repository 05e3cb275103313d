"""II.3.B01, Variation: double V, then raise d_k from 2 to 8 with the same Q and K."""

# ruff: noqa: E741  (O is the output matrix, named as in the prose)
import numpy as np


def attention_weights(Q, K, d_k):
    Z = Q @ K.T / np.sqrt(d_k)
    E = np.exp(Z - Z.max(axis=1, keepdims=True))  # row maximum subtracted (0.NU.02)
    return E / E.sum(axis=1, keepdims=True)


Q = K = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
V = 2 * np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])  # the doubled values
A_at_d_k_2 = attention_weights(Q, K, 2)  # unchanged: A does not depend on V
O = A_at_d_k_2 @ V

d_k = 8  # the second part: same Q and K, a larger key dimension
A = attention_weights(Q, K, d_k)

print(f"V = {V}")
print(f"O = {O}")
print(f"d_k = {d_k}")
print(f"sqrt_d_k = {np.sqrt(d_k)}")
print(f"A = {A}")
print(f"A_at_d_k_2 = {A_at_d_k_2}")
