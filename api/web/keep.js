// Keeping a corrected photo to teach the recognizer (POST /v1/corrections): the player's
// choice, off unless ticked, said on the page. Ticked, the photo as uploaded and its tiles as
// they now stand are sent under an id made for that photo, and sent again (replacing them)
// after each correction; unticked, they are deleted from the server.
"use strict";

Object.assign(TEXT, {
  keep: ["Keep this photo and my corrected tiles on this server to improve the recognizer",
    "この写真と修正した牌をこのサーバーに保存し、認識の改善に使う"],
  keep_note: ["Nothing is kept unless you tick this. Untick it to delete the photo again.",
    "チェックしない限り何も保存されません。チェックを外すと写真を削除します。"],
  kept: ["Kept on this server.", "このサーバーに保存しました。"],
  keep_deleted: ["Deleted from this server.", "このサーバーから削除しました。"],
  keep_failed: ["Could not keep the photo:", "写真を保存できませんでした:"],
});

const KEEP = { id: null, file: null, sent: null, timer: null };
const KEPT_GROUPS = ["hand", "win", "meld", "kita", "dora", "other"]; // the store's groups

function keepNewPhoto(file) {
  // A new photo: a new id, the box unticked (the choice is made for each photo).
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  KEEP.id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  KEEP.file = file;
  KEEP.sent = null;
  $("keep").checked = false;
  $("keep-box").hidden = false;
  keepStatus("", "");
}

function keepStatus(key, detail) {
  const node = $("keep-status");
  if (key) node.dataset.keep = key; else delete node.dataset.keep;
  node.textContent = key ? `${tr(key)}${detail ? " " + detail : ""}` : "";
  node.className = key === "keep_failed" ? "status error" : "status";
}

function keptTiles() {
  return S.items.map((it) => ({
    tile: it.tile, box: it.box ? it.box.map(Number) : null, angle: it.angle === 90 ? 90 : 0,
    group: KEPT_GROUPS.includes(it.group) ? it.group : "other",
  }));
}

function keepChanged() {
  // After a correction: send the tiles again when kept and changed.
  if (!$("keep").checked || !KEEP.file) return;
  clearTimeout(KEEP.timer);
  KEEP.timer = setTimeout(keepSend, 600);
}

async function keepSend() {
  const tiles = JSON.stringify(keptTiles());
  if (tiles === KEEP.sent) return;
  const form = new FormData();
  form.append("id", KEEP.id);
  form.append("image", KEEP.file);
  form.append("tiles", tiles);
  const res = await api("/v1/corrections", { method: "POST", body: form });
  if (res.ok) { KEEP.sent = tiles; keepStatus("kept", ""); } else keepStatus("keep_failed", errorText(res.body.error));
}

async function keepToggle() {
  clearTimeout(KEEP.timer);
  if ($("keep").checked) { await keepSend(); return; }
  if (KEEP.sent === null) { keepStatus("", ""); return; }
  const res = await api(`/v1/corrections/${KEEP.id}`, { method: "DELETE" });
  KEEP.sent = null;
  keepStatus(res.ok || res.status === 404 ? "keep_deleted" : "keep_failed", res.ok ? "" : errorText(res.body.error));
}

$("keep").addEventListener("change", keepToggle);
$("lang").addEventListener("click", () => { // the status line follows the language too
  const key = $("keep-status").dataset.keep;
  if (key === "kept" || key === "keep_deleted") keepStatus(key, "");
});
translateStatic();
