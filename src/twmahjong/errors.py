"""The one base for every error a *user* can cause.

Each layer raises its own subclass (``NotationError``, ``ProfileError``,
``ScoreInputError``, ``IllegalAction`` ...) with a message a player understands;
front ends (CLI, server) catch ``UserError`` and print that one line — never a
traceback for somebody's typo.
"""


class UserError(ValueError):
    """Bad input from a person or a client: report the message, change nothing."""
