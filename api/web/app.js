// sanma-lens camera page: photo → tiles (every one listed, each correctable) → situation →
// the score in the table's words → recorded in the running game. No build step, no external
// requests: it talks only to this server's /v1 API. Words: text.js (one table, both pages).
"use strict";

const HONOR = { en: ["E", "S", "W", "N", "Wh", "G", "R"], ja: ["東", "南", "西", "北", "白", "發", "中"] };
const SUIT = { en: { m: "m", p: "p", s: "s" }, ja: { m: "萬", p: "筒", s: "索" } };
// The groups a tile can be in on this page; "other" is a tile seen but not counted.
// "extra": ability mahjong's seiryuu, its next kan-dora indicator and that one's ura.
const GROUPS = ["hand", "win", "meld", "kita", "dora", "ura", "extra", "other"];
const MELD_KINDS = ["pon", "minkan", "kakan", "ankan"]; // and "chi" for a suzaku
const S_YAKU = ["ippatsu", "haitei", "houtei", "rinshan", "kanburi", "chankan", "tenhou", "chihou", "renhou"];
// Flags of one hand: every new photo starts them afresh (seat, round, honba, deposits stay).
const PER_HAND = { tsumo: false, riichi: "none", discarder_riichi: false, aka5man_as: null,
  ...Object.fromEntries(S_YAKU.map((k) => [k, false])) };
// A tile the camera read with less confidence than this is marked "?" until the player confirms it.
const UNSURE = 0.5;
// The tile picker: five to a row, so that every tile is a 44 px target on a 360 px phone.
const PALETTE = [
  ["1p", "2p", "3p", "4p", "5p"], ["0p", "6p", "7p", "8p", "9p"],
  ["1s", "2s", "3s", "4s", "5s"], ["0s", "6s", "7s", "8s", "9s"],
  ["1m", "9m", "0m", "1z", "2z"], ["3z", "4z", "5z", "6z", "7z"],
];

// ---------- state ----------
const S = {
  items: [], // {tile, group, meld (index or null), box ([x1,y1,x2,y2] or null), alts, unsure}
  melds: [], // {kind}
  photo: null, // {url, w, h}
  warnings: [], // [{message, detail}]
  sheet: null, // {mode: "edit", i} | {mode: "add", group, meld}
  sit: { ...PER_HAND, seat: "S", round: "E", honba: 0, deposits: 0, aka_5man: false },
  last: null, // {kind: "result"|"tenpai"|"error", body}
  game: null, // the running game (GET /v1/games/{id}) when opened from the scoreboard
  play: { mode: "win", player: null, discarder: null, riichi: [], draw: {} },
};
let seq = 0; // guards against out-of-order answers

const $ = (id) => document.getElementById(id);
const t = tr;
const L = () => (Lang.ja() ? "ja" : "en");
const el = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) if (kid !== "" && kid !== null) node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  return node;
};

// ---------- tiles and MPSZ ----------
const num = (tile) => tile[0];
const suit = (tile) => tile[1];
const plain = (tile) => (num(tile) === "0" ? (suit(tile) === "m" ? "4z" : "5" + suit(tile)) : tile);
const sortKey = (tile) => {
  if (tile === "back") return 99;
  const order = { m: 0, p: 1, s: 2, z: 3 }[suit(tile)];
  const n = num(tile) === "0" ? (suit(tile) === "m" ? 4.5 : 5.5) : Number(num(tile));
  return order * 10 + n;
};

function parseMpsz(text) {
  // "23455p678s11z" → ["2p","3p",…]; throws on anything else.
  const out = [];
  let digits = "";
  for (const ch of text.replace(/\s+/g, "")) {
    if (/[0-9]/.test(ch)) digits += ch;
    else if ("mpsz".includes(ch)) {
      if (!digits) throw new Error(t("type_no_digits", ch));
      for (const d of digits) out.push(d + ch);
      digits = "";
    } else throw new Error(t("type_bad_char", ch));
  }
  if (digits) throw new Error(t("type_no_suit", digits));
  return out;
}

function toMpsz(tiles) {
  const sorted = tiles.filter((x) => x !== "back").sort((a, b) => sortKey(a) - sortKey(b));
  let out = "";
  for (const s of "mpsz") {
    const nums = sorted.filter((x) => suit(x) === s).map(num).join("");
    if (nums) out += nums + s;
  }
  return out;
}

function tileFace(tile) {
  // A tile drawn with text and CSS: number + suit, honours as kanji/letters, red fives red.
  if (tile === "back") return el("span", { class: "face back" });
  const n = num(tile), s = suit(tile);
  const red = n === "0";
  const cls = `face s-${s}${red ? " red" : ""}`;
  if (s === "z") return el("span", { class: `${cls} z${n}` }, el("b", {}, HONOR[L()][Number(n) - 1]));
  if (tile === "0m") return el("span", { class: cls }, el("b", {}, "5"), el("i", {}, SUIT[L()].m));
  return el("span", { class: cls }, el("b", {}, red ? "5" : n), el("i", {}, SUIT[L()][s]));
}

function tileName(tile) {
  if (tile === "back") return "■";
  if (tile === "0m") return Lang.ja() ? "赤五萬" : "aka 5m";
  if (suit(tile) === "z") return HONOR[L()][Number(num(tile)) - 1];
  const n = num(tile) === "0" ? "5" : num(tile);
  const red = num(tile) === "0" ? (Lang.ja() ? "赤" : "red ") : "";
  return Lang.ja() ? `${red}${n}${SUIT.ja[suit(tile)]}` : `${red}${n}${suit(tile)}`;
}

const windName = (w) => t(`wind_${w}`);

// ---------- the hand JSON built from the items ----------
function meldString(m) {
  const tiles = S.items.filter((it) => it.group === "meld" && it.meld === m).map((it) => it.tile);
  const faces = tiles.filter((x) => x !== "back");
  if (!faces.length) return null;
  const filled = tiles.map((x) => (x === "back" ? plain(faces[0]) : x));
  return `${S.melds[m].kind}:${toMpsz(filled)}`;
}

const of = (g) => S.items.filter((it) => it.group === g).map((it) => it.tile);
const hasOpenMeld = () => S.melds.some((md, m) => md.kind !== "ankan" && S.items.some((it) => it.group === "meld" && it.meld === m));
const hasKanOrKita = () => S.melds.some((md) => md.kind !== "pon") || of("kita").length > 0;

function handRules() {
  // At a game's table its own rules (its preset, e.g. a four-player ECIP game); else sanma.
  const g = S.game;
  if (!g) return { preset: "sanma-1.3", aka_5man: S.sit.aka_5man };
  return { ...g.rules.hand_rules, preset: g.rules.preset, aka_5man: g.rules.aka_5man };
}

const seatsOf = () => (S.game ? S.game.players.map((_, p) => p) : [0, 1, 2]);

// ---------- ability mahjong: the winner's role and its facts, from the game ----------
const roleOf = (p) => (S.game && S.game.rules.ability && p !== null ? S.game.players[p].role : null);
const winnerRole = () => roleOf(S.play.player);
const meldKinds = () => (winnerRole() === "suzaku" ? [...MELD_KINDS, "chi"] : MELD_KINDS);

