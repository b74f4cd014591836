"""The engine's stages, in the order every turn runs them.

budget → input guardrails → history → retrieval → generation (with output guardrails
sentence by sentence) → persistence. Each stage is a function or class with a typed input
(the ``Turn`` and what it needs) and a typed outcome that describes itself to the trace.
"""
