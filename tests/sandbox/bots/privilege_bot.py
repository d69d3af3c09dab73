"""Attack: change its identity or its root (setuid, setgid, chroot and their kin).

``observation["call"]`` names the call; every one must be refused and end the bot as
``forbidden``, whatever errno the kernel would have answered outside the jail.
"""

import os

CALLS = {
    "setuid": lambda: os.setuid(0),
    "setgid": lambda: os.setgid(0),
    "seteuid": lambda: os.seteuid(0),
    "setegid": lambda: os.setegid(0),
    "setreuid": lambda: os.setreuid(0, 0),
    "setregid": lambda: os.setregid(0, 0),
    "setresuid": lambda: os.setresuid(0, 0, 0),
    "setresgid": lambda: os.setresgid(0, 0, 0),
    "setgroups": lambda: os.setgroups([0]),
    "chroot": lambda: os.chroot("/tmp"),
}


def act(observation):
    CALLS[observation["call"]]()
    return {"escaped": observation["call"]}
