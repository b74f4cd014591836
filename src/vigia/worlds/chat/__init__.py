"""Chat: a turn from question to answer events, conversations and their follow-ups, personal
files and the turn log."""
