"""The engine's stages, in the order every turn runs them.

budget → input guardrails → history → tools (when tools take part) → retrieval →
generation (the tools loop, with output guardrails sentence by sentence) → persistence.
Each stage is a function or class with a typed input (the ``Turn`` and what it needs) and
a typed outcome that describes itself to the trace.
"""
