"""The core's commands: their declared shape (`spec`), text parsing (`parse`), and handlers."""
