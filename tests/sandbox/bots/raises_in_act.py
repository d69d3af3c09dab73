"""Raises with a message an attacker would like to see in a public replay."""


def act(observation):
    print("my secret strategy output")
    raise ValueError("PUBLIC-REPLAY-INJECTION <script>alert(1)</script>")
