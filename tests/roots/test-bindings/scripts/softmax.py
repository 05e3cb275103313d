"""A softmax of three scores, two of them equal: quantities printed alike, and one tie-free
pair of values that round alike (0.33334 and 0.33326)."""
import math

scale = 0.5
z = [1.0, 1.0, 0.0]
W = [[0.4, 1.5], [2.0, 0.7]]  # the statement's data, never printed
e = [math.exp(v) for v in z]
total = sum(e)
p = [v / total for v in e]
print("e =", [round(v, 8) for v in e])
print("total =", round(total, 8))
print("total_as_floats_add =", round(total, 8) + 4e-15)  # total, with a float's noise
print("p =", [round(v, 8) for v in p])
print("largest =", round(max(p), 8))
print("near_third_a = 0.33334")
print("near_third_b = 0.33326")
print("the loss is", round(-math.log(p[0]), 8))
print("log_p_c =", round(math.log(p[2]), 8))
print("H =", [[v / 4 for v in row] for row in [[1, 3], [4, scale]]])
print("R =", [[0.25, 0.75], [0.75, 0.25]])  # the rows of H, and the first one reversed
print("v =", [0.4, -5.551115123125783e-17])  # a zero, with a float's noise
print("zero =", 0.0)
print("root_2 =", round(math.sqrt(2), 8))  # one value at two precisions
print("diagonal =", math.sqrt(2))
print("XtX =", [[2, 3], [3, 5]])