function declaredByakko() {
  return (params.get("byakko") || "").split(",").filter((x) => /^[0-2]$/.test(x)).map(Number);
}

function kanpaEntries() {
  // "by:target:tile,…" as the scoreboard passes them, in the order they were made
  return (params.get("kanpa") || "").split(",").map((x) => x.split(":"))
    .filter((k) => k.length === 3 && /^[0-2]$/.test(k[0]) && /^[0-2]$/.test(k[1]) && /^[1-9][mpsz]$/.test(k[2]))
    .map(([by, target, tile]) => ({ by: Number(by), target: Number(target), tile }));
}

function roleFields(obj) {
  // The hand JSON's role fields for the winner chosen in the game panel (the game fills
  // them again when the hand is recorded; here they make the score shown the right one).
  const p = S.play.player;
  const role = roleOf(p);
  if (!role) return;
  obj.role = role;
  if (role === "byakko") obj.byakko_declared = declaredByakko().includes(p);
  const on = kanpaEntries().filter((k) => k.target === p);
  if (on.length) obj.kanpa = on[on.length - 1].tile;
  if (!S.sit.tsumo && S.play.discarder !== null && roleOf(S.play.discarder) === "genbu") obj.discarder_genbu = true;
  if (role === "seiryuu") obj.extra_dora = of("extra").filter((x) => x !== "back");
}

function abilityBody(body) {
  // What the scoreboard said of this hand: the byakko's declarations and the kanpa.
  if (!S.game || !S.game.rules.ability) return body;
  const out = { ...body, byakko_declared: declaredByakko() };
  if (body.outcome !== "chombo") out.kanpa = kanpaEntries();
  return out;
}

function handJson() {
  const wins = of("win");
  const kita = of("kita");
  const sit = S.sit;
  const obj = {
    hand: toMpsz(of("hand")),
    melds: S.melds.map((_, m) => meldString(m)).filter(Boolean),
    kita: kita.length,
    kita_aka: kita.filter((x) => x === "0m").length,
    dora: of("dora").filter((x) => x !== "back"),
    ura: of("ura").filter((x) => x !== "back"),
    tsumo: sit.tsumo, seat: sit.seat, round: sit.round, riichi: sit.riichi,
    honba: sit.honba, deposits: sit.deposits, discarder_riichi: sit.discarder_riichi,
    rules: handRules(),
  };
  if (wins.length) obj.win = wins[0];
  for (const k of S_YAKU) if (sit[k]) obj[k] = true;
  if (sit.aka5man_as) obj.aka5man_as = sit.aka5man_as;
  roleFields(obj);
  return obj;
}

// ---------- which flags can apply (the engine refuses the others) ----------
function canApply(key) {
  const sit = S.sit;
  const riichi = sit.riichi !== "none";
  const dealer = sit.seat === "E";
  const firstTurn = !riichi && !hasOpenMeld();
  switch (key) {
    case "riichi": return !hasOpenMeld() && !(sit.tenhou || sit.chihou || sit.renhou);
    case "ippatsu": return riichi;
    case "haitei": return sit.tsumo;
    case "rinshan": return sit.tsumo && hasKanOrKita();
    case "houtei": case "chankan": return !sit.tsumo;
    case "kanburi": return !sit.tsumo;
    case "tenhou": return sit.tsumo && dealer && firstTurn;
    case "chihou": return sit.tsumo && !dealer && firstTurn;
    case "renhou": return !sit.tsumo && !dealer && firstTurn;
    case "discarder_riichi": return !sit.tsumo;
    case "aka5man_as": return !sit.tsumo && of("win")[0] === "0m";
    default: return true;
  }
}

function dropInapplicable() {
  // A flag that can no longer apply (riichi after a pon is added, haitei on a ron) is cleared.
  if (S.sit.riichi !== "none" && !canApply("riichi")) S.sit.riichi = "none";
  for (const k of [...S_YAKU, "discarder_riichi"]) if (S.sit[k] && !canApply(k)) S.sit[k] = false;
  if (S.sit.aka5man_as && !canApply("aka5man_as")) S.sit.aka5man_as = null;
}

function resetHand() {
  // A new photo is a new hand: its flags start afresh; seat, round, honba, deposits stay, and
  // so does who declared riichi as the scoreboard said.
  Object.assign(S.sit, PER_HAND);
  if (!S.game) return;
  S.play.riichi = startRiichi();
  S.play.draw = S.play.mode === "draw" ? S.play.draw : {};
  applyGame();
}

function startRiichi() {
  return (params.get("riichi") || "").split(",").filter((x) => /^[0-2]$/.test(x)).map(Number);
}

// ---------- API ----------
async function api(path, init) {
  let r;
  try { r = await fetch(path, init); } catch {
    return { ok: false, status: 0, body: { error: { code: "offline", message: "no connection" } } };
  }
  let body;
  try { body = await r.json(); } catch { body = { error: { code: "bad_response", message: `HTTP ${r.status}` } }; }
  return { ok: r.ok, status: r.status, body };
}

// A refusal on a status line: the phrase, and on an English page the server's detail.
function errorLine(error) {
  const detail = errorDetail(error);
  return `${t("error")}: ${errorText(error)}${detail ? ` (${detail})` : ""}`;
}

const postJson = (path, obj) => api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(obj) });

async function rescore() {
  if (typeof keepChanged === "function") keepChanged(); // keep.js: a kept photo follows its corrections
  dropInapplicable();
  renderSituation();
  renderTiles();
  const hand = handJson();
  const my = ++seq;
  if (!hand.hand && !hand.melds.length) { S.last = null; renderResult(); return; }
  const res = hand.win ? await postJson("/v1/score?explain=true", hand) : await postJson("/v1/tenpai", hand);
  if (my !== seq) return;
  S.last = res.ok ? { kind: hand.win ? "result" : "tenpai", body: res.body } : { kind: "error", body: res.body };
  noteDrawCheck();
  renderResult();
  if (res.ok && !hand.win && res.body.tenpai) await priceWaits(hand, res.body, my);
}

async function priceWaits(hand, tenpai, my) {
  // The value of each wait: the hand scored with that winning tile (ron or tsumo as set).
  const scored = await Promise.all(tenpai.waits.map((w) => postJson("/v1/score", { ...hand, win: w.tile })));
  if (my !== seq) return;
  tenpai.waits.forEach((w, k) => { w.value = scored[k].ok ? scored[k].body : null; });
  renderResult();
}

const MAX_SIDE = 2560; // phone photos are shrunk before upload: faster, and plenty for the model

async function shrink(file) {
  // Upright (EXIF applied) JPEG of at most MAX_SIDE pixels; the original if it is small or
  // the browser cannot decode it here (the server then answers for it).
  try {
    const bmp = await createImageBitmap(file);
    const s = MAX_SIDE / Math.max(bmp.width, bmp.height);
    if (s >= 1) { bmp.close(); return file; }
    const c = document.createElement("canvas");
    c.width = Math.round(bmp.width * s);
    c.height = Math.round(bmp.height * s);
    c.getContext("2d").drawImage(bmp, 0, 0, c.width, c.height);
    bmp.close();
    const blob = await new Promise((done) => c.toBlob(done, "image/jpeg", 0.92));
    return blob ? new File([blob], "photo.jpg", { type: "image/jpeg" }) : file;
  } catch {
    return file;
  }
}

