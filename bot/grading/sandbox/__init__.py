"""What runs inside a worker process: the restricted compiler's policy, the rules, the harness.

Nothing here imports the rest of the bot: the zygote imports only this package (and the
modules a solution may import), so every forked worker starts small and holds nothing worth
stealing. The parent never imports `harness` for real grading; tests and the benchmark's
"no isolation" floor do.
"""

# A worker that ran out of memory where it could not report it (while writing its report, say)
# exits with this code, so the parent can still say "memory limit exceeded".
MEMORY_EXIT = 75
