"""II.3.B01 - attention on three tokens, by hand: the forward pass, every intermediate printed."""

# ruff: noqa: E741  (O is the output matrix, named as in the prose)
from math import exp, sqrt

import numpy as np


def softmax(z):
    e = [exp(x - max(z)) for x in z]  # subtract the row maximum first (0.NU.02)
    return [x / sum(e) for x in e]


Q = K = V = [[1, 0], [0, 1], [1, 1]]
d_k = 2
# -- excerpt
S = [[sum(q[i] * k[i] for i in range(d_k)) for k in K] for q in Q]
Z = [[s / sqrt(d_k) for s in row] for row in S]
A = [softmax(row) for row in Z]
O = [[sum(a[j] * V[j][c] for j in range(3)) for c in range(2)] for a in A]
# -- end excerpt

out = {"Q": Q, "K": K, "V": V, "d_k": d_k, "S": S, "sqrt_d_k": sqrt(d_k), "Z": Z}
for r in (1, 3):  # the two rows the prose works through
    out[f"z_{r}"] = Z[r - 1]
    out[f"z_{r}_minus_max"] = shifted = np.array(Z[r - 1]) - max(Z[r - 1])
    out[f"exp_z_{r}"] = np.exp(shifted)
    out[f"denominator_{r}"], out[f"a_{r}"] = np.exp(shifted).sum(), A[r - 1]
out.update(A=A, row_sums_A=np.sum(A, axis=1), O=O)
out["rounded_row_sums_A"] = np.round(A, 4).sum(axis=1)  # the trap: 4 d.p. first, then add
for name, value in out.items():
    print(f"{name} = {np.array(value)}")
