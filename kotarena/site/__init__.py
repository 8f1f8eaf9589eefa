"""The static site: ``kotarena site build DIR`` writes a ladder's (or every ladder's)
leaderboard, rating charts, crosstable, card statistics, nights and a replay viewer for
every stored game, as plain files that open from disk or any static host (no server,
no network). :func:`build_site` builds it; ``docs/site.md`` describes it."""

from kotarena.site.build import BuildReport, build_site

__all__ = ["BuildReport", "build_site"]
