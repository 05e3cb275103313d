extensions = ["myst_parser", "verified_problems"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
exclude_patterns = ["_build"]
nitpicky = True
