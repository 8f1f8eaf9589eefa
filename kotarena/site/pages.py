"""The site's pages, each a function from plain data (what :mod:`.build` gathered) to
HTML: the index, a ladder's leaderboard page, an entrant's page, the card statistics
and a night's matches. Seats and places are shown from 1."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kotarena.forfeits import clean_detail, forfeit_reason
from kotarena.site.charts import rating_chart
from kotarena.site.html import attribute, page, slug, table, text

__all__ = ["bot_night_page", "bot_page", "cards_page", "games_page", "index_page", "ladder_page", "match_row", "night_page"]


def _share(part: float, whole: int) -> str:
    return f"{part / whole:.1%}" if whole else "–"


def _place(rank: int) -> str:
    place = rank + 1
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def games_page(entrant: str, night: int) -> str:
    """The file name of the page of ``entrant``'s games of night ``night`` (not
    ``bot-...``: an entrant called ``x-night-1`` has its page ``bot-x-night-1.html``)."""
    return f"games-{slug(entrant)}-night-{night}.html"


def viewer_link(root: str, match_id: int, bundle: str | None, label: str = "view") -> str:
    """A link to the viewer showing match ``match_id`` from replays file ``bundle``."""
    if bundle is None:
        return text(label)
    return f'<a class="view" href="{root}viewer.html#m={match_id}&amp;b={attribute(bundle)}">{text(label)}</a>'


def index_page(ladders: Sequence[Mapping[str, Any]]) -> str:
    """The site's front page: every ladder built, with its game and size."""
    rows = [(f'<a href="{attribute(slug(ladder["name"]))}/index.html">{text(ladder["name"])}</a>',
             text(ladder["game"]), text(ladder["entrants"]), text(ladder["matches"]), text(ladder["nights"]))
            for ladder in ladders]
    body = table(("ladder", "game", "entrants", "matches", "nights"), rows, css="ladders") if rows else \
        '<p class="empty">No ladders in the database yet.</p>'
    return page("Ladders", body)


def ladder_page(ladder: Mapping[str, Any], board: Sequence[Mapping[str, Any]],
                histories: Mapping[str, Sequence[tuple[float, float, float]]],
                cross: Mapping[tuple[str, str], Mapping[str, int]], turn_order: Mapping[str, Any],
                nights: Sequence[Mapping[str, Any]], versions: Sequence[Mapping[str, Any]]) -> str:
    """A ladder's page: leaderboard with intervals, rating chart, crosstable, win shares
    by turn order, bot versions and the nights."""
    name = ladder["name"]
    rows = []
    for row in board:
        mark = "=" if row["ahead_of_next"] is False else ""
        rows.append((
            f'<span class="rank" title="{"not clearly ahead of the next" if mark else ""}">{row["rank"]}{mark}</span>',
            f'<a class="entrant" href="bot-{attribute(slug(row["entrant"]))}.html">{text(row["entrant"])}</a>',
            f'{row["mu"]:.2f}', f'{row["low"]:.1f} – {row["high"]:.1f}', f'{row["score"]:.2f}',
            f'<a class="games" href="bot-{attribute(slug(row["entrant"]))}.html#games" '
            f'title="{attribute(row["entrant"])}\'s games, night by night">{text(row["games"])}</a>',
            text(row["wins"]), f'{row["win_share"]:.1%}', text(row["forfeits"])))
    note = ('<p class="note"><b>=</b> after a rank: not clearly ahead of the next entrant (the difference of their '
            'skills is within the data\'s uncertainty, one-sided 95%).</p>'
            if any(row["ahead_of_next"] is False for row in board) else "")
    body = [
        f'<p class="summary">{text(ladder["game"])} · {len(board)} entrants · {ladder["matches"]} matches · '
        f'{len(nights)} nights · <a href="cards.html">card statistics</a></p>',
        "<h2>Leaderboard</h2>",
        table(("rank", "entrant", "rating (mu)", "95% interval", "score (mu − 3σ)", "games", "wins", "win share",
               "forfeits"), rows, css="leaderboard"),
        note,
        "<h2>Rating history</h2>",
        rating_chart([(row["entrant"], histories.get(row["entrant"], ())) for row in board]),
        "<h2>Head to head</h2>",
        '<p class="note">How often the row\'s entrant finished above the column\'s when they sat at the same '
        "table (a tie counts half).</p>",
        crosstable_html([row["entrant"] for row in board], cross),
        "<h2>Win share by turn order</h2>",
        turn_order_html(turn_order),
        "<h2>Bot versions</h2>",
        table(("entrant", "bot", "package", "version", "seats"),
              [(text(v["entrant"]), text(v["bot"]), text(v["package"]), text(v["version"]), text(v["seats"]))
               for v in versions], css="versions"),
        "<h2>Nights</h2>",
        table(("night", "status", "matches", "seed"),
              [(f'<a href="night-{n["night"]}.html">night {n["night"]}</a>', text(n["status"]),
                f'{n["stored"]} of {n["planned"]}', text(n["seed"]) if n["seed"] is not None else "sealed (secret)")
               for n in nights], css="nights"),
    ]
    return page(f"Ladder {name}", "\n".join(body), root="../", crumbs=())


