"""The HTTP edge every surface shares: middlewares, error bodies, dependencies, admission."""
