// Scoreboard page: keeps a hanchan through /v1/games (api/games.py). No external requests.
// Words: text.js (one table for all pages, one language setting).
"use strict";

let game = null;
// The ability block of the game shown (GET /v1/blocks/{id}) and the game state it was read for:
// its standings change only when one of its games ends.
let block = null;
let blockReadFor = "";
// A block's rules carried into the next block's form (the options the form does not show too).
let carriedRules = null;
const GAMES_PER_BLOCK = 4;  // ¶1: four hanchan are one block
const SEAT_WORDS = ["seatE", "seatS", "seatW"];
// Ability mahjong's roles (docs/rules/ability.md), in the order the rule lists them.
const ROLES = ["tenshi", "seiryuu", "suzaku", "byakko", "genbu", "kouryuu"];
// The tiles a kanpa may name (sanma: no 2m–8m), as MPSZ.
const KANPA_TILES = ["1m", "9m", ..."123456789".split("").map((n) => `${n}p`),
  ..."123456789".split("").map((n) => `${n}s`), ..."1234567".split("").map((n) => `${n}z`)];
const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
const t = tr;
const fmt = fmtNum;
const windName = (w) => tr(`wind_${w}`);
const signed = (n) => (n > 0 ? "+" : "") + fmt(n);
const roleName = (r) => t(`role_${r}`);
const ability = () => !!(game && game.rules.ability);
const roleOf = (p) => (ability() ? game.players[p].role : null);

function tileLabel(tile) {
  // "9s" → 9s / 9索; honours by name (a kanpa names a tile kind)
  const n = tile[0], s = tile[1];
  if (s === "z") return t(`honor_${n}`);
  return Lang.ja() ? `${n}${{ m: "萬", p: "筒", s: "索" }[s]}` : tile;
}
// Each rule system's seats and its own start, return and uma (engine/game/presets.py): the
// new-game form shows them when the system is chosen.
const PRESETS = {
  "sanma-1.3": { seats: 3, start_points: 30000, return_points: 40000, uma: 10 },
  ecip: { seats: 4, start_points: 27000, return_points: 30000, uma: 0 },
  standard: { seats: 4, start_points: 25000, return_points: 30000, uma: 0 },
};

function message(text, ok = false) {
  const el = $("#message");
  el.textContent = text;
  el.className = ok ? "ok" : "";
  el.hidden = !text;
}

async function api(method, path, body) {
  const options = { method, headers: {} };
  if (body !== undefined) {
    options.headers["content-type"] = "application/json";
    options.body = JSON.stringify(body);
  }
  let response;
  try { response = await fetch(path, options); } catch (_) {
    response = null;
  }
  let data = null;
  try { data = response ? await response.json() : null; } catch (_) { data = null; }
  if (!response || !response.ok) {
    // the refusal in the page's language (and the server's detail on an English page)
    const failure = data && data.error ? data.error : { code: response ? "bad_response" : "offline" };
    const detail = errorDetail(failure);
    const error = new Error(detail ? `${errorText(failure)} (${detail})` : errorText(failure));
    error.code = failure.code;
    throw error;
  }
  return data;
}

function applyLanguage() {
  document.documentElement.lang = Lang.current;
  document.title = `${t("scoreboard")} — ${t("title")}`;  // the tab speaks the page's language
  translateStatic();
  $$(".role-select").forEach((select) => {
    [...select.options].forEach((o) => { o.textContent = roleName(o.value); });
  });
  $("#lang").textContent = t("lang_button");
  showChoosers();
  if (game) render();
}

// ------------------------------------------------------------------ showing the game

function playerName(p) { return p === null || p === undefined ? t("deposits") : game.players[p].name; }

function render() {
  $("#start").hidden = true;
  $("#table").hidden = false;
  $("#game-id").textContent = game.id;
  $("#round").textContent = game.finished ? t("finished") : t("round_name", game.round_wind, +game.round[1]);
  $("#honba").textContent = game.honba;
  $("#deposits").textContent = fmt(game.deposits);
  const list = $("#players");
  list.replaceChildren(...game.players.map((p) => {
    const li = document.createElement("li");
    li.className = p.dealer && !game.finished ? "dealer" : "";
    li.innerHTML = '<span class="wind"></span><span class="name"></span><span class="score"></span>';
    $(".wind", li).textContent = windName(p.seat);
    $(".name", li).textContent = p.name + (p.dealer && !game.finished ? ` (${t("dealer")})` : "");
    // the role badge: a role holds for the whole block (ability mahjong)
    if (p.role) $(".name", li).prepend(roleBadge(p.role));
    $(".score", li).textContent = fmt(p.score);
    if (p.score < 0) $(".score", li).classList.add("negative");
    return li;
  }));
  renderAbilityStatus();
  $("#hand").hidden = game.finished;
  $("#undo").disabled = game.hand_count === 0;
  $("#export").href = `/v1/games/${game.id}/export`;
  fillPlayerControls();
  updateCameraLinks();
  renderLog();
  renderSettlement();
  renderBlock();
  readBlock();
}

