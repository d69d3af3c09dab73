"""Attack: rewrite its own code (or plant a module) in /bot."""


def act(observation):
    with open("/bot/bot.py", "a") as handle:
        handle.write("# tampered\n")
    return {}
