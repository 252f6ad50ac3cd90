"""The console adapter: the whole product in a terminal, no platform token needed."""
