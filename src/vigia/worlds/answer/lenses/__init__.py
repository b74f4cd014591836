"""The three lenses (qa, troubleshoot, impact) and the router that picks one."""
