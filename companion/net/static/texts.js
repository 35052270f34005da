/* Text templates, exactly as companion/app/i18n.py renders them (tests/browser compares the two):
 * {name} is a parameter (whole numbers get the language's digit grouping; {name:>4} pads it), {{ and }} are literal
 * braces, {count, plural, =0 {…} one {# ticket} other {# tickets}} picks a form by the number
 * (# is that number); {ticket, select, bus {de bus} other {…}} picks a branch by an id (the value of
 * ticket), else other. The language's plural rule (CLDR syntax, whole numbers) and grouping come
 * from its catalogue: language.plural, language.group, language.group_from.
 */

const CATEGORIES = ["zero", "one", "two", "few", "many", "other"];
const RELATION = /^([niv])(?:\s*%\s*(\d+))?\s*(!=|=)\s*([\d.,\s]+)$/;

export class TemplateError extends Error {}

/* "one: i = 1 and v = 0; few: n % 10 = 2..4" -> a function from a whole number to a category. */
export function pluralRule(rule) {
  const branches = [];
  for (const part of String(rule || "").split(";").map((p) => p.trim()).filter(Boolean)) {
    const colon = part.indexOf(":");
    const category = part.slice(0, colon).trim();
    const condition = part.slice(colon + 1).trim();
    if (colon < 0 || !CATEGORIES.includes(category) || !condition) throw new TemplateError("bad plural rule " + part);
    const alternatives = condition.split(" or ").map((alt) => alt.split(" and ").map((relation) => {
      const m = RELATION.exec(relation.trim());
      if (!m) throw new TemplateError("bad plural relation " + relation);
      const ranges = m[4].replace(/\s/g, "").split(",").map((item) => {
        const [low, high] = item.split("..");
        if (!/^\d+$/.test(low) || (high !== undefined && !/^\d+$/.test(high))) throw new TemplateError("bad range " + item);
        return [Number(low), Number(high === undefined ? low : high)];
      });
      return { operand: m[1], modulo: m[2] ? Number(m[2]) : 0, equal: m[3] === "=", ranges };
    }));
    branches.push([category, alternatives]);
  }
  return (number) => {
    for (const [category, alternatives] of branches) {
      if (alternatives.some((relations) => relations.every((r) => {
        let value = r.operand === "v" ? 0 : Math.abs(number);
        if (r.modulo) value %= r.modulo;
        return r.ranges.some(([low, high]) => low <= value && value <= high) === r.equal;
      }))) return category;
    }
    return "other";
  };
}

/* The language settings of a merged catalogue (the page's /texts/<lang>.json). */
export function language(texts) {
  let rule;
  try { rule = pluralRule(texts["language.plural"] || "one: n = 1"); } catch (e) { rule = pluralRule("one: n = 1"); }
  const from = Number(texts["language.group_from"]);
  return { rule, group: texts["language.group"] === undefined ? "," : texts["language.group"], from: from > 0 ? from : 1000 };
}

export function formatNumber(number, lang) {
  let digits = String(Math.abs(number));
  if (Math.abs(number) >= lang.from && lang.group) {
    const head = digits.length % 3 || 3;
    let out = digits.slice(0, head);
    for (let i = head; i < digits.length; i += 3) out += lang.group + digits.slice(i, i + 3);
    digits = out;
  }
  return (number < 0 ? "-" : "") + digits;
}

function whole(value) {
  if (typeof value === "number" && Number.isInteger(value)) return value;
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value);
  return null;
}

function show(value, lang) {
  if (Array.isArray(value)) return value.map((item) => show(item, lang)).join(", ");
  return typeof value === "number" && Number.isInteger(value) ? formatNumber(value, lang) : String(value);
}

