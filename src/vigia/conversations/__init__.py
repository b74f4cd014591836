"""Agent conversations: stored turns, memory and human handoff."""
