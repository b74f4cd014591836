"""People who log in (the console and the worlds surface): accounts, sessions, per-workspace
roles and login throttling."""
