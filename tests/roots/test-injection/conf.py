extensions = ["myst_parser", "verified_problems"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
verified_macros = {"vec": [r"\boldsymbol{#1}", 1], "mat": [r"\mathbf{#1}", 1]}
exclude_patterns = ["_build"]
