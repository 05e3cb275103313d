print("before = 1.0")
raise ValueError("the part's snippet fails")
