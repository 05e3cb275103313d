import numpy as np

x = np.float64(2.0) ** 0.5
print("s_2 =", repr(x))
print("half =", repr(np.float64(0.5)))
print("pair =", [np.float64(0.1) * 3, np.float64(-0.7)])
