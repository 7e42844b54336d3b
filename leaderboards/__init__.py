"""Ratings from stored results, and publishing them."""
