// The lobby's rules options, built from a game's option schema (`options` in GET /api/games, each as
// floe.core.options.Option.to_dict gives it): one field per option, whatever the game.
//   choice → a select; bool → default / yes / no; int → a number field with its bounds; seat → the seats
//   (and "random" where allowed); text → a text field, or a select of its suggestions; list → a fieldset
//   with one field per item. `advanced` options go in a collapsed "More rules".
// Every field starts at "default (…)", which is never sent: only what the person changed reaches the server.
import { h, replaceChildren } from "./dom.js";
import { t } from "./i18n.js";

const UNSET = undefined; // what a field reads while it shows its default: the option is not sent
// Characters of a menu entry that still show in a grid cell of the form (a cell is at least 230 pixels).
const LONG_ENTRY = 24;

// A default that another option's choice changes, in the schema's notation: "`value` (preset: `value`)".
const PRESET_DEFAULT = /^`?([^`\s()]+)`? \(([^\s():`]+): `?([^`\s()]+)`?\)$/;

/** One value of `opt` in words: its choice's words, yes/no, a seat's P1, "random"; else the value itself. */
function valueWords(opt, value) {
  const chosen = (opt.choices || []).find((c) => String(c.value) === value);
  if (chosen) return choiceWords(chosen.text);
  if (opt.kind === "bool" && (value === "true" || value === "false")) return value === "true" ? t("yes") : t("no");
  if (opt.kind === "seat" && /^\d+$/.test(value)) return `P${Number(value) + 1}`;
  return value === "random" ? t("random") : value;
}

/**
 * What a preset-dependent default depends on: `{ value, key, other }` for "`value` (key: `other`)" (the
 * default is `other` while the preset `key` of another option is chosen), else null.
 */
function presetDefault(opt) {
  const found = String(opt.default_text ?? "").match(PRESET_DEFAULT);
  return found ? { value: found[1], key: found[2], other: found[3] } : null;
}

/**
 * The default in words, for the first entry of a field: "default (random)", "default (yes)". A default that
 * depends on a preset reads as the value it has now (`preset`: true while that preset is chosen).
 */
export function defaultWords(opt, preset = false) {
  const written = String(opt.default_text ?? ""); // the catalogs' key, with its notation in backticks
  const text = written.replaceAll("`", "");
  const raw = String(opt.default);
  const chosen = (opt.choices || []).find((c) => c.value === opt.default);
  if (chosen && (!text || text === raw)) return choiceWords(chosen.text);
  const depends = presetDefault(opt);
  if (depends) return valueWords(opt, preset ? depends.other : depends.value);
  if (opt.kind === "bool") return (text || raw).replace(/\b(true|false)\b/g, (w) => (w === "true" ? t("yes") : t("no")));
  if (opt.kind === "seat" && Number.isInteger(opt.default) && (!text || text === raw)) return `P${opt.default + 1}`;
  // Translated by its written key (backticks and all), then shown without them.
  return text ? t(written).replaceAll("`", "") : t(raw);
}

/**
 * A select whose entries are [label, value] pairs after "default (…)"; reads the value (with its JSON type:
 * a number stays a number), or UNSET. Each entry's DOM value is its value as text (unique in a schema).
 */
function selectField(opt, testid, entries) {
  const select = h(
    "select",
    { "data-testid": testid, dataset: { opt: testid } },
    h("option", { value: "" }, t("default (%(value)s)", { value: defaultWords(opt) })),
    entries.map(([label, value]) => h("option", { value: String(value) }, choiceWords(label))),
  );
  const read = () => {
    const found = entries.find(([, value]) => String(value) === select.value);
    return found ? found[1] : UNSET;
  };
  // A closed menu cannot wrap its words: one with a long entry takes the form's whole row (a board layout's name).
  const long = [...select.options].some((o) => o.textContent.length > LONG_ENTRY);
  return { input: select, read, long };
}

/** A choice's words in the page's language; "notation: words" (a power side) keeps its notation. */
function choiceWords(label) {
  const whole = t(label);
  if (whole !== label) return whole;
  const at = label.indexOf(": ");
  return at > 0 ? `${label.slice(0, at)}: ${t(label.slice(at + 2))}` : label;
}

