"""The engine's searches, beside the rules (``games.rules``), one part a module.

    book.py   the 5x5 opening book: solved positions near the start, loaded
              on the first 5x5 question; ``scripts/build_book`` builds it

The site imports none of these directly: ``games.engine`` is its one door.
"""
