"""The evaluation surface: runs an agent's cases through the engine; CLI and admin routes."""
