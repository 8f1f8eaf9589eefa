"""``python -m kotarena`` runs the command line."""

from kotarena.cli import main

main()