def crosstable_html(entrants: Sequence[str], cross: Mapping[tuple[str, str], Mapping[str, int]]) -> str:
    rows = []
    for mine in entrants:
        cells = [f'<a href="bot-{attribute(slug(mine))}.html">{text(mine)}</a>']
        for theirs in entrants:
            found = cross.get((mine, theirs))
            if mine == theirs or not found:
                cells.append("–")
                continue
            score = found["above"] + found["tied"] / 2
            cells.append(f'<span title="{attribute(mine)} above {attribute(theirs)} in {found["above"]} of '
                         f'{found["met"]} meetings ({found["tied"]} level)">{_share(score, found["met"])}</span>')
        rows.append(cells)
    return table(("", *entrants), rows, css="crosstable")


def turn_order_html(turn_order: Mapping[str, Any]) -> str:
    rows = [(_place(p["position"]), text(p["games"]), text(p["wins"]), _share(p["wins"], p["games"]))
            for p in turn_order["positions"]]
    unknown = (f'<p class="note">{turn_order["unknown"]} matches whose first player the roll-off chose are '
               "left out.</p>") if turn_order["unknown"] else ""
    return table(("plays", "games", "wins", "win share"), rows, css="turn-order") + unknown


def bot_page(ladder: str, entrant: str, board_row: Mapping[str, Any] | None,
             history: Sequence[tuple[float, float, float]], cross: Mapping[tuple[str, str], Mapping[str, int]],
             forfeits: Sequence[Mapping[str, Any]], bundles: Mapping[int, str],
             versions: Sequence[Mapping[str, Any]], games: Sequence[tuple[int, int, int, int]] = ()) -> str:
    """An entrant's page: its rating history with its interval, its games night by
    night (``(night, games, wins, forfeited seats)``, each night linked to the page of
    its games that night), its head-to-head record against each opponent, its bot
    versions and its forfeits with their reasons."""
    body = []
    if board_row is not None:
        body.append(f'<p class="summary">Rank {board_row["rank"]} · mu {board_row["mu"]:.2f} '
                    f'(95% interval {board_row["low"]:.1f} – {board_row["high"]:.1f}) · '
                    f'{board_row["games"]} games · '
                    f'{board_row["wins"]} wins · {board_row["forfeits"]} forfeits</p>')
    body.append("<h2>Rating history</h2>")
    body.append(rating_chart([(entrant, history)], band=True, title=f"{entrant}: rating (mu) and its 95% interval"))
    body.append(f'<h2 id="games">Games ({sum(played for _, played, _, _ in games)})</h2>')
    body.append(table(("night", "games", "wins", "win share", "forfeited seats"),
                      [(f'<a href="{games_page(entrant, night)}">night {night}</a>',
                        text(played), text(won), _share(won, played), text(forfeited))
                       for night, played, won, forfeited in games], css="games") if games else
                '<p class="empty">No stored games yet.</p>')
    opponents = sorted({theirs for mine, theirs in cross if mine == entrant})
    body.append("<h2>Head to head</h2>")
    body.append(table(("opponent", "met", "finished above", "level", "share"),
                      [(f'<a href="bot-{attribute(slug(o))}.html">{text(o)}</a>', text(cross[entrant, o]["met"]),
                        text(cross[entrant, o]["above"]), text(cross[entrant, o]["tied"]),
                        _share(cross[entrant, o]["above"] + cross[entrant, o]["tied"] / 2, cross[entrant, o]["met"]))
                       for o in opponents], css="head-to-head"))
    body.append("<h2>Versions</h2>")
    body.append(table(("bot", "package", "version", "seats"),
                      [(text(v["bot"]), text(v["package"]), text(v["version"]), text(v["seats"])) for v in versions],
                      css="versions"))
    body.append(f"<h2>Forfeits ({len(forfeits)})</h2>")
    if forfeits:
        body.append(table(("match", "kind", "what happened"),
                          [(viewer_link("../", f["match"], bundles.get(f["match"]), f"match {f['match']}"),
                            text(f["forfeit"]),
                            f'<pre>{text(clean_detail(f["forfeit_detail"] or ""))}</pre>') for f in forfeits], css="forfeits"))
    return page(entrant, "\n".join(body), root="../", crumbs=(("index.html", f"ladder {ladder}"),))


