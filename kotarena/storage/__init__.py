"""The results database: its tables (:mod:`.models`, SQLModel: the one declaration,
which creates them and which the writes use), opening it (:mod:`.db`), and the tables
as the read-only commands name them (:mod:`.tables`, SQLAlchemy Core clauses checked
against the models, so that a listing imports no SQLModel; why clauses, there)."""

from kotarena.storage.db import DatabaseError, default_db_path, open_db, resolve_url

__all__ = ["DatabaseError", "default_db_path", "open_db", "resolve_url"]