function renderAbilityStatus() {
  // The seiryuu's deposit the next hand starts with, and the byakko who must declare.
  const line = $("#ability-status");
  line.hidden = !game.ability || game.finished;
  if (line.hidden) return;
  const parts = [];
  const deposits = game.ability.seiryuu_deposits;
  if (deposits.length) {
    parts.push(t("seiryuuDeposit", deposits.map((d) => `${playerName(d.player)} ${fmt(d.amount)}`).join(", ")));
  }
  const must = game.ability.byakko.filter((b) => b.must_declare).map((b) => playerName(b.player));
  if (must.length) parts.push(t("byakkoMust", must.join(", ")));
  line.textContent = parts.join(" · ");
  line.hidden = !parts.length;
}

function kanpaEntries() {
  return $$("#kanpa-list .kanpa").map((row) => ({
    by: Number($('[name="by"]', row).value),
    target: Number($('[name="target"]', row).value),
    tile: $('[name="tile"]', row).value,
  }));
}

function updateCameraLinks() {
  // The camera page opens on this game: its round, honba and deposits, who declared riichi,
  // and in ability mahjong the byakko's declarations and the kanpa of the hand.
  if (!game) return;
  const riichi = checked("riichi").join(",");
  let base = `/?game=${game.id}${riichi ? `&riichi=${riichi}` : ""}`;
  if (ability()) {
    const byakko = checked("byakko").join(",");
    const kanpa = kanpaEntries().map((k) => `${k.by}:${k.target}:${k.tile}`).join(",");
    base += `${byakko ? `&byakko=${byakko}` : ""}${kanpa ? `&kanpa=${kanpa}` : ""}`;
  }
  $("#score-photo").href = base;
  $("#check-tenpai").href = `${base}&mode=draw`;
}

function describeHand(hand) {
  const r = hand.result;
  const parts = [];
  const value = (w) => (w.limit ? ` ${t(w.limit)}` : w.han ? ` ${t("value", w.han, w.fu)}` : "");
  if (r.outcome === "ron") {
    r.wins.forEach((w) => parts.push(
      `${t("ron")}: ${playerName(w.winner)} ← ${playerName(r.discarder)}${value(w)}`));
  } else if (r.outcome === "tsumo") {
    const w = r.wins[0];
    parts.push(`${t("tsumo")}: ${playerName(w.winner)}${value(w)}`);
  } else if (r.outcome === "draw") {
    parts.push(`${t("draw")}: ${t("tenpai")} ${r.tenpai.map(playerName).join(", ") || t("none")}`);
    if (r.nagashi.length) parts.push(`${t(nagashiWord())}: ${r.nagashi.map((n) => playerName(n.player)).join(", ")}`);
  } else if (r.outcome === "abortive") {
    parts.push(t("abortive"));
  } else {
    parts.push(`${t("chombo")}: ${r.offenders.map(playerName).join(", ")}`);
  }
  if ((r.byakko_declared || []).length) parts.push(t("declaredLog", r.byakko_declared.map(playerName).join(", ")));
  (r.kanpa || []).forEach((k) => parts.push(t("kanpaLog", playerName(k.by), playerName(k.target), tileLabel(k.tile))));
  r.wins.filter((w) => w.upgraded_from).forEach((w) => parts.push(t("upgradeLog", t(w.upgraded_from), t(w.limit))));
  return parts.join(" / ");
}

