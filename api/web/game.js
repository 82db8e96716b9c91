// Scoreboard page: keeps a hanchan through /v1/games (api/games.py). No external requests.
"use strict";

const TEXT = {
  ja: {
    title: "点数表", newGame: "新しい半荘", seatE: "起家 (東)", seatS: "南家", seatW: "西家",
    aka5man: "赤五萬ルール", moreRules: "ルール詳細", startPoints: "配給原点", returnPoints: "返し",
    uma: "ウマ", doubleRonHonba: "ダブロンの積み棒", honbaEach: "両者に付く", honbaFirst: "上家のみ",
    start: "開始", gameId: "対局 ID", open: "開く", honba: "本場",
    deposits: "供託", enterHand: "局の結果", ron: "ロン", tsumo: "ツモ", draw: "流局",
    chombo: "錯和", discarder: "放銃者", tenpai: "聴牌", nagashi: "流し役満",
    nagashiDouble: "(ダブリー)", notenRiichi: "ノー聴立直", offender: "錯和した人",
    riichi: "立直", aka5manBy: "赤五萬を抜いた人", record: "記録", undo: "一局戻す",
    export: "書き出し (JSON)", leave: "別の対局", settlement: "精算", rank: "順位",
    name: "名前", score: "点数", points: "ポイント", log: "記録", winner: "和了者",
    hanFu: "翻・符", limit: "満貫以上", handJson: "手牌", han: "翻", fu: "符",
    mangan: "満貫", haneman: "跳満", baiman: "倍満", sanbaiman: "三倍満", yakuman: "役満",
    photo: "写真から読む", doubleRon: "ダブロン", more: "その他 (誤碰・真似満)", misCall: "誤碰・誤吃",
    manemann: "真似満", copied: "← 真似された人", turns: "巡", transfers: "点数の移動",
    import: "書き出したファイルを読み込む", badFile: "JSON ファイルが読めません", dealer: "親", finished: "終局",
    round: (w, n) => `${w === "E" ? "東" : "南"}${n}局`, none: "—", saved: "記録しました",
    honbaN: (n) => `${n}本場`, value: (han, fu) => `${han}翻${fu ? fu + "符" : ""}`,
    undone: "一局戻しました", reading: "写真を読んでいます…", read: "写真から手牌を読みました",
    conflict: "他の端末で更新されました。最新の状態を表示します。",
    winds: { E: "東", S: "南", W: "西" },
    reasons: {
      ron: "ロン", tsumo: "ツモ", deposits: "供託", riichi: "立直棒", noten: "ノー聴罰符",
      nagashi: "流し役満", manemann: "真似満", chombo: "錯和", aka5man_mangan: "赤五萬満貫払い",
      mis_call: "誤碰", deposits_to_top: "供託→トップ",
    },
    breakdown: "素点 / オカ / ウマ / 飛び賞 / 役満祝儀", bust: "飛び", badHand: "手牌の JSON が読めません",
  },
  en: {
    title: "Scoreboard", newGame: "New hanchan", seatE: "First dealer (East)", seatS: "South",
    seatW: "West", aka5man: "Aka-5-man option", moreRules: "More rules",
    startPoints: "Start points", returnPoints: "Return points", uma: "Uma",
    doubleRonHonba: "Honba on a double ron", honbaEach: "to each winner",
    honbaFirst: "to the first winner only", start: "Start", gameId: "Game ID", open: "Open",
    honba: "Honba", deposits: "Deposits", enterHand: "Hand result", ron: "Ron", tsumo: "Tsumo",
    draw: "Draw", chombo: "Chombo", discarder: "Discarder", tenpai: "Tenpai",
    nagashi: "Nagashi yakuman", nagashiDouble: "(double riichi)", notenRiichi: "No-ten riichi",
    offender: "Offender", riichi: "Riichi", aka5manBy: "Aka-5-man extracted by",
    record: "Record", undo: "Undo last hand", export: "Export (JSON)", leave: "Other game",
    settlement: "Settlement", rank: "Rank", name: "Name", score: "Score", points: "Points",
    log: "Hands", winner: "Winner", hanFu: "Han / fu", limit: "Limit", handJson: "Hand",
    han: "han", fu: "fu", mangan: "Mangan", haneman: "Haneman", baiman: "Baiman",
    sanbaiman: "Sanbaiman", yakuman: "Yakuman", photo: "Read from photo", doubleRon: "Double ron",
    more: "More (mis-call, manemann)", misCall: "Mis-call", manemann: "Manemann",
    copied: "copying", turns: "turns", transfers: "Transfers",
    import: "Import an exported file", badFile: "The file is not JSON",
    dealer: "dealer", finished: "Game over",
    round: (w, n) => `${w === "E" ? "East" : "South"} ${n}`, none: "—", saved: "Recorded",
    honbaN: (n) => `${n} honba`, value: (han, fu) => `${han} han${fu ? ` ${fu} fu` : ""}`,
    undone: "Last hand undone", reading: "Reading the photo…", read: "Hand read from the photo",
    conflict: "The game changed on another device; showing the latest state.",
    winds: { E: "E", S: "S", W: "W" },
    reasons: {
      ron: "ron", tsumo: "tsumo", deposits: "deposits", riichi: "riichi stick",
      noten: "no-ten payment", nagashi: "nagashi yakuman", manemann: "manemann",
      chombo: "chombo", aka5man_mangan: "aka-5-man mangan", mis_call: "mis-call",
      deposits_to_top: "deposits to top",
    },
    breakdown: "base / oka / uma / bust / yakuman", bust: "bust", badHand: "The hand JSON cannot be read",
  },
};

