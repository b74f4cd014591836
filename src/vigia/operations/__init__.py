"""Running Vigia: ``/metrics`` and ``/readyz``, backups and restores, retention purges.

A surface package: it may read every domain's tables (a purge or a backup spans them all).
"""
