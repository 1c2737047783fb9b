"""The social layer: table talk, friends, invitations and 觀戰.

``talk`` is the catalogue of 快捷語 and 表情, the talk limit and the bots' lines;
``watch`` the watchers' delayed public view; ``hooks`` what a table calls at its
moments; ``friends`` the friends table, where friends are (over every worker),
invitations and notices; ``api`` their HTTP routes. Nothing here changes a game:
the table stays the only owner of its state, and a watcher sees only what anyone
at the table sees, a round late.
"""
