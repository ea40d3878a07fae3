"""The anchor's own tables, made in the site's database before a benchmark run.

    DJANGO_SETTINGS_MODULE=bench.anchor.settings python -m bench.anchor.schema GAMES

(Re)creates a game table of GAMES rows and an empty move table shaped like the
site's (a foreign key to the game, unique per game and ply, as games_move is).
"""

import sys

GAME_TABLE = "bench_anchor_game"
MOVE_TABLE = "bench_anchor_move"


def create(games: int) -> None:
    from django.db import connection, transaction

    serial = "BIGSERIAL" if connection.vendor == "postgresql" else "INTEGER"
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"DROP TABLE IF EXISTS {MOVE_TABLE}")
        cursor.execute(f"DROP TABLE IF EXISTS {GAME_TABLE}")
        cursor.execute(
            f"CREATE TABLE {GAME_TABLE} (id {serial} PRIMARY KEY, ply INTEGER NOT NULL, "
            "updated_at TIMESTAMP WITH TIME ZONE NOT NULL)"
        )
        cursor.execute(
            f"CREATE TABLE {MOVE_TABLE} (id {serial} PRIMARY KEY, "
            f"game_id BIGINT NOT NULL REFERENCES {GAME_TABLE} (id), ply INTEGER NOT NULL, "
            "cell INTEGER NOT NULL, played_at TIMESTAMP WITH TIME ZONE NOT NULL, UNIQUE (game_id, ply))"
        )
        cursor.executemany(
            f"INSERT INTO {GAME_TABLE} (id, ply, updated_at) VALUES (%s, 0, CURRENT_TIMESTAMP)",
            [(number,) for number in range(1, games + 1)],
        )


if __name__ == "__main__":
    import django

    django.setup()
    create(int(sys.argv[1]))
