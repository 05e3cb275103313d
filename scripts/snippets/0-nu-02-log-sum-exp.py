"""0.NU.02 - log-sum-exp: the softmax of large scores, naively and with the maximum subtracted."""

import numpy as np

z = np.array([1000.0, 1001.0, 1002.0])
print(f"z = {z}")

# Naively: exp(1000) is beyond the largest float64 (about 1.8e308), so it overflows to inf,
# and inf / inf is nan. numpy warns; we silence the warning and print the result honestly.
with np.errstate(over="ignore", invalid="ignore"):
    naive_exp = np.exp(z)
    naive_softmax = naive_exp / naive_exp.sum()
print(f"largest_safe_exponent = {np.log(np.finfo(np.float64).max)}")
print(f"naive_exp = {naive_exp}")
print(f"naive_softmax = {naive_softmax}")

# -- excerpt
c = z.max()
s = z - c  # every entry <= 0, so every exponential lies in (0, 1]
exp_s = np.exp(s)
denominator = exp_s.sum()  # >= 1: the maximum contributes exp(0) = 1
p = exp_s / denominator
LSE = c + np.log(denominator)
# -- end excerpt

print(f"c = {c}")
print(f"s = {s}")
print(f"exp_s = {exp_s}")
print(f"denominator = {denominator}")
print(f"p = {p}")
print(f"sum_p = {p.sum()}")
print(f"sum_of_rounded_p = {np.round(p, 4).sum()}")
print(f"ratios = {p[1:] / p[:-1]}")
print(f"log_denominator = {np.log(denominator)}")
print(f"LSE = {LSE}")
print(f"max_plus_log_n = {c + np.log(z.size)}")
# The Variation: y = (-1000, -1001, -1002) is z shifted and reversed, so its softmax is p reversed.
print("y =", -z)
print(f"softmax_y = {p[::-1]}")
