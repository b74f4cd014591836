"""The admin HTTP API, protected by the admin token."""