async function uploadPhoto(original) {
  if (!original) return;
  const status = $("photo-status");
  status.textContent = t("uploading");
  status.className = "status busy";
  resetHand();
  S.items = S.items.filter((it) => it.group !== "ura");
  renderSituation();
  const file = await shrink(original);
  if (S.photo) URL.revokeObjectURL(S.photo.url);
  const url = URL.createObjectURL(file);
  const form = new FormData();
  form.append("image", file);
  const sit = handJson();
  for (const k of ["hand", "win", "melds", "kita", "kita_aka", "dora"]) delete sit[k];
  form.append("situation", JSON.stringify(sit));
  const res = await api("/v1/photo/score?explain=true", { method: "POST", body: form });
  if (!res.ok) {
    URL.revokeObjectURL(url);
    status.className = "status error";
    status.textContent = errorLine(res.body.error);
    return;
  }
  const img = new Image();
  img.onload = () => {
    S.photo = { url, w: img.naturalWidth, h: img.naturalHeight };
    S.fullPhoto = false;
    loadRecognition(res.body);
    status.className = "status";
    status.textContent = t("tiles_found", res.body.tiles.length);
    if (typeof keepNewPhoto === "function") keepNewPhoto(file); // keep.js: the opt-in to keep it
  };
  img.src = url;
}

function loadRecognition(body) {
  // Items from the detections (left to right); melds from the recognized meld strings.
  S.melds = (body.hand.melds || []).map((ms) => ({ kind: ms.split(":")[0], tiles: parseSafe(ms.split(":")[1]) }));
  const dets = [...body.tiles].sort((a, b) => a.box[0] - b.box[0]);
  S.items = dets.map((d) => ({
    tile: d.tile, group: GROUPS.includes(d.group) ? d.group : "other", meld: null, box: d.box, angle: d.angle,
    alts: (d.alternatives || []).map((a) => a.tile), unsure: d.confidence < UNSURE,
  }));
  const room = S.melds.map((m) => [...m.tiles]);
  for (const it of S.items.filter((x) => x.group === "meld")) {
    let m = room.findIndex((r) => r.some((x) => plain(x) === plain(it.tile)));
    if (it.tile === "back") m = S.melds.findIndex((md) => md.kind === "ankan");
    if (m < 0) m = Math.max(0, S.melds.length - 1);
    if (!S.melds.length) S.melds.push({ kind: "pon", tiles: [] });
    const k = room[m] ? room[m].findIndex((x) => plain(x) === plain(it.tile)) : -1;
    if (k >= 0) room[m].splice(k, 1);
    it.meld = m;
  }
  const details = body.warning_details || [];
  S.warnings = (body.warnings || []).map((message, i) => ({ message, detail: details[i] || null }));
  S.last = body.score ? { kind: body.score_kind, body: body.score }
    : body.score_error ? { kind: "error", body: { error: body.score_error } } : null;
  dropInapplicable();
  noteDrawCheck();
  renderAll();
}

function parseSafe(text) { try { return parseMpsz(text || ""); } catch { return []; } }

// ---------- editing ----------
function openSheet(sheet) { S.sheet = sheet; renderSheet(); renderTiles(); }
function closeSheet() { S.sheet = null; renderSheet(); renderTiles(); }

function pickTile(tile) {
  const sh = S.sheet;
  if (!sh) return;
  if (sh.mode === "edit") {
    Object.assign(S.items[sh.i], { tile, alts: [], unsure: false });
    closeSheet();
  } else {
    S.items.push({ tile, group: sh.group, meld: sh.meld ?? null, box: null });
    renderTiles();
  }
  renderOverlay();
  rescore();
}

function moveItem(i, group) {
  const it = S.items[i];
  if (group === "meld") {
    if (!S.melds.length) S.melds.push({ kind: "pon" });
    it.meld = S.melds.length - 1;
  } else it.meld = null;
  if (group === "win") for (const other of S.items) if (other !== it && other.group === "win") other.group = "hand";
  it.group = group;
  closeSheet();
  renderOverlay();
  rescore();
}

function deleteItem(i) {
  S.items.splice(i, 1);
  closeSheet();
  renderOverlay();
  rescore();
}

function applyTyped(ev) {
  ev.preventDefault();
  const err = $("type-error");
  err.textContent = "";
  try {
    const items = [];
    const add = (text, group, meld = null) => { for (const tile of parseMpsz(text)) items.push({ tile, group, meld, box: null }); };
    add($("t-hand").value, "hand");
    if (parseMpsz($("t-win").value).length > 1) throw new Error(t("type_one_win"));
    add($("t-win").value, "win");
    const melds = [];
    for (const word of $("t-melds").value.trim().split(/\s+/).filter(Boolean)) {
      const [kind, tiles] = word.split(":");
      if (!meldKinds().includes(kind) || !tiles) throw new Error(t("type_meld", word));
      melds.push({ kind });
      add(tiles, "meld", melds.length - 1);
    }
    add($("t-kita").value, "kita");
    add($("t-dora").value, "dora");
    S.items = [...items, ...S.items.filter((it) => it.group === "ura" || it.group === "extra")];
    S.melds = melds;
    S.warnings = [];
    $("type-box").open = false; // the typed hand is now in the tiles above
    renderAll();
    rescore();
  } catch (e) {
    err.textContent = e.message;
  }
}

// ---------- rendering: tiles ----------
function tileButton(it, i) {
  const selected = S.sheet && S.sheet.mode === "edit" && S.sheet.i === i;
  return el("button", {
    type: "button", class: `tile${selected ? " sel" : ""}${it.unsure ? " unsure" : ""}`, "data-i": i, "data-tile": it.tile,
    "aria-label": tileName(it.tile), onclick: () => openSheet({ mode: "edit", i }),
  }, tileFace(it.tile));
}

function addButton(group, meld = null) {
  return el("button", {
    type: "button", class: "tile add", "data-add": meld === null ? group : null, "aria-label": `${t("add")} ${t(`g_${group}`)}`,
    onclick: () => openSheet({ mode: "add", group, meld }),
  }, "+");
}

function meldRow(md, m) {
  const kind = el("select", { "aria-label": t("meld_kind"), onchange: (e) => { md.kind = e.target.value; rescore(); } },
    meldKinds().map((k) => el("option", { value: k, selected: k === md.kind }, t(`m_${k}`))));
  const strip = el("div", { class: "strip" }, kind);
  S.items.forEach((it, i) => { if (it.group === "meld" && it.meld === m) strip.append(tileButton(it, i)); });
  strip.append(addButton("meld", m));
  return strip;
}