let lang = localStorage.getItem("sanma-lang") ||
  ((navigator.language || "ja").startsWith("ja") ? "ja" : "en");
let game = null;
const $ = (sel, root = document) => root.querySelector(sel);
const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];
const t = (key) => TEXT[lang][key] ?? key;
const fmt = (n) => n.toLocaleString("en-US");
const signed = (n) => (n > 0 ? "+" : "") + fmt(n);

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
  const response = await fetch(path, options);
  let data = null;
  try { data = await response.json(); } catch (_) { data = null; }
  if (!response.ok) {
    const error = new Error(data && data.error
      ? `${data.error.message} (${data.error.code})` : `HTTP ${response.status}`);
    error.code = data && data.error ? data.error.code : "";
    throw error;
  }
  return data;
}

function applyLanguage() {
  document.documentElement.lang = lang;
  $$("[data-t]").forEach((el) => { el.textContent = t(el.dataset.t); });
  $("#lang").textContent = lang === "ja" ? "EN" : "日本語";
  if (game) render();
}

// ------------------------------------------------------------------ showing the game

function playerName(p) { return p === null || p === undefined ? t("deposits") : game.players[p].name; }

function render() {
  $("#start").hidden = true;
  $("#table").hidden = false;
  $("#game-id").textContent = game.id;
  $("#round").textContent = game.finished ? t("finished") : t("round")(game.round_wind, +game.round[1]);
  $("#honba").textContent = game.honba;
  $("#deposits").textContent = fmt(game.deposits);
  const list = $("#players");
  list.replaceChildren(...game.players.map((p) => {
    const li = document.createElement("li");
    li.className = p.dealer && !game.finished ? "dealer" : "";
    li.innerHTML = '<span class="wind"></span><span class="name"></span><span class="score"></span>';
    $(".wind", li).textContent = t("winds")[p.seat];
    $(".name", li).textContent = p.name + (p.dealer && !game.finished ? ` (${t("dealer")})` : "");
    $(".score", li).textContent = fmt(p.score);
    if (p.score < 0) $(".score", li).classList.add("negative");
    return li;
  }));
  $("#hand").hidden = game.finished;
  $("#undo").disabled = game.hand_count === 0;
  $("#export").href = `/v1/games/${game.id}/export`;
  fillPlayerControls();
  renderLog();
  renderSettlement();
}

function describeHand(hand) {
  const r = hand.result;
  const parts = [];
  const value = (w) => (w.limit ? ` ${t(w.limit)}` : w.han ? ` ${t("value")(w.han, w.fu)}` : "");
  if (r.outcome === "ron") {
    r.wins.forEach((w) => parts.push(
      `${t("ron")}: ${playerName(w.winner)} ← ${playerName(r.discarder)}${value(w)}`));
  } else if (r.outcome === "tsumo") {
    const w = r.wins[0];
    parts.push(`${t("tsumo")}: ${playerName(w.winner)}${value(w)}`);
  } else if (r.outcome === "draw") {
    parts.push(`${t("draw")}: ${t("tenpai")} ${r.tenpai.map(playerName).join(", ") || t("none")}`);
  } else {
    parts.push(`${t("chombo")}: ${r.offenders.map(playerName).join(", ")}`);
  }
  return parts.join(" / ");
}

