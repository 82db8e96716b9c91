// The words of every page in English and Japanese, and the one language setting all pages
// share (localStorage "sanma.lang"; first visit: the phone's language). Loaded before each
// page's own script; no build step, no external requests.
"use strict";

const LANG_KEY = "sanma.lang";
const LANGS = ["en", "ja"];

function startLanguage() {
  const saved = localStorage.getItem(LANG_KEY) || localStorage.getItem("sanma-lang");
  if (LANGS.includes(saved)) return saved;
  const wanted = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language || "en"];
  return wanted.some((l) => String(l).toLowerCase().startsWith("ja")) ? "ja" : "en";
}

const Lang = {
  current: startLanguage(),
  set(lang) {
    Lang.current = lang;
    localStorage.setItem(LANG_KEY, lang);
    document.documentElement.lang = lang;
  },
  other() { return Lang.current === "ja" ? "en" : "ja"; },
  ja() { return Lang.current === "ja"; },
};
document.documentElement.lang = Lang.current;

// key: [English, Japanese]; a value may be a function of the arguments given to tr().
const TEXT = {
  // ---- shared
  title: ["sanma-lens", "三麻レンズ"], close: ["Close", "閉じる"], error: ["Error", "エラー"],
  none: ["—", "—"], lang_button: ["日本語", "English"], recorded: ["Recorded", "記録しました"],
  han: ["han", "翻"], fu: ["fu", "符"], points: ["points", "点"], ok: ["OK", "OK"],
  ron: ["Ron", "ロン"], tsumo: ["Tsumo", "ツモ"], draw: ["Draw", "流局"], chombo: ["Chombo", "錯和"],
  tenpai: ["Tenpai", "聴牌"], noten: ["Not tenpai", "ノーテン"], riichi: ["Riichi", "立直"],
  honba: ["Honba", "本場"], deposits: ["Riichi sticks", "供託"], dealer: ["dealer", "親"],
  round_name: [(w, n) => `${{ E: "East", S: "South", W: "West", N: "North" }[w]} ${n}`,
    (w, n) => `${{ E: "東", S: "南", W: "西", N: "北" }[w]}${n}局`],
  honba_n: [(n) => `${n} honba`, (n) => `${n}本場`],
  scoreboard: ["Scoreboard", "点数表"], score_photo: ["Score a photo", "写真で点数計算"],
  camera: ["Camera", "カメラ"],

  // ---- the camera page
  take_photo: ["Take photo", "撮影"], pick_photo: ["Choose photo", "写真を選ぶ"],
  tiles: ["Tiles", "牌"], situation: ["Situation", "状況"], result: ["Result", "結果"],
  type_hand: ["Type the hand (MPSZ)", "手牌を入力 (MPSZ)"],
  f_hand: ["Hand (without the winning tile)", "手牌 (和了牌を除く)"],
  f_win: ["Winning tile (empty: tenpai check)", "和了牌 (空欄で聴牌判定)"],
  f_melds: ["Melds", "副露"], f_kita: ["Kita (norths, 0m = aka-5-man)", "抜きドラ (0m=赤五萬)"],
  f_dora: ["Dora indicators", "ドラ表示牌"], apply: ["Apply", "反映"],
  no_result: ["Take a photo or type a hand.", "写真を撮るか手牌を入力してください。"],
  g_hand: ["Hand", "手牌"], g_win: ["Winning tile", "和了牌"], g_meld: ["Melds", "副露"],
  g_kita: ["Kita", "抜き北"], g_dora: ["Dora indicators", "ドラ表示牌"], g_ura: ["Ura indicators", "裏ドラ表示牌"],
  g_other: ["Other tiles (not counted)", "その他の牌 (数えない)"],
  other_hint: ["Tiles seen beside the hand: move one into the hand if it belongs there.",
    "手牌の外で見つかった牌です。手牌の牌なら移動してください。"],
  add: ["+ tile", "+ 牌"], new_meld: ["+ meld", "+ 副露"], del: ["Delete", "削除"],
  change_to: ["Change this tile", "この牌を変更"], likely: ["Maybe", "候補"], add_to: ["Add a tile to", "牌を追加:"],
  move_to: ["Move to", "移動:"], meld_kind: ["Meld kind", "副露の種類"],
  m_pon: ["Pon", "ポン"], m_minkan: ["Open kan", "明槓"], m_kakan: ["Added kan", "加槓"], m_ankan: ["Closed kan", "暗槓"],
  win_how: ["Win", "和了"], r_none: ["None", "なし"], r_riichi: ["Riichi", "立直"],
  r_double: ["Double", "ダブル"], r_open: ["Open", "オープン"], r_double_open: ["Double open", "Wオープン"],
  seat: ["Seat", "自風"], round: ["Round", "場風"],
  extras: ["Situational yaku", "状況役"], options: ["Options", "オプション"],
  aka5man: ["Aka-5-man rule", "赤五萬ルール"], aka5man_as: ["Aka-5-man taken as", "赤五萬を"],
  discarder_riichi: ["Discarder in riichi", "放銃者が立直"],
  cannot_apply: ["cannot apply here", "この状況では不可"],
  valid: ["Valid win", "和了成立"], invalid: ["Not a valid win", "和了不成立"],
  reason_no_win_shape: ["no winning shape", "和了形でない"],
  reason_insufficient_yaku: [(n) => `fewer than ${n} han from yaku`, (n) => `役${n}翻縛りを満たさない`],
  reason_furiten: ["furiten: a wait is among your own discards", "フリテン (自分の捨て牌に待ちがある)"],
  reason_yakuman_only: ["only a yakuman may ron a kita or rob a closed kan", "役満以外は北・暗槓でロンできない"],
  total: ["Total", "合計"], yaku: ["Yaku", "役"], dora_: ["Dora", "ドラ"], fu_breakdown: ["Fu", "符の内訳"],
  payments: ["Payments", "支払い"], from_discarder: ["discarder", "放銃者"],
  from_dealer: ["dealer", "親"], from_child: ["child", "子"],
  d_dora: ["dora", "ドラ"], d_ura: ["ura", "裏ドラ"], d_aka: ["red fives", "赤ドラ"], d_kita: ["kita", "抜き北"],
  d_aka5man_bonus: ["aka-5-man", "赤五萬"],
  guarantee: ["2-han guarantee over waits", "役2翻の保証"], ng: ["not met", "不成立"],
  waits: ["Waits", "待ち"], yaku_han: ["yaku han", "役翻"],
  noten_riichi: ["No-ten riichi: chombo at the draw", "ノーテン立直 (流局時チョンボ)"],
  uploading: ["Reading the photo…", "写真を解析中…"],
  tiles_found: [(n) => `${n} tiles found — tap a tile to correct it.`, (n) => `${n}枚認識 — 牌をタップして修正`],
 
  limit_mangan: ["Mangan", "満貫"], limit_haneman: ["Haneman", "跳満"],
  limit_baiman: ["Baiman", "倍満"], limit_sanbaiman: ["Sanbaiman", "三倍満"], limit_yakuman: ["Yakuman", "役満"],
  empty: ["(none)", "(なし)"], zoom: ["Whole photo", "写真全体"],
  crop_of: ["The tile in the photo", "写真の牌"],
  // the table's words for a win (the explain object's call)
  call_ron: [(who, a) => `${who === "dealer" ? "Dealer ron" : "Ron"} ${a}`, (who, a) => `${who === "dealer" ? "親" : "子"}ロン ${a}`],
  call_tsumo: [(c, d) => `Tsumo ${c}–${d}`, (c, d) => `子ツモ ${c}-${d}`],
  call_all: [(a) => `${a} all`, (a) => `${a}オール`],
  base_line: [(fu, han, raw) => `${fu} fu ${han} han: base ${raw}`, (fu, han, raw) => `${fu}符${han}翻: 基本点 ${raw}`],
  base_limit: [(name, base) => `${name}: base ${base}`, (name, base) => `${name}: 基本点 ${base}`],
  share_line: [(who, times, share, rounded) => `${who}: ${times} × base = ${share} → ${rounded}`,
    (who, times, share, rounded) => `${who}: 基本点×${times} = ${share} → ${rounded}`],
 
  bonus_line: [(a) => `Tsumo bonus: +${a} from each payer`, (a) => `ツモ加算: 各自 +${a}`],
  honba_line: [(n, a) => `${n} honba: +${a} from each payer`, (n, a) => `${n}本場: 各自 +${a}`],
  factor_line: [(f) => `Aka-5-man extracted: every payment ×${f}`, (f) => `赤五萬抜き: 支払い×${f}`],
  deposit_line: [(a) => `Riichi sticks on the table: +${a}`, (a) => `供託: +${a}`],
  split: ["Sets", "面子"], wait_on: [(shape, tile) => `Wait: ${shape} on ${tile}`, (shape, tile) => `待ち: ${tile}の${shape}`],
  w_ryanmen: ["two-sided", "両面"], w_kanchan: ["closed", "嵌張"], w_penchan: ["edge", "辺張"],
  w_tanki: ["pair", "単騎"], w_shanpon: ["double pair", "双碰"], w_kokushi: ["kokushi", "國士無双"],
  w_kokushi_13: ["13-sided", "十三面"], w_none: ["—", "—"],
  called: ["called", "鳴き"], closed_kan: ["closed kan", "暗槓"],
  yakuhai_as: [(tile, why) => `Yakuhai ${tile} (${why})`, (tile, why) => `役牌 ${tile} (${why})`],
  as_dragon: ["dragon", "三元牌"], as_seat: ["seat wind", "自風"], as_round: ["round wind", "場風"], as_north: ["north", "北"],
  chombo_title: ["Chombo (false win, 錯和)", "錯和 (チョンボ)"],
  chombo_waits: [(req, waits) => `Fewer than ${req} han from yaku on: ${waits}`, (req, waits) => `役${req}翻に届かない待ち: ${waits}`],
  chombo_furiten: [(waits) => `Furiten on: ${waits} (in your discards)`, (waits) => `フリテンの待ち: ${waits} (自分の捨て牌)`],
  chombo_shape: ["The tiles are not a winning shape: check the tiles.", "和了形ではありません。牌を確認してください。"],
  chombo_pays: ["The claimant pays a mangan (chombo):", "和了宣言者が満貫払い (チョンボ):"],

  // ---- warnings from the camera: codes phrased here, else the server's message
  warn_check: [(m) => m, (m) => `確認してください: ${m}`],

  // ---- the game panel on the camera page
  game_hand: [(r, h) => `Game: ${r}, ${h}`, (r, h) => `対局: ${r} ${h}`],
  this_photo: ["This photo is", "この写真は"], p_win: ["A win", "和了"], p_draw: ["A hand at a draw", "流局の手牌"],
  whose: ["Whose hand", "誰の手牌"], from_whom: ["Dealt in by", "放銃者"], riichi_sticks: ["Declared riichi this hand", "この局の立直"],
  record_win: [(call) => `Record in the game: ${call}`, (call) => `対局に記録: ${call}`],
  record_chombo: [(name) => `Record chombo by ${name}`, (name) => `${name}の錯和を記録`],
  draw_status: ["Tenpai at the draw", "流局時の聴牌"], unchecked: ["not checked", "未確認"],
  mark_tenpai: ["Tenpai", "聴牌"], mark_noten: ["Not tenpai", "ノーテン"],
  noten_riichi_mark: ["no-ten riichi", "ノーテン立直"], record_draw: ["Record the draw", "流局を記録"],
  checked_by_engine: ["checked by the engine", "判定済み"],
  game_missing: ["The game could not be opened.", "対局を開けませんでした。"],
  need_tenpai_check: ["Photograph or type this hand: the engine checks tenpai.", "手牌を撮影または入力すると聴牌を判定します。"],

  // ---- the scoreboard
  newGame: ["New hanchan", "新しい半荘"], seatE: ["First dealer (East)", "起家 (東)"], seatS: ["South", "南家"],
  seatW: ["West", "西家"], seatN: ["North", "北家"], moreRules: ["More rules", "ルール詳細"],
  ruleSystem: ["Rules", "ルール"], presetSanma: ["Sanma ver 1.3 (3 players)", "三人麻雀 ver 1.3"],
  presetEcip: ["ECIP (4 players)", "ECIP (四人)"], presetStandard: ["Standard (4 players)", "標準ルール (四人)"],
  abortive: ["Abortive draw", "途中流局"], nagashiMangan: ["Nagashi mangan", "流し満貫"],
  closedWin: ["Closed hand?", "門前か"], closedYes: ["Closed", "門前"], closedNo: ["Called", "副露あり"],
  pao: ["Pao (pays it all)", "包 (責任払い)"], moreMisCall: ["More (mis-call)", "その他 (誤碰)"],
  startPoints: ["Start points", "配給原点"], returnPoints: ["Return points", "返し"], uma: ["Uma", "ウマ"],
  doubleRonHonba: ["Honba on a double ron", "ダブロンの積み棒"], honbaEach: ["to each winner", "両者に付く"],
  honbaFirst: ["to the first winner only", "上家のみ"], start: ["Start", "開始"], gameId: ["Game ID", "対局 ID"],
  open: ["Open", "開く"], depositsShort: ["Deposits", "供託"], enterHand: ["Hand result", "局の結果"],
  discarder: ["Discarder", "放銃者"], nagashi: ["Nagashi yakuman", "流し役満"],
  nagashiDouble: ["(double riichi)", "(ダブリー)"], notenRiichi: ["No-ten riichi", "ノー聴立直"],
  offender: ["Offender", "錯和した人"], aka5manBy: ["Aka-5-man extracted by", "赤五萬を抜いた人"],
  record: ["Record", "記録"], undo: ["Undo last hand", "一局戻す"], export: ["Export (JSON)", "書き出し (JSON)"],
  leave: ["Other game", "別の対局"], settlement: ["Settlement", "精算"], rank: ["Rank", "順位"],
  name: ["Name", "名前"], score: ["Score", "点数"], pointsCol: ["Points", "ポイント"], log: ["Hands", "記録"],
  winner: ["Winner", "和了者"], hanFu: ["Han / fu", "翻・符"], limit: ["Limit", "満貫以上"],
  mangan: ["Mangan", "満貫"], haneman: ["Haneman", "跳満"], baiman: ["Baiman", "倍満"],
  sanbaiman: ["Sanbaiman", "三倍満"], yakuman: ["Yakuman", "役満"], doubleRon: ["Double ron", "ダブロン"],
  more: ["More (mis-call, manemann)", "その他 (誤碰・真似満)"], misCall: ["Mis-call", "誤碰・誤吃"],
  manemann: ["Manemann", "真似満"], copied: ["copying", "← 真似された人"], turns: ["turns", "巡"],
  transfers: ["Transfers", "点数の移動"], import: ["Import an exported file", "書き出したファイルを読み込む"],
  badFile: ["The file is not JSON", "JSON ファイルが読めません"], finished: ["Game over", "終局"],
  value: [(han, fu) => `${han} han${fu ? ` ${fu} fu` : ""}`, (han, fu) => `${han}翻${fu ? fu + "符" : ""}`],
  undone: ["Last hand undone", "一局戻しました"],
  conflict: ["The game changed on another device; showing the latest state.", "他の端末で更新されました。最新の状態を表示します。"],
  breakdown_line: [(s) => `base ${s.base} · oka ${s.oka} · uma ${s.uma} · bust ${s.bust} · yakuman ${s.yakuman}`,
    (s) => `素点 ${s.base} · オカ ${s.oka} · ウマ ${s.uma} · 飛び賞 ${s.bust} · 役満祝儀 ${s.yakuman}`],
  bust: ["bust", "飛び"], scorePhotoHint: ["Score the winner's hand with the camera, then record it here in one tap.",
    "和了者の手牌をカメラで計算し、そのまま記録できます。"],
  checkTenpai: ["Check each hand with the camera", "カメラで聴牌を確認"],
 
 
  move_ron: ["ron", "ロン"], move_tsumo: ["tsumo", "ツモ"], move_deposits: ["deposits", "供託"], move_riichi: ["riichi stick", "立直棒"],
  move_noten: ["no-ten payment", "ノー聴罰符"], move_nagashi: ["nagashi", "流し"], move_manemann: ["manemann", "真似満"],
  move_pao: ["pao", "包"],
  move_chombo: ["chombo", "錯和"], move_aka5man_mangan: ["aka-5-man mangan", "赤五萬満貫払い"], move_mis_call: ["mis-call", "誤碰"],
  move_deposits_to_top: ["deposits to top", "供託→トップ"],
  wind_E: ["E", "東"], wind_S: ["S", "南"], wind_W: ["W", "西"], wind_N: ["N", "北"],
  honor_1: ["East", "東"], honor_2: ["South", "南"], honor_3: ["West", "西"], honor_4: ["North", "北"],
  honor_5: ["White", "白"], honor_6: ["Green", "發"], honor_7: ["Red", "中"],

  // ---- ability mahjong (能力麻雀): the roles on both pages
  role_tenshi: ["Tenshi", "天子"], role_seiryuu: ["Seiryuu", "青龍"], role_suzaku: ["Suzaku", "朱雀"],
  role_byakko: ["Byakko", "白虎"], role_genbu: ["Genbu", "玄武"], role_kouryuu: ["Kouryuu", "黄龍"],
  abilityGame: ["Ability mahjong (roles)", "能力麻雀 (役職あり)"], roles: ["Roles", "役職"],
  roleSeatE: ["Role of the first dealer", "起家の役職"], roleSeatS: ["Role of South", "南家の役職"],
  roleSeatW: ["Role of West", "西家の役職"],
  byakkoDeclare: ["Byakko declared (before the deal)", "白虎宣言 (配牌前)"],
  mustDeclare: ["must declare this hand", "この局は宣言必須"],
  kanpa: ["Kanpa (genbu)", "看破 (玄武)"], addKanpa: ["+ kanpa", "+ 看破"], kanpaBy: ["Genbu", "玄武"],
  kanpaTarget: ["against", "対象"], kanpaTile: ["tile", "牌"], remove: ["Remove", "削除"],
  seiryuuHan: ["Seiryuu: han of its extra indicators", "青龍: 追加表示牌の翻"],
  seiryuuDeposit: [(list) => `Seiryuu's deposit at the hand's start: ${list}`, (list) => `青龍の供託 (局の開始時): ${list}`],
  byakkoMust: [(names) => `Must declare byakko this hand: ${names}`, (names) => `この局は白虎宣言が必要: ${names}`],
  declaredLog: [(names) => `byakko declared: ${names}`, (names) => `白虎宣言: ${names}`],
  kanpaLog: [(by, target, tile) => `kanpa ${by} → ${target} ${tile}`, (by, target, tile) => `看破 ${by}→${target} ${tile}`],
  upgradeLog: [(from, to) => `byakko: ${from} counted as ${to}`, (from, to) => `白虎: ${from}を${to}と見做す`],
  move_seiryuu_deposit: ["seiryuu deposit", "青龍の供託"], move_byakko_mangan: ["byakko mangan", "白虎の満貫払い"],
  move_kouryuu: ["kouryuu 1,000", "黄龍の千点"],
  g_extra: ["Seiryuu: next kan-dora indicator and its ura", "青龍: 次の槓ドラ・槓裏の表示牌"], m_chi: ["Chi", "チー"],
  ab_title: ["Role", "役職"], d_extra: ["next kan dora (seiryuu)", "次の槓ドラ (青龍)"],
  ab_role: [(r) => `Winner's role: ${r}`, (r) => `和了者の役職: ${r}`],
  ab_seiryuu: [(ura, extra, han) => `Seiryuu's extra indicators: ura ${ura}, next kan indicators ${extra} (+${han} han)`,
    (ura, extra, han) => `青龍の追加表示牌: 裏 ${ura}・次の槓 ${extra} (+${han}翻)`],
  ab_seiryuu_blank: ["They added nothing: the next deposit is 4,000.", "翻が増えなかったので次局の供託は4,000点。"],
  ab_suzaku: [(a) => `Suzaku receives half, rounded up to 1,000 (in full: ${a})`, (a) => `朱雀は半額 (千点未満切り上げ)。通常: ${a}`],
  ab_upgrade: [(from, to) => `Byakko declared: ${from} counts as ${to}`, (from, to) => `白虎宣言: ${from}を${to}と見做す`],
  ab_byakko_pays: [(a, net) => `Byakko declared, 5 han or less: then pays ${a} (net ${net})`,
    (a, net) => `白虎宣言で5翻以下: 受け取った後に満貫払い ${a} (差し引き ${net})`],
  ab_kanpa: [(tile) => `Under kanpa on ${tile}`, (tile) => `看破されている牌: ${tile}`],
  reason_kanpa: ["a win on the kanpa tile", "看破された牌での和了"], kanpa_wait: ["kanpa", "看破"],
};

