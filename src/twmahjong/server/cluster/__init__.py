"""Cluster: several server processes, one game world.

The seams that let the server spread, each a protocol with its in-process form
(``seams``) beside its Redis form (``redis_seams``: presence, the table directory,
the event bus; ``redis_queue``: the quick-match queue), and who owns which table,
relaying seats to the owner and adopting the tables of a process that died
(``ownership``).
"""
