"""Semantic tokens (filled in below)."""
