// kotarena's replay viewer: steps through one stored game turn by turn.
//
// viewer.html#m=ID&b=FILE[&t=STEP] loads replays/FILE.js, which calls kotarenaReplays
// with its games, each match id's frames as gzip-compressed JSON in base64 (a <script>
// element loads from file://, where fetch() cannot). Each frame is {title, player, lines,
// state, board, decisions}: state is the game's snapshot (Game.snapshot: {seats: [{label:
// value}], table: {label: value}, active, out}), shown for any game as a table of facts;
// board is the drawn table of the games kotarena ships (kotarena/site/boards.py: kind
// "kot" or "duel"), null for any other; decisions are the seats' questions and answers.
// The game's cards map the ids the board names to their texts; its legal lists are the
// decisions' legal actions, each list kept once. A decision's time is in seconds, measured
// as the game's timing says for its seat (kotarena/decision_times.py); logs are what each
// seat's bot wrote during the game (bounded by the referee), shown only as text, and a
// decision's log what it wrote while deciding it (kotarena/sandbox/botlog.py).
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  // Faces by number, as the engines number them (kotarena/engine/dice.py, games/duel/faces.py).
  const FACES = { kot: ["1", "2", "3", "energy", "heart", "claw"],
                  duel: ["claw", "heart", "energy", "fame", "destruction", "power"] };
  let game = null;
  let step = 0;
  let timer = null;

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

  // An element with its class and text (always as text: nothing shown here is read as HTML).
  function el(tag, css, text) {
    const element = document.createElement(tag);
    if (css) element.className = css;
    if (text !== undefined) element.textContent = text;
    return element;
  }

  function cell(tag, text, key) {
    const element = el(tag, "", text);
    if (key) element.dataset.key = key;
    return element;
  }

  function svg(tag, attributes) {
    const element = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes || {})) element.setAttribute(name, String(value));
    return element;
  }

  function seatName(seat) {
    return seat === null || seat === undefined ? "–" : (game.players[seat] || `seat ${seat + 1}`);
  }

  // ---------------------------------------------------------------- the facts table

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

  // ---------------------------------------------------------------- the drawn table

  // A card (or a Duel monster): its name, and its text when pointed at or tapped.
  function card(id, css) {
    const known = (game.cards || {})[id];
    // (a monster's chip names its superpower: the monster is named beside it already)
    const label = known ? (id.startsWith("monster:") ? known.type : known.name) : id;
    const chip = el("button", `card ${css || ""}`, label);
    chip.type = "button";
    chip.dataset.card = id;
    return chip;
  }

  function die(kind, face) {
    const name = FACES[kind][face] || String(face);
    const picture = svg("svg", { viewBox: "0 0 40 40", class: `die face-${name}`, role: "img", "aria-label": name });
    picture.dataset.face = name;
    picture.appendChild(svg("rect", { x: 1.5, y: 1.5, width: 37, height: 37, rx: 7 }));
    const glyphs = {
      energy: () => svg("polygon", { points: "23,5 10,22 19,22 15,35 30,16 21,16", class: "glyph" }),
      heart: () => svg("path", { d: "M20 33 C6 23 6 11 14 10 C17 10 19 12 20 14 C21 12 23 10 26 10 C34 11 34 23 20 33Z",
                                 class: "glyph" }),
      claw: () => {
        const group = svg("g", { class: "glyph stroke" });
        // three slashes, as a claw leaves them
        for (const x of [8, 15, 22]) group.appendChild(svg("path", { d: `M${x} 32 Q${x + 4} 18 ${x + 11} 8` }));
        return group;
      },
      fame: () => svg("polygon", { points: "20,5 24,16 35,16 26,23 29,34 20,27 11,34 14,23 5,16 16,16",
                                   class: "glyph" }),
      destruction: () => svg("polygon", { points: "20,4 23,14 34,9 27,19 36,25 25,25 24,36 18,27 9,34 12,23 4,18 14,15 9,6 19,12",
                                          class: "glyph" }),
      power: () => {
        const group = svg("g", { class: "glyph" });
        group.appendChild(svg("circle", { cx: 20, cy: 20, r: 12, class: "ring" }));
        group.appendChild(svg("polygon", { points: "22,10 14,22 19,22 17,30 26,18 21,18" }));
        return group;
      },
    };
    if (glyphs[name]) picture.appendChild(glyphs[name]());
    else {
      const number = svg("text", { x: 20, y: 28, "text-anchor": "middle", class: "number" });
      number.textContent = name;
      picture.appendChild(number);
    }
    const title = svg("title");
    title.textContent = name;
    picture.appendChild(title);
    return picture;
  }

  function dice(kind, faces) {
    const row = el("div", "dice");
    row.setAttribute("aria-label", "dice");
    if (!faces.length) row.appendChild(el("span", "empty", "no dice rolled yet"));
    for (const face of faces) row.appendChild(die(kind, face));
    return row;
  }

  function market(board) {
    const box = el("div", "market");
    if (!board.market.length) return box;
    box.appendChild(el("h4", "", "Market"));
    const row = el("div", "cards");
    for (const id of board.market) row.appendChild(id ? card(id, "for-sale") : el("span", "card empty", "(empty)"));
    box.appendChild(row);
    if (board.deck !== null) box.appendChild(el("p", "note", `${board.deck} cards left in the deck`));
    return box;
  }

  function stat(css, label, value, max) {
    const figure = el("span", `stat ${css}`);
    figure.dataset.value = String(value);
    figure.appendChild(el("span", "label", label));
    figure.appendChild(el("b", "", max === undefined ? String(value) : `${value}/${max}`));
    return figure;
  }

  function bar(value, max) {
    const track = el("span", "bar");
    const fill = el("span", "fill");
    fill.style.width = `${Math.max(0, Math.min(100, (100 * value) / Math.max(1, max)))}%`;
    track.appendChild(fill);
    return track;
  }

  function monster(board, frame, seat, facts) {
    const box = el("div", "monster");
    box.dataset.seat = String(seat + 1);
    if (frame.player === seat) box.classList.add("active");
    if ((frame.state.out || []).includes(seat)) box.classList.add("out");
    const head = el("div", "who");
    head.appendChild(el("span", `badge seat-${seat}`, String(seat + 1)));
    head.appendChild(el("b", "name", seatName(seat)));
    head.appendChild(el("span", "bot", (game.entrants || [])[seat] || ""));
    if (board.city === seat) head.appendChild(el("span", "where", "in Tokyo City"));
    if (board.bay === seat) head.appendChild(el("span", "where", "in Tokyo Bay"));
    box.appendChild(head);
    if (facts.monster) box.appendChild(card(facts.monster, "monster-board"));
    const stats = el("div", "stats");
    stats.appendChild(stat("health", "health", facts.health, facts.max));
    if (facts.stars !== undefined) stats.appendChild(stat("stars", "stars", facts.stars));
    stats.appendChild(stat("energy", "energy", facts.energy));
    if (facts.tokens !== undefined) stats.appendChild(stat("tokens", "dice tokens", facts.tokens));
    if (facts.poison) stats.appendChild(stat("poison", "poison", facts.poison));
    if (facts.shrink) stats.appendChild(stat("shrink", "shrink", facts.shrink));
    box.appendChild(stats);
    box.appendChild(bar(facts.health, facts.max));
    const cards = el("div", "cards");
    for (const id of facts.cards) cards.appendChild(card(id, "owned"));
    box.appendChild(cards);
    return box;
  }

  function tokyo(board) {
    const box = el("div", "tokyo");
    const place = (css, label, seat) => {
      const spot = el("div", `spot ${css}`);
      spot.dataset.seat = seat === null ? "" : String(seat + 1);
      spot.appendChild(el("span", "label", label));
      spot.appendChild(el("b", "", seat === null ? "empty" : seatName(seat)));
      return spot;
    };
    box.appendChild(place("city", "Tokyo City", board.city));
    if (board.bay_open) box.appendChild(place("bay", "Tokyo Bay", board.bay));
    return box;
  }

  // A Duel track: its spaces left to right (the first seat's victory space first), the
  // spotlight zones in their seat's colour, hype tokens by their mark, the marker as a disc.
  function track(line) {
    const width = 24;
    const count = line.marks.length;
    const picture = svg("svg", { viewBox: `0 0 ${count * width} 44`, class: `track track-${line.name}`,
                                 role: "img", "aria-label": `${line.name} track` });
    picture.dataset.track = line.name;
    picture.dataset.marker = String(line.marker);
    line.marks.forEach((mark, at) => {
      const zone = line.zones[at];
      const css = mark === "V" || (at === 0 || at === count - 1) ? "victory"
        : zone !== null ? `zone seat-${zone}` : mark === "." || mark === "@" ? "plain" : "hype";
      const space = svg("rect", { x: at * width + 1, y: 6, width: width - 2, height: 32, rx: 3, class: `space ${css}` });
      space.dataset.mark = mark;
      picture.appendChild(space);
      const sign = mark === "@" ? "" : mark === "." || mark === "S" ? "" : mark;
      if (sign) {
        const text = svg("text", { x: at * width + width / 2, y: 27, "text-anchor": "middle", class: "mark" });
        text.textContent = sign;
        picture.appendChild(text);
      }
    });
    picture.appendChild(svg("circle", { cx: line.marker * width + width / 2, cy: 22, r: 8, class: "marker" }));
    return picture;
  }

  function tracks(board) {
    const box = el("div", "tracks");
    for (const line of board.tracks) {
      const row = el("div", "track-row");
      row.appendChild(el("span", "label", `${line.name} track`));
      const ends = el("div", "ends");
      ends.appendChild(el("span", "", `◀ ${seatName(0)}`));
      ends.appendChild(el("span", "", `${seatName(1)} ▶`));
      row.appendChild(ends);
      row.appendChild(track(line));
      box.appendChild(row);
    }
    box.appendChild(el("p", "note", "Coloured spaces: each seat's spotlight zone (its own colour); letters: hype " +
      "spaces (x smash, X double smash, h heal, e energy, d dice token, o no bonus, K The King's block); V: victory spaces."));
    return box;
  }

  function renderBoard(frame) {
    const board = frame.board;
    const box = $("board");
    if (!board) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.className = `board ${board.kind}`;
    const parts = [];
    const seats = el("div", "monsters");
    board.seats.forEach((facts, seat) => seats.appendChild(monster(board, frame, seat, facts)));
    parts.push(seats);
    const middle = el("div", "middle");
    if (board.kind === "kot") middle.appendChild(tokyo(board));
    middle.appendChild(dice(board.kind, board.dice));
    parts.push(middle);
    if (board.kind === "duel") parts.push(tracks(board));
    parts.push(market(board));
    box.replaceChildren(...parts);
  }

  // ---------------------------------------------------------------- the decisions

  function renderDecisions(frame) {
    const items = (frame.decisions || []).map((decision) => {
      const item = el("li", "decision");
      item.dataset.seat = String(decision.seat + 1);
      const head = el("div", "asked");
      head.appendChild(el("b", "", seatName(decision.seat)));
      head.appendChild(document.createTextNode(` (${(game.entrants || [])[decision.seat] || "?"}) · ${decision.kind} · chose `));
      head.appendChild(el("code", "choice", decision.choice));
      const took = decisionTime(decision);
      if (took) head.appendChild(el("span", "time", ` · ${took}`));
      item.appendChild(head);
      const legal = (game.legal || [])[decision.legal] || [];
      const listed = decision.more ? ` (the first ${legal.length} listed)` : "";
      const details = el("details", "legal");
      details.appendChild(el("summary", "", `${legal.length + (decision.more || 0)} legal actions${listed}`));
      const list = el("ul", "actions");
      for (const action of legal) {
        const option = el("li", action === decision.choice ? "chosen" : "", action);
        list.appendChild(option);
      }
      details.appendChild(list);
      item.appendChild(details);
      // What its bot wrote while deciding (its own text: shown as text only).
      if (decision.log) {
        const wrote = el("details", "wrote");
        wrote.open = true;
        const count = decision.log.split("\n").length;
        wrote.appendChild(el("summary", "", `its bot wrote ${count} line${count === 1 ? "" : "s"} while deciding`));
        wrote.appendChild(el("pre", "", decision.log));
        item.appendChild(wrote);
      }
      return item;
    });
    $("decisions").replaceChildren(...items);
    if (!items.length) $("decisions").appendChild(el("li", "empty", "No decision in this frame."));
  }

  function ms(seconds) {
    const value = 1000 * seconds;
    return value >= 10 ? `${Math.round(value)} ms` : `${value.toPrecision(2)} ms`;
  }

  // How each seat's decision times were measured (kotarena/decision_times.py), in words.
  const MEASURED = {
    cpu: "its CPU time, measured around each decision",
    tick: "its CPU time as the referee's guard reads it, every twentieth of the time limit: " +
          "a decision shorter than that mostly reads 0, a few read a whole tick",
    share: "its share of the CPU time of the batch that answered it (an instance answers many games' " +
           "decisions at once, and only a batch's time is measured)",
  };

  // A decision's time as the panel shows it ("" where none was stored).
  function decisionTime(decision) {
    const how = (game.timing || [])[decision.seat];
    if (!how) return "";
    if (decision.time === undefined) return (game.forfeits || [])[decision.seat] ? "the autopilot's (the seat forfeited)" : "";
    if (how === "share") return `${ms(decision.time)} CPU (a share of its batch)`;
    if (how === "tick") return decision.time ? `${ms(decision.time)} CPU (guard ticks)` : "under a guard tick of CPU";
    return `${ms(decision.time)} CPU`;
  }

  // The seats' time: each decision's where the results keep it, and each seat's total.
  function renderTiming() {
    const cpu = game.cpu_seconds || [];
    const counts = game.decisions || [];
    const timing = game.timing || [];
    if (!cpu.length) {
      $("timing").textContent = "";
      return;
    }
    const parts = cpu.map((seconds, seat) => {
      const made = `${seatName(seat)}: ${counts[seat] || 0} decisions`;
      const how = timing[seat] ? `; each decision's time is ${MEASURED[timing[seat]] || timing[seat]}` : "";
      if (!seconds) return `${made}, too little CPU time to measure${how}`;
      const each = counts[seat] ? ` (${ms(seconds / counts[seat])} a decision on average)` : "";
      return `${made}, ${seconds.toPrecision(3)} s${each}${how}`;
    });
    const kept = timing.some(Boolean) ? "Time" : "Time: the results keep each seat's CPU time for the whole game, " +
      "not each decision's (a game stored before they did)";
    $("timing").textContent = `${kept}: ${parts.join(". ")}.`;
  }

  // What each seat's bot wrote during this game: the bot's own text, shown as text only.
  function renderLogs() {
    const logs = game.logs || [];
    const shown = [];
    logs.forEach((log, seat) => {
      if (!log) return;
      const block = el("div", "bot-log");
      block.dataset.seat = String(seat + 1);
      const bot = (game.bots || [])[seat];
      const entrant = (game.entrants || [])[seat] || "?";
      block.appendChild(el("h4", "", `${seatName(seat)}: ${entrant}` + (bot && bot !== entrant ? ` (bot ${bot})` : "")));
      block.appendChild(el("pre", "", log));
      shown.push(block);
    });
    $("logs").replaceChildren(...shown);
    $("bot-logs").hidden = !shown.length;
  }

  // ---------------------------------------------------------------- card texts

  function showTip(target) {
    const known = (game && game.cards || {})[target.dataset.card];
    if (!known) return;
    const tip = $("tip");
    const facts = [known.type, known.cost !== undefined ? `${known.cost} energy` : "",
                   known.health !== undefined ? `${known.health} health` : ""].filter(Boolean);
    tip.replaceChildren(el("b", "", known.name), el("span", "facts", facts.length ? ` (${facts.join(", ")})` : ""),
                        el("p", "text", known.text));
    tip.dataset.card = target.dataset.card;
    tip.hidden = false;
    const box = target.getBoundingClientRect();
    const width = Math.min(320, window.innerWidth - 16);
    tip.style.maxWidth = `${width}px`;
    tip.style.left = `${Math.max(8, Math.min(box.left, window.innerWidth - width - 8))}px`;
    const below = box.bottom + 6;
    tip.style.top = `${below + tip.offsetHeight < window.innerHeight ? below : Math.max(8, box.top - tip.offsetHeight - 6)}px`;
  }

  function hideTip() {
    $("tip").hidden = true;
  }

  const pointed = (event) => event.target.closest && event.target.closest("[data-card]");
  document.addEventListener("mouseover", (event) => { if (pointed(event)) showTip(pointed(event)); });
  document.addEventListener("mouseout", (event) => { if (pointed(event)) hideTip(); });
  document.addEventListener("focusin", (event) => { if (pointed(event)) showTip(pointed(event)); });
  document.addEventListener("focusout", hideTip);
  document.addEventListener("click", (event) => { if (pointed(event)) showTip(pointed(event)); else hideTip(); });
  window.addEventListener("scroll", hideTip, { passive: true });

  // ---------------------------------------------------------------- stepping and playing

  function show(at) {
    const frames = game.frames;
    step = Math.max(0, Math.min(at, frames.length - 1));
    const frame = frames[step];
    $("frame-title").textContent = frame.title;
    $("position").textContent = `${frame.title} (step ${step + 1} of ${frames.length})`;
    $("slider").value = String(step);
    // The seat whose turn the frame shows (a frame is taken once its turn is over).
    const player = frame.player === undefined ? frame.state.active : frame.player;
    renderSeats(frame.state, player);
    renderBoard({ ...frame, player });
    $("lines").replaceChildren(...frame.lines.map((line) => cell("li", line)));
    renderDecisions(frame);
    hideTip();
    $("first").disabled = $("back").disabled = step === 0;
    $("forward").disabled = $("last").disabled = step === frames.length - 1;
    if (step === frames.length - 1) pause();
    try {
      history.replaceState(null, "", `#m=${game.match}&b=${game.bundle}&t=${step}`);
    } catch (error) {
      // Some browsers refuse to change a file:// address; the viewer works without it.
    }
  }

  function play() {
    if (!game) return;
    if (step === game.frames.length - 1) show(0);
    clearInterval(timer);
    timer = setInterval(() => show(step + 1), Number($("speed").value));
    document.body.dataset.playing = "true";
    $("play").textContent = "pause";
    $("play").setAttribute("aria-pressed", "true");
  }

  function pause() {
    clearInterval(timer);
    timer = null;
    document.body.dataset.playing = "false";
    $("play").textContent = "play";
    $("play").setAttribute("aria-pressed", "false");
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
    renderTiming();
    renderLogs();
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

  // Stepping by hand stops the autoplay.
  const by = (move) => () => { pause(); move(); };
  $("first").addEventListener("click", by(() => show(0)));
  $("back").addEventListener("click", by(() => show(step - 1)));
  $("forward").addEventListener("click", by(() => show(step + 1)));
  $("last").addEventListener("click", by(() => show(game.frames.length - 1)));
  $("slider").addEventListener("input", by(() => show(Number($("slider").value))));
  $("play").addEventListener("click", () => (timer ? pause() : play()));
  $("speed").addEventListener("change", () => { if (timer) play(); });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") {
      hideTip();
      return;
    }
    if (!game || ["INPUT", "SELECT"].includes(event.target.tagName)) return;
    if (event.key === " ") {
      // (space on a focused button or summary presses it, as everywhere)
      if (["BUTTON", "SUMMARY"].includes(event.target.tagName)) return;
      event.preventDefault();
      if (timer) pause();
      else play();
      return;
    }
    const moves = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 0, End: game.frames.length - 1 };
    if (event.key in moves) {
      event.preventDefault();
      pause();
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
