"""``python -m linguo_cli`` runs the ``linguo`` command line."""

from linguo_cli.cli import main

main()
