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
  type_no_digits: [(ch) => `"${ch}" has no digits before it: write the digits, then the suit letter (123p).`,
    (ch) => `「${ch}」の前に数字がありません。数字の後に種類の文字を書いてください (例: 123p)。`],
  type_bad_char: [(ch) => `"${ch}" is neither a digit nor a suit letter (m, p, s, z).`,
    (ch) => `「${ch}」は数字でも種類の文字 (m・p・s・z) でもありません。`],
  type_no_suit: [(d) => `The digits "${d}" have no suit letter after them (m, p, s, z).`,
    (d) => `数字「${d}」の後に種類の文字 (m・p・s・z) がありません。`],
  type_one_win: ["One winning tile only.", "和了牌は1枚だけです。"],
  type_meld: [(word) => `"${word}" is not a meld: write its kind, a colon and its tiles (pon:777z ankan:9999s).`,
    (word) => `「${word}」は副露の書き方ではありません。種類:牌 の形で書いてください (例: pon:777z ankan:9999s)。`],
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
  call_halved: ["(suzaku: half)", "(朱雀・半額)"],
  halve_line: [(who, full, got) => `Half to the suzaku: ${who} ${full} → ${got}`,
    (who, full, got) => `朱雀は半額: ${who} ${full} → ${got}`],
  headline_byakko_pays: [(paid, net) => `Then the byakko pays a mangan, ${paid}: net ${net}`,
    (paid, net) => `白虎の満貫払い ${paid} → 差し引き ${net}`],
  net_short: [(net) => `net ${net}`, (net) => `差し引き ${net}`],
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
  chombo_kanpa_tsumo: [(tile) => `Under kanpa on ${tile}: no win by tsumo on it.`, (tile) => `${tile}を看破されているので、${tile}ではツモ和了できません。`],
  chombo_kanpa_ron: [(tile) => `Under kanpa on ${tile}: no ron on it when a genbu discarded it.`, (tile) => `${tile}を看破されているので、玄武が捨てた${tile}ではロン和了できません。`],
  refused_title: ["No win", "和了できません"],
  refused_pays: ["Nothing is paid (these rules do not make it a chombo); the hand plays on.", "支払いはありません (このルールでは錯和になりません)。局は続きます。"],

    // ---- a form field the browser refuses (its own bubble would speak the browser's language)
  v_missing: ["Fill this in.", "入力してください。"],
  v_number: ["Enter a number.", "数字を入力してください。"],
  v_min: [(min) => `At least ${min}.`, (min) => `${min}以上にしてください。`],
  v_max: [(max) => `At most ${max}.`, (max) => `${max}以下にしてください。`],
  v_step: [(step) => `In steps of ${step}.`, (step) => `${step}刻みで入力してください。`],
  v_format: ["Check the format.", "形式を確認してください。"],
  gameIdHint: ["A game ID is 32 characters: digits and a–f.", "対局 ID は32文字 (数字と a〜f) です。"],

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
  // choosing roles (¶1): one after another from the first chooser, in turn order
  choosesFirst: ["Chooses a role first", "最初に役職を選ぶ人"],
  choosingHint: ["Each player chooses in turn order from the first chooser: in the first block the first dealer, in later blocks the top player of the hanchan before.",
    "最初の人から順番 (左回り) に役職を選びます。最初のブロックは起家から、以降は直前の半荘のトップから。"],
  roleChooser: [(k, name, seat) => `${k}. ${name} — ${seat}`, (k, name, seat) => `${k}番目: ${name}・${seat}`],
  nameSeat: [(name, seat) => `${name} — ${seat}`, (name, seat) => `${name}・${seat}`],
  rolesMayRepeat: ["Two players may hold the same role", "同じ役職を複数人が選べる"],
  // blocks of four hanchan (¶1): standings summed, one hanchan after another
  asBlock: ["Keep a block of four hanchan (standings summed)", "4半荘のブロックとして記録 (成績を合計)"],
  blockTitle: ["Ability block", "能力麻雀ブロック"], blockStandings: ["Standings", "順位表"],
  blockLine: [(n, total) => `Ability block: hanchan ${n} of ${total}`, (n, total) => `能力麻雀ブロック 第${n}半荘 (全${total}半荘)`],
  blockProgress: [(done, total) => `${done} of ${total} hanchan finished`, (done, total) => `${total}半荘中 ${done}半荘終了`],
  perGame: ["Each hanchan", "各半荘"], blockTotal: ["Total", "合計"],
  blockGame: [(n) => `Hanchan ${n}`, (n) => `第${n}半荘`],
  blockPlaying: ["playing", "対局中"], blockShown: ["shown", "表示中"],
  blockTop: [(name) => `top: ${name}`, (name) => `トップ: ${name}`],
  choseOrder: [(names) => `Roles were chosen in the order ${names}`, (names) => `役職の選択順: ${names}`],
  nextTitle: [(n) => `Hanchan ${n}: seats`, (n) => `第${n}半荘の席順`],
  nextSeatsHint: ["Seat the players as they sit for this hanchan; the roles stay for the whole block.",
    "この半荘の席順を選んでください。役職はブロックの間変わりません。"],
  startNext: ["Start the next hanchan", "次の半荘を開始"],
  openLatest: [(n) => `Open hanchan ${n}, the block's latest`, (n) => `最新の第${n}半荘を開く`],
  blockOver: ["The block's four hanchan are over.", "ブロックの4半荘が終わりました。"],
  nextBlockOrder: [(names) => `Next block: roles are chosen in the order ${names}`, (names) => `次のブロックの役職選択順: ${names}`],
  newBlock: ["Start the next block", "次のブロックを始める"],
  blockStarted: ["Block started: hanchan 1", "ブロックを開始しました (第1半荘)"],
  nextStarted: [(n) => `Hanchan ${n} started`, (n) => `第${n}半荘を開始しました`],
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
  yakuhai: ["Yakuhai", "役牌"], pinfu: ["Pinfu", "平和"], kui_pinfu: ["Kui pinfu", "喰い平和"],
  tanyao: ["Tanyao", "断么九"],
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

