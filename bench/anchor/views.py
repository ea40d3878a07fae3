"""The anchor's two views: nothing at all, and a move's database work in raw SQL."""

from django.db import connection, transaction
from django.http import HttpResponse, HttpResponseNotAllowed, HttpResponseNotFound
from django.utils import timezone

from bench.anchor.schema import GAME_TABLE, MOVE_TABLE


def empty(request):
    return HttpResponse(b"")


def move(request, pk):
    """What a move against the AI needs from the database, no more: the game row
    locked, the player's move and the AI's reply inserted, the game updated. One
    transaction, as the site's move is."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    lock = " FOR UPDATE" if connection.vendor == "postgresql" else ""  # SQLite: IMMEDIATE locks the file
    now = timezone.now()
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f"SELECT ply FROM {GAME_TABLE} WHERE id = %s{lock}", [pk])
        row = cursor.fetchone()
        if row is None:
            return HttpResponseNotFound(b"no such game")
        ply = row[0]
        for offset, cell in ((0, 4), (1, 0)):
            cursor.execute(
                f"INSERT INTO {MOVE_TABLE} (game_id, ply, cell, played_at) VALUES (%s, %s, %s, %s)",
                [pk, ply + offset, cell, now],
            )
        cursor.execute(f"UPDATE {GAME_TABLE} SET ply = %s, updated_at = %s WHERE id = %s", [ply + 2, now, pk])
    return HttpResponse(b'{"ply": %d}' % (ply + 2), content_type="application/json")
