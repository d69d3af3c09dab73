def double(n):
    return 2 * n