// Error codes of the engine, the game keeper and the service (every code they answer with:
// tests/api/test_error_phrases.py collects them from the code), in players' words: what went
// wrong and what to do. The server's own message (English) says exactly where; the English
// page shows it beside the phrase.
const ERRORS = {
  // ---- the tiles of a hand (scoring, tenpai, a photo's hand)
  tile_count: ["The number of tiles does not fit a hand: check for a missing or extra tile.", "牌の枚数が合いません。足りない牌・余分な牌を確認してください。"],
  fifth_tile: ["A tile appears more than four times: one of them is misread; correct it.", "同じ牌が5枚以上あります。どれかが誤認識なので直してください。"],
  too_many_red: ["More red fives than these rules have (an aka-5-man only with the aka-5-man rule): correct the tile, or check the rules.",
    "赤牌がルールの枚数より多くあります (赤五萬は赤五萬ルールのときだけ)。牌を直すか、ルールを確認してください。"],
  unknown_tile: ["A tile does not exist (honours are 1z–7z): correct it.", "存在しない牌があります (字牌は1z〜7z)。直してください。"],
  invalid_tile: ["A tile these rules do not use (2m–8m at sanma; red fives in ECIP and standard): correct it.",
    "このルールにない牌があります (三麻の2萬〜8萬、ECIP・標準ルールの赤五)。直してください。"],
  bad_tiles: ["Tiles are written as digits, then their suit letter (123p 55z): correct what was typed.",
    "牌は数字の後に種類の文字で書きます (例: 123p 55z)。入力を直してください。"],
  bad_meld: ["A meld's kind and tiles do not match (a pon is three alike, a kan four): check the meld.",
    "副露の種類と牌が合いません (ポンは同じ牌3枚、槓は4枚)。副露を確認してください。"],
  chi_not_allowed: ["No chi in these rules (in ability mahjong only the suzaku may chi): make the meld a pon or a kan.",
    "このルールにチーはありません (能力麻雀では朱雀だけ)。副露をポンか槓にしてください。"],
  missing_field: ["The hand or its winning tile is missing: add it.", "手牌か和了牌がありません。入力してください。"],
  unexpected_win: ["A tenpai check takes the hand without a winning tile: remove the winning tile.", "聴牌判定では和了牌を入れません。和了牌を外してください。"],
  inconsistent_situation: ["Two choices of the situation contradict each other: change one of them.", "状況の選択が矛盾しています。どちらかを変えてください。"],
  bad_value: ["A choice of the hand is not allowed under these rules (e.g. kita in a four-player game): check the situation and the tiles.",
    "このルールでは使えない選択があります (例: 四人麻雀の抜き北)。状況と牌を確認してください。"],
  role_required: ["Ability mahjong's choices need the winner's role: choose who won.", "能力麻雀の項目には和了者の役職が必要です。和了者を選んでください。"],
  // ---- a photo
  not_an_image: ["The file is not a JPEG, PNG or WebP photo: choose a photo.", "JPEG・PNG・WebP の写真ではありません。写真を選んでください。"],
  empty_image: ["The photo file is empty: take or choose it again.", "写真のファイルが空です。撮り直すか選び直してください。"],
  truncated_image: ["The photo file is cut off: take or choose it again.", "写真のファイルが途中で切れています。撮り直すか選び直してください。"],
  corrupt_image: ["The photo file is damaged: take or choose it again.", "写真のファイルが壊れています。撮り直すか選び直してください。"],
  unsupported_image: ["This kind of image cannot be read: use a JPEG, PNG or WebP photo.", "この形式の画像は読めません。JPEG・PNG・WebP の写真を使ってください。"],
  upload_too_large: ["The photo is too large: take it at a lower resolution.", "写真が大きすぎます。解像度を下げて撮ってください。"],
  image_too_large: ["The photo has too many pixels: take it at a lower resolution.", "写真の画素数が多すぎます。解像度を下げて撮ってください。"],
  too_many_tiles: ["The photo shows too many tiles: photograph the hand alone, closer.", "写真に牌が多すぎます。手牌だけを近くから撮ってください。"],
  photo_timeout: ["Reading the photo took too long: photograph the hand alone, closer.", "写真の解析に時間がかかりすぎました。手牌だけを近くから撮ってください。"],
  model_unavailable: ["Photo recognition is not available on this server: type the hand below.",
    "このサーバーでは写真認識が使えません。手牌を下に入力してください。"],
  busy: ["The server is busy reading other photos: try again in a moment.", "他の写真を解析中で混み合っています。少し待ってからもう一度試してください。"],
  duplicate_field: ["The upload was sent twice over: send the photo again.", "送信内容が重複しています。写真をもう一度送ってください。"],
  unreadable_file: ["The file cannot be read: check the file.", "ファイルを読めません。ファイルを確認してください。"],
  not_found: ["It is no longer on the server.", "サーバーに見つかりません。"],
  // ---- the game keeper: starting a game or a block
  bad_players: ["Give each player a different name of at most 40 characters (or leave all empty).", "競技者には40文字以内の別々の名前を付けてください (全員空欄でも可)。"],
  bad_rules: ["These rule settings do not fit together (points in whole 1,000s, return points at least the start points): check “More rules”.",
    "ルール設定が成り立ちません (点数は千点単位、返しは配給原点以上)。「ルール詳細」を確認してください。"],
  bad_rule_option: ["A rule setting has a value it cannot take: check “More rules”.", "ルール設定の値が正しくありません。「ルール詳細」を確認してください。"],
  unknown_rule_option: ["A rule setting is not known on this server: reload the page.", "このサーバーにないルール設定です。ページを再読み込みしてください。"],
  unknown_preset: ["Unknown rules: choose them from the list.", "知らないルールです。一覧から選んでください。"],
  preset_not_kept: ["ECIP's rules say nothing of a three-player game's points and payments, so the scoreboard keeps ECIP with four players only: choose ECIP (four players), or score three-player ECIP hands with the camera.",
    "ECIP のルールには三人打ちの持ち点や支払いの定めがないため、点数表は四人の ECIP だけを扱います。ECIP (四人) を選ぶか、三人打ちの手はカメラで点数計算してください。"],
  bad_roles: ["Give each player one of the six roles.", "各競技者に6つの役職のどれかを選んでください。"],
  ability_off: ["This game is played without roles: remove the byakko declaration and the kanpa.", "この対局は役職なしです。白虎宣言と看破を外してください。"],
  aka5man_off: ["This game is played without the aka-5-man rule: clear “Aka-5-man extracted by”.", "この対局は赤五萬ルールなしです。「赤五萬を抜いた人」を空欄にしてください。"],
  bad_block: ["The player to choose a role first does not sit at this table: choose one of the players.", "最初に役職を選ぶ人がこの卓にいません。競技者から選んでください。"],
  too_many_games: ["Too many new games from this device: try again later.", "この端末からの新しい対局が多すぎます。しばらくしてから試してください。"],
  // ---- the game keeper: a hand's result
  bad_hand_result: ["The hand's result is incomplete or contradictory: check the outcome and what it needs.", "局の結果が不完全か矛盾しています。結果とその入力を確認してください。"],
  bad_result: ["An entry does not belong to this outcome or these rules (e.g. tenpai on a win): check the outcome.", "この結果かルールに合わない入力があります (例: 和了に聴牌)。結果を確認してください。"],
  bad_outcome: ["These rules have no such outcome (e.g. no abortive draw): choose another.", "このルールにない結果です (例: 途中流局なし)。別の結果を選んでください。"],
  bad_player: ["A player is chosen twice, or one who is not at the table: check who is chosen.", "競技者の選択が重複しているか、卓にいない人です。選択を確認してください。"],
  bad_ron: ["A ron needs the discarder and a winner other than the discarder (two winners only on a double ron).",
    "ロンには放銃者と、放銃者以外の和了者が必要です (和了者2人はダブロンのときだけ)。"],
  bad_tsumo: ["A tsumo has one winner and no discarder.", "ツモの和了者は1人で、放銃者はいません。"],
  bad_win: ["Give each win once: its winner and one value (han and fu, a limit, or the hand scored with the camera).",
    "和了ごとに和了者と点数を1つずつ入力してください (翻・符、満貫以上、またはカメラで計算した手牌)。"],
  bad_han: ["Han is a whole number from 1 to 200.", "翻は1〜200の整数です。"],
  bad_fu: ["Fu is 20, 25 or a multiple of 10 up to 140: choose the fu again.", "符は20・25か、140までの10の倍数です。符を選び直してください。"],
  bad_limit: ["Choose a limit from mangan to yakuman, and a yakuman count from 1 to 8.", "満貫〜役満から選び、役満の倍数は1〜8にしてください。"],
  bad_amount: ["A payment is not a whole number of the game's point unit: check the amounts.", "支払いが対局の点数単位の倍数になっていません。点数を確認してください。"],
  bad_chombo: ["Choose who made the chombo.", "錯和した人を選んでください。"],
  bad_noten_riichi: ["A no-ten riichi is for a player who declared riichi: tick their riichi first.", "ノーテン立直は立直した人だけです。先に立直にチェックしてください。"],
  bad_manemann: ["Manemann needs the copier, the player upstream who was copied, and 5 to 40 turns.", "真似満には真似した人、真似された上家、5〜40巡が必要です。"],
  bad_pao: ["Pao is for a yakuman tsumo fed by another player's call.", "包は他家の鳴かせで確定した役満のツモに付きます。"],
  closed_needed: ["Say whether the winning hand was closed: only a closed win takes the deposits.",
    "和了形が門前かどうかを選んでください (供託は門前の和了者のみ受け取ります)。"],
  riichi_without_points: ["A player without the points a riichi needs cannot declare it: untick their riichi.", "立直に必要な点数がない人は立直できません。チェックを外してください。"],
  aka5man_mismatch: ["The aka-5-man in the hand and “Aka-5-man extracted by” disagree: make them the same.", "手牌の赤五萬と「赤五萬を抜いた人」が一致しません。合わせてください。"],
  invalid_win: ["The hand is not a valid win: record a chombo instead.", "和了が成立していません。錯和として記録してください。"],
  riichi_mismatch: ["The riichi of the hand and of the game differ.", "手牌と対局の立直が一致しません。"],
  rules_mismatch: ["The hand was scored under other rules than the game's: score it again from the game.", "手牌が対局と違うルールで計算されています。対局から開き直して計算してください。"],
  engine_mismatch: ["The hand's payments do not fit this game: record the win as han and fu.", "手牌の支払いがこの対局に合いません。翻・符で記録してください。"],
  bad_hand: ["The winner's hand could not be read: score it with the camera again.", "和了者の手牌を読めません。カメラでもう一度計算してください。"],
  bad_event: ["The hand's entry could not be read: check it and record it again.", "局の入力を読めませんでした。確認してもう一度記録してください。"],
  event_too_large: ["This hand's entry is too large to keep.", "この局の入力は大きすぎて保存できません。"],
  // ---- ability mahjong (能力麻雀)
  byakko_must_declare: ["The byakko has gone as many hands without declaring as the rules allow (in a block, the hanchan before counts too): tick its declaration for this hand.",
    "白虎の宣言なしの局がルールの上限に達しました (ブロックでは前の半荘の局も数えます)。この局は白虎宣言にチェックを入れてください。"],
  bad_byakko: ["Only a byakko declares.", "白虎宣言は白虎だけができます。"],
  bad_kanpa: ["That kanpa cannot be: a genbu declares one tile against another player, once per player each hand. Check the genbu, the target and the tile.",
    "その看破はできません (玄武が他家1人につき1局1回、牌1種類)。玄武・対象・牌を確認してください。"],
  seiryuu_han_needed: ["The seiryuu won: give the han of its extra indicators (0 if none).", "青龍の和了です。追加表示牌の翻数を入力してください (なければ0)。"],
  role_mismatch: ["The hand's role fields differ from the game's.", "手牌の役職の情報が対局と一致しません。"],
  // ---- the game's state
  game_not_found: ["The game could not be opened.", "対局を開けませんでした。"],
  block_not_found: ["The block could not be found: open one of its games again, or start a new block.", "ブロックが見つかりません。ブロックの対局を開き直すか、新しいブロックを始めてください。"],
  game_over: ["The game is over: no more hands can be recorded.", "終局しています。これ以上記録できません。"],
  game_not_over: ["The game is not over yet.", "まだ終局していません。"],
  nothing_to_undo: ["No hand has been recorded yet: there is nothing to undo.", "まだ記録がないので、戻せません。"],
  too_many_events: ["This game holds as many hands as a game may: start a new game.", "この対局は記録できる上限に達しました。新しい対局を始めてください。"],
  seq_conflict: ["The game changed on another device; showing the latest state.", "他の端末で更新されました。最新の状態を表示します。"],
  bad_seq: ["This page shows an old state of the game: reload it.", "古い状態の対局を表示しています。再読み込みしてください。"],
  game_running: ["The block's latest hanchan is not over yet (another phone may have started it): open it and finish it first.", "ブロックの最新の半荘がまだ終わっていません (他の端末で開始された可能性があります)。その半荘を開いて先に終わらせてください。"],
  block_over: ["This block has its four hanchan: start a new block.", "このブロックは4半荘を終えました。新しいブロックを始めてください。"],
  bad_import: ["The file is not a game exported here: choose an exported game file (JSON).", "書き出した対局ファイルではありません。書き出した JSON ファイルを選んでください。"],
  corrupt_game: ["This game's record is damaged and cannot be continued here.", "この対局の記録が壊れているため、続けられません。"],
  storage_unavailable: ["The games cannot be reached on the server right now: try again in a moment.", "サーバーの対局データに接続できません。少し待ってからもう一度試してください。"],
  // ---- the request itself (reloading the page sends a fresh one)
  bad_json: ["What was sent could not be read: reload the page and try again.", "送信内容を読めませんでした。ページを再読み込みしてもう一度試してください。"],
  bad_request: ["The request was not understood: reload the page and try again.", "リクエストを理解できませんでした。ページを再読み込みしてもう一度試してください。"],
  invalid_request: ["Something sent is missing or of the wrong kind: reload the page and try again.", "送信内容に不足か誤りがあります。ページを再読み込みしてもう一度試してください。"],
  bad_type: ["Something sent is of the wrong kind: reload the page and try again.", "送信内容の形式が正しくありません。ページを再読み込みしてもう一度試してください。"],
  unknown_field: ["Something sent is not known to this server: reload the page.", "このサーバーが知らない項目が送られました。ページを再読み込みしてください。"],
  too_deep: ["What was sent is nested too deeply to read.", "送信内容の入れ子が深すぎて読めません。"],
  body_too_large: ["What was sent is too large.", "送信内容が大きすぎます。"],
  unsupported_media_type: ["What was sent is not in a form this server takes: reload the page.", "このサーバーが受け付けない形式で送られました。ページを再読み込みしてください。"],
  bad_usage: ["The command is not written right: see sanma --help.", "コマンドの書き方が正しくありません。sanma --help を見てください。"],
  cross_origin: ["A page of another site cannot change games here: open this server's own page.", "別のサイトのページからは変更できません。このサーバーのページを開いてください。"],
  rate_limited: ["Too many requests from this device: wait a minute and try again.", "この端末からのリクエストが多すぎます。1分ほど待ってからもう一度試してください。"],
  too_many_connections: ["The server has too many connections: try again in a moment.", "サーバーへの接続が多すぎます。少し待ってからもう一度試してください。"],
  request_timeout: ["The request did not arrive in time: check the connection and try again.", "リクエストが時間内に届きませんでした。接続を確認してもう一度試してください。"],
  method_not_allowed: ["The server does not take this request: reload the page.", "サーバーがこのリクエストを受け付けません。ページを再読み込みしてください。"],
  not_acceptable: ["The server cannot answer in the form asked for: reload the page.", "サーバーが求められた形式で応答できません。ページを再読み込みしてください。"],
  http_error: ["The server refused the request: reload the page and try again.", "サーバーがリクエストを断りました。ページを再読み込みしてもう一度試してください。"],
  unavailable: ["The server cannot answer right now: try again in a moment.", "サーバーが応答できません。少し待ってからもう一度試してください。"],
  internal_error: ["Something went wrong on the server: try again.", "サーバーで問題が起きました。もう一度試してください。"],
  // ---- the page's own (no answer, or not one it can read)
  bad_response: ["The server did not answer: try again.", "サーバーが応答しません。もう一度試してください。"],
  offline: ["No connection to the server: check the phone's network.", "サーバーに接続できません。端末のネットワークを確認してください。"],
};

