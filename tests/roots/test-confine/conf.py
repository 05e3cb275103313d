extensions = ["myst_parser", "verified_problems"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
exclude_patterns = ["_build", "parts"]
# Free digits checked against every printed number: bindings are tested by test-bindings.
verified_unbound = "allow"
