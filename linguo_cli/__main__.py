"""``python -m linguo_cli`` runs the ``linguo`` command line."""

from linguo_cli.cli.app import main

main()