function groupRow(g) {
  const strip = el("div", { class: "strip" });
  const idx = S.items.map((it, i) => [it, i]).filter(([it]) => it.group === g);
  if (g === "hand") idx.sort((a, b) => sortKey(a[0].tile) - sortKey(b[0].tile));
  for (const [it, i] of idx) strip.append(tileButton(it, i));
  if (g !== "other" && (g !== "win" || !idx.length)) strip.append(addButton(g));
  return strip;
}

function groupShown(g) {
  if (g === "ura") return S.sit.riichi !== "none" || of("ura").length > 0 || winnerRole() === "seiryuu";
  if (g === "extra") return winnerRole() === "seiryuu" || of("extra").length > 0;
  if (g === "other") return of("other").length > 0;
  return true;
}

function renderTiles() {
  const box = $("groups");
  box.replaceChildren();
  for (const g of GROUPS.filter(groupShown)) {
    const row = el("div", { class: `group g-${g}`, "data-group": g });
    const head = el("div", { class: "group-head" }, el("span", {}, t(`g_${g}`)));
    row.append(head);
    if (g === "meld") {
      head.append(el("button", {
        type: "button", class: "chip", "data-action": "new-meld",
        onclick: () => { S.melds.push({ kind: "pon" }); openSheet({ mode: "add", group: "meld", meld: S.melds.length - 1 }); },
      }, t("new_meld")));
      S.melds.forEach((md, m) => row.append(meldRow(md, m)));
    } else {
      if (g === "other") row.append(el("p", { class: "hint" }, t("other_hint")));
      row.append(groupRow(g));
    }
    box.append(row);
  }
  renderMpsz();
}

function renderMpsz() {
  const h = handJson();
  const parts = [h.hand || "—"];
  if (h.win) parts.push(`+ ${h.win}`);
  for (const m of h.melds) { const [kind, tiles] = m.split(":"); parts.push(`${t(`m_${kind}`)} ${tiles}`); }
  if (h.kita) parts.push(`${t("g_kita")} ${h.kita}`);
  if (h.dora.length) parts.push(`${t("dora_")} ${h.dora.join(" ")}`);
  $("mpsz-line").textContent = parts.join("  ");
}

// ---------- rendering: the photo and the correction sheet ----------
const SVG = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

function cropBox() {
  // The photo region holding the tiles (plus a margin), or the whole photo when zoomed out.
  const { w, h } = S.photo;
  const boxes = S.items.filter((it) => it.box).map((it) => it.box);
  if (S.fullPhoto || !boxes.length) return [0, 0, w, h];
  let x1 = Math.min(...boxes.map((b) => b[0])), y1 = Math.min(...boxes.map((b) => b[1]));
  let x2 = Math.max(...boxes.map((b) => b[2])), y2 = Math.max(...boxes.map((b) => b[3]));
  const m = 0.12 * Math.max(x2 - x1, y2 - y1) + 20;
  x1 = Math.max(0, x1 - m); y1 = Math.max(0, y1 - m * 1.2);
  x2 = Math.min(w, x2 + m); y2 = Math.min(h, y2 + m);
  const minH = (x2 - x1) * 0.35; // not thinner than a strip the eye can follow
  if (y2 - y1 < minH) { const c = (y1 + y2) / 2; y1 = Math.max(0, c - minH / 2); y2 = Math.min(h, c + minH / 2); }
  return [x1, y1, x2 - x1, y2 - y1];
}

function photoImage() {
  return svgEl("image", { href: S.photo.url, x: 0, y: 0, width: S.photo.w, height: S.photo.h });
}

function renderOverlay() {
  const view = $("photo-view");
  if (!S.photo) { view.hidden = true; return; }
  view.hidden = false;
  const svg = $("overlay");
  const [cx, cy, cw, ch] = cropBox();
  svg.setAttribute("viewBox", `${cx} ${cy} ${cw} ${ch}`);
  svg.style.aspectRatio = `${cw} / ${ch}`;
  svg.replaceChildren(photoImage());
  const scale = cw / 360;
  S.items.forEach((it, i) => {
    if (!it.box) return;
    const [x1, y1, x2, y2] = it.box;
    const g = svgEl("g", { class: `det g-${it.group}${it.unsure ? " unsure" : ""}${S.sheet && S.sheet.i === i ? " sel" : ""}`, "data-i": i });
    const r = svgEl("rect", { x: x1, y: y1, width: x2 - x1, height: y2 - y1, rx: 2 * scale, "stroke-width": 1.6 * scale });
    const label = svgEl("text", { x: (x1 + x2) / 2, y: y1 - 2 * scale, "font-size": Math.min(11 * scale, (x2 - x1) * 0.6), "text-anchor": "middle" });
    label.textContent = (it.tile === "back" ? "■" : it.tile) + (it.unsure ? "?" : "");
    g.append(r, label);
    g.addEventListener("click", () => openSheet({ mode: "edit", i }));
    svg.append(g);
  });
}

function cropView(box) {
  // The tapped tile enlarged from the photo, with a little of what lies around it.
  const [x1, y1, x2, y2] = box;
  const m = 0.35 * Math.max(x2 - x1, y2 - y1);
  const vx = Math.max(0, x1 - m), vy = Math.max(0, y1 - m);
  const vw = Math.min(S.photo.w, x2 + m) - vx, vh = Math.min(S.photo.h, y2 + m) - vy;
  const svg = svgEl("svg", { viewBox: `${vx} ${vy} ${vw} ${vh}`, class: "crop", role: "img", "aria-label": t("crop_of") });
  svg.append(photoImage(), svgEl("rect", { x: x1, y: y1, width: x2 - x1, height: y2 - y1, class: "crop-box", "stroke-width": Math.max(vw, vh) / 60 }));
  return svg;
}

function renderSheet() {
  const sheet = $("sheet");
  const sh = S.sheet;
  if (!sh) { sheet.hidden = true; renderOverlay(); return; }
  sheet.hidden = false;
  const item = sh.mode === "edit" ? S.items[sh.i] : null;
  $("sheet-title").textContent = item ? `${t("change_to")}: ${tileName(item.tile)}` : `${t("add_to")} ${t(`g_${sh.group}`)}`;
  $("sheet-crop").replaceChildren(...(item && item.box && S.photo ? [cropView(item.box)] : []));
  $("sheet-crop").hidden = !(item && item.box && S.photo);
  const moves = $("sheet-moves");
  moves.replaceChildren();
  if (item) {
    moves.append(el("span", { class: "moves-label" }, t("move_to")));
    for (const g of GROUPS.filter(groupShown)) {
      moves.append(el("button", {
        type: "button", class: `chip${g === item.group ? " on" : ""}`, "data-move": g, onclick: () => moveItem(sh.i, g),
      }, t(`g_${g}`)));
    }
    moves.append(el("button", { type: "button", class: "chip danger", "data-action": "delete", onclick: () => deleteItem(sh.i) }, t("del")));
  }
  // The camera's next-best readings first: most corrections are one of them.
  const likely = $("sheet-likely");
  const alts = item ? (item.alts || []) : [];
  likely.hidden = !alts.length;
  likely.replaceChildren(...(alts.length ? [el("span", { class: "moves-label" }, t("likely")),
    ...alts.map((tile) => el("button", { type: "button", class: "tile", "data-likely": tile, "aria-label": tileName(tile), onclick: () => pickTile(tile) }, tileFace(tile)))] : []));
  const pal = $("palette");
  pal.replaceChildren();
  for (const row of PALETTE) {
    for (const tile of row) {
      const hideAka = tile === "0m" && !S.sit.aka_5man && !["dora", "ura", "extra", "kita"].includes(sh.group) && !item;
      pal.append(el("button", {
        type: "button", class: "tile", "data-pick": tile, "aria-label": tileName(tile), disabled: hideAka, onclick: () => pickTile(tile),
      }, tileFace(tile)));
    }
  }
  renderOverlay();
}

