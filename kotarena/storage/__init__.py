"""The results database: tables (:mod:`.models`) and opening it (:mod:`.db`)."""

from kotarena.storage.db import DatabaseError, default_db_path, open_db, resolve_url

__all__ = ["DatabaseError", "default_db_path", "open_db", "resolve_url"]