function renderLog() {
  const log = $("#log");
  log.replaceChildren(...game.hands.slice().reverse().map((hand) => {
    const li = document.createElement("li");
    const head = document.createElement("div");
    head.textContent = `${hand.number}. ${t("round_name", hand.round[0], +hand.round[1])} ` +
      `${t("honba_n", hand.honba)} — ` +
      describeHand(hand);
    const deltas = document.createElement("div");
    hand.deltas.forEach((d, p) => {
      const span = document.createElement("span");
      span.className = d > 0 ? "plus" : d < 0 ? "minus" : "";
      span.textContent = `${game.players[p].name} ${signed(d)}  `;
      deltas.append(span);
    });
    li.append(head, deltas);
    if (hand.busts.length) {
      const b = document.createElement("div");
      b.className = "minus";
      b.textContent = `${t("bust")}: ${hand.busts.map((x) => playerName(x.player)).join(", ")}`;
      li.append(b);
    }
    const details = document.createElement("details");
    const summary = document.createElement("summary");
    summary.textContent = t("transfers");
    const list = document.createElement("ul");
    list.replaceChildren(...hand.transfers.map((x) => {
      const item = document.createElement("li");
      item.textContent = `${playerName(x.from)} → ${playerName(x.to)} ${fmt(x.amount)} ` +
        `(${TEXT[`move_${x.reason}`] ? t(`move_${x.reason}`) : x.reason})`;
      return item;
    }));
    details.append(summary, list);
    li.append(details);
    return li;
  }));
}

function renderSettlement() {
  const section = $("#settlement");
  section.hidden = !game.settlement;
  if (!game.settlement) return;
  const rows = game.settlement.slice().sort((a, b) => a.rank - b.rank).map((s) => {
    const row = document.createElement("tr");
    const cells = [s.rank, s.name, fmt(s.score), signed(s.total)];
    cells.forEach((c, i) => {
      const td = document.createElement("td");
      td.textContent = c;
      if (i !== 1) td.className = "num";
      row.append(td);
    });
    // the breakdown shown under the name: phones have no hover for a tooltip
    const parts = document.createElement("small");
    parts.className = "breakdown";
    parts.textContent = t("breakdown_line", s);
    row.children[1].append(parts);
    return row;
  });
  $("tbody", section).replaceChildren(...rows);
}

// ------------------------------------------------------------------ the ability block

async function readBlock(force = false) {
  // The block of the game shown, read again when the game shown or its end changes.
  if (!game || !game.block) {
    block = null;
    renderBlock();
    return;
  }
  const key = `${game.id}:${game.finished}`;
  if (!force && block && block.id === game.block.id && blockReadFor === key) return;
  blockReadFor = key;
  const wanted = game.block.id;
  try {
    const data = await api("GET", `/v1/blocks/${wanted}`);
    if (game && game.block && game.block.id === wanted) block = data;
  } catch (error) {
    block = null;
    message(error.message);
  }
  renderBlock();
}

function roleBadge(role) {
  // a role's badge, one colour per role (game.css)
  const badge = document.createElement("span");
  badge.className = `role r-${role}`;
  badge.dataset.role = role;
  badge.textContent = roleName(role);
  return badge;
}

function renderBlock() {
  const inBlock = Boolean(game && game.block);
  $("#block-line").hidden = !inBlock;
  if (inBlock) $("#block-where").textContent = t("blockLine", game.block.number, GAMES_PER_BLOCK);
  const section = $("#block");
  section.hidden = !(inBlock && block && block.id === game.block.id);
  if (section.hidden) return;
  const done = block.games.filter((g) => g.finished).length;
  $("#block-progress").textContent = t("blockProgress", done, GAMES_PER_BLOCK);
  const roles = Object.fromEntries(block.players.map((p) => [p.name, p.role]));
  $("#block-standings tbody").replaceChildren(...block.standings.map((s) => {
    const row = document.createElement("tr");
    const rank = 1 + block.standings.filter((o) => o.total > s.total).length;
    const cells = [String(rank), "", s.games.length ? s.games.map(signed).join(" / ") : t("none"), signed(s.total)];
    cells.forEach((c, i) => {
      const td = document.createElement("td");
      td.textContent = c;
      if (i !== 1) td.className = "num";
      row.append(td);
    });
    row.children[1].append(roleBadge(roles[s.name]), document.createTextNode(s.name));
    return row;
  }));
  $("#block-games").replaceChildren(...block.games.map((g) => {
    const li = document.createElement("li");
    const words = document.createElement("span");
    const state = g.finished ? t("blockTop", g.next_chooser) : t("blockPlaying");
    words.textContent = `${t("blockGame", g.number)}: ${g.players.join(" · ")} — ${state}`;
    li.append(words);
    if (g.id === game.id) {
      li.className = "shown";
      li.append(document.createTextNode(` (${t("blockShown")})`));
    } else {
      const open = document.createElement("button");
      open.type = "button";
      open.className = "small";
      open.textContent = t("open");
      open.addEventListener("click", () => openGame(g.id));
      li.append(" ", open);
    }
    return li;
  }));
  $("#block-choosing").textContent = t("choseOrder", block.choosing_order.join(" → "));
  const latest = block.games[block.games.length - 1];
  const isLatest = latest.id === game.id;
  const form = $("#next-game");
  form.hidden = !(isLatest && game.finished && block.games.length < GAMES_PER_BLOCK);
  if (!form.hidden) fillNextSeats(latest);
  $("#block-latest").hidden = isLatest;
  $("#open-latest").textContent = t("openLatest", latest.number);
  $("#block-done").hidden = !block.finished;
  if (block.finished) $("#next-block-order").textContent = t("nextBlockOrder", block.next_choosing_order.join(" → "));
}

