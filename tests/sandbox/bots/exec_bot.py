"""Attack: replace itself with another program (exec)."""

import os


def act(observation):
    os.execv("/usr/bin/python3.11", ["python3.11", "-c", "print('escaped')"])
