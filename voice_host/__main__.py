"""``python -m voice_host`` runs the command line."""

from voice_host.cli import main

raise SystemExit(main())
