"""Play: the tables and everything that happens at one.

The table actor (``table``) and its seats (``seats``), the two clocks (``timers``),
the seam to the engine (``game``, ``engine_game``), who fills the seats
(``opponents``, ``challenge``), how people reach a table (``lobby``: quick match and
private rooms), and what a finished table leaves behind for its players (``replay``,
``analysis``, ``fairness``). ``stacked`` deals chosen walls, in test mode only.
"""
