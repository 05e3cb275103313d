x = 1.0
print("x =", x)
print("r =", x / 0)
