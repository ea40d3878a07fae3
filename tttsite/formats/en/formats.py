"""Dates and times in English as the site writes them: a 24-hour clock
("28 Nov 2026, 22:09"), in the admin too, instead of Django's "10:09 p.m."."""

DATE_FORMAT = "j M Y"
TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATE_FORMAT = "Y-m-d"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
