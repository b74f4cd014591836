"""The OpenAI-compatible surface: /v1/models and /v1/chat/completions."""
