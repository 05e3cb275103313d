extensions = ["myst_parser", "verified_problems"]
myst_enable_extensions = ["colon_fence"]
exclude_patterns = ["_build"]
nitpicky = True
