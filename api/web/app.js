// sanma-lens phone page: photo → tiles (correctable) → situation → score. No build step,
// no external requests: it talks only to this server's /v1 API.
"use strict";

// ---------- labels (English / Japanese) ----------
const T = {
  title: ["sanma-lens", "三麻レンズ"], game: ["Game", "対局"],
  take_photo: ["Take photo", "撮影"], pick_photo: ["Choose photo", "写真を選ぶ"],
  tiles: ["Tiles", "牌"], situation: ["Situation", "状況"], result: ["Result", "結果"],
  type_hand: ["Type the hand (MPSZ)", "手牌を入力 (MPSZ)"],
  f_hand: ["Hand (without the winning tile)", "手牌 (和了牌を除く)"],
  f_win: ["Winning tile (empty: tenpai check)", "和了牌 (空欄で聴牌判定)"],
  f_melds: ["Melds", "副露"], f_kita: ["Kita (norths, 0m = aka-5-man)", "抜きドラ (0m=赤五萬)"],
  f_dora: ["Dora indicators", "ドラ表示牌"], apply: ["Apply", "反映"], close: ["Close", "閉じる"],
  no_result: ["Take a photo or type a hand.", "写真を撮るか手牌を入力してください。"],
  g_hand: ["Hand", "手牌"], g_win: ["Winning tile", "和了牌"], g_meld: ["Melds", "副露"],
  g_kita: ["Kita", "抜き北"], g_dora: ["Dora indicators", "ドラ表示牌"], g_other: ["Other", "その他"],
  add: ["+ tile", "+ 牌"], new_meld: ["+ meld", "+ 副露"], del: ["Delete", "削除"],
  change_to: ["Change this tile", "この牌を変更"], likely: ["Maybe", "候補"], add_to: ["Add a tile to", "牌を追加:"],
  move_to: ["Move to", "移動:"],
  win_how: ["Win", "和了"], ron: ["Ron", "ロン"], tsumo: ["Tsumo", "ツモ"],
  riichi: ["Riichi", "立直"], r_none: ["None", "なし"], r_riichi: ["Riichi", "立直"],
  r_double: ["Double", "ダブル"], r_open: ["Open", "オープン"], r_double_open: ["Double open", "Wオープン"],
  seat: ["Seat", "自風"], round: ["Round", "場風"], honba: ["Honba", "本場"],
  deposits: ["Riichi sticks", "供託"], ura: ["Ura indicators", "裏ドラ表示牌"],
  extras: ["Situational yaku", "状況役"], options: ["Options", "オプション"],
  aka5man: ["Aka-5-man rule", "赤五萬ルール"], aka5man_as: ["Aka-5-man taken as", "赤五萬を"],
  discarder_riichi: ["Discarder in riichi", "放銃者が立直"],
  valid: ["Valid win", "和了成立"], invalid: ["Not a valid win", "和了不成立"],
  reason_no_win_shape: ["no winning shape", "和了形でない"],
  reason_insufficient_yaku: ["fewer than the guaranteed 2 han from yaku", "役2翻縛りを満たさない"],
  reason_furiten: ["furiten", "フリテン"],
  reason_yakuman_only: ["only a yakuman may rob a kita or ankan", "役満以外は北・暗槓を取れない"],
  han: ["han", "翻"], fu: ["fu", "符"], total: ["Total", "合計"], points: ["points", "点"],
  yaku: ["Yaku", "役"], dora_: ["Dora", "ドラ"], fu_breakdown: ["Fu", "符の内訳"],
  payments: ["Payments", "支払い"], from_discarder: ["discarder", "放銃者"],
  from_dealer: ["dealer", "親"], from_child: ["child", "子"],
  d_dora: ["dora", "ドラ"], d_ura: ["ura", "裏"], d_aka: ["red", "赤"], d_kita: ["kita", "北"],
  d_aka5man_bonus: ["aka-5-man", "赤五萬"],
  guarantee: ["2-han guarantee over waits", "役2翻の保証"], ok: ["OK", "OK"], ng: ["not met", "不成立"],
  tenpai: ["Tenpai", "聴牌"], noten: ["Not tenpai", "ノーテン"], waits: ["Waits", "待ち"],
  yaku_han: ["yaku han", "役翻"], v_ron: ["ron", "ロン"], v_tsumo: ["tsumo", "ツモ"],
  noten_riichi: ["No-ten riichi: chombo at the draw", "ノーテン立直 (流局時チョンボ)"],
  uploading: ["Reading the photo…", "写真を解析中…"], tiles_found: ["tiles found", "枚認識"],
  no_model: ["Photo recognition is not available on this server: type the hand below.",
    "この端末では写真認識が使えません。手牌を入力してください。"],
  error: ["Error", "エラー"], limit_mangan: ["Mangan", "満貫"], limit_haneman: ["Haneman", "跳満"],
  limit_baiman: ["Baiman", "倍満"], limit_sanbaiman: ["Sanbaiman", "三倍満"],
  limit_yakuman: ["Yakuman", "役満"], tap_hint: ["Tap a tile to correct it.", "牌をタップして修正"],
  empty: ["(none)", "(なし)"],
};
// Short Japanese words for the engine's most common error codes (the message stays English).
const ERR_JA = {
  tile_count: "牌の枚数が合いません", fifth_tile: "同じ牌が5枚以上あります",
  unknown_tile: "不明な牌があります", invalid_tile: "三麻にない牌があります",
  bad_meld: "副露の形が正しくありません", bad_win: "和了牌が正しくありません",
  inconsistent_situation: "状況の組み合わせが矛盾しています", bad_tiles: "牌の書き方が正しくありません",
};
const S_YAKU = ["ippatsu", "haitei", "houtei", "rinshan", "kanburi", "chankan",
  "tenhou", "chihou", "renhou"];
