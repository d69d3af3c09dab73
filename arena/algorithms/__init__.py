"""Django-free algorithms of the arena: pure functions on plain data, tested without a database.

Nothing here imports Django, the ORM or ``arena.models``; services and selectors read the rows
and hand these functions plain numbers, so each algorithm can be read, reused (benchmarks,
the CLI) and tested on its own.
"""
