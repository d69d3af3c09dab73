"""Answers with text a database cannot store (a NUL and a lone surrogate)."""


def act(observation):
    print("nul in output: \x00 end")
    return {"cards": ["A\x00S", "\ud800"]}