// Yaku ids and names of docs/rules.md.
const YAKU = {
  menzen_tsumo: ["Menzen tsumo", "門前清自模和"], riichi: ["Riichi", "立直"],
  double_riichi: ["Double riichi", "ダブル立直"], open_riichi: ["Open riichi", "オープン立直"],
  ippatsu: ["Ippatsu", "一発"], rinshan: ["Rinshan kaihou", "嶺上開花"], kanburi: ["Kanburi", "槓振り"],
  haitei: ["Haitei", "海底撈月"], houtei: ["Houtei", "河底撈魚"], chankan: ["Chankan", "槍槓"],
  renhou: ["Renhou", "人和"], paarenchan: ["Paarenchan", "八連荘"],
  shiisan_puutaa: ["Shiisan puutaa", "十三不塔"], tenhou: ["Tenhou", "天和"], chihou: ["Chihou", "地和"],
  yakuhai: ["Yakuhai", "役牌"], pinfu: ["Pinfu", "平和"], tanyao: ["Tanyao", "断么九"],
  iipeikou: ["Iipeikou", "一盃口"], ittsu: ["Ittsu", "一気通貫"], chiitoitsu: ["Chiitoitsu", "七対子"],
  toitoi: ["Toitoi", "対々和"], chanta: ["Chanta", "混全帯么九"], honroutou: ["Honroutou", "混老頭"],
  sanankou: ["Sanankou", "三暗刻"], sankantsu: ["Sankantsu", "三槓子"],
  sanrenkou: ["Sanrenkou", "三連刻"], shousangen: ["Shousangen", "小三元"],
  honitsu: ["Honitsu", "混一色"], junchan: ["Junchan", "純全帯么九"],
  ryanpeikou: ["Ryanpeikou", "二盃口"], chinitsu: ["Chinitsu", "清一色"],
  shousharin: ["Shousharin", "小車輪"], sanshoku_doukou: ["Sanshoku doukou", "三色同刻"],
  daisharin: ["Daisharin", "大車輪"], suurenkou: ["Suurenkou", "四連刻"],
  kokushi: ["Kokushi musou", "國士無双"], suuankou: ["Suuankou", "四暗刻"],
  daisangen: ["Daisangen", "大三元"], tsuuiisou: ["Tsuuiisou", "字一色"], suushii: ["Suushii", "四喜和"],
  ryuuiisou: ["Ryuuiisou", "緑一色"], chinroutou: ["Chinroutou", "清老頭"],
  suukantsu: ["Suukantsu", "四槓子"], chuuren: ["Chuuren poutou", "九蓮宝燈"],
  suuankou_tanki: ["Suuankou tanki", "単騎待ち四暗刻"], kokushi_13: ["Kokushi 13-wait", "十三面待ち國士無双"],
  chuuren_9: ["Chuuren 9-wait", "九面待ち九蓮宝燈"], beni_kujaku: ["Beni kujaku", "紅孔雀"],
  manzu_honitsu: ["Manzu honitsu", "萬子の混一色"],
};
const HONOR = { en: ["E", "S", "W", "N", "Wh", "G", "R"], ja: ["東", "南", "西", "北", "白", "發", "中"] };
const SUIT = { en: { m: "m", p: "p", s: "s" }, ja: { m: "萬", p: "筒", s: "索" } };
const GROUPS = ["hand", "win", "meld", "kita", "dora"];
const MELD_KINDS = ["pon", "minkan", "kakan", "ankan"];
// A tile the camera read with less confidence than this is marked "?" until the player confirms it.
const UNSURE = 0.5;
const PALETTE = [
  ["1p", "2p", "3p", "4p", "5p", "0p", "6p", "7p", "8p", "9p"],
  ["1s", "2s", "3s", "4s", "5s", "0s", "6s", "7s", "8s", "9s"],
  ["1m", "9m", "0m", "1z", "2z", "3z", "4z", "5z", "6z", "7z"],
];

