"""Decisions: calibrated answers to choice, scale and binary questions."""
