"""Reads unmapped memory through ctypes (a segmentation fault)."""

import ctypes


def act(observation):
    return {"value": ctypes.c_long.from_address(16).value}
