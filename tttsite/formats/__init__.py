"""The site's own date and time formats (settings.FORMAT_MODULE_PATH)."""
