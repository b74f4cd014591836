"""The injection detector's development data, stored vectors, fitting and figures."""