function fillNextSeats(latest) {
  // The next hanchan's seats, the last one's by default; a choice made stays while the form
  // is for the same hanchan.
  const form = $("#next-game");
  const number = block.games.length + 1;
  $("#next-title").textContent = t("nextTitle", number);
  const key = `${block.id}:${number}`;
  if (form.dataset.for === key) return;
  form.dataset.for = key;
  $$(".block-player", form).forEach((select, k) => {
    select.replaceChildren(...block.players.map((p) => new Option(p.name, p.name)));
    select.value = latest.players[k];
  });
}

async function nextHanchan(e) {
  e.preventDefault();
  const form = e.target;
  const players = $$(".block-player", form).map((select) => select.value);
  try {
    const next = await api("POST", `/v1/blocks/${block.id}/games`, { players });
    const latest = next.games[next.games.length - 1];
    block = next;
    blockReadFor = `${latest.id}:false`;
    show(await api("GET", `/v1/games/${latest.id}`));
    window.scrollTo(0, 0);
    message(t("nextStarted", latest.number), true);
  } catch (error) {
    message(error.message);
    readBlock(true);  // another phone may have started it, or the block changed
  }
}

function startNextBlock() {
  // The next block at the same table: its last hanchan's seats, the same rules, and the top
  // player of that hanchan choosing a role first (¶1).
  const last = block.games[block.games.length - 1];
  const first = block.next_choosing_order[0];
  const rules = block.rules;
  leave();
  const form = $("#new-game");
  form.preset.value = "sanma-1.3";
  showPreset();
  last.players.forEach((name, k) => { form[`p${k}`].value = name; });
  form.aka.checked = Boolean(rules.aka_5man);
  ["start_points", "return_points", "uma"].forEach((name) => {
    if (rules[name] !== undefined) form[name].value = rules[name];
  });
  if (rules.double_ron_honba) form.double_ron_honba.value = rules.double_ron_honba;
  form.ability.checked = true;
  form.block.checked = true;
  form.roles_may_repeat.checked = rules.roles_may_repeat !== false;
  $("#role-pick").hidden = false;
  carriedRules = rules;
  showChoosers();
  form.chooses_first.value = String(last.players.indexOf(first));
  showChoosers();
  window.scrollTo(0, 0);
}

// ------------------------------------------------------------------ choosing roles

function seatNames() {
  // the names typed, or the keeper's own (A, B, C) for a seat left empty
  const form = $("#new-game");
  return [0, 1, 2].map((k) => form[`p${k}`].value.trim() || "ABC"[k]);
}

function showChoosers() {
  // ¶1: roles are chosen one after another from the first chooser, in turn order: the role
  // fields stand in that order, each under its player's name.
  const form = $("#new-game");
  const names = seatNames();
  const select = form.chooses_first;
  const keep = select.value || "0";
  select.replaceChildren(...names.map((n, k) => new Option(t("nameSeat", n, t(SEAT_WORDS[k])), String(k))));
  select.value = keep;
  const first = Number(select.value);
  const box = $("#role-order");
  [0, 1, 2].map((i) => (first + i) % 3).forEach((seat, i) => {
    const label = $(`label[data-seat="${seat}"]`, box);
    $(".chooser", label).textContent = t("roleChooser", i + 1, names[seat], t(SEAT_WORDS[seat]));
    box.append(label);
  });
  showTakenRoles();
}