// ---------- rendering: the situation ----------
function choice(label, options, current, onPick, attr, offFor = () => false) {
  // One row of buttons of which one is on: [value, words] options, onPick(value) on a tap;
  // attr(value) names each button for tests and styles: [attribute, its value].
  return el("div", { class: "field" }, el("span", { class: "label" }, t(label)),
    el("div", { class: "seg", role: "radiogroup", "aria-label": t(label) }, options.map(([v, words]) => el("button", {
      type: "button", role: "radio", "aria-checked": String(current === v), [attr(v)[0]]: attr(v)[1],
      class: current === v ? "on" : "", disabled: offFor(v), title: offFor(v) ? t("cannot_apply") : null,
      onclick: () => onPick(v),
    }, words))));
}

function seg(label, key, options, labels, onPick) {
  // A situation choice (data-sit="key=value"); riichi is off on an open hand.
  const off = (v) => key === "riichi" && v !== "none" && !canApply("riichi");
  return choice(label, options.map((v, k) => [v, labels[k]]), S.sit[key], (v) => {
    S.sit[key] = v;
    if (onPick) onPick(v);
    rescore();
  }, (v) => ["data-sit", `${key}=${v}`], off);
}

function stepper(label, key) {
  const set = (v) => { S.sit[key] = Math.max(0, v); rescore(); };
  return el("div", { class: "field" }, el("span", { class: "label" }, t(label)),
    el("div", { class: "stepper" },
      el("button", { type: "button", "aria-label": `${t(label)} −1`, onclick: () => set(S.sit[key] - 1) }, "−"),
      el("output", { "data-value": key }, String(S.sit[key])),
      el("button", { type: "button", "aria-label": `${t(label)} +1`, "data-step": key, onclick: () => set(S.sit[key] + 1) }, "+")));
}

function toggle(key, label) {
  const off = !canApply(key);
  return el("button", {
    type: "button", class: `chip${S.sit[key] ? " on" : ""}`, "aria-pressed": String(!!S.sit[key]), "data-toggle": key,
    disabled: off, title: off ? t("cannot_apply") : null,
    onclick: () => { S.sit[key] = !S.sit[key]; rescore(); if (key === "aka_5man") renderSheet(); },
  }, label);
}

function renderSituation() {
  const inGame = !!S.game;
  const riichiKinds = ["none", "riichi", "double", "open", "double_open"];
  $("situation").replaceChildren(
    seg("win_how", "tsumo", [false, true], [t("ron"), t("tsumo")]),
    seg("riichi", "riichi", riichiKinds, riichiKinds.map((r) => t(`r_${r}`)), syncWinnerRiichi),
    // at a game's table the seat, round and honba come from the game
    inGame ? "" : seg("seat", "seat", ["E", "S", "W"], ["E", "S", "W"].map(windName)),
    inGame ? "" : seg("round", "round", ["E", "S"], ["E", "S"].map(windName)),
    inGame ? "" : el("div", { class: "row two" }, stepper("honba", "honba"), stepper("deposits", "deposits")),
    el("div", { class: "field" }, el("span", { class: "label" }, t("extras")),
      el("div", { class: "chips" }, S_YAKU.map((k) => toggle(k, yakuName(k))))),
    el("div", { class: "field" }, el("span", { class: "label" }, t("options")),
      el("div", { class: "chips" }, inGame ? "" : toggle("discarder_riichi", t("discarder_riichi")), toggle("aka_5man", t("aka5man")))),
    S.sit.aka_5man && canApply("aka5man_as") ? seg("aka5man_as", "aka5man_as", [null, "5p", "5s"], ["—", tileName("5p"), tileName("5s")]) : "",
  );
}

// ---------- rendering: the result in the table's words ----------
function row(label, value, cls = "") {
  return el("div", { class: `line ${cls}` }, el("span", {}, label), el("span", { class: "num" }, value));
}

function fuName(reason) {
  const m = /^(.*?)_?([0-9][mpsz])?$/.exec(reason);
  const key = m && m[1] ? m[1] : reason;
  const name = pick(FU, key, reason.replace(/_/g, " "));
  return m && m[2] ? `${name} ${tileName(m[2])}` : name;
}

function payer(p) {
  const who = t(`from_${p.from}`);
  return p.seat ? `${who} (${windName(p.seat)})` : who;
}

function tableCall(b, tagged = true) {
  // Ron 8,000 / Tsumo 2,000–4,000 / 4,000 all (子ロン 8,000 / 子ツモ 2,000-4,000 / 4,000オール).
  const call = b.explain && b.explain.points && b.explain.points.call;
  if (!call) return `${fmtNum(b.total)} ${t("points")}`;
  const a = call.amounts.map(fmtNum);
  const said = call.how === "ron" ? t("call_ron", call.winner, a[0])
    : call.winner === "dealer" ? t("call_all", a[0]) : t("call_tsumo", a[0], a[1]);
  // a suzaku's call is what it receives: half of each payment (the halving in the breakdown)
  return call.halved && tagged ? `${said} ${t("call_halved")}` : said;
}

function byakkoNet(b) {
  // A declared byakko's win of 5 han or less: it then makes a mangan payment (¶2.7).
  const a = b.ability;
  return a && a.byakko && a.byakko.paid ? t("headline_byakko_pays", fmtNum(a.byakko.paid), fmtNum(a.net)) : "";
}

function limitName(limit, multiple) {
  return limit === "yakuman" && multiple > 1 ? `${t("limit_yakuman")} ×${multiple}` : t(`limit_${limit}`);
}

function setsView(ex) {
  // The chosen split into sets, drawn with tile faces; the winning tile raised.
  return el("div", { class: "sets" }, ex.sets.map((s) => el("div", { class: `set${s.called ? " called" : ""}`, "data-set": s.type },
    s.tiles.map((tile, j) => el("span", { class: `tile small${j === s.win_at ? " winning" : ""}` }, tileFace(tile))),
    s.called ? el("small", {}, s.meld === "ankan" ? t("closed_kan") : t("called")) : "")));
}

function explainView(b) {
  const ex = b.explain;
  if (!ex || !ex.sets.length) return [];
  const parts = [el("h3", {}, t("split")), setsView(ex)];
  if (ex.wait.shape && ex.wait.shape !== "none") parts.push(el("p", { class: "wait-line" }, t("wait_on", t(`w_${ex.wait.shape}`), tileName(ex.wait.tile))));
  return parts;
}

