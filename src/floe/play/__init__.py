"""Playing in the terminal: Rich rendering, prompts, and the scoring helper."""
