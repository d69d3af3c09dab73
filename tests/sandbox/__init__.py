"""Tests of the bot sandbox (sandbox/): one test per attack, hostile bots in bots/."""