// ---- recognition warnings by code (the recognize JSON's warning_details; the codes and their
// params: vision/warning_catalogue.py). Each says what to look at on the photo and what to do
// on this page. A phrase is a function of the params `p` and of `w`, the words for them in the
// page's language (warningWords). A code not listed here falls back to the server's message.

function warningWords(name) {
  // Tiles, places, melds and numbers of a warning's params, as a player says them. `name`:
  // the page's tile names (app.js tileName: 4筒, 赤5筒, 東 / 4p, red 5p, E).
  const ja = Lang.ja();
  const isTile = (id) => typeof id === "string" && /^[0-9][mpsz]$/.test(id);
  const tile = (id) => (isTile(id) ? name(id)
    : id === "back" ? (ja ? "裏向きの牌" : "a face-down tile")
    : id === "flower" ? (ja ? "花牌" : "a flower tile")
    : (ja ? "読めない牌" : "an unreadable tile"));
  // a tile in a list: a face-down one said short
  const short = (id) => (id === "back" ? (ja ? "裏" : "back") : tile(id));
  const list = (ids) => [].concat(ids || []).map(short);
  const tiles = (ids) => {
    const said = list(ids);
    if (ja) return `「${said.join("・")}」`;
    return said.join(" ");
  };
  const ordinal = (n) => {
    const tens = n % 100;
    return `${n}${tens >= 11 && tens <= 13 ? "th" : ({ 1: "st", 2: "nd", 3: "rd" })[n % 10] || "th"}`;
  };
  const has = (n) => typeof n === "number" && Number.isFinite(n);
  const where = (place, pos) => {
    if (ja) {
      return {
        hand: has(pos) ? `手牌の左から${pos}枚目` : "手牌の牌", win: "和了牌",
        meld: has(pos) ? `左から${pos}つ目の副露の牌` : "副露の牌",
        kita: has(pos) ? `${pos}枚目の抜き北` : "抜き北", dora: has(pos) ? `${pos}枚目のドラ表示牌` : "ドラ表示牌",
      }[place] || "手牌の外の牌";
    }
    return {
      hand: has(pos) ? `the ${ordinal(pos)} tile of the hand` : "a tile of the hand", win: "the winning tile",
      meld: has(pos) ? `a tile of the ${ordinal(pos)} meld` : "a tile of a meld",
      kita: has(pos) ? `the ${ordinal(pos)} kita` : "a kita", dora: has(pos) ? `the ${ordinal(pos)} dora indicator` : "a dora indicator",
    }[place] || "a tile beside the hand";
  };
  const cap = (s) => s.charAt(0).toUpperCase() + s.slice(1);
  const unpack = (mpsz) => (String(mpsz).match(/[0-9]+[mpsz]/g) || [])
    .flatMap((g) => [...g.slice(0, -1)].map((d) => d + g.slice(-1)));
  const plain = (id) => (id[0] === "0" ? (id[1] === "m" ? "4z" : `5${id[1]}`) : id);
  const meld = (text) => {
    // "pon:055p" → 5筒のポン (赤1枚) / a pon of 5p (1 red)
    const [kind, mpsz] = String(text).split(":");
    const ids = unpack(mpsz);
    const word = TEXT[`m_${kind}`] ? tr(`m_${kind}`) : (ja ? "副露" : "meld");
    const en = word.toLowerCase();
    const a = /^[aeiou]/.test(en) ? "an" : "a";
    const kinds = new Set(ids.map(plain));
    if (kinds.size !== 1) return ja ? `${word}${tiles(ids)}` : `${a} ${en} ${tiles(ids)}`;
    const [only] = kinds;
    const reds = ids.filter((id) => id[0] === "0" && id[1] !== "m").length;
    const aka = ids.includes("0m");
    const note = reds ? (ja ? ` (赤${reds}枚)` : ` (${reds} red)`) : aka ? (ja ? " (赤五萬入り)" : " (with the aka 5m)") : "";
    return ja ? `${name(only)}の${word}${note}` : `${a} ${en} of ${name(only)}${note}`;
  };
  const pct = (c) => (has(c) ? `${Math.round(c * 100)}%` : "?");
  const spot = (left, right) => {
    if (ja) return left && right ? `${short(left)}と${short(right)}の間` : right ? `${short(right)}の左` : left ? `${short(left)}の右` : "その位置";
    return left && right ? `between ${short(left)} and ${short(right)}` : right ? `left of ${short(right)}` : left ? `right of ${short(left)}` : "there";
  };
  const changes = (cs) => {
    const said = [].concat(cs || []).map((c) => (ja
      ? `${where(c.place, c.position)} (${tile(c.was)}) を${tile(c.tile)}`
      : `${where(c.place, c.position)} (${tile(c.was)}) as ${tile(c.tile)}`));
    if (ja) return said.join("、");
    return said.length > 1 ? `${said.slice(0, -1).join(", ")} and ${said[said.length - 1]}` : said.join("");
  };
  const end = (e) => (e === "start" ? (ja ? "左端" : "left end") : (ja ? "右端" : "right end"));
  const n = (count, one, many) => (count === 1 ? one : many);
  // how many melds the hand has, said before the tiles it should then hold
  const melds = (count) => (ja ? (count ? `副露${count}組なら` : "副露なしなら")
    : count ? `with ${count} ${n(count, "meld", "melds")}` : "with no meld");
  return { tile, tiles, where, melds, Where: (place, pos) => cap(where(place, pos)), meld, pct, spot, changes, end, n, cap };
}

