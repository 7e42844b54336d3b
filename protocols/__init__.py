"""The wire: message codec with limits, the referee-side transport, and the bot SDK."""