function renderLog() {
  const log = $("#log");
  log.replaceChildren(...game.hands.slice().reverse().map((hand) => {
    const li = document.createElement("li");
    const head = document.createElement("div");
    head.textContent = `${hand.number}. ${t("round")(hand.round[0], +hand.round[1])} ` +
      `${t("honbaN")(hand.honba)} — ` +
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
        `(${t("reasons")[x.reason] || x.reason})`;
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
    const tr = document.createElement("tr");
    const cells = [s.rank, s.name, fmt(s.score), signed(s.total)];
    cells.forEach((c, i) => {
      const td = document.createElement("td");
      td.textContent = c;
      if (i !== 1) td.className = "num";
      tr.append(td);
    });
    tr.title = `${t("breakdown")}: ${s.base} / ${s.oka} / ${s.uma} / ${s.bust} / ${s.yakuman}`;
    return tr;
  });
  $("tbody", section).replaceChildren(...rows);
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
}

let winCount = 0;

function addWin() {
  const node = $("#win-template").content.firstElementChild.cloneNode(true);
  const id = ++winCount;
  $$(".value-modes input", node).forEach((radio) => {
    radio.name = `mode-${id}`;
    radio.addEventListener("change", () => showMode(node));
  });
  $("input[type=file]", node).addEventListener("change", (e) => readPhoto(node, e.target));
  $$("[data-t]", node).forEach((el) => { el.textContent = t(el.dataset.t); });
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
  $$("#hand [data-for]").forEach((el) => { el.hidden = !el.dataset.for.split(" ").includes(outcome); });
  const wins = $$("#wins .win");
  $("#double-ron").hidden = outcome !== "ron";
  if (outcome !== "ron" && wins.length > 1) wins.slice(1).forEach((w) => w.remove());
}

function toggleDoubleRon() {
  const wins = $$("#wins .win");
  if (wins.length > 1) wins[1].remove();
  else addWin();
  $("#double-ron").classList.toggle("secondary", $$("#wins .win").length === 1);
}

async function readPhoto(node, input) {
  if (!input.files.length) return;
  const data = new FormData();
  data.append("image", input.files[0]);
  message(t("reading"), true);
  try {
    const response = await fetch("/v1/recognize", { method: "POST", body: data });
    const body = await response.json();
    if (!response.ok) throw new Error(body.error ? `${body.error.message} (${body.error.code})` : `HTTP ${response.status}`);
    $("textarea", node).value = JSON.stringify(body.hand);
    $('.value-modes input[value="hand"]', node).checked = true;
    showMode(node);
    message(t("read") + (body.warnings && body.warnings.length ? `: ${body.warnings.join("; ")}` : ""), true);
  } catch (error) {
    message(error.message);
  } finally {
    input.value = "";
  }
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
  } else if (mode === "limit") {
    win.limit = $('[name="limit"]', node).value;
    if (win.limit === "yakuman") win.yakuman_multiple = Number($('[name="multiple"]', node).value);
  } else {
    try { win.hand = JSON.parse($("textarea", node).value); } catch (_) { throw new Error(t("badHand")); }
  }
  return win;
}

function handBody() {
  const form = $("#hand");
  const outcome = form.outcome.value;
  const body = { outcome, seq: game.seq };
  if (outcome !== "chombo") {
    body.riichi = checked("riichi");
    body.mis_calls = checked("mis_calls");
    if (game.rules.aka_5man && form.aka5man.value !== "") body.aka5man = Number(form.aka5man.value);
    if (form.copier.value !== "" && form.copied.value !== "") {
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
    body.nagashi = checked("nagashi").map((p) => ({ player: p, double_riichi: doubles.has(p) }));
    body.noten_riichi = checked("noten_riichi");
  } else {
    body.offenders = [Number(form.offender.value)];
  }
  return body;
}

function resetForm() {
  $$("#hand .player-checks input").forEach((i) => { i.checked = false; });
  ["aka5man", "copier", "copied"].forEach((name) => { $("#hand")[name].value = ""; });
  $("#more").open = false;
  $$("#wins textarea").forEach((a) => { a.value = ""; });
}

// ------------------------------------------------------------------ actions

function show(data) {
  game = data;
  localStorage.setItem("sanma-game-id", game.id);
  if (location.hash !== `#${game.id}`) history.replaceState(null, "", `#${game.id}`);
  render();
}

async function openGame(id) {
  try {
    show(await api("GET", `/v1/games/${encodeURIComponent(id)}`));
    message("");
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

function init() {
  $("#lang").addEventListener("click", () => {
    lang = lang === "ja" ? "en" : "ja";
    localStorage.setItem("sanma-lang", lang);
    applyLanguage();
  });
  $("#new-game").addEventListener("submit", async (e) => {
    e.preventDefault();
    const form = e.target;
    const players = [form.p0.value, form.p1.value, form.p2.value].map((n) => n.trim());
    const body = { rules: { aka_5man: form.aka.checked, double_ron_honba: form.double_ron_honba.value } };
    // numbers as typed (the server checks them and says what is wrong); empty = the default
    ["start_points", "return_points", "uma"].forEach((name) => {
      if (form[name].value.trim() !== "") body.rules[name] = Number(form[name].value);
    });
    if (players.some((n) => n)) body.players = players;
    try { show(await api("POST", "/v1/games", body)); message(""); } catch (error) { message(error.message); }
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
      message(t("saved"), true);
    });
  });
  $("#undo").addEventListener("click", () => withConflictReload(async () => {
    show(await api("POST", `/v1/games/${game.id}/undo`, { seq: game.seq }));
    message(t("undone"), true);
  }));
  $("#leave").addEventListener("click", () => {
    game = null;
    localStorage.removeItem("sanma-game-id");
    history.replaceState(null, "", location.pathname);
    $("#table").hidden = true;
    $("#start").hidden = false;
  });
  window.addEventListener("hashchange", () => {
    const wanted = location.hash.slice(1);
    if (/^[0-9a-f]{32}$/.test(wanted) && (!game || game.id !== wanted)) openGame(wanted);
  });
  applyLanguage();
  const id = location.hash.slice(1) || localStorage.getItem("sanma-game-id");
  if (id && /^[0-9a-f]{32}$/.test(id)) openGame(id);
}

init();