def cards_page(ladder: str, cards: Sequence[Mapping[str, Any]], baseline: float | None,
               minimum: int = 30) -> str:
    """What was bought in a ladder's games: each card's purchases, the seats that bought
    it, how many of those won, their win share (only from ``minimum`` seats on) and its
    95% interval, and whether that interval leaves out any seat's win share."""
    versus = {"above": "higher", "below": "lower", None: ""}
    rows = [(text(c["card"]), text(c["bought"]), text(c["seats"]), text(c["won"]),
             f'{c["share"]:.1%}' if c["share"] is not None else
             f'<span class="few" title="fewer than {minimum} seats bought it">too few</span>',
             f'{c["low"]:.0%} – {c["high"]:.0%}', versus[c["versus"]])
            for c in cards]
    note = ('<p class="note">"Win share when bought" is the share of the seats that bought the card at least once '
            f"that won their game, shown once {minimum} seats have bought it; the interval is Wilson's 95% interval "
            "of that share, from any number of seats"
            + (f'. A seat wins {baseline:.1%} of its games overall: "higher" or "lower" marks a card whose interval '
               "leaves that out (a card bought by stronger or weaker seats, or in longer games, shows as such too: "
               "this is what happened, not what the card is worth)." if baseline is not None else ".")
            + "</p>")
    body = note + (table(("card", "bought", "seats that bought it", "of them won", "win share when bought",
                          "95% interval", "vs all seats"), rows, css="cards")
                   if rows else '<p class="empty">No card was bought in this ladder.</p>')
    return page(f"Cards in {ladder}", body, root="../", crumbs=(("index.html", f"ladder {ladder}"),))


def match_row(match: Mapping[str, Any], bundle: str) -> tuple[str, ...]:
    """One match as a row of a night's table (its game in replays file ``bundle``)."""
    seats = match["seats"]
    winner = next((s for s in seats if s["seat"] == match["winner_seat"] and not s["forfeit"]), None)
    at_table = " · ".join(f'{s["seat"] + 1}. {text(s["entrant"])} ({_place(s["rank"])})' for s in seats)
    forfeits = "; ".join(f'seat {s["seat"] + 1} {text(s["entrant"])}: {text(s["forfeit"])}'
                         f'{": " + text(forfeit_reason(s["forfeit_detail"])) if s["forfeit_detail"] else ""}'
                         for s in seats if s["forfeit"])
    return (viewer_link("../", match["id"], bundle, f"match {match['id']}"), at_table,
            text(winner["entrant"]) if winner else "nobody", text(match["termination"]), text(match["turns"]),
            forfeits)


#: A night's table's columns (:func:`match_row`'s cells). A match is named by its id,
#: the number every command takes (``kotarena replay --match ID``); the rows are in the
#: night's schedule order.
MATCH_COLUMNS = ("match", "seats (place)", "winner", "ended by", "turns", "forfeits")


def night_page(ladder: str, night: Mapping[str, Any], rows: Iterable[Sequence[str]]) -> str:
    """A night's matches in schedule order, each with a link to the viewer."""
    seed = night["seed"] if night["seed"] is not None else "sealed (secret until the night is done)"
    body = (f'<p class="summary">{text(night["status"])} · {night["stored"]} of {night["planned"]} matches · '
            f"seed {text(seed)}</p>"
            + table(MATCH_COLUMNS, rows, css="matches"))
    return page(f"{ladder}: night {night['night']}", body, root="../", crumbs=(("index.html", f"ladder {ladder}"),))


def bot_night_page(ladder: str, entrant: str, night: Mapping[str, Any], rows: Sequence[Sequence[str]]) -> str:
    """An entrant's matches of a night (``rows`` from :func:`match_row`), in schedule order."""
    body = (f'<p class="summary">{len(rows)} matches of <a href="night-{night["night"]}.html">night '
            f'{night["night"]}</a> ({text(night["status"])})</p>' + table(MATCH_COLUMNS, rows, css="matches"))
    return page(f"{entrant}: night {night['night']}", body, root="../",
                crumbs=(("index.html", f"ladder {ladder}"), (f"bot-{slug(entrant)}.html#games", entrant)))
