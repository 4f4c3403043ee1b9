// Languages in the browser: the server's gettext catalogs as JSON (GET /api/i18n/{lang}?domain=…), `t` and
// `nt` (plural forms picked with Intl.PluralRules, in the order the catalog's Plural-Forms gives), the
// static page's texts translated on load, and the picker. Placeholders are python-format, as in Python:
// t("Place %(card)s", { card }). docs/languages.md.

export const LANGUAGES = ["en", "de", "it", "pl"];
const NAMES = { en: "English", de: "Deutsch", it: "Italiano", pl: "Polski" };
const STORE = "floe.lang";

const messages = new Map(); // message id -> text, or the list of plural forms
let categories = ["one", "other"];
let rules = null;

function known(tag) {
  const code = String(tag || "").toLowerCase().split(/[-_]/)[0];
  return LANGUAGES.includes(code) ? code : null;
}

/** The page's language: `?lang=` forces one; else the picker's choice (remembered in this browser); else
 * the browser's languages (its Accept-Language); else English. */
export function chooseLanguage() {
  const forced = known(new URLSearchParams(location.search).get("lang"));
  if (forced) return forced;
  let stored = null;
  try {
    stored = known(localStorage.getItem(STORE));
  } catch {
    stored = null;
  }
  if (stored) return stored;
  for (const tag of navigator.languages || [navigator.language]) {
    const found = known(tag);
    if (found) return found;
  }
  return "en";
}

export const lang = chooseLanguage();

/** Load `domain`'s messages in the page's language (nothing to load for English). */
export async function loadMessages(domain = "floe") {
  if (lang === "en") return;
  const res = await fetch(`/api/i18n/${lang}?domain=${encodeURIComponent(domain)}`);
  if (!res.ok) return; // a game without catalogs reads English
  const data = await res.json();
  categories = data.plural || categories;
  for (const [id, text] of Object.entries(data.messages || {})) messages.set(id, text);
}

function format(text, values) {
  if (!values) return text;
  return text.replace(/%\((\w+)\)[sd]/g, (whole, name) => (name in values ? String(values[name]) : whole));
}

/** Mark `id` for extraction without translating it (a constant translated where it is shown, with `t`). */
export function N(id) {
  return id;
}

/** `id` in the page's language, its %(name)s placeholders filled from `values`. */
export function t(id, values) {
  const found = messages.get(id);
  return format(typeof found === "string" && found ? found : id, values);
}

/** `id` in `context` in the page's language (a game's data named in its catalog, e.g. the context "card"
 * for card names); `id` itself if the catalog does not have it. */
export function tc(context, id) {
  const found = messages.get(`${context}\u0004${id}`);
  return typeof found === "string" && found ? found : id;
}

/** The form of `singular`/`plural` for the count `n` (Polish: 1 / 2–4 / 5+), placeholders from `values`
 * (`n` is there by default). */
export function nt(singular, plural, n, values) {
  const all = { n, ...(values || {}) };
  const forms = messages.get(singular);
  if (!Array.isArray(forms)) return format(Math.abs(n) === 1 ? singular : plural, all);
  if (!rules) rules = new Intl.PluralRules(lang);
  let index = categories.indexOf(rules.select(Math.abs(n)));
  if (index < 0 || index >= forms.length) index = forms.length - 1;
  return format(forms[index] || plural, all);
}

/** Notation with its words in the page's language (a game's catalog names them in the context
 * "notation": "discard bear-fox-3" reads "abwerfen bear-fox-3"); card names stay as they are. */
export function showNotation(notation) {
  return String(notation)
    .split(" ")
    .map((word) => {
      const found = messages.get(`notation\u0004${word}`);
      return typeof found === "string" && found ? found : word;
    })
    .join(" ");
}

/** Translate the static page: every text of `root` that is a message id, and the readable attributes. */
export function translatePage(root = document.body) {
  document.documentElement.lang = lang;
  if (document.title) document.title = translateText(document.title);
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement && node.parentElement.closest("script,style")) continue;
    node.nodeValue = translateText(node.nodeValue);
  }
  for (const el of root.querySelectorAll("[title],[placeholder],[aria-label]")) {
    for (const name of ["title", "placeholder", "aria-label"]) {
      if (el.hasAttribute(name)) el.setAttribute(name, translateText(el.getAttribute(name)));
    }
  }
}

function translateText(text) {
  const id = text.split(/\s+/).filter(Boolean).join(" ");
  if (!id || !messages.has(id)) return text;
  const lead = text.match(/^\s*/)[0];
  const tail = text.match(/\s*$/)[0];
  return lead + t(id) + tail;
}

/** The header's language picker: the choice is remembered in this browser and the page reloads in it (a
 * forcing ?lang= is dropped, so the choice shows). */
export function languagePicker() {
  const select = document.createElement("select");
  select.className = "lang-pick";
  select.dataset.testid = "language";
  select.setAttribute("aria-label", t("Language"));
  select.title = t("Language");
  for (const code of LANGUAGES) {
    const option = document.createElement("option");
    option.value = code;
    option.textContent = code.toUpperCase(); // short: the table's header has little room to spare
    option.title = NAMES[code];
    option.selected = code === lang;
    select.append(option);
  }
  select.addEventListener("change", () => {
    try {
      localStorage.setItem(STORE, select.value);
    } catch {
      // storage off: the choice lasts for this page only
    }
    const url = new URL(location.href);
    url.searchParams.delete("lang");
    if (url.href === location.href) location.reload();
    else location.href = url.href;
  });
  return select;
}

/** Load the generic messages (and the games' named in `domains`), translate the page, add the picker. */
export async function startLanguage(domains = []) {
  await Promise.all([loadMessages("floe"), ...domains.map((d) => loadMessages(d))]);
  translatePage();
  const bar = document.querySelector(".topbar");
  if (bar && !bar.querySelector(".lang-pick")) bar.append(languagePicker());
}