function showTakenRoles() {
  // Without roles_may_repeat a role chosen earlier is not offered to those who choose later.
  const repeat = $("#new-game").roles_may_repeat.checked;
  const taken = new Set();
  $$("#role-order .role-select").forEach((select) => {
    [...select.options].forEach((o) => { o.disabled = !repeat && taken.has(o.value); });
    if (!repeat && taken.has(select.value)) select.value = ROLES.find((r) => !taken.has(r));
    taken.add(select.value);
  });
}

// ------------------------------------------------------------------ the hand form

function fillPlayerControls() {
  $$(".player-select").forEach((select) => {
    const keep = select.value;
    const options = game.players.map((p) => new Option(p.name, String(p.player)));
    if (select.classList.contains("optional")) options.unshift(new Option(t("none"), ""));
    select.replaceChildren(...options);
    if ([...select.options].some((o) => o.value === keep)) select.value = keep;
  });
  $$(".player-checks").forEach((box) => {
    const checked = new Set($$("input:checked", box).map((i) => i.value));
    box.replaceChildren(...game.players.map((p) => {
      const label = document.createElement("label");
      const input = document.createElement("input");
      input.type = "checkbox";
      input.value = String(p.player);
      input.checked = checked.has(String(p.player));
      label.append(input, document.createTextNode(p.name));
      return label;
    }));
  });
  $$(".aka-only").forEach((el) => { el.hidden = !game.rules.aka_5man; });
  fillAbilityControls();
  applyRuleControls();
}

function fillAbilityControls() {
  // Only the byakko may declare, only a genbu declares kanpa; a byakko silent for two hands
  // must declare this one (ver 1.1): its box is ticked and kept.
  const withRole = (role) => game.players.filter((p) => p.role === role).map((p) => p.player);
  $$(".player-checks[data-role]").forEach((box) => {
    const allowed = new Set(withRole(box.dataset.role).map(String));
    $$("label", box).forEach((label) => { label.hidden = !allowed.has($("input", label).value); });
  });
  const must = new Set(ability() ? game.ability.byakko.filter((b) => b.must_declare).map((b) => String(b.player)) : []);
  $$('.player-checks[data-name="byakko"] input').forEach((input) => {
    if (must.has(input.value)) input.checked = true;
    input.disabled = must.has(input.value);
    input.parentElement.title = input.disabled ? t("mustDeclare") : "";
  });
  $("#byakko-row").hidden = !ability() || !withRole("byakko").length;
  $("#kanpa-box").classList.toggle("no-genbu", !ability() || !withRole("genbu").length);
  $$("#kanpa-list .kanpa").forEach(fillKanpaRow);
  $$("#wins .win").forEach(showSeiryuu);
}

function fillKanpaRow(row) {
  const genbu = game.players.filter((p) => p.role === "genbu");
  const by = $('[name="by"]', row), target = $('[name="target"]', row), tile = $('[name="tile"]', row);
  const keep = [by.value, target.value, tile.value];
  by.replaceChildren(...genbu.map((p) => new Option(p.name, String(p.player))));
  if (keep[0] && [...by.options].some((o) => o.value === keep[0])) by.value = keep[0];
  const others = game.players.filter((p) => String(p.player) !== by.value);
  target.replaceChildren(...others.map((p) => new Option(p.name, String(p.player))));
  if (keep[1] && [...target.options].some((o) => o.value === keep[1])) target.value = keep[1];
  tile.replaceChildren(...KANPA_TILES.map((x) => new Option(tileLabel(x), x)));
  if (keep[2]) tile.value = keep[2];
}

function addKanpa() {
  const row = $("#kanpa-template").content.firstElementChild.cloneNode(true);
  translateStatic(row);
  $(".remove", row).addEventListener("click", () => { row.remove(); updateCameraLinks(); });
  $('[name="by"]', row).addEventListener("change", () => fillKanpaRow(row));
  row.addEventListener("change", updateCameraLinks);
  $("#kanpa-list").append(row);
  fillKanpaRow(row);
  updateCameraLinks();
}

function showSeiryuu(node) {
  // A seiryuu's win given as han/fu or a limit says the han its extra indicators added.
  const winner = Number($('[name="winner"]', node).value);
  $(".seiryuu-only", node).hidden = !game || roleOf(winner) !== "seiryuu";
}

function nagashiWord() { return game.rules.nagashi === "mangan" ? "nagashiMangan" : "nagashi"; }