function yakuRows(b) {
  // Each yaku with its han; each yakuhai set names its tile and why it counts.
  const yakuhai = (b.explain && b.explain.yakuhai) || [];
  let k = 0;
  return (b.yaku || []).map((y) => {
    if (y.id !== "yakuhai" || !yakuhai[k]) return row(yakuName(y.id), `${y.han} ${t("han")}`);
    const set = yakuhai[k++];
    const why = set.as.map((a) => t(`as_${a}`)).join(Lang.ja() ? "・" : " + ");
    return row(t("yakuhai_as", tileName(set.tile), why), `${y.han} ${t("han")}`);
  });
}

function pointsView(b) {
  // Base points before and after rounding, the tsumo bonus and honba apart.
  const p = b.explain && b.explain.points;
  if (!p) return [];
  const lines = [];
  lines.push(p.limit ? t("base_limit", t(`limit_${p.limit}`), fmtNum(p.base)) : t("base_line", p.fu, p.han, fmtNum(p.base_raw)));
  const seen = new Set();
  for (const r of p.payments) {
    const key = `${r.from}:${r.times}`;
    if (seen.has(key)) continue;
    seen.add(key);
    lines.push(t("share_line", t(`from_${r.from}`), r.times, fmtNum(r.share), fmtNum(r.rounded)));
  }
  const first = p.payments[0];
  if (first && first.tsumo_bonus) lines.push(t("bonus_line", fmtNum(first.tsumo_bonus)));
  if (first && first.honba) lines.push(t("honba_line", S.sit.honba, fmtNum(first.honba)));
  if (first && first.factor > 1) lines.push(t("factor_line", first.factor));
  for (const r of p.payments) {
    // ability mahjong: the suzaku receives half of each payment, rounded up to 1,000
    if (r.before_halving !== undefined) lines.push(t("halve_line", t(`from_${r.from}`), fmtNum(r.before_halving), fmtNum(r.amount)));
  }
  if (b.deposits) lines.push(t("deposit_line", fmtNum(b.deposits)));
  return [el("ul", { class: "calc" }, lines.map((x) => el("li", {}, x)))];
}

function abilityView(b) {
  // What the winner's role changed (ability mahjong): extra indicators, halving, the
  // byakko's upgrade or mangan payment, a kanpa.
  const a = b.ability;
  if (!a) return [];
  const lines = [t("ab_role", t(`role_${a.role}`))];
  if (a.seiryuu) {
    lines.push(t("ab_seiryuu", a.seiryuu.ura, a.seiryuu.extra_dora, a.seiryuu.han));
    if (b.valid && !a.seiryuu.han) lines.push(t("ab_seiryuu_blank"));
  }
  if (a.suzaku && a.suzaku.payments_before_halving) {
    const full = a.suzaku.payments_before_halving.map((p) => fmtNum(p.amount)).join(" / ");
    lines.push(t("ab_suzaku", full));
  }
  if (a.byakko && a.byakko.upgrade) {
    // yakuman counted one higher is a double yakuman (and so on): the multiples said
    const up = a.byakko.upgrade;
    const to = b.yakuman_multiple || 1;
    const from = up.from === "yakuman" ? to - 1 : 1;
    lines.push(t("ab_upgrade", limitName(up.from, from), limitName(up.to, to)));
  }
  if (a.byakko && a.byakko.paid) lines.push(t("ab_byakko_pays", fmtNum(a.byakko.paid), fmtNum(a.net)));
  if (a.kanpa) lines.push(t("ab_kanpa", tileName(a.kanpa.tile)));
  return [el("h3", {}, t("ab_title")), el("ul", { class: "calc", "data-ability": a.role }, lines.map((x) => el("li", {}, x)))];
}

function chomboView(b) {
  const c = b.explain && b.explain.chombo;
  const tiles = (ws) => ws.map((w) => tileName(w.tile) + (w.yaku_han === null || w.yaku_han === undefined ? "" : ` (${w.yaku_han}${t("han")})`)).join(", ");
  let why = t(`reason_${b.reason}`, b.guarantee ? b.guarantee.required : 2);
  if (c && c.reason === "insufficient_yaku" && c.failing_waits.length) why = t("chombo_waits", c.required, tiles(c.failing_waits));
  else if (c && c.reason === "furiten" && c.failing_waits.length) why = t("chombo_furiten", tiles(c.failing_waits));
  else if (b.reason === "no_win_shape") why = t("chombo_shape");
  else if (b.reason === "kanpa" && b.ability && b.ability.kanpa) {
    const tile = tileName(b.ability.kanpa.tile);
    why = S.sit.tsumo ? t("chombo_kanpa_tsumo", tile) : t("chombo_kanpa_ron", tile);
  }
  // a refusal the rules pay nothing for (kanpa_false_win_chombo off) is no chombo
  if (!(b.payments || []).length) {
    return el("div", { class: "chombo", "data-chombo": b.reason }, el("strong", {}, t("refused_title")), el("p", {}, why), el("p", { class: "hint" }, t("refused_pays")));
  }
  return el("div", { class: "chombo", "data-chombo": b.reason }, el("strong", {}, t("chombo_title")), el("p", {}, why), el("p", { class: "hint" }, t("chombo_pays")));
}

function tenpaiView(b) {
  const waits = el("div", { class: "waits" }, (b.waits || []).map((w) => el("div", { class: "wait" },
    el("span", { class: "tile small" }, tileFace(w.tile)),
    el("span", {}, `${w.yaku_han} ${t("yaku_han")}`),
    el("span", { class: `num ${w.value && !w.value.valid ? "ng" : ""}`, "data-wait-total": w.value ? w.value.total : "" },
      w.value ? fmtNum(w.value.total) : "…"),
    el("span", { class: w.valid_ron ? "ok" : "ng" }, `${t("ron")} ${w.valid_ron ? "✓" : "✗"}`),
    el("span", { class: w.valid_tsumo ? "ok" : "ng" }, `${t("tsumo")} ${w.valid_tsumo ? "✓" : "✗"}`),
    w.kanpa ? el("span", { class: "ng", "data-kanpa-wait": w.tile }, t("kanpa_wait")) : "")));
  return [
    el("div", { class: `verdict ${b.tenpai ? "good" : "bad"}`, "data-verdict": b.tenpai ? "tenpai" : "noten" }, b.tenpai ? t("tenpai") : t("noten")),
    b.tenpai ? el("h3", {}, t("waits")) : "", waits,
    row(t("guarantee"), b.guarantee_ok ? t("ok") : t("ng"), b.guarantee_ok ? "ok" : "ng"),
    b.noten_riichi ? el("p", { class: "error" }, t("noten_riichi")) : "",
  ];
}

