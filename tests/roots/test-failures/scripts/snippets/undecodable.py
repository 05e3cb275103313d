import sys

sys.stdout.buffer.write(b"x = 0.5 \xff\xfe\n")