function applyRuleControls() {
  // What the game's rules have: abortive draws, nagashi (yakuman or mangan), manemann, double
  // ron, whether a win says closed (ECIP deposits) and pao, and the limits of its table.
  const rules = game.rules;
  $("#abortive-choice").hidden = !rules.abortive_draws;
  $("#nagashi-row").hidden = rules.nagashi === "none";
  $("#nagashi-double-row").hidden = rules.nagashi !== "yakuman";
  $("#nagashi-label").dataset.t = nagashiWord();
  $("#manemann-row").hidden = !rules.manemann;
  $("#more-label").dataset.t = rules.manemann ? "more" : "moreMisCall";
  translateStatic($("#hand"));
  $$("#wins .closed-only").forEach((el) => { el.hidden = !rules.deposits_need_closed_win; });
  const limits = game.limits || ["mangan", "haneman", "baiman", "sanbaiman", "yakuman"];
  $$('#wins [name="limit"] option').forEach((o) => { o.hidden = !limits.includes(o.value); });
  showOutcome();
}

let winCount = 0;

function addWin() {
  const node = $("#win-template").content.firstElementChild.cloneNode(true);
  const id = ++winCount;
  $$(".value-modes input", node).forEach((radio) => {
    radio.name = `mode-${id}`;
    radio.addEventListener("change", () => showMode(node));
  });
  translateStatic(node);
  $('[name="winner"]', node).addEventListener("change", () => showSeiryuu(node));
  $("#wins").append(node);
  showMode(node);
  if (game) fillPlayerControls();
  return node;
}

function showMode(node) {
  const mode = $(".value-modes input:checked", node).value;
  $$("[data-mode]", node).forEach((el) => { el.hidden = el.dataset.mode !== mode; });
}

function showOutcome() {
  const outcome = $("#hand").outcome.value;
  const aka = Boolean(game && game.rules.aka_5man);
  $$("#hand [data-for]").forEach((el) => {
    el.hidden = !el.dataset.for.split(" ").includes(outcome) || (el.classList.contains("aka-only") && !aka);
  });
  const wins = $$("#wins .win");
  const doubleRon = !game || game.rules.max_ron_winners > 1;
  $("#double-ron").hidden = outcome !== "ron" || !doubleRon;
  if ((outcome !== "ron" || !doubleRon) && wins.length > 1) wins.slice(1).forEach((w) => w.remove());
  $$("#wins .pao-only").forEach((el) => { el.hidden = !(game && game.rules.pao && outcome === "tsumo"); });
}

function toggleDoubleRon() {
  const wins = $$("#wins .win");
  if (wins.length > 1) wins[1].remove();
  else addWin();
  $("#double-ron").classList.toggle("secondary", $$("#wins .win").length === 1);
}

function checked(name) {
  return $$(`.player-checks[data-name="${name}"] input:checked`).map((i) => Number(i.value));
}

function winFromNode(node) {
  const win = { winner: Number($('[name="winner"]', node).value) };
  const mode = $(".value-modes input:checked", node).value;
  if (mode === "hanfu") {
    win.han = Number($('[name="han"]', node).value);
    if (win.han < 5) win.fu = Number($('[name="fu"]', node).value);
  } else {
    win.limit = $('[name="limit"]', node).value;
    if (win.limit === "yakuman") win.yakuman_multiple = Number($('[name="multiple"]', node).value);
  }
  const closed = $('[name="closed"]', node).value;
  if (game.rules.deposits_need_closed_win && closed !== "") win.closed = closed === "true";
  const pao = $('[name="pao"]', node).value;
  if (game.rules.pao && $("#hand").outcome.value === "tsumo" && pao !== "") win.pao = Number(pao);
  if (roleOf(win.winner) === "seiryuu") win.seiryuu_han = Number($('[name="seiryuu_han"]', node).value);
  return win;
}

