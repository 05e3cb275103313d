print("t =", 0.5)
