"""Chat adapters: each translates one platform's events into core invocations and renders
the core's replies back. They hold no study logic."""