function handBody() {
  const form = $("#hand");
  const outcome = form.outcome.value;
  const body = { outcome, seq: game.seq };
  if (ability()) {
    body.byakko_declared = checked("byakko");
    if (outcome !== "chombo") body.kanpa = kanpaEntries();
  }
  if (outcome !== "chombo") {
    body.riichi = checked("riichi");
    body.mis_calls = checked("mis_calls");
    if (game.rules.aka_5man && form.aka5man.value !== "") body.aka5man = Number(form.aka5man.value);
    if (game.rules.manemann && form.copier.value !== "" && form.copied.value !== "") {
      body.manemann = [{ copier: Number(form.copier.value), copied: Number(form.copied.value),
        turns: Number(form.turns.value) }];
    }
  }
  if (outcome === "ron") {
    body.discarder = Number(form.discarder.value);
    body.wins = $$("#wins .win").map(winFromNode);
  } else if (outcome === "tsumo") {
    body.wins = [winFromNode($("#wins .win"))];
  } else if (outcome === "draw") {
    const doubles = new Set(checked("nagashi_double"));
    body.tenpai = checked("tenpai");
    body.nagashi = checked("nagashi").map((p) => (game.rules.nagashi === "yakuman"
      ? { player: p, double_riichi: doubles.has(p) } : { player: p }));
    body.noten_riichi = checked("noten_riichi");
  } else if (outcome === "chombo") {
    body.offenders = [Number(form.offender.value)];
  }
  return body;
}

function resetForm() {
  // After a hand is recorded the form starts the next one afresh: a ron, one win, 2 han 30 fu.
  const form = $("#hand");
  $$("#hand .player-checks input").forEach((i) => { i.checked = false; });
  ["aka5man", "copier", "copied"].forEach((name) => { form[name].value = ""; });
  $("#kanpa-list").replaceChildren();
  form.turns.value = "5";
  $("#more").open = false;
  $('#hand input[name="outcome"][value="ron"]').checked = true;
  $$("#wins .win").slice(1).forEach((w) => w.remove());
  const win = $("#wins .win");
  $('.value-modes input[value="hanfu"]', win).checked = true;
  $('[name="han"]', win).value = "2";
  $('[name="fu"]', win).value = "30";
  $('[name="limit"]', win).value = "mangan";
  $('[name="multiple"]', win).value = "1";
  $('[name="closed"]', win).value = "";
  $('[name="pao"]', win).value = "";
  $('[name="seiryuu_han"]', win).value = "0";
  showMode(win);
  if (game) fillAbilityControls();
  $("#double-ron").classList.add("secondary");
  showOutcome();
  updateCameraLinks();
}

// ------------------------------------------------------------------ actions

function show(data) {
  game = data;
  localStorage.setItem("sanma-game-id", game.id);
  if (location.hash !== `#${game.id}`) history.replaceState(null, "", `#${game.id}`);
  render();
}

async function openGame(id, note = "") {
  try {
    show(await api("GET", `/v1/games/${encodeURIComponent(id)}`));
    message(note, true);
  } catch (error) {
    message(error.message);
    localStorage.removeItem("sanma-game-id");
  }
}

async function withConflictReload(action) {
  try {
    await action();
  } catch (error) {
    if (error.code === "seq_conflict") {
      await openGame(game.id);
      message(t("conflict"));
    } else {
      message(error.message);
    }
  }
}

function leave() {
  game = null;
  block = null;
  carriedRules = null;
  localStorage.removeItem("sanma-game-id");
  history.replaceState(null, "", location.pathname);
  $("#table").hidden = true;
  $("#start").hidden = false;
  message("");
}

function showPreset() {
  // the chosen system's seats, and its own points and uma in the rule fields
  const form = $("#new-game");
  const preset = PRESETS[form.preset.value];
  $$("#new-game .four-only").forEach((el) => { el.hidden = preset.seats !== 4; });
  $$("#new-game .sanma-only").forEach((el) => { el.hidden = preset.seats !== 3; });
  $("#role-pick").hidden = preset.seats !== 3 || !form.ability.checked;
  ["start_points", "return_points", "uma"].forEach((name) => { form[name].value = preset[name]; });
}

async function createBlock(form, rules, players) {
  // POST /v1/blocks: the block's first hanchan, with the roles and who chose first
  const body = { rules, roles: [form.role0.value, form.role1.value, form.role2.value] };
  if (players.some((n) => n)) body.players = players;
  body.chooses_first = seatNames()[Number(form.chooses_first.value)];
  const made = await api("POST", "/v1/blocks", body);
  block = made;
  blockReadFor = `${made.games[0].id}:false`;
  show(await api("GET", `/v1/games/${made.games[0].id}`));
  message(t("blockStarted"), true);
}

