print("t = 0.12345")
