/* The landing page (GET /): a room code typed here becomes the seat's link (POST /join), and the
 * phone page opens it as if the seat's QR code had been scanned. Texts in the browser's language
 * if the table has it, else English. */

import { language as languageOf, render as fill } from "./texts.js";

let texts = {};
let rules = languageOf({});

function t(code) {
  if (!Object.prototype.hasOwnProperty.call(texts, code)) return code;
  try { return fill(texts[code], {}, rules); } catch (e) { return texts[code]; }
}

function notice(text, info) {
  const n = document.getElementById("notice");
  n.hidden = !text;
  n.className = info ? "info" : "";
  n.textContent = text || "";
}

async function loadTexts() {
  const wanted = (navigator.language || "en").slice(0, 2).toLowerCase();
  for (const lang of [wanted, "en"]) {
    try {
      const r = await fetch("/texts/" + lang + ".json", { cache: "no-store" });
      if (r.ok) { texts = await r.json(); rules = languageOf(texts); document.documentElement.lang = lang; break; }
    } catch (e) { /* try the next */ }
  }
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
}

async function join(event) {
  event.preventDefault();
  const input = document.getElementById("code");
  const code = input.value.replace(/\s+/g, "").toUpperCase();
  if (code.length !== 5) { notice(t("landing.no_code")); input.focus(); return; }
  const button = document.querySelector("#join button");
  button.disabled = true;
  notice(t("landing.joining"), true);
  // Busy (many codes tried at once, 429): the code was not looked at; it is sent again by itself.
  for (let attempt = 0; attempt < 30; attempt++) {
    try {
      const r = await fetch("/join", {
        method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ code }), cache: "no-store",
      });
      const answer = await r.json();
      if (r.ok && answer.link) { location.assign(answer.link); return; }
      if (r.status === 429) { notice(answer.text || answer.code, true); await new Promise((done) => setTimeout(done, 3000)); continue; }
      notice(answer.text || answer.code);
    } catch (e) {
      notice(t("landing.offline"));
    }
    break;
  }
  button.disabled = false;
  input.select();
}

document.getElementById("join").addEventListener("submit", join);
loadTexts();
