"""The example of "Writing a checked problem": the softmax of two scores, step by step."""

import numpy as np

# -- excerpt
z = np.array([1.0, 2.0])
exp_z = np.exp(z)  # e^1, e^2
denominator = exp_z.sum()
p = exp_z / denominator
# -- end excerpt

print("z =", z)
print("exp_z =", exp_z)
print("denominator =", denominator)
print("p =", p)
print("sum_p =", p.sum())
