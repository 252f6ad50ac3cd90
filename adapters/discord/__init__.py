"""The Discord adapter: slash commands, buttons, forms and daily posts, translated to the core."""
