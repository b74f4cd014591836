"""The answer-sentence selector's data (reading pools of public questions), fitting and
figures (``bench/fit_reader.py``)."""
