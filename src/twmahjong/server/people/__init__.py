"""People: who a request speaks for, and how they stand.

Accounts and signed tokens (``auth``) and ranked ratings (``ranking``). Friends,
invitations and table talk are the social layer's (``server.social``).
"""