/** One option's input and how to read it (`players`: the seat count, for seat options). */
function field(opt, testid, players) {
  const choices = (opt.choices || []).map((c) => [c.text || String(c.value), c.value]);
  if (opt.kind === "choice" || (opt.kind === "text" && choices.length)) return selectField(opt, testid, choices);
  if (opt.kind === "bool") return selectField(opt, testid, [[t("yes"), true], [t("no"), false]]);
  if (opt.kind === "seat") {
    const seats = [...Array(players).keys()].map((q) => [`P${q + 1}`, q]);
    return selectField(opt, testid, opt.random_ok ? [...seats, [t("random"), "random"]] : seats);
  }
  if (opt.kind === "list") return listField(opt, testid, players);
  const number = opt.kind === "int" || opt.kind === "number";
  const input = h("input", {
    type: number ? "number" : "text",
    min: number ? opt.low : null,
    max: number ? opt.high : null,
    step: number ? (opt.kind === "int" ? 1 : "any") : null,
    maxlength: number ? null : opt.max_length,
    placeholder: t("default (%(value)s)", { value: defaultWords(opt) }),
    "data-testid": testid,
    dataset: { opt: testid },
  });
  const read = () => {
    const value = input.value.trim();
    if (!value) return UNSET;
    return number ? Number(value) : value;
  };
  return { input, read };
}

/** A list option: one field per item; sent whole (unchanged items at their default) once any item changed. */
function listField(opt, testid, players) {
  const items = (opt.items || []).map((item) => ({ item, ...field(item, `${testid}-${item.name}`, players) }));
  const input = h(
    "fieldset",
    { class: "option-list", "data-testid": testid },
    h("legend", { title: opt.help ? t(opt.help) : "" }, t(opt.label)),
    items.map(({ item, input: sub, long }) =>
      h("label", { class: long ? "field field-long" : "field", title: item.help ? t(item.help) : "" }, t(item.label), sub),
    ),
  );
  const read = () => {
    const values = items.map(({ read: itemRead }) => itemRead());
    if (values.every((v) => v === UNSET)) return UNSET;
    return values.map((v, i) => (v === UNSET ? items[i].item.default : v));
  };
  return { input, read, wide: true };
}

/** The option fields of one game, in two places: the rules shown, and the collapsed "More rules". */
export class OptionForm {
  constructor(basic, advanced) {
    this.basic = basic;
    this.advanced = advanced;
    this.fields = [];
  }

  /**
   * Show `options` for `players` seats. With `keep` (the same game, another seat count) a field keeps what
   * the person chose; another game starts from its defaults.
   */
  show(options, players, { keep = false } = {}) {
    const fields = keep ? [...this.root().querySelectorAll("[data-opt]")] : [];
    const kept = new Map(fields.map((el) => [el.dataset.opt, el.value]));
    this.fields = (options || []).map((opt) => ({ opt, ...field(opt, `opt-${opt.name}`, players) }));
    const node = ({ opt, input, wide, long }) =>
      wide
        ? input
        : h("label", { class: long ? "field field-long" : "field", title: opt.help ? t(opt.help) : "" }, t(opt.label), input);
    replaceChildren(this.basic, this.fields.filter((f) => !f.opt.advanced).map(node));
    replaceChildren(this.advanced, this.fields.filter((f) => f.opt.advanced).map(node));
    for (const el of this.root().querySelectorAll("[data-opt]")) {
      const value = kept.get(el.dataset.opt);
      if (value === undefined) continue;
      el.value = value;
      if (el.value !== value) el.value = ""; // no longer offered (fewer seats): back to the default
    }
    this.followPresets(); // after the kept values: a kept preset shows its defaults
  }

  /**
   * A default that depends on a preset ("`deck_emptied` (bga: `bga`)": Board Game Arena's rules make it
   * `bga`) shows the value it has under the preset chosen now, and changes with it.
   */
  followPresets() {
    for (const f of this.fields) {
      const depends = presetDefault(f.opt);
      if (!depends || !(f.input instanceof HTMLSelectElement)) continue;
      const owner = this.fields.find((o) => o !== f && (o.opt.choices || []).some((c) => c.value === depends.key));
      const show = () => {
        const now = owner ? (owner.read() ?? owner.opt.default) : undefined;
        const words = defaultWords(f.opt, now === depends.key);
        f.input.options[0].textContent = t("default (%(value)s)", { value: words });
      };
      if (owner) owner.input.addEventListener("change", show);
      show();
    }
  }

  root() {
    return this.basic.closest("form") || this.basic;
  }

  /** The options the person changed, as the server reads them. */
  read() {
    const out = {};
    for (const { opt, read } of this.fields) {
      const value = read();
      if (value !== UNSET) out[opt.name] = value;
    }
    return out;
  }
}