// ---------- state ----------
const S = {
  lang: localStorage.getItem("sanma.lang") || "en",
  items: [], // {tile, group, meld (index or null), box ([x1,y1,x2,y2] or null)}
  melds: [], // {kind}
  photo: null, // {url, w, h}
  warnings: [],
  sheet: null, // {mode: "edit", i} | {mode: "add", group, meld}
  sit: {
    tsumo: false, riichi: "none", seat: "S", round: "E", honba: 0, deposits: 0, ura: "",
    ippatsu: false, haitei: false, houtei: false, rinshan: false, kanburi: false,
    chankan: false, tenhou: false, chihou: false, renhou: false, discarder_riichi: false,
    aka_5man: false, aka5man_as: null,
  },
  last: null, // {kind: "result"|"tenpai"|"error", body}
};
let seq = 0; // guards against out-of-order answers

const $ = (id) => document.getElementById(id);
const lang = () => (S.lang === "ja" ? 1 : 0);
const t = (key) => (T[key] ? T[key][lang()] : key);
const el = (tag, attrs = {}, ...kids) => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : v);
  }
  for (const kid of kids.flat()) node.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
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
      if (!digits) throw new Error(`"${ch}" has no numbers before it`);
      for (const d of digits) out.push(d + ch);
      digits = "";
    } else throw new Error(`unknown character "${ch}"`);
  }
  if (digits) throw new Error(`numbers "${digits}" have no suit letter after them`);
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
  const L = S.lang === "ja" ? "ja" : "en";
  if (tile === "back") return el("span", { class: "face back" }, "");
  const n = num(tile), s = suit(tile);
  const red = n === "0";
  const cls = `face s-${s}${red ? " red" : ""}`;
  if (s === "z") return el("span", { class: `${cls} z${n}` }, el("b", {}, HONOR[L][Number(n) - 1]));
  if (tile === "0m") return el("span", { class: cls }, el("b", {}, "5"), el("i", {}, SUIT[L].m));
  return el("span", { class: cls }, el("b", {}, red ? "5" : n), el("i", {}, SUIT[L][s]));
}

function tileName(tile) {
  if (tile === "back") return "■";
  if (tile === "0m") return S.lang === "ja" ? "赤五萬" : "aka 5m";
  if (suit(tile) === "z") return HONOR[S.lang === "ja" ? "ja" : "en"][Number(num(tile)) - 1];
  return num(tile) === "0" ? (S.lang === "ja" ? "赤5" : "red 5") + suit(tile) : tile;
}

// ---------- the hand JSON built from the items ----------
function meldString(m) {
  const tiles = S.items.filter((it) => it.group === "meld" && it.meld === m).map((it) => it.tile);
  const faces = tiles.filter((x) => x !== "back");
  if (!faces.length) return null;
  const filled = tiles.map((x) => (x === "back" ? plain(faces[0]) : x));
  return `${S.melds[m].kind}:${toMpsz(filled)}`;
}

function handJson() {
  const of = (g) => S.items.filter((it) => it.group === g).map((it) => it.tile);
  const wins = of("win");
  const melds = S.melds.map((_, m) => meldString(m)).filter(Boolean);
  const kita = of("kita");
  const sit = S.sit;
  const obj = {
    hand: toMpsz(of("hand")),
    melds,
    kita: kita.length,
    kita_aka: kita.filter((x) => x === "0m").length,
    dora: of("dora").filter((x) => x !== "back"),
    tsumo: sit.tsumo, seat: sit.seat, round: sit.round, riichi: sit.riichi,
    honba: sit.honba, deposits: sit.deposits, discarder_riichi: sit.discarder_riichi,
    rules: { preset: "sanma-1.3", aka_5man: sit.aka_5man },
  };
  if (wins.length) obj.win = wins[0];
  for (const k of S_YAKU) if (sit[k]) obj[k] = true;
  if (sit.aka5man_as) obj.aka5man_as = sit.aka5man_as;
  try { obj.ura = parseMpsz(sit.ura); } catch { obj.ura = []; }
  return obj;
}