function resultView(b) {
  const parts = [];
  parts.push(el("div", { class: `verdict ${b.valid ? "good" : "bad"}`, "data-verdict": b.valid ? "valid" : "invalid" },
    b.valid ? t("valid") : `${t("invalid")}: ${t(`reason_${b.reason}`, b.guarantee ? b.guarantee.required : 2)}`));
  if (b.valid) {
    const halved = b.explain && b.explain.points && b.explain.points.call && b.explain.points.call.halved;
    parts.push(el("div", { class: "total" }, el("span", { class: "big", "data-call": "" }, tableCall(b, false)),
      halved ? el("span", { class: "call-tag", "data-halved": "" }, ` ${t("call_halved")}`) : ""));
    if (byakkoNet(b)) parts.push(el("p", { class: "net ng", "data-net": b.ability.net }, byakkoNet(b)));
    const limit = b.limit ? ` · ${t(`limit_${b.limit}`)}${b.yakuman_multiple > 1 ? ` ×${b.yakuman_multiple}` : ""}` : "";
    parts.push(el("p", { class: "summary" }, `${b.han} ${t("han")} ${b.fu} ${t("fu")}${limit}`));
  } else parts.push(chomboView(b));
  parts.push(...abilityView(b));
  parts.push(...explainView(b));
  parts.push(el("h3", {}, t("yaku")));
  parts.push(el("div", { class: "lines" }, (b.yaku || []).length ? yakuRows(b) : [el("p", { class: "hint" }, t("empty"))]));
  const d = b.dora || {};
  const doraLines = ["dora", "ura", "extra", "aka", "kita", "aka5man_bonus"].filter((k) => d[k]).map((k) => row(t(`d_${k}`), `${d[k]} ${t("han")}`));
  if (doraLines.length) parts.push(el("h3", {}, t("dora_")), el("div", { class: "lines" }, doraLines));
  if ((b.fu_breakdown || []).length) {
    parts.push(el("h3", {}, t("fu_breakdown")), el("div", { class: "lines" }, b.fu_breakdown.map((f) => row(fuName(f.reason), `${f.fu} ${t("fu")}`))));
  }
  parts.push(el("h3", {}, t("payments")), ...pointsView(b),
    el("div", { class: "lines" }, (b.payments || []).map((p) => row(payer(p), fmtNum(p.amount), p.amount < 0 ? "ng" : ""))),
    b.deposits ? row(t("deposits"), fmtNum(b.deposits)) : "",
    el("div", { class: "line sum" }, el("span", {}, t("total")), el("span", { class: "num", "data-total": b.total }, fmtNum(b.total))));
  if (b.guarantee) {
    const g = b.guarantee;
    parts.push(row(`${t("guarantee")} (${g.minimum_over_waits ?? "–"}/${g.required})`, g.ok ? t("ok") : t("ng"), g.ok ? "ok" : "ng"));
  }
  return parts;
}

function summaryText() {
  const last = S.last;
  const b = last.body;
  if (last.kind === "error") return `${t("error")}: ${errorText(b.error)}`;
  if (last.kind === "tenpai") return b.tenpai ? `${t("tenpai")}: ${b.waits.map((w) => tileName(w.tile)).join(" ")}` : t("noten");
  if (!b.valid) return `${(b.payments || []).length ? t("chombo") : t("invalid")}: ${t(`reason_${b.reason}`, 2)}`;
  const net = b.ability && b.ability.byakko && b.ability.byakko.paid ? ` · ${t("net_short", fmtNum(b.ability.net))}` : "";
  return `${tableCall(b)}${net} · ${t("value", b.han, b.limit ? 0 : b.fu)}`;
}

function renderSummary() {
  // The score in the sticky header (it never lies over the tiles); tap it to see the details.
  const bar = $("summary");
  bar.hidden = !S.last;
  if (!S.last) return;
  const good = S.last.kind === "result" ? S.last.body.valid : S.last.kind === "tenpai" && S.last.body.tenpai;
  bar.className = `summary-bar ${good ? "good" : "bad"}`;
  bar.textContent = summaryText();
}

function renderResult() {
  renderSummary();
  renderGame();
  const box = $("result");
  const last = S.last;
  if (!last) { box.replaceChildren(el("p", { class: "hint" }, t("no_result"))); return; }
  if (last.kind === "error") {
    const e = last.body.error || {};
    // the server's own message (English) adds the detail, e.g. how many tiles are missing
    const detail = errorDetail(e) ? el("p", { class: "hint detail" }, errorDetail(e)) : "";
    box.replaceChildren(el("div", { class: "verdict bad", "data-verdict": "error" }, `${t("error")}: ${errorText(e)}`), detail);
    return;
  }
  box.replaceChildren(...(last.kind === "tenpai" ? tenpaiView(last.body) : resultView(last.body)));
}

function renderWarnings() {
  $("warnings").replaceChildren(...S.warnings.map((w) => el("li", {}, warningText(w.message, w.detail, tileName))));
}

function renderStatic() {
  document.documentElement.lang = Lang.current;
  document.title = t("title");  // the tab and the app switcher speak the page's language too
  translateStatic();
  $("lang").textContent = t("lang_button");
  $("zoom").setAttribute("aria-label", t("zoom"));
  $("game-link").href = S.game ? `/game.html#${S.game.id}` : "/game.html";
}

function renderAll() {
  renderStatic();
  renderTiles();
  renderOverlay();
  renderSheet();
  renderSituation();
  renderWarnings();
  renderResult();
}

// ---------- the running game: pre-filled situation, record in one tap ----------
const params = new URLSearchParams(location.search);

async function openGame(id) {
  const res = await api(`/v1/games/${encodeURIComponent(id)}`);
  if (!res.ok) { $("game-status").textContent = t("game_missing"); $("game-card").hidden = false; return; }
  S.game = res.body;
  S.play.mode = params.get("mode") === "draw" ? "draw" : "win";
  S.play.riichi = startRiichi();
  const player = Number(params.get("player"));
  S.play.player = seatsOf().includes(player) && params.get("player") !== null ? player : null;
  applyGame();
  renderAll();
}

function seiryuuDeposits() {
  // ability mahjong: the seiryuu's deposits go on the table at the hand's start
  const a = S.game && S.game.ability;
  return a ? a.seiryuu_deposits.reduce((sum, d) => sum + d.amount, 0) : 0;
}

function applyGame() {
  // The game's round, honba and deposits; the chosen player's seat; riichi from who declared.
  const g = S.game;
  if (!g) return;
  S.sit.round = g.round_wind;
  S.sit.honba = g.honba;
  S.sit.aka_5man = Boolean(g.rules.aka_5man);
  S.sit.deposits = Math.round((g.deposits + seiryuuDeposits()) / 1000) + S.play.riichi.length;
  const p = S.play.player;
  if (p !== null) {
    S.sit.seat = g.players[p].seat;
    const declared = S.play.riichi.includes(p);
    if (declared && S.sit.riichi === "none") S.sit.riichi = "riichi";
    if (!declared) S.sit.riichi = "none";
  }
  S.sit.discarder_riichi = S.play.discarder !== null && S.play.riichi.includes(S.play.discarder);
  if (S.play.discarder === p) S.play.discarder = null;
}

function syncWinnerRiichi(kind) {
  // The riichi chosen for the hand shown is that player's riichi stick in the game.
  const p = S.play.player;
  if (!S.game || p === null) return;
  S.play.riichi = S.play.riichi.filter((x) => x !== p);
  if (kind !== "none") S.play.riichi.push(p);
  applyGame();
}