// key: [English, Japanese], each (p, w) => words; grouped as in the catalogue.
const WARNINGS = {
  // what the photo shows at all
  no_tiles: [() => "No tiles found in the photo: take it closer, in good light.",
    () => "写真に牌が見つかりません。明るいところで、もっと近づいて撮り直してください。"],
  no_hand_row: [() => "No hand found: no face-up tiles stand side by side. Lay the hand face up in one row and photograph it from your seat.",
    () => "手牌が見つかりません。手牌を表向きに一列に並べ、自分の席から撮ってください。"],
  photo_turned: [() => "The photo looked turned by 90°, so it was read turned upright: check which end of the hand holds the winning tile.",
    () => "写真が90°回っていたので、向きを直して読みました。和了牌が手牌の左右どちらにあるか確認してください。"],
  hand_is_a_pond: [() => "No hand found: the row of face-up tiles that looked like one lies in a discard pond. Lay the hand face up in one row and photograph it from your seat.",
    () => "手牌が見つかりません。手牌に見えた表向きの列は捨て牌（河）の一部でした。手牌を表向きに一列に並べ、自分の席から撮ってください。"],
  photo_upside_down: [() => "The hand looked photographed from across the table, so it was read upside down: check which end of the hand holds the winning tile.",
    () => "手牌を向かい側から撮った写真に見えたので、上下を逆にして読みました。和了牌が手牌の左右どちらにあるか確認してください。"],
  flowers_ignored: [(p, w) => `${p.count} flower or season ${w.n(p.count, "tile was", "tiles were")} left out: riichi mahjong does not use ${w.n(p.count, "it", "them")}.`,
    (p) => `花牌・季節牌が${p.count}枚ありました。使わない牌なので除いています。`],
  // tiles that cannot be read, or were read unsure
  hand_tile_unreadable: [(p, w) => `${w.Where("hand", p.position)} is face down or unreadable: tap it and choose the tile.`,
    (p, w) => `${w.where("hand", p.position)}が裏向きか、読めません。タップして正しい牌を選んでください。`],
  win_unreadable: [() => "The winning tile is face down or unreadable: tap it and choose the tile.",
    () => "和了牌が裏向きか、読めません。タップして正しい牌を選んでください。"],
  low_confidence: [(p, w) => `${w.Where(p.place, p.position)} looks like ${w.tile(p.tile)}, but the camera is only ${w.pct(p.confidence)} sure: check it, and tap it to correct it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.tile)}と読みましたが、自信がありません (信頼度${w.pct(p.confidence)})。違っていればタップして直してください。`],
  read_5m: [(p, w) => `${w.Where(p.place, p.position)} was read as ${w.tile("5m")}, which sanma does not use, so it is taken as the ${w.tile("0m")}: check it.`,
    (p, w) => `${w.where(p.place, p.position)}を${w.tile("5m")}と読みました。三麻に${w.tile("5m")}はないので${w.tile("0m")}としています。確認してください。`],
  read_2m_8m: [(p, w) => `${w.Where(p.place, p.position)} was read as ${w.tile(p.tile)}, but sanma has no 2m–8m: check it (or play with a three-player set).`,
    (p, w) => `${w.where(p.place, p.position)}を${w.tile(p.tile)}と読みましたが、三麻に2萬〜8萬はありません。牌を確認してください (四人麻雀の牌なら、三人麻雀用の牌で遊んでください)。`],
  fifth_tile: [(p, w) => `${p.count} × ${w.tile(p.kind)} read, but only four exist: one is misread, or a set was filled with a tile not seen. Check the ${w.tile(p.kind)} tiles.`,
    (p, w) => `${w.tile(p.kind)}が${p.count}枚あります (4枚しかない牌です)。どれかの読み違いか、見えていない牌で面子を補っています。${w.tile(p.kind)}を確認してください。`],
  hand_short: [(p, w) => `The hand shows ${p.count} concealed tiles; ${w.melds(p.melds)} it holds ${p.expected}. A tile may be missing or hidden: check the hand.`,
    (p, w) => `手牌が${p.count}枚です (${w.melds(p.melds)}${p.expected}枚のはずです)。隠れて見えない牌があるかもしれません。手牌を確認してください。`],
  hand_long: [(p, w) => `The hand shows ${p.count} concealed tiles; ${w.melds(p.melds)} it holds ${p.expected}. An extra tile may have been read: check the hand.`,
    (p, w) => `手牌が${p.count}枚です (${w.melds(p.melds)}${p.expected}枚のはずです)。余分な牌を読んだかもしれません。手牌を確認してください。`],
  // boxes the detector drew twice, in two or too big
  two_readings: [(p, w) => `One tile read both as ${w.tile(p.tile)} (${w.pct(p.confidence)}, kept) and as ${w.tile(p.other)} (${w.pct(p.other_confidence)}): check which it is.`,
    (p, w) => `1枚の牌が${w.tile(p.tile)} (${w.pct(p.confidence)}) とも${w.tile(p.other)} (${w.pct(p.other_confidence)}) とも読めました。${w.tile(p.tile)}としています。どちらか確認してください。`],
  straddling_box: [(p, w) => `A box over the halves of ${w.tile(p.left)} and ${w.tile(p.right)} read as ${w.tile(p.tile)} was left out as no tile: check that spot.`,
    (p, w) => `${w.tile(p.left)}と${w.tile(p.right)}にまたがる枠を${w.tile(p.tile)}と読みましたが、牌ではないとして除きました。その場所を確認してください。`],
  parts_joined: [(p, w) => `Two small boxes were read together as one ${w.tile(p.tile)}: check that tile.`,
    (p, w) => `小さな枠2つを合わせて1枚の${w.tile(p.tile)}と読みました。その牌を確認してください。`],
  box_split_stacked: [(p, w) => `One box (read as ${w.tile(p.tile)}) held two tiles, one above the other: read as ${w.tile(p.first)} and ${w.tile(p.second)}. Check both.`,
    (p, w) => `${w.tile(p.tile)}と読んだ枠に牌が上下に2枚あったので、${w.tile(p.first)}と${w.tile(p.second)}に分けました。2枚とも確認してください。`],
  box_split_side_by_side: [(p, w) => `One box (read as ${w.tile(p.tile)}) held two tiles side by side: read as ${w.tile(p.first)} and ${w.tile(p.second)}. Check both.`,
    (p, w) => `${w.tile(p.tile)}と読んだ枠に牌が左右に2枚あったので、${w.tile(p.first)}と${w.tile(p.second)}に分けました。2枚とも確認してください。`],
  halves_joined: [(p, w) => `Two boxes (${w.tile(p.first)} and ${w.tile(p.second)}) lie where one sideways tile lies: read together as a called ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.tile(p.first)}と${w.tile(p.second)}の2つの枠は横向きの牌1枚の位置にあるので、鳴いた${w.tile(p.tile)}1枚としました。確認してください。`],
  // a reading changed because the rules allow only another one
  reread_face_up: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, but the hand's tiles lie face up: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、手牌は表向きなので${w.tile(p.tile)}と読みました。確認してください。`],
  reread_ankan_end: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, but a closed kan's end tiles lie face down: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、暗槓の両端は裏向きなので${w.tile(p.tile)}としました。確認してください。`],
  reread_called_face_up: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, but a called set lies face up: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、鳴いた面子は表向きなので${w.tile(p.tile)}と読みました。確認してください。`],
  reread_5m_likelier: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, which sanma does not use, and ${w.tile(p.tile)} is likelier than the ${w.tile("0m")}: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は三麻にない${w.tile(p.was)}に見えました。${w.tile("0m")}より${w.tile(p.tile)}の可能性が高いので${w.tile(p.tile)}と読みました。確認してください。`],
  reread_5m_terminal: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)} with no red seen, which sanma does not use: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は赤のない${w.tile(p.was)}に見えましたが、三麻にない牌なので${w.tile(p.tile)}と読みました。確認してください。`],
  reread_5m_aka: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, which sanma does not use: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、三麻にない牌なので${w.tile(p.tile)}と読みました。確認してください。`],
  reread_2m_8m: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, which sanma does not use: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、三麻にない牌なので${w.tile(p.tile)}と読みました。確認してください。`],
  reread_meld_kind: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, but the set's tiles are all ${w.tile(p.kind)}: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、この面子は${w.tile(p.kind)}の面子なので${w.tile(p.tile)}と読みました。確認してください。`],
  reread_kita: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, but kita are norths: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、抜きドラは北なので${w.tile(p.tile)}と読みました。確認してください。`],
  reread_one_red: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, but a suit has one red five among plain ones: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、赤5は1色に1枚で残りは普通の5なので${w.tile(p.tile)}と読みました。確認してください。`],
  reread_one_aka: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, but there is only one ${w.tile("0m")}: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、${w.tile("0m")}は1枚しかないので${w.tile(p.tile)}と読みました。確認してください。`],
  reread_fifth: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, but that made more than four ${w.tile(p.kind)}: read as ${w.tile(p.tile)}. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、それでは${w.tile(p.kind)}が5枚以上になるので${w.tile(p.tile)}と読みました。確認してください。`],
  reread_win_shape: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, but then the hand is no winning shape: read as ${w.tile(p.tile)}, which makes one. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、それでは和了形にならないので、和了形になる${w.tile(p.tile)}と読みました。確認してください。`],
  reread_tenpai_shape: [(p, w) => `${w.Where(p.place, p.position)} looked like ${w.tile(p.was)}, but then the hand waits on nothing: read as ${w.tile(p.tile)}, which makes it tenpai. Check it.`,
    (p, w) => `${w.where(p.place, p.position)}は${w.tile(p.was)}に見えましたが、それでは聴牌にならないので、聴牌になる${w.tile(p.tile)}と読みました。確認してください。`],
  suggest_win_shape: [(p, w) => `The hand as read is no winning shape. Reading ${w.changes(p.changes)} would make one: check those tiles.`,
    (p, w) => `読み取った手牌は和了形になっていません。${w.changes(p.changes)}と読めば和了形になります。その牌を確認してください。`],
  suggest_tenpai_shape: [(p, w) => `The hand as read waits on nothing. Reading ${w.changes(p.changes)} would make it tenpai: check those tiles.`,
    (p, w) => `読み取った手牌は聴牌していません。${w.changes(p.changes)}と読めば聴牌になります。その牌を確認してください。`],
  // which tile is the winning tile, which the kita
  win_touching: [(p, w) => `The ${w.tile(p.tile)} right after the hand is barely set apart; it is taken as the winning tile, as the hand has 13 tiles without it. Check it.`,
    (p, w) => `手牌のすぐ右の${w.tile(p.tile)}はほとんど離れていませんが、除くと手牌が13枚になるので和了牌としました。確認してください。`],
  win_reported_sideways: [(p, w) => `The ${w.tile(p.tile)} set apart after the hand looked sideways, but a lone tile there is the winning tile: taken as the winning tile. Check it.`,
    (p, w) => `手牌の右に離れた${w.tile(p.tile)}は横向きに見えましたが、そこに1枚だけある牌は和了牌なので和了牌としました。確認してください。`],
  win_may_be_kita: [(p, w) => `The winning tile (${w.tile(p.tile)}) may be ${w.tile(p.north)} (${w.pct(p.north_confidence)}), a kita laid sideways: if so, move it to the kita.`,
    (p, w) => `和了牌の${w.tile(p.tile)}は${w.tile(p.north)}かもしれません (${w.pct(p.north_confidence)})。横向きに置いた抜き北なら、抜き北に移動してください。`],
  win_rightmost: [(p, w) => `No winning tile is set apart from the hand, so the rightmost tile (${w.tile(p.tile)}) is taken as the winning tile: check it.`,
    (p, w) => `手牌から離して置いた和了牌がないので、右端の${w.tile(p.tile)}を和了牌としました。確認してください。`],
  win_two_candidates: [(p, w) => `Two tiles may be the winning tile: ${w.tile(p.tile)} (taken) and ${w.tiles(p.others)} further right. Check which one it is.`,
    (p, w) => `和了牌の候補が2つあります。${w.tile(p.tile)}を和了牌としましたが、さらに右に${w.tiles(p.others)}があります。どちらが和了牌か確認してください。`],
  win_from_probe: [(p, w) => `No winning tile was found after the hand, but a second look ${w.spot(p.left, p.right)} reads ${w.tile(p.tile)} (${w.pct(p.confidence)}), which completes the hand: added as the winning tile. Check it.`,
    (p, w) => `手牌の後に和了牌が見つかりませんでしたが、${w.spot(p.left, p.right)}を見直すと${w.tile(p.tile)} (${w.pct(p.confidence)}) と読め、和了形になるので和了牌として追加しました。確認してください。`],
  north_far_win: [(p, w) => `The ${w.tile(p.tile)} set apart after the hand lies a little further out than a winning tile, but it completes the hand: taken as the winning tile. If it is a kita, move it to the kita.`,
    (p, w) => `手牌の右に離れた${w.tile(p.tile)}は和了牌にしては少し遠いですが、和了形になるので和了牌としました。抜き北なら抜き北に移動してください。`],
  north_far_kita: [(p, w) => `The ${w.tile(p.tile)} set apart after the hand lies further out than a winning tile: taken as a kita. If it is the winning tile, move it there.`,
    (p, w) => `手牌の右に離れた${w.tile(p.tile)}は和了牌より遠くにあるので抜き北としました。和了牌なら和了牌に移動してください。`],
  north_win: [(p, w) => `The tile set apart after the hand is ${w.tile(p.tile)}: taken as the winning tile. If it is a kita, move it to the kita.`,
    (p, w) => `手牌の右に離れた牌は${w.tile(p.tile)}です。和了牌としました。抜き北なら抜き北に移動してください。`],
  north_no_win_kita: [(p, w) => `The ${w.tile(p.tile)} set apart after the hand does not complete it: taken as a kita, the hand waiting. If it is the winning tile, move it there.`,
    (p, w) => `手牌の右に離れた${w.tile(p.tile)}では和了形にならないので抜き北とし、手牌は聴牌として見ています。和了牌なら和了牌に移動してください。`],
  north_touching_kita: [(p, w) => `The ${w.tile(p.tile)} at the hand's end does not complete it: taken as a kita laid against the hand. If it is the winning tile, move it there.`,
    (p, w) => `手牌の右端の${w.tile(p.tile)}では和了形にならないので、手牌に付けて置いた抜き北としました。和了牌なら和了牌に移動してください。`],
  fifteenth_left_out: [(p, w) => `The ${w.tile(p.tile)} set apart after the hand would be a 15th tile: the row already holds 14, so it was left out. If it is the winning tile, one tile in the row is extra.`,
    (p, w) => `手牌の右に離れた${w.tile(p.tile)}を入れると15枚になります。列に14枚あるので除きました。これが和了牌なら、列の中に余分な牌が1枚あります。`],
  fifteenth_north_kita: [(p, w) => `The ${w.tile(p.tile)} set apart after the hand would be a 15th tile: the row already holds 14, so it is taken as a kita. Check it.`,
    (p, w) => `手牌の右に離れた${w.tile(p.tile)}を入れると15枚になります。列に14枚あるので抜き北としました。確認してください。`],
  one_too_many: [(p, w) => `The hand's row holds one tile too many: the ${w.tile(p.tile)} at its ${w.end(p.end)}, read unsure, was left out, as the others complete the hand. Check it.`,
    (p, w) => `手牌の列が1枚多いです。${w.end(p.end)}の${w.tile(p.tile)}は読み取りに自信がなく、残りで和了形になるので除きました。確認してください。`],
  kita_too_far: [(p, w) => `A lone ${w.tile(p.tile)} lies beyond the melds, further out than kita are laid: not counted as a kita. If it is one, move it to the kita.`,
    (p, w) => `副露の先に${w.tile(p.tile)}が1枚離れてあります。抜き北にしては遠いので数えていません。抜き北なら抜き北に移動してください。`],
  dora_apart: [(p, w) => `${w.cap(w.tiles(p.tiles))}, lying apart beyond the hand, ${w.n([].concat(p.tiles).length, "is taken as a dora indicator", "are taken as dora indicators")}: check ${w.n([].concat(p.tiles).length, "it", "them")}.`,
    (p, w) => `手牌から離れた${w.tiles(p.tiles)}をドラ表示牌としました。確認してください。`],
  lone_tiles_left_out: [(p, w) => `${w.cap(w.tiles(p.tiles))} right of the melds ${w.n([].concat(p.tiles).length, "was", "were")} left out: check, and move what belongs to the hand.`,
    (p, w) => `副露の右にある${w.tiles(p.tiles)}は数えていません。手牌の牌なら移動してください。`],
  // the hand's row and the melds beside it
  row_or_meld: [(p, w) => `${w.cap(w.tiles(p.tiles))} beside the hand ${w.n([].concat(p.tiles).length, "looks like a sideways tile", "look like sideways tiles")}: read as part of a called set, not of the hand. Check ${w.n([].concat(p.tiles).length, "it", "them")}.`,
    (p, w) => `手牌の横の${w.tiles(p.tiles)}は横向きの牌に見えるので、手牌ではなく鳴いた面子の一部としました。確認してください。`],
  row_by_shape: [(p, w) => `The hand reads with or without ${w.tiles(p.tiles)}: read the way that makes a winning or waiting hand. Check ${w.n([].concat(p.tiles).length, "it", "them")}.`,
    (p, w) => `${w.tiles(p.tiles)}は手牌に入れても入れなくても読めるので、和了形か聴牌になる方にしました。確認してください。`],
  meld_double_box: [(p, w) => `A box read as ${w.tile(p.tile)} lies on one ${w.tile(p.kind)} of a set: read as one ${w.tile(p.kind)}. Check it.`,
    (p, w) => `副露の${w.tile(p.kind)}に${w.tile(p.tile)}の枠が重なっていたので、${w.tile(p.kind)}1枚としました。確認してください。`],
  meld_mixed_kinds: [(p, w) => `The set ${w.tiles(p.tiles)} mixes kinds: read as ${w.tile(p.kind)}. Check the odd tile.`,
    (p, w) => `副露${w.tiles(p.tiles)}に違う牌が混じっています。${w.tile(p.kind)}の面子としました。違う牌を確認してください。`],
  meld_size: [(p, w) => `The called set ${w.tiles(p.tiles)} has ${p.count} ${w.n(p.count, "tile", "tiles")}, not 3 or 4: check it.`,
    (p, w) => `副露${w.tiles(p.tiles)}が${p.count}枚です (3枚か4枚のはずです)。確認してください。`],
  meld_backs_not_ankan: [(p, w) => `The set ${w.tiles(p.tiles)} beside the hand shows face-down tiles, but not as a closed kan (two face-down ends around two faces): check it.`,
    (p, w) => `手牌の横の${w.tiles(p.tiles)}に裏向きの牌がありますが、暗槓 (両端が裏、中の2枚が表) の形ではありません。確認してください。`],
  ankan_all_backs: [() => "A closed kan shows four face-down tiles: tap one and choose its tile.",
    () => "4枚とも裏向きの暗槓があります。牌の種類が分からないので、1枚タップして牌を選んでください。"],
  ankan_red_counted: [(p, w) => `Closed kan of ${w.tile(p.kind)}: both faces seen are plain, so the ${w.tile(p.tile)} is counted as one of the face-down tiles. Check it.`,
    (p, w) => `${w.tile(p.kind)}の暗槓: 見えている2枚が普通の5なので、${w.tile(p.tile)}は裏向きの1枚として数えました。確認してください。`],
  called_set_backs: [(p, w) => `The called set ${w.tiles(p.tiles)} shows a sideways ${w.tile(p.kind)} and face-down tiles, which a called set never has: read as ${w.meld(p.meld)}. Check it.`,
    (p, w) => `鳴いた面子${w.tiles(p.tiles)}に横向きの${w.tile(p.kind)}と裏向きの牌があります。鳴いた面子に裏向きの牌はないので、${w.meld(p.meld)}としました。確認してください。`],
  minkan_two_sideways: [(p, w) => `The called set ${w.tiles(p.tiles)} shows ${p.count} sideways tiles side by side (an open kan shows one): read as ${w.meld(p.meld)}. Check it.`,
    (p, w) => `鳴いた面子${w.tiles(p.tiles)}に横向きの牌が${p.count}枚並んでいます (明槓なら1枚)。${w.meld(p.meld)}としました。確認してください。`],
  kakan_called_unseen: [(p, w) => `The sideways ${w.tile(p.kind)} of ${w.tiles(p.tiles)} lies beyond the set's line, as an added tile does: read as ${w.meld(p.meld)}, the called tile under it not seen. Check it.`,
    (p, w) => `${w.tiles(p.tiles)}の横向きの${w.tile(p.kind)}が面子の列より外にあり、加槓の形です。下の鳴いた牌は見えませんが、${w.meld(p.meld)}としました。確認してください。`],
  kakan_fourth_unseen: [(p, w) => `The set ${w.tiles(p.tiles)} shows two sideways tiles, one beyond the other, as an added kan does: read as ${w.meld(p.meld)}, its fourth tile not seen. Check it.`,
    (p, w) => `${w.tiles(p.tiles)}は横向きの牌が2枚重なった加槓の形です。4枚目は見えませんが、${w.meld(p.meld)}としました。確認してください。`],
  kakan_one_box: [(p, w) => `The ${w.tile(p.tile)} in the called set ${w.tiles(p.tiles)} is as big as two tiles, one beyond the other: read as an added kan (the called and the added tile). Check it.`,
    (p, w) => `鳴いた面子${w.tiles(p.tiles)}の${w.tile(p.tile)}が2枚分の大きさなので、鳴いた牌に加えた牌が重なった加槓としました。確認してください。`],
  set_double_box: [(p, w) => `Two boxes lie on one tile of the set ${w.tiles(p.tiles)}: read as one tile, ${w.meld(p.meld)}. Check it.`,
    (p, w) => `副露${w.tiles(p.tiles)}の1枚に枠が2つ重なっていたので1枚とし、${w.meld(p.meld)}としました。確認してください。`],
  set_no_sideways: [(p, w) => `${p.count} × ${w.tile(p.kind)} beside the hand show no sideways tile: read as ${w.meld(p.meld)}. Check it.`,
    (p, w) => `手牌の横に${w.tile(p.kind)}が${p.count}枚あり、横向きの牌がないので${w.meld(p.meld)}としました。確認してください。`],
  norths_as_meld: [(p, w) => `${p.count} ${w.n(p.count, "north", "norths")} in a line beside the hand complete its tiles: read as ${w.meld(p.meld)} (its sideways tile not seen), not as kita. Check it.`,
    (p, w) => `手牌の横に北が${p.count}枚並び、それで手牌の枚数が合うので、抜き北ではなく${w.meld(p.meld)}としました (横向きの牌は見えていません)。確認してください。`],
  pon_third_unseen: [(p, w) => `The called set ${w.tiles(p.tiles)} shows 2 tiles and the hand needs 3 more: read as ${w.meld(p.meld)}, its third tile not seen. Check it.`,
    (p, w) => `鳴いた面子${w.tiles(p.tiles)}が2枚しか見えず、手牌もあと3枚足りないので、3枚目が見えていない${w.meld(p.meld)}としました。確認してください。`],
  ankan_end_unseen: [(p, w) => `${w.cap(w.tiles(p.tiles))} beside the hand, and the hand needs 3 more tiles: read as ${w.meld(p.meld)}, one face-down end not seen. Check it.`,
    (p, w) => `手牌の横に${w.tiles(p.tiles)}があり、手牌があと3枚足りないので、裏向きの端が1枚見えていない${w.meld(p.meld)}としました。確認してください。`],
  pon_called_unseen: [(p, w) => `Two ${w.tile(p.kind)} tiles lie apart beside the hand, and the hand needs 3 more tiles: read as ${w.meld(p.meld)}, its called tile not seen. Check it.`,
    (p, w) => `手牌の横に${w.tile(p.kind)}が2枚離れて置かれ、手牌があと3枚足りないので、鳴いた牌が見えていない${w.meld(p.meld)}としました。確認してください。`],
  minkan_hole: [(p, w) => `The called set ${w.tiles(p.tiles)} and ${w.tile(p.tile)} lie a tile's width apart: read as ${w.meld(p.meld)}, the tile in the gap not seen. Check it.`,
    (p, w) => `鳴いた面子${w.tiles(p.tiles)}と${w.tile(p.tile)}の間に牌1枚分のすき間があるので、すき間の牌が見えていない${w.meld(p.meld)}としました。確認してください。`],
  pon_turns_misread: [(p, w) => `${w.cap(w.tiles(p.tiles))} beside the hand, all ${w.tile(p.kind)}, and the hand needs 3 more tiles: read as ${w.meld(p.meld)}. Check which one is called (sideways).`,
    (p, w) => `手牌の横の${w.tiles(p.tiles)}はすべて${w.tile(p.kind)}で、手牌があと3枚足りないので${w.meld(p.meld)}としました。どれが鳴いた牌 (横向き) か確認してください。`],
  pon_odd_tile: [(p, w) => `${w.cap(w.tiles(p.tiles))} beside the hand, two of them ${w.tile(p.kind)}, and the hand needs 3 more tiles: read as ${w.meld(p.meld)}. Check the odd tile.`,
    (p, w) => `手牌の横の${w.tiles(p.tiles)}のうち2枚が${w.tile(p.kind)}で、手牌があと3枚足りないので${w.meld(p.meld)}としました。違う1枚を確認してください。`],
  kakan_second_box: [(p, w) => `A second box on ${w.meld(p.was)} reads ${w.tile(p.tile)} (${w.pct(p.confidence)}): read as ${w.meld(p.meld)}, its added tile lying on the called one. Check it.`,
    (p, w) => `${w.meld(p.was)}の上にもう1つ枠があり${w.tile(p.tile)} (${w.pct(p.confidence)}) と読めるので、鳴いた牌に加えた牌が重なった${w.meld(p.meld)}としました。確認してください。`],
  kakan_stacked: [(p, w) => `A tile with no box of its own seems to lie on the called ${w.tile(p.tile)} of ${w.meld(p.was)} (${w.pct(p.confidence)}): read as ${w.meld(p.meld)}. Check it.`,
    (p, w) => `${w.meld(p.was)}の鳴いた${w.tile(p.tile)}の上に、もう1枚重なっているようです (${w.pct(p.confidence)})。${w.meld(p.meld)}としました。確認してください。`],
  kakan_maybe: [(p, w) => `The called ${w.tile(p.tile)} of ${w.meld(p.was)} may carry an added tile (${w.pct(p.confidence)}): if so it is ${w.meld(p.meld)}; change the meld's kind.`,
    (p, w) => `${w.meld(p.was)}の鳴いた${w.tile(p.tile)}の上に加槓の牌が重なっているかもしれません (${w.pct(p.confidence)})。そうなら${w.meld(p.meld)}なので、副露の種類を直してください。`],
  ankan_back_found: [(p, w) => `At an end of ${w.meld(p.meld)}, a box read as no tile may be a face-down tile (${w.pct(p.confidence)}), and the hand was a set short: read as that closed kan. Check it.`,
    (p, w) => `${w.meld(p.meld)}の端の枠は裏向きの牌かもしれず (${w.pct(p.confidence)})、面子も1つ足りないので、その暗槓としました。確認してください。`],
  // tiles a second look added
  tile_found_in_gap: [(p, w) => `No tile was found ${w.spot(p.left, p.right)}, but the hand is short: a second look there reads ${w.tile(p.tile)} (${w.pct(p.confidence)}), added to the hand. Check it.`,
    (p, w) => `${w.spot(p.left, p.right)}に牌が見つかりませんでしたが、手牌が足りないので見直すと${w.tile(p.tile)} (${w.pct(p.confidence)}) と読めたので手牌に加えました。確認してください。`],
  tile_found_over_flower: [(p, w) => `No tile was found ${w.spot(p.left, p.right)} (a box there read as a flower), but the hand is short: a second look reads ${w.tile(p.tile)} (${w.pct(p.confidence)}), added to the hand. Check it.`,
    (p, w) => `${w.spot(p.left, p.right)}には花牌と読んだ枠しかありませんでしたが、手牌が足りないので見直すと${w.tile(p.tile)} (${w.pct(p.confidence)}) と読めたので手牌に加えました。確認してください。`],
  unsure_tile_kept: [(p, w) => `A box read unsure as ${w.tile(p.tile)} (${w.pct(p.confidence)}) lies where the hand is short: taken as a tile of the hand. Check it.`,
    (p, w) => `手牌が足りない位置に、自信の低い${w.tile(p.tile)}の枠 (${w.pct(p.confidence)}) があったので手牌の牌としました。確認してください。`],
};

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