// ---------- API ----------
async function api(path, init) {
  const r = await fetch(path, init);
  let body;
  try { body = await r.json(); } catch { body = { error: { code: "bad_response", message: `HTTP ${r.status}` } }; }
  return { ok: r.ok, status: r.status, body };
}

let timer = null;
function rescore() {
  clearTimeout(timer);
  timer = setTimeout(scoreNow, 120);
}

async function scoreNow() {
  renderMpsz();
  const hand = handJson();
  const count = S.items.filter((it) => it.group !== "other" && it.group !== "dora").length;
  if (!count) { S.last = null; renderResult(); return; }
  const my = ++seq;
  const path = hand.win ? "/v1/score" : "/v1/tenpai";
  const res = await api(path, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(hand),
  });
  if (my !== seq) return;
  S.last = res.ok ? { kind: hand.win ? "result" : "tenpai", body: res.body } : { kind: "error", body: res.body };
  renderResult();
  if (res.ok && !hand.win && res.body.tenpai) await priceWaits(hand, res.body, my);
}

async function priceWaits(hand, tenpai, my) {
  // The value of each wait: the hand scored with that winning tile (ron or tsumo as set).
  const scored = await Promise.all(tenpai.waits.map((w) => api("/v1/score", {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...hand, win: w.tile }),
  })));
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
  status.className = "status";
  const file = await shrink(original);
  if (S.photo) URL.revokeObjectURL(S.photo.url);
  const url = URL.createObjectURL(file);
  const form = new FormData();
  form.append("image", file);
  const sit = handJson();
  for (const k of ["hand", "win", "melds", "kita", "kita_aka", "dora"]) delete sit[k];
  form.append("situation", JSON.stringify(sit));
  const res = await api("/v1/photo/score", { method: "POST", body: form });
  if (!res.ok) {
    URL.revokeObjectURL(url);
    status.className = "status error";
    status.textContent = res.body.error.code === "model_unavailable" ? t("no_model") : `${t("error")}: ${res.body.error.message}`;
    return;
  }
  const img = new Image();
  img.onload = () => {
    S.photo = { url, w: img.naturalWidth, h: img.naturalHeight };
    S.fullPhoto = false;
    loadRecognition(res.body);
    status.textContent = `${res.body.tiles.length} ${t("tiles_found")} — ${t("tap_hint")}`;
  };
  img.src = url;
}