// Yaku ids and names (docs/rules.md).
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
  sanshoku_doujun: ["Sanshoku doujun", "三色同順"], shousuushii: ["Shousuushii", "小四喜"],
  daisuushii: ["Daisuushii", "大四喜"],
};

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

// Error codes of the engine and the service, in players' words (the message stays as detail).
const ERRORS = {
  tile_count: ["The number of tiles does not fit a hand: check for a missing or extra tile.", "牌の枚数が合いません。足りない牌・余分な牌を確認してください。"],
  fifth_tile: ["A tile appears five times: one of them is misread.", "同じ牌が5枚あります。どれかが誤認識です。"],
  unknown_tile: ["A tile cannot be read.", "読めない牌があります。"],
  invalid_tile: ["A tile these rules do not use (2m–8m at sanma; red fives in ECIP and standard).",
    "このルールにない牌があります (三麻の2萬〜8萬、ECIP・標準ルールの赤五)。"],
  bad_meld: ["A meld has the wrong tiles.", "副露の牌が正しくありません。"],
  bad_win: ["The winning tile cannot be read.", "和了牌が正しくありません。"],
  inconsistent_situation: ["Two situation options contradict each other.", "状況の組み合わせが矛盾しています。"],
  bad_tiles: ["The tiles are not written in MPSZ.", "牌の書き方が正しくありません。"],
  not_an_image: ["The file is not a JPEG, PNG or WebP photo.", "JPEG・PNG・WebP の写真ではありません。"],
  upload_too_large: ["The photo is too large.", "写真が大きすぎます。"],
  image_too_large: ["The photo has too many pixels.", "写真の画素数が多すぎます。"],
  busy: ["The server is busy: try again in a moment.", "混み合っています。少し待ってからもう一度。"],
  model_unavailable: ["Photo recognition is not available on this server: type the hand below.",
    "この端末では写真認識が使えません。手牌を入力してください。"],
  invalid_win: ["The hand is not a valid win: record a chombo instead.", "和了が成立していません。錯和として記録してください。"],
  riichi_mismatch: ["The riichi of the hand and of the game differ.", "手牌と対局の立直が一致しません。"],
  closed_needed: ["Say whether the winning hand was closed: only a closed win takes the deposits.",
    "和了形が門前かどうかを選んでください (供託は門前の和了者のみ受け取ります)。"],
  bad_pao: ["Pao is for a yakuman tsumo fed by another player's call.", "包は他家の鳴かせで確定した役満のツモに付きます。"],
  seq_conflict: ["The game changed on another device; showing the latest state.", "他の端末で更新されました。最新の状態を表示します。"],
  game_not_found: ["The game could not be opened.", "対局を開けませんでした。"],
  bad_response: ["The server did not answer.", "サーバーが応答しません。"],
  offline: ["No connection to the server.", "サーバーに接続できません。"],
  byakko_must_declare: ["The byakko has not declared for two hands: it must declare this hand.", "白虎が2局続けて宣言していません。この局は宣言が必要です。"],
  bad_byakko: ["Only a byakko declares.", "白虎宣言は白虎だけができます。"],
  bad_kanpa: ["That kanpa cannot be: a genbu declares once against each other player.", "その看破はできません (玄武が他家1人につき1局1回)。"],
  seiryuu_han_needed: ["The seiryuu won: give the han of its extra indicators (0 if none).", "青龍の和了です。追加表示牌の翻数を入力してください (なければ0)。"],
  role_mismatch: ["The hand's role fields differ from the game's.", "手牌の役職の情報が対局と一致しません。"],
  chi_not_allowed: ["Only the suzaku may chi.", "チーできるのは朱雀だけです。"],
  bad_roles: ["Give each player one of the six roles.", "各競技者に6つの役職のどれかを選んでください。"],
  ability_off: ["This game is played without roles.", "この対局は役職なしです。"],
};

