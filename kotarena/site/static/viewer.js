// kotarena's replay viewer: steps through one stored game turn by turn.
//
// viewer.html#m=ID&b=FILE[&t=STEP] loads replays/FILE.js, which calls kotarenaReplays
// with its games, each match id's frames as gzip-compressed JSON in base64 (a <script>
// element loads from file://, where fetch() cannot). Each frame is {title, player, lines, state}; state is the
// game's snapshot (kotarena.engine.game.Game.snapshot): {seats: [{label: value}],
// table: {label: value}, active, out}. Nothing here knows which game it shows.
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  let game = null;
  let step = 0;

  function params() {
    const found = {};
    for (const part of location.hash.replace(/^#/, "").split("&")) {
      const [key, value] = part.split("=");
      if (key) found[key] = decodeURIComponent(value || "");
    }
    return found;
  }

  function problem(message) {
    $("problem").textContent = message;
    $("problem").hidden = false;
  }

  function shown(value) {
    if (Array.isArray(value)) return value.length ? value.join(", ") : "–";
    if (value === true) return "yes";
    if (value === false) return "no";
    if (value === null || value === undefined || value === "") return "–";
    return String(value);
  }

  function cell(tag, text, key) {
    const element = document.createElement(tag);
    element.textContent = text;
    if (key) element.dataset.key = key;
    return element;
  }

  function renderSeats(state, player) {
    const keys = [];
    for (const seat of state.seats) for (const key of Object.keys(seat)) if (!keys.includes(key)) keys.push(key);
    const head = document.createElement("tr");
    for (const label of ["seat", "player", "bot", ...keys]) head.appendChild(cell("th", label));
    $("seats").tHead.replaceChildren(head);
    const rows = state.seats.map((facts, seat) => {
      const row = document.createElement("tr");
      row.dataset.seat = String(seat + 1);
      if (player === seat) row.classList.add("active");
      if ((state.out || []).includes(seat)) row.classList.add("out");
      row.appendChild(cell("td", String(seat + 1), "seat"));
      row.appendChild(cell("td", game.players[seat] || "", "player"));
      row.appendChild(cell("td", (game.entrants || [])[seat] || "", "bot"));
      for (const key of keys) row.appendChild(cell("td", shown(facts[key]), key));
      return row;
    });
    $("seats").tBodies[0].replaceChildren(...rows);
    const facts = [];
    for (const [key, value] of Object.entries(state.table || {})) {
      facts.push(cell("dt", key));
      facts.push(cell("dd", shown(value), key));
    }
    $("table-facts").replaceChildren(...facts);
  }

  function show(at) {
    const frames = game.frames;
    step = Math.max(0, Math.min(at, frames.length - 1));
    const frame = frames[step];
    $("frame-title").textContent = frame.title;
    $("position").textContent = `${frame.title} (step ${step + 1} of ${frames.length})`;
    $("slider").value = String(step);
    // The seat whose turn the frame shows (a frame is taken once its turn is over).
    renderSeats(frame.state, frame.player === undefined ? frame.state.active : frame.player);
    $("lines").replaceChildren(...frame.lines.map((line) => cell("li", line)));
    $("first").disabled = $("back").disabled = step === 0;
    $("forward").disabled = $("last").disabled = step === frames.length - 1;
    try {
      history.replaceState(null, "", `#m=${game.match}&b=${game.bundle}&t=${step}`);
    } catch (error) {
      // Some browsers refuse to change a file:// address; the viewer works without it.
    }
  }

  async function unpack(base64) {
    const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }

  window.kotarenaReplays = function (games) {
    const match = params().m;
    if (!(match in games)) problem(`Match ${match} is not in the replays file ${params().b}.`);
    else showGame(Number(match), games[match]);
  };

  async function showGame(match, base64) {
    if (typeof DecompressionStream === "undefined") {
      problem("This browser cannot unpack the game (it lacks DecompressionStream): use a browser from 2023 or later.");
      return;
    }
    try {
      game = await unpack(base64);
    } catch (error) {
      problem(`Match ${match} could not be unpacked: ${error}`);
      return;
    }
    const places = (game.places || []).map((place, seat) => `${game.players[seat]} (${game.entrants[seat]}): ${place}`);
    $("heading").textContent = `Match ${match}` + (game.game ? `: ${game.game}` : "");
    document.title = `Match ${match} · kotarena`;
    const where = $("where");
    if (game.ladder_page) {
      const ladder = document.createElement("a");
      ladder.href = game.ladder_page;
      ladder.textContent = `ladder ${game.ladder}`;
      const night = document.createElement("a");
      night.href = game.night_page;
      night.textContent = `night ${game.night}`;
      where.replaceChildren(ladder, " / ", night, ` / match ${game.match}`);
    }
    $("about").textContent = `Seed ${game.seed}` + (game.deck ? `, deck ${game.deck}` : "") +
      (places.length ? `. Places: ${places.join(", ")}` : "");
    if (game.error) problem(`This game cannot be shown in full: ${game.error}`);
    if (!game.frames.length) return;
    $("slider").max = String(game.frames.length - 1);
    document.body.dataset.ready = "true";
    show(stepAsked());
  }

  function stepAsked() {
    const asked = Number(params().t || 0);
    return Number.isInteger(asked) ? asked : 0;
  }

  function load() {
    const { m: match, b: bundle } = params();
    if (!match || !/^\d+$/.test(match) || !bundle || !/^[\w.-]+$/.test(bundle)) {
      problem("No game chosen: open a match from a night's page.");
      return;
    }
    const script = document.createElement("script");
    script.src = `replays/${bundle}.js`;
    script.onerror = () => problem(`This site has no replays file ${bundle}.`);
    document.body.appendChild(script);
  }

  $("first").addEventListener("click", () => show(0));
  $("back").addEventListener("click", () => show(step - 1));
  $("forward").addEventListener("click", () => show(step + 1));
  $("last").addEventListener("click", () => show(game.frames.length - 1));
  $("slider").addEventListener("input", () => show(Number($("slider").value)));
  document.addEventListener("keydown", (event) => {
    if (!game || event.target.tagName === "INPUT") return;
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: game.frames.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      show(moves[event.key]);
    }
  });
  window.addEventListener("hashchange", () => {
    const match = params().m;
    if (game && String(game.match) === match) show(stepAsked());
    else location.reload();
  });
  load();
})();