function loadRecognition(body) {
  // Items from the detections; melds from the recognized meld strings.
  S.melds = (body.hand.melds || []).map((ms) => ({ kind: ms.split(":")[0], tiles: parseSafe(ms.split(":")[1]) }));
  const dets = [...body.tiles].sort((a, b) => a.box[0] - b.box[0]);
  S.items = dets.map((d) => ({
    tile: d.tile, group: d.group, meld: null, box: d.box, alts: (d.alternatives || []).map((a) => a.tile),
    unsure: d.confidence < UNSURE,
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
  S.warnings = body.warnings || [];
  S.last = body.score ? { kind: body.score_kind, body: body.score }
    : body.score_error ? { kind: "error", body: { error: body.score_error } } : null;
  renderAll();
}

function parseSafe(text) { try { return parseMpsz(text || ""); } catch { return []; } }

// ---------- editing ----------
function openSheet(sheet) { S.sheet = sheet; renderSheet(); renderTiles(); renderPill(); }
function closeSheet() { S.sheet = null; renderSheet(); renderTiles(); renderPill(); }

function pickTile(tile) {
  const sh = S.sheet;
  if (!sh) return;
  if (sh.mode === "edit") {
    S.items[sh.i].tile = tile;
    S.items[sh.i].alts = [];
    S.items[sh.i].unsure = false;
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
    if (!S.melds.length) S.melds.push({ kind: "pon", tiles: [] });
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
    for (const tile of parseMpsz($("t-hand").value)) items.push({ tile, group: "hand", meld: null, box: null });
    const win = parseMpsz($("t-win").value);
    if (win.length > 1) throw new Error("one winning tile only");
    for (const tile of win) items.push({ tile, group: "win", meld: null, box: null });
    const melds = [];
    for (const word of $("t-melds").value.trim().split(/\s+/).filter(Boolean)) {
      const [kind, tiles] = word.split(":");
      if (!MELD_KINDS.includes(kind) || !tiles) throw new Error(`meld "${word}": use pon:777z, ankan:9999s …`);
      melds.push({ kind });
      for (const tile of parseMpsz(tiles)) items.push({ tile, group: "meld", meld: melds.length - 1, box: null });
    }
    for (const tile of parseMpsz($("t-kita").value)) items.push({ tile, group: "kita", meld: null, box: null });
    for (const tile of parseMpsz($("t-dora").value)) items.push({ tile, group: "dora", meld: null, box: null });
    S.items = items;
    S.melds = melds;
    S.warnings = [];
    renderAll();
    rescore();
  } catch (e) {
    err.textContent = e.message;
  }
}

// ---------- rendering ----------
function tileButton(it, i) {
  const selected = S.sheet && S.sheet.mode === "edit" && S.sheet.i === i;
  return el("button", {
    type: "button", class: `tile${selected ? " sel" : ""}${it.unsure ? " unsure" : ""}`, "data-i": i, "data-tile": it.tile,
    "aria-label": tileName(it.tile), onclick: () => openSheet({ mode: "edit", i }),
  }, tileFace(it.tile));
}

function renderTiles() {
  const box = $("groups");
  box.replaceChildren();
  for (const g of GROUPS) {
    const row = el("div", { class: `group g-${g}`, "data-group": g });
    const head = el("div", { class: "group-head" }, el("span", {}, t(`g_${g}`)));
    row.append(head);
    if (g === "meld") {
      head.append(el("button", {
        type: "button", class: "chip", "data-action": "new-meld",
        onclick: () => { S.melds.push({ kind: "pon" }); openSheet({ mode: "add", group: "meld", meld: S.melds.length - 1 }); },
      }, t("new_meld")));
      S.melds.forEach((md, m) => {
        const kind = el("select", { "aria-label": "meld kind", onchange: (e) => { md.kind = e.target.value; rescore(); } },
          MELD_KINDS.map((k) => el("option", { value: k, selected: k === md.kind }, k)));
        const strip = el("div", { class: "strip" }, kind);
        S.items.forEach((it, i) => { if (it.group === "meld" && it.meld === m) strip.append(tileButton(it, i)); });
        strip.append(el("button", { type: "button", class: "tile add", "aria-label": t("add"), onclick: () => openSheet({ mode: "add", group: "meld", meld: m }) }, "+"));
        row.append(strip);
      });
    } else {
      const strip = el("div", { class: "strip" });
      const idx = S.items.map((it, i) => [it, i]).filter(([it]) => it.group === g);
      if (g === "hand") idx.sort((a, b) => sortKey(a[0].tile) - sortKey(b[0].tile));
      for (const [it, i] of idx) strip.append(tileButton(it, i));
      if (g !== "win" || !idx.length) strip.append(el("button", {
        type: "button", class: "tile add", "data-add": g, "aria-label": `${t("add")} ${t(`g_${g}`)}`,
        onclick: () => openSheet({ mode: "add", group: g, meld: null }),
      }, "+"));
      row.append(strip);
    }
    box.append(row);
  }
  renderMpsz();
}

function renderMpsz() {
  const h = handJson();
  const parts = [h.hand || "—"];
  if (h.win) parts.push(`+ ${h.win}`);
  if (h.melds.length) parts.push(h.melds.join(" "));
  if (h.kita) parts.push(`kita ${h.kita}`);
  if (h.dora.length) parts.push(`dora ${h.dora.join(" ")}`);
  $("mpsz-line").textContent = parts.join("  ");
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

function renderOverlay() {
  const view = $("photo-view");
  if (!S.photo) { view.hidden = true; return; }
  view.hidden = false;
  const svg = $("overlay");
  const [cx, cy, cw, ch] = cropBox();
  svg.setAttribute("viewBox", `${cx} ${cy} ${cw} ${ch}`);
  svg.style.aspectRatio = `${cw} / ${ch}`;
  svg.replaceChildren();
  const ns = "http://www.w3.org/2000/svg";
  const img = document.createElementNS(ns, "image");
  Object.entries({ href: S.photo.url, x: 0, y: 0, width: S.photo.w, height: S.photo.h })
    .forEach(([k, v]) => img.setAttribute(k, v));
  svg.append(img);
  const scale = cw / 360;
  S.items.forEach((it, i) => {
    if (!it.box) return;
    const [x1, y1, x2, y2] = it.box;
    const g = document.createElementNS(ns, "g");
    g.setAttribute("class", `det g-${it.group}${it.unsure ? " unsure" : ""}${S.sheet && S.sheet.i === i ? " sel" : ""}`);
    g.setAttribute("data-i", i);
    const r = document.createElementNS(ns, "rect");
    Object.entries({ x: x1, y: y1, width: x2 - x1, height: y2 - y1, rx: 2 * scale, "stroke-width": 1.6 * scale })
      .forEach(([k, v]) => r.setAttribute(k, v));
    const label = document.createElementNS(ns, "text");
    label.setAttribute("x", (x1 + x2) / 2);
    label.setAttribute("y", y1 - 2 * scale);
    label.setAttribute("font-size", Math.min(11 * scale, (x2 - x1) * 0.6));
    label.setAttribute("text-anchor", "middle");
    label.textContent = (it.tile === "back" ? "■" : it.tile) + (it.unsure ? "?" : "");
    g.append(r, label);
    g.addEventListener("click", () => openSheet({ mode: "edit", i }));
    svg.append(g);
  });
}

function renderSheet() {
  const sheet = $("sheet");
  const sh = S.sheet;
  if (!sh) { sheet.hidden = true; renderOverlay(); return; }
  sheet.hidden = false;
  $("sheet-title").textContent = sh.mode === "edit"
    ? `${t("change_to")}: ${tileName(S.items[sh.i].tile)}`
    : `${t("add_to")} ${t(`g_${sh.group}`)}`;
  const moves = $("sheet-moves");
  moves.replaceChildren();
  if (sh.mode === "edit") {
    const cur = S.items[sh.i].group;
    moves.append(el("span", { class: "moves-label" }, t("move_to")));
    for (const g of GROUPS) {
      moves.append(el("button", {
        type: "button", class: `chip${g === cur ? " on" : ""}`, "data-move": g, onclick: () => moveItem(sh.i, g),
      }, t(`g_${g}`)));
    }
    moves.append(el("button", { type: "button", class: "chip danger", "data-action": "delete", onclick: () => deleteItem(sh.i) }, t("del")));
  }
  // The camera's next-best readings first: most corrections are one of them.
  const likely = $("sheet-likely");
  likely.replaceChildren();
  const alts = sh.mode === "edit" ? (S.items[sh.i].alts || []) : [];
  likely.hidden = !alts.length;
  if (alts.length) {
    likely.append(el("span", { class: "moves-label" }, t("likely")));
    for (const tile of alts) {
      likely.append(el("button", {
        type: "button", class: "tile", "data-likely": tile, "aria-label": tileName(tile), onclick: () => pickTile(tile),
      }, tileFace(tile)));
    }
  }
  const pal = $("palette");
  pal.replaceChildren();
  for (const row of PALETTE) {
    for (const tile of row) {
      if (tile === "0m" && !S.sit.aka_5man && sh.group !== "dora" && sh.group !== "kita" && sh.mode !== "edit") continue;
      pal.append(el("button", {
        type: "button", class: "tile", "data-pick": tile, "aria-label": tileName(tile), onclick: () => pickTile(tile),
      }, tileFace(tile)));
    }
  }
  renderOverlay();
}

function seg(label, key, options, labels) {
  return el("div", { class: "field" }, el("span", { class: "label" }, t(label)),
    el("div", { class: "seg", role: "radiogroup" }, options.map((v, k) => el("button", {
      type: "button", role: "radio", "aria-checked": String(S.sit[key] === v), "data-sit": `${key}=${v}`,
      class: S.sit[key] === v ? "on" : "", onclick: () => { S.sit[key] = v; renderSituation(); rescore(); },
    }, labels ? labels[k] : String(v)))));
}

function stepper(label, key) {
  const set = (v) => { S.sit[key] = Math.max(0, v); renderSituation(); rescore(); };
  return el("div", { class: "field" }, el("span", { class: "label" }, t(label)),
    el("div", { class: "stepper" },
      el("button", { type: "button", "aria-label": `${key} -1`, onclick: () => set(S.sit[key] - 1) }, "−"),
      el("output", { "data-value": key }, String(S.sit[key])),
      el("button", { type: "button", "aria-label": `${key} +1`, "data-step": key, onclick: () => set(S.sit[key] + 1) }, "+")));
}

function toggle(key, label) {
  return el("button", {
    type: "button", class: `chip${S.sit[key] ? " on" : ""}`, "aria-pressed": String(!!S.sit[key]), "data-toggle": key,
    onclick: () => { S.sit[key] = !S.sit[key]; renderSituation(); rescore(); if (key === "aka_5man") renderSheet(); },
  }, label);
}

function renderSituation() {
  const L = S.lang === "ja" ? "ja" : "en";
  const box = $("situation");
  box.replaceChildren(
    seg("win_how", "tsumo", [false, true], [t("ron"), t("tsumo")]),
    seg("riichi", "riichi", ["none", "riichi", "double", "open", "double_open"],
      ["none", "riichi", "double", "open", "double_open"].map((r) => t(`r_${r}`))),
    seg("seat", "seat", ["E", "S", "W"], HONOR[L].slice(0, 3)),
    seg("round", "round", ["E", "S"], HONOR[L].slice(0, 2)),
    el("div", { class: "row two" }, stepper("honba", "honba"), stepper("deposits", "deposits")),
    el("div", { class: "field" }, el("span", { class: "label" }, t("extras")),
      el("div", { class: "chips" }, S_YAKU.map((k) => toggle(k, YAKU[k][lang()])))),
    el("div", { class: "field" }, el("span", { class: "label" }, t("options")),
      el("div", { class: "chips" }, toggle("discarder_riichi", t("discarder_riichi")), toggle("aka_5man", t("aka5man")))),
    S.sit.aka_5man ? seg("aka5man_as", "aka5man_as", [null, "5p", "5s"], ["—", "5p", "5s"]) : "",
    el("label", { class: "field" }, el("span", { class: "label" }, t("ura")),
      el("input", { value: S.sit.ura, placeholder: S.lang === "ja" ? "例: 4s" : "e.g. 4s", spellcheck: "false",
        onchange: (e) => { S.sit.ura = e.target.value; rescore(); } })),
  );
}

function row(label, value, cls = "") {
  return el("div", { class: `line ${cls}` }, el("span", {}, label), el("span", { class: "num" }, value));
}

// Fu reasons of the engine's fu_breakdown: "<reason>" or "<reason>_<tile>".
const FU = {
  base: ["base", "副底"], closed_ron: ["closed ron", "門前ロン"], tsumo: ["tsumo", "ツモ"],
  chiitoitsu: ["seven pairs", "七対子"], open_pinfu: ["open pinfu shape", "喰い平和形"],
  pinfu_tsumo: ["pinfu tsumo", "平和ツモ"], ron: ["open ron", "ロン"],
  wait_kanchan: ["closed wait", "嵌張待ち"], wait_penchan: ["edge wait", "辺張待ち"],
  wait_tanki: ["pair wait", "単騎待ち"], pair: ["pair", "雀頭"],
  minkou: ["open triplet", "明刻"], ankou: ["closed triplet", "暗刻"], minkan: ["open kan", "明槓"],
  ankan: ["closed kan", "暗槓"],
};
function fuName(reason) {
  const m = /^(.*?)_?([0-9][mpsz])?$/.exec(reason);
  const key = m && m[1] ? m[1] : reason;
  const name = FU[key] ? FU[key][lang()] : reason.replace(/_/g, " ");
  return m && m[2] ? `${name} ${tileName(m[2])}` : name;
}

function payer(p) {
  const who = t(`from_${p.from}`);
  if (!p.seat) return who;
  const L = S.lang === "ja" ? "ja" : "en";
  return `${who} (${HONOR[L]["ESWN".indexOf(p.seat)] || p.seat})`;
}

let resultInView = false;
function renderPill() {
  const pill = $("pill");
  const last = S.last;
  if (!last || S.sheet || resultInView) { pill.hidden = true; return; }
  pill.hidden = false;
  const b = last.body;
  if (last.kind === "error") { pill.className = "pill bad"; pill.textContent = `${t("error")}: ${b.error.message || b.error.code}`; }
  else if (last.kind === "tenpai") {
    pill.className = `pill ${b.tenpai ? "good" : "bad"}`;
    pill.textContent = b.tenpai ? `${t("tenpai")}: ${b.waits.map((w) => tileName(w.tile)).join(" ")}` : t("noten");
  } else {
    pill.className = `pill ${b.valid ? "good" : "bad"}`;
    pill.textContent = b.valid
      ? `${Number(b.total).toLocaleString()} ${t("points")} · ${b.han} ${t("han")} ${b.fu} ${t("fu")}`
      : t("invalid");
  }
}

function yakuName(id) { return YAKU[id] ? YAKU[id][lang()] : id; }

function renderResult() {
  renderPill();
  const box = $("result");
  const last = S.last;
  if (!last) { box.replaceChildren(el("p", { class: "hint" }, t("no_result"))); return; }
  if (last.kind === "error") {
    const e = last.body.error || {};
    const ja = S.lang === "ja" && ERR_JA[e.code]; // the Japanese words, when there are some
    box.replaceChildren(el("div", { class: "verdict bad", "data-verdict": "error" }, `${t("error")}: ${ja || e.message || ""}`),
      el("p", { class: "hint" }, ja ? `${e.message} (${e.code})` : e.code || ""));
    return;
  }
  const b = last.body;
  if (last.kind === "tenpai") {
    const waits = el("div", { class: "waits" }, (b.waits || []).map((w) => el("div", { class: "wait" },
      el("span", { class: "tile small" }, tileFace(w.tile)),
      el("span", {}, `${w.yaku_han} ${t("yaku_han")}`),
      el("span", { class: `num ${w.value && !w.value.valid ? "ng" : ""}`, "data-wait-total": w.value ? w.value.total : "" },
        w.value ? Number(w.value.total).toLocaleString() : "…"),
      el("span", { class: w.valid_ron ? "ok" : "ng" }, `${t("v_ron")} ${w.valid_ron ? "✓" : "✗"}`),
      el("span", { class: w.valid_tsumo ? "ok" : "ng" }, `${t("v_tsumo")} ${w.valid_tsumo ? "✓" : "✗"}`))));
    box.replaceChildren(
      el("div", { class: `verdict ${b.tenpai ? "good" : "bad"}`, "data-verdict": b.tenpai ? "tenpai" : "noten" }, b.tenpai ? t("tenpai") : t("noten")),
      b.tenpai ? el("h3", {}, t("waits")) : "", waits,
      row(t("guarantee"), b.guarantee_ok ? t("ok") : t("ng"), b.guarantee_ok ? "ok" : "ng"),
      b.noten_riichi ? el("p", { class: "error" }, t("noten_riichi")) : "");
    return;
  }
  const parts = [];
  parts.push(el("div", { class: `verdict ${b.valid ? "good" : "bad"}`, "data-verdict": b.valid ? "valid" : "invalid" },
    b.valid ? t("valid") : `${t("invalid")}: ${t(`reason_${b.reason}`)}`));
  parts.push(el("div", { class: "total" },
    el("span", { class: "big", "data-total": b.total }, Number(b.total).toLocaleString()), ` ${t("points")}`));
  const limit = b.limit ? ` · ${t(`limit_${b.limit}`)}${b.yakuman_multiple > 1 ? ` ×${b.yakuman_multiple}` : ""}` : "";
  parts.push(el("p", { class: "summary" }, `${b.han} ${t("han")} ${b.fu} ${t("fu")}${limit}`));
  parts.push(el("h3", {}, t("yaku")));
  parts.push(el("div", { class: "lines" }, (b.yaku || []).length
    ? b.yaku.map((y) => row(yakuName(y.id), `${y.han} ${t("han")}`)) : [el("p", { class: "hint" }, t("empty"))]));
  const d = b.dora || {};
  const doraLines = ["dora", "ura", "aka", "kita", "aka5man_bonus"].filter((k) => d[k]).map((k) => row(t(`d_${k}`), `${d[k]} ${t("han")}`));
  if (doraLines.length) parts.push(el("h3", {}, t("dora_")), el("div", { class: "lines" }, doraLines));
  if ((b.fu_breakdown || []).length) {
    parts.push(el("h3", {}, t("fu_breakdown")),
      el("div", { class: "lines" }, b.fu_breakdown.map((f) => row(fuName(f.reason), `${f.fu} ${t("fu")}`))));
  }
  parts.push(el("h3", {}, t("payments")),
    el("div", { class: "lines" }, (b.payments || []).map((p) => row(payer(p), Number(p.amount).toLocaleString(), p.amount < 0 ? "ng" : ""))),
    b.deposits ? row(t("deposits"), Number(b.deposits).toLocaleString()) : "",
    row(t("total"), Number(b.total).toLocaleString(), "sum"));
  if (b.guarantee) {
    const g = b.guarantee;
    parts.push(row(`${t("guarantee")} (${g.minimum_over_waits ?? "–"}/${g.required})`, g.ok ? t("ok") : t("ng"), g.ok ? "ok" : "ng"));
  }
  box.replaceChildren(...parts);
}

function renderWarnings() {
  $("warnings").replaceChildren(...S.warnings.map((w) => el("li", {}, w)));
}

function renderStatic() {
  document.documentElement.lang = S.lang;
  for (const node of document.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  $("lang").textContent = S.lang === "ja" ? "English" : "日本語";
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

// ---------- wiring ----------
$("camera").addEventListener("change", (e) => uploadPhoto(e.target.files[0]));
$("picker").addEventListener("change", (e) => uploadPhoto(e.target.files[0]));
$("type-form").addEventListener("submit", applyTyped);
$("sheet-close").addEventListener("click", closeSheet);
$("zoom").addEventListener("click", () => { S.fullPhoto = !S.fullPhoto; renderOverlay(); });
$("pill").addEventListener("click", () => $("result-card").scrollIntoView({ behavior: "smooth" }));
$("lang").addEventListener("click", () => {
  S.lang = S.lang === "ja" ? "en" : "ja";
  localStorage.setItem("sanma.lang", S.lang);
  renderAll();
});
if ("IntersectionObserver" in window) {
  new IntersectionObserver((entries) => {
    resultInView = entries[0].isIntersecting;
    renderPill();
  }, { threshold: 0.25 }).observe($("result-card"));
}
renderAll();