const NAME = /\s*([A-Za-z_][A-Za-z0-9_]*)\s*/y;
const WIDTH = /(?::([<>]?)(\d+))?\}/y;
const BRANCH = /(=\d+|[a-z]+)\s*\{/y;
const WORD = /([A-Za-z0-9_]+)\s*\{/y;

function match(re, s, i) {
  re.lastIndex = i;
  return re.exec(s);
}

/* Fill a template; a parameter missing from params stays as {name}. Throws TemplateError. */
export function render(template, params, lang) {
  const [out, end] = segment(template, 0, params || {}, lang, null, false);
  if (end !== template.length) throw new TemplateError("unmatched } in " + template);
  return out;
}

/* Up to an unmatched } (the end of a plural or select branch: branch) or the end; # is number. */
function segment(s, i, params, lang, number, branch) {
  let out = "";
  while (i < s.length) {
    const ch = s[i];
    if (ch === "{" && s.startsWith("{{", i)) { out += "{"; i += 2; }
    else if (ch === "}" && !branch && s.startsWith("}}", i)) { out += "}"; i += 2; }
    else if (ch === "}") return [out, i];
    else if (ch === "#" && number !== null) { out += number; i += 1; }
    else if (ch === "{") {
      const m = match(NAME, s, i + 1);
      if (!m) throw new TemplateError("bad placeholder in " + s);
      const name = m[1];
      i = NAME.lastIndex;
      const has = Object.prototype.hasOwnProperty.call(params, name);
      const width = match(WIDTH, s, i);
      if (width) {  // {name} or {name:>4}: right (>) or left (<, the default) aligned
        const shown = has ? show(params[name], lang) : "{" + name + "}";
        const size = Number(width[2] || 0);
        out += width[1] === ">" ? shown.padStart(size) : shown.padEnd(size);
        i = WIDTH.lastIndex;
        continue;
      }
      const kind = s.startsWith(",", i) ? match(NAME, s, i + 1) : null;
      if (!kind || (kind[1] !== "plural" && kind[1] !== "select") || !s.startsWith(",", NAME.lastIndex)) {
        throw new TemplateError("bad placeholder " + name);
      }
      const [chosen, next] = kind[1] === "select"
        ? select(s, NAME.lastIndex + 1, params, lang, number, has ? params[name] : null)
        : plural(s, NAME.lastIndex + 1, params, lang, has ? params[name] : null);
      out += has ? chosen : "{" + name + "}";
      i = next;
    } else { out += ch; i += 1; }
  }
  return [out, i];
}

/* A value that is not a whole number ("?") takes the other form. */
function plural(s, i, params, lang, value) {
  const forms = {};
  const n = value === null || value === undefined ? null : whole(value);
  const number = n !== null ? formatNumber(n, lang) : value === null || value === undefined ? "#" : String(value);
  for (;;) {
    while (i < s.length && /\s/.test(s[i])) i += 1;
    if (s.startsWith("}", i)) break;
    const m = match(BRANCH, s, i);
    if (!m) throw new TemplateError("bad plural branch in " + s);
    if (!m[1].startsWith("=") && !CATEGORIES.includes(m[1])) throw new TemplateError("unknown plural form " + m[1]);
    const [body, end] = segment(s, BRANCH.lastIndex, params, lang, number, true);
    if (!s.startsWith("}", end)) throw new TemplateError("unclosed plural branch in " + s);
    forms[m[1]] = body;
    i = end + 1;
  }
  if (!("other" in forms)) throw new TemplateError("a plural needs an 'other' form: " + s);
  if (n === null) return [forms.other, i + 1];
  const exact = forms["=" + n];
  return [exact !== undefined ? exact : (forms[lang.rule(n)] !== undefined ? forms[lang.rule(n)] : forms.other), i + 1];
}

/* The branch named by the value (an id such as "bus"), else other. */
function select(s, i, params, lang, number, value) {
  const forms = {};
  for (;;) {
    while (i < s.length && /\s/.test(s[i])) i += 1;
    if (s.startsWith("}", i)) break;
    const m = match(WORD, s, i);
    if (!m) throw new TemplateError("bad select branch in " + s);
    const [body, end] = segment(s, WORD.lastIndex, params, lang, number, true);
    if (!s.startsWith("}", end)) throw new TemplateError("unclosed select branch in " + s);
    forms[m[1]] = body;
    i = end + 1;
  }
  if (!("other" in forms)) throw new TemplateError("a select needs an 'other' branch: " + s);
  const chosen = typeof value === "string" && Object.prototype.hasOwnProperty.call(forms, value) ? forms[value] : forms.other;
  return [chosen, i + 1];
}
