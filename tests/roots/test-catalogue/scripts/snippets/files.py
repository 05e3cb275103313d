from pathlib import Path

Path("result.txt").write_text("x = 0.5\n", encoding="utf-8")
Path("out").mkdir()
Path("out", "table.csv").write_text("0.5\n", encoding="utf-8")
print(Path("result.txt").read_text(encoding="utf-8"), end="")
