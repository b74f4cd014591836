"""The answer-sentence selector's data (reading pools of public questions), fitting and
figures (``python -m training.answer_selector``)."""
