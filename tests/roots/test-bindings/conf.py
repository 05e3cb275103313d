extensions = ["myst_parser", "verified_problems"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
verified_snippet_dir = "scripts"
exclude_patterns = ["_build"]
