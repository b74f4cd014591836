"""The decisions benchmark (``bench/decide_eval.py``): data, metrics, fitting and reports."""
