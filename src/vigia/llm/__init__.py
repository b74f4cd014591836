"""Model protocol and providers: the embedded default and OpenAI-compatible upstreams."""
