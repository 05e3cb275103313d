print("x =", 0.5)
