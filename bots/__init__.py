"""Built-in bots: each a program speaking the protocol, run as ``python -m bots.<name>``."""
