"""Benchmarks that measure the site from outside, over HTTP (see README.md here)."""
