"""A well-behaved bot: echoes the observation back, counts its moves."""

moves = 0
started = None


def on_match_start(info):
    global started
    started = info


def on_hand_end(observation):
    print("hand ended", observation)


def act(observation):
    global moves
    moves += 1
    return {"echo": observation, "moves": moves, "started": started}
