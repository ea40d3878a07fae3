"""``python manage.py write_refusals DIR``: the site's 413 as files, for nginx.

nginx in front of the site (scripts/nginx.conf) refuses a body over the
site's limit itself, before anything reaches the servers behind it, and
answers with these files: the API's error shape for /api/, the standalone
page elsewhere, the same words the site would use. The command prints the
limit in bytes, which scripts/serve gives nginx as ``client_max_body_size``.
"""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand

from games.serving.middleware import API_PREFIX, body_limit, request_too_large


class Command(BaseCommand):
    help = "Write the 413 answers (413.json, 413.html) to DIR for nginx, and print the body limit in bytes."

    def add_arguments(self, parser):
        parser.add_argument("directory", type=Path)

    def handle(self, *args, directory: Path, **options):
        directory.mkdir(parents=True, exist_ok=True)
        for name, path_info in (("413.json", API_PREFIX), ("413.html", "/")):
            answer = request_too_large(path_info=path_info, method="", path="", client="", length=None, logged=False)
            (directory / name).write_bytes(answer.content)
        self.stdout.write(str(body_limit()))