function init() {
  $("#lang").addEventListener("click", () => {
    Lang.set(Lang.other());
    applyLanguage();
  });
  $('.player-checks[data-name="riichi"]').addEventListener("change", updateCameraLinks);
  $('.player-checks[data-name="byakko"]').addEventListener("change", updateCameraLinks);
  $("#add-kanpa").addEventListener("click", addKanpa);
  $$(".role-select").forEach((select, k) => {
    select.replaceChildren(...ROLES.map((r) => new Option(roleName(r), r)));
    select.value = ["seiryuu", "suzaku", "byakko"][k];
  });
  $("#new-game").ability.addEventListener("change", (e) => { $("#role-pick").hidden = !e.target.checked; });
  ["p0", "p1", "p2"].forEach((name) => $("#new-game")[name].addEventListener("input", showChoosers));
  $("#new-game").chooses_first.addEventListener("change", showChoosers);
  $("#new-game").roles_may_repeat.addEventListener("change", showTakenRoles);
  $$("#role-order .role-select").forEach((select) => select.addEventListener("change", showTakenRoles));
  $("#new-game").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = e.target;
    const preset = form.preset.value;
    const seats = PRESETS[preset].seats;
    const players = [form.p0, form.p1, form.p2, form.p3].slice(0, seats).map((i) => i.value.trim());
    const ability = seats === 3 && form.ability.checked;
    const rules = { ...(ability && carriedRules ? carriedRules : {}), preset, double_ron_honba: form.double_ron_honba.value };
    if (seats === 3) rules.aka_5man = form.aka.checked;
    if (ability) rules.roles_may_repeat = form.roles_may_repeat.checked;
    // numbers as typed (the server checks them and says what is wrong); empty = the default
    ["start_points", "return_points", "uma"].forEach((name) => {
      if (form[name].value.trim() !== "") rules[name] = Number(form[name].value);
    });
    try {
      if (ability && form.block.checked) {
        await createBlock(form, rules, players);
        return;
      }
      const body = { rules };
      if (ability) {
        body.rules.ability = true;
        body.roles = [form.role0.value, form.role1.value, form.role2.value];
      }
      if (players.some((n) => n)) body.players = players;
      show(await api("POST", "/v1/games", body));
      message("");
    } catch (error) {
      message(error.message);
    }
  });
  $('#new-game [name="preset"]').addEventListener("change", () => {
    carriedRules = null;
    showPreset();
  });
  $("#import").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    try {
      let data;
      try { data = JSON.parse(await file.text()); } catch (_) { throw new Error(t("badFile")); }
      show(await api("POST", "/v1/games/import", data));
      message("");
    } catch (error) {
      message(error.message);
    } finally {
      e.target.value = "";
    }
  });
  $("#open-game").addEventListener("submit", (e) => {
    e.preventDefault();
    openGame(e.target.id.value.trim());
  });
  const double = document.createElement("button");
  double.type = "button";
  double.id = "double-ron";
  double.className = "secondary";
  double.dataset.t = "doubleRon";
  double.addEventListener("click", toggleDoubleRon);
  $("#wins").before(double);
  addWin();
  $$('#hand input[name="outcome"]').forEach((r) => r.addEventListener("change", showOutcome));
  showOutcome();
  $("#hand").addEventListener("submit", (e) => {
    e.preventDefault();
    withConflictReload(async () => {
      const body = handBody();
      show(await api("POST", `/v1/games/${game.id}/hands`, body));
      resetForm();
      message(t("recorded"), true);
    });
  });
  $("#undo").addEventListener("click", () => withConflictReload(async () => {
    show(await api("POST", `/v1/games/${game.id}/undo`, { seq: game.seq }));
    message(t("undone"), true);
  }));
  $("#leave").addEventListener("click", leave);
  $("#to-block").addEventListener("click", () => $("#block").scrollIntoView());
  $("#next-game").addEventListener("submit", nextHanchan);
  $("#open-latest").addEventListener("click", () => openGame(block.games[block.games.length - 1].id));
  $("#new-block").addEventListener("click", startNextBlock);
  window.addEventListener("hashchange", () => {
    const wanted = location.hash.slice(1);
    if (/^[0-9a-f]{32}$/.test(wanted) && (!game || game.id !== wanted)) openGame(wanted);
  });
  applyLanguage();
  const id = location.hash.slice(1) || localStorage.getItem("sanma-game-id");
  // back from the camera page after recording a hand there: say so
  const recorded = sessionStorage.getItem("sanma.flash") === "recorded";
  sessionStorage.removeItem("sanma.flash");
  if (id && /^[0-9a-f]{32}$/.test(id)) openGame(id, recorded ? t("recorded") : "");
}

init();