function playerChip(p, on, onclick, extra = {}) {
  const pl = S.game.players[p];
  const role = roleOf(p) ? ` · ${t(`role_${roleOf(p)}`)}` : "";
  return el("button", { type: "button", class: `chip${on ? " on" : ""}`, "aria-pressed": String(on), onclick, ...extra },
    `${windName(pl.seat)} ${pl.name}${role}`);
}

function chooseGroup(label, kids) {
  return el("div", { class: "field" }, el("span", { class: "label" }, t(label)), el("div", { class: "chips" }, kids));
}

function renderGame() {
  const card = $("game-card");
  const g = S.game;
  card.hidden = !g && !$("game-status").textContent;
  if (!g) return;
  const play = S.play;
  const others = seatsOf().filter((p) => p !== play.player);
  const set = (fn) => () => { fn(); applyGame(); rescore(); };
  const kids = [
    el("p", { class: "game-head" }, t("game_hand", t("round_name", g.round_wind, Number(g.round[1])), t("honba_n", g.honba)),
      ` · ${t("depositsShort")} ${fmtNum(g.deposits + seiryuuDeposits())}`),
    choice("this_photo", [["win", t("p_win")], ["draw", t("p_draw")]], play.mode, (v) => { play.mode = v; renderResult(); }, (v) => ["data-play", v]),
    chooseGroup("whose", seatsOf().map((p) => playerChip(p, play.player === p, set(() => { play.player = p; }), { "data-player": p }))),
  ];
  if (play.mode === "win" && !S.sit.tsumo && play.player !== null) {
    kids.push(chooseGroup("from_whom", others.map((p) => playerChip(p, play.discarder === p, set(() => { play.discarder = p; }), { "data-discarder": p }))));
  }
  kids.push(chooseGroup("riichi_sticks", seatsOf().map((p) => playerChip(p, play.riichi.includes(p), set(() => {
    play.riichi = play.riichi.includes(p) ? play.riichi.filter((x) => x !== p) : [...play.riichi, p];
    if (p === play.player) S.sit.riichi = play.riichi.includes(p) ? (S.sit.riichi === "none" ? "riichi" : S.sit.riichi) : "none";
  }), { "data-riichi-player": p }))));
  kids.push(...(play.mode === "win" ? winRecorder() : drawRecorder()));
  $("game-panel").replaceChildren(...kids);
}

function winRecorder() {
  const play = S.play;
  const last = S.last;
  const ready = last && last.kind === "result" && play.player !== null && (S.sit.tsumo || play.discarder !== null);
  if (!ready) return [];
  const name = S.game.players[play.player].name;
  // a refusal without payments (kanpa_false_win_chombo off) is not recorded: the hand plays on
  if (!last.body.valid && !(last.body.payments || []).length) return [];
  const label = last.body.valid ? t("record_win", tableCall(last.body)) : t("record_chombo", name);
  return [el("button", { type: "button", class: "btn primary record", id: "record", onclick: recordWin }, label)];
}

async function recordWin() {
  const play = S.play;
  const b = S.last.body;
  const body = b.valid
    ? { outcome: S.sit.tsumo ? "tsumo" : "ron", wins: [{ winner: play.player, hand: handJson() }], riichi: play.riichi }
    : { outcome: "chombo", offenders: [play.player] };
  if (b.valid && !S.sit.tsumo) body.discarder = play.discarder;
  await recordHand(body);
}

async function recordHand(body) {
  const res = await postJson(`/v1/games/${S.game.id}/hands`, { ...abilityBody(body), seq: S.game.seq });
  if (!res.ok) { $("game-status").textContent = errorLine(res.body.error); return; }
  sessionStorage.setItem("sanma.flash", "recorded");
  location.href = `/game.html#${S.game.id}`;
}

function noteDrawCheck() {
  // At a draw, the engine's tenpai answer for the hand shown is that player's check.
  const play = S.play;
  if (!S.game || play.mode !== "draw" || play.player === null || !S.last || S.last.kind !== "tenpai") return;
  const b = S.last.body;
  play.draw[play.player] = { tenpai: !!b.tenpai, noten_riichi: !!b.noten_riichi || (!b.tenpai && play.riichi.includes(play.player)), engine: true };
}

function drawRecorder() {
  const play = S.play;
  const rows = S.game.players.map((pl, p) => {
    const mark = play.draw[p];
    const status = !mark ? t("unchecked") : `${mark.tenpai ? t("mark_tenpai") : t("mark_noten")}${mark.noten_riichi ? ` · ${t("noten_riichi_mark")}` : ""}${mark.engine ? ` (${t("checked_by_engine")})` : ""}`;
    const setMark = (tenpai) => () => { play.draw[p] = { tenpai, noten_riichi: !tenpai && play.riichi.includes(p), engine: false }; renderGame(); };
    return el("div", { class: "draw-row", "data-draw-player": p },
      el("span", { class: "draw-name" }, `${windName(pl.seat)} ${pl.name}`),
      el("span", { class: `draw-status${mark ? (mark.tenpai ? " ok" : " ng") : ""}` }, status),
      el("span", { class: "chips" },
        el("button", { type: "button", class: `chip${mark && mark.tenpai ? " on" : ""}`, "data-mark": "tenpai", onclick: setMark(true) }, t("mark_tenpai")),
        el("button", { type: "button", class: `chip${mark && !mark.tenpai ? " on" : ""}`, "data-mark": "noten", onclick: setMark(false) }, t("mark_noten"))));
  });
  const hint = play.player !== null && !play.draw[play.player] ? el("p", { class: "hint" }, t("need_tenpai_check")) : "";
  return [el("h3", {}, t("draw_status")), hint, ...rows,
    el("button", { type: "button", class: "btn primary record", id: "record-draw", onclick: recordDraw }, t("record_draw"))];
}

async function recordDraw() {
  const draw = S.play.draw;
  const players = seatsOf();
  await recordHand({
    outcome: "draw",
    tenpai: players.filter((p) => draw[p] && draw[p].tenpai),
    noten_riichi: players.filter((p) => draw[p] && draw[p].noten_riichi),
    riichi: S.play.riichi,
  });
}

// ---------- wiring ----------
for (const input of [$("camera"), $("picker")]) {
  // emptied after each photo, so that choosing the same photo again reads it again
  input.addEventListener("change", (e) => { uploadPhoto(e.target.files[0]); e.target.value = ""; });
}
$("type-form").addEventListener("submit", applyTyped);
$("sheet-close").addEventListener("click", closeSheet);
$("zoom").addEventListener("click", () => { S.fullPhoto = !S.fullPhoto; renderOverlay(); });
$("summary").addEventListener("click", () => $("result-card").scrollIntoView({ behavior: "smooth" }));
$("lang").addEventListener("click", () => { Lang.set(Lang.other()); renderAll(); });
renderAll();
if (params.get("game") && /^[0-9a-f]{32}$/.test(params.get("game"))) openGame(params.get("game"));
