"""The benchmark's anchor: a minimal Django project beside the site (bench/web.sh).

One empty view (what Django itself costs per request, served by gunicorn with
sync workers) and one raw-SQL view shaped like a move against the AI (lock a
game row, insert two moves, update the game), both against the database the
site under test uses, in tables of their own (:mod:`.schema`).
"""
