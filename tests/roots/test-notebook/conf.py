extensions = ["myst_nb", "verified_problems"]
myst_enable_extensions = ["dollarmath", "amsmath", "colon_fence"]
verified_macros = {"vec": [r"\boldsymbol{#1}", 1]}
nb_execution_mode = "cache"
exclude_patterns = ["_build", "jupyter_execute", ".jupyter_cache"]
