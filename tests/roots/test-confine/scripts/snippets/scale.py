from pathlib import Path

value = float((Path(__file__).parent / "scale.txt").read_text())
print(f"s = {value:.4f}")
