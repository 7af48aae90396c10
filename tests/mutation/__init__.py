"""Mutation testing of linguo's rules modules (issue 13); entry point: ``run.py``."""