function errorDetail(error) {
  // The server's own message (English; it says exactly what and where) beside the phrase on
  // an English page; nothing on a Japanese one.
  if (!error || Lang.ja() || !error.message) return "";
  return error.message !== errorText(error) ? error.message : "";
}

function warningText(message, detail, name = (tile) => tile) {
  // One recognition warning: its code phrased in this language from its params (tiles named
  // by `name`), else the server's message.
  if (detail && WARNINGS[detail.code]) {
    return pick(WARNINGS, detail.code)(detail.params || {}, warningWords(name));
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

function validationText(field) {
  // Why the browser refuses a form field, in the page's language (a field's data-hint names
  // the words for its pattern).
  const v = field.validity;
  if (v.valueMissing) return tr("v_missing");
  if (v.badInput) return tr("v_number");
  if (v.rangeUnderflow) return tr("v_min", fmtNum(field.min));
  if (v.rangeOverflow) return tr("v_max", fmtNum(field.max));
  if (v.stepMismatch) return tr("v_step", fmtNum(field.step));
  if (v.patternMismatch && field.dataset.hint) return tr(field.dataset.hint);
  return tr("v_format");
}

// The browser's refusal of a field is said in the page's language, not the browser's: the
// message is set as the field is found invalid, and cleared as soon as it is edited, and
// before each submission (a value the page itself changed is judged afresh).
document.addEventListener("invalid", (e) => {
  const field = e.target;
  if (!field.setCustomValidity) return;
  field.setCustomValidity("");
  if (!field.validity.valid) field.setCustomValidity(validationText(field));
}, true);
document.addEventListener("input", (e) => {
  if (e.target.setCustomValidity) e.target.setCustomValidity("");
}, true);
document.addEventListener("click", (e) => {
  // a submit button's click (Enter in a field clicks it too) comes before the browser checks
  // the form's fields
  const button = e.target.closest && e.target.closest("button, input[type=submit]");
  if (!button || button.type !== "submit" || !button.form) return;
  for (const field of button.form.elements) if (field.setCustomValidity) field.setCustomValidity("");
}, true);

// A file input is hidden inside a labelled button (its own words are the browser's): the
// button takes the keyboard's focus, and Enter or Space opens the file chooser as a tap does.
document.addEventListener("keydown", (e) => {
  const button = e.target.closest && e.target.closest("label[role=button]");
  const input = button && button.querySelector("input[type=file]");
  if (input && (e.key === "Enter" || e.key === " ")) {
    e.preventDefault();
    input.click();
  }
});

// The app shell is cached by a service worker so that the page reopens at once (and offline).
if ("serviceWorker" in navigator && location.protocol !== "file:") {
  window.addEventListener("load", () => { navigator.serviceWorker.register("/sw.js").catch(() => {}); });
}
