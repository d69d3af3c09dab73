"""Attack: start processes through subprocess."""

import subprocess


def act(observation):
    while True:
        subprocess.Popen(["/usr/bin/python3.11", "-c", "import time; time.sleep(60)"])