// Recognition warnings by code (recognize JSON's warning_details): the words, from the params.
// A code not listed here falls back to the server's message.
const WARNINGS = {};

function tr(key, ...args) {
  const entry = TEXT[key];
  if (!entry) return key;
  const v = entry[Lang.ja() ? 1 : 0];
  return typeof v === "function" ? v(...args) : v;
}

function pick(table, key, fallback) {
  const entry = table[key];
  return entry ? entry[Lang.ja() ? 1 : 0] : fallback;
}

function yakuName(id) { return pick(YAKU, id, id); }

function errorText(error) {
  // The error in players' words; the server's own message when the code is not known here.
  if (!error) return "";
  return pick(ERRORS, error.code, null) || error.message || error.code || "";
}

function warningText(message, detail) {
  // One recognition warning: its code phrased in this language, else the server's message.
  if (detail && WARNINGS[detail.code]) {
    const phrase = WARNINGS[detail.code][Lang.ja() ? 1 : 0];
    return typeof phrase === "function" ? phrase(detail.params || {}) : phrase;
  }
  // until a code is known here: the message, without the rule section it may cite ("(§1)")
  const text = ((detail && detail.message) || message).replace(/\s*\(§[^)]*\)/g, "");
  return tr("warn_check", text);
}

function fmtNum(n) { return Number(n).toLocaleString("en-US"); }

function translateStatic(root = document) {
  // Elements marked data-t="key" show that key's words.
  for (const node of root.querySelectorAll("[data-t]")) node.textContent = tr(node.dataset.t);
}

// The app shell is cached by a service worker so that the page reopens at once (and offline).
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  window.addEventListener("load", () => { navigator.serviceWorker.register("/sw.js").catch(() => {}); });
}
