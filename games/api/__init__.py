"""The JSON API under /api/: the site's games and challenges for programs.

Decisions a client can rely on (the schema at /api/schema/ and the docs at
/api/docs/ say the same per endpoint):

- Authentication: ``Authorization: Token <key>`` (POST /api/auth/token/), or
  the site's session with its CSRF token. Only /api/analyse/, the token
  endpoint, a player's statistics, the leaderboard and the schema and docs
  are open to anonymous clients; everything else answers 401.
- Any signed-in player may read any game (GET /api/games/{id}/ and its
  review), as anyone may open a game's page on the site; only its players may
  act on it (403 ``not_a_player``).
- A move is ``{"cell", "ply"}``: 201 when played; 200 when the same move at the
  same ply was already played (a retried request changes nothing); 409 with the
  current game when refused.
- Invite links are accepted by token only, never by id (403 ``needs_invite_link``).
- A finished position sent to /api/analyse/ is not an error: ``cells`` is empty.
- Every error has one body: ``{"code", "message"}``, plus ``fields`` for
  invalid input and ``game`` for a refused action on a game (see exceptions.py).
"""
