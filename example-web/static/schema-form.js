// Forms generated from JSON Schema: a tool's inputSchema and an elicitation's
// requestedSchema. Supported per property: string (with format email, uri,
// date, date-time, and minLength/maxLength/pattern), number and integer
// (minimum/maximum), boolean, single-select enums (enum, enum + enumNames,
// oneOf [{const, title}]), multi-select enums (array of enum / anyOf items)
// and, for anything else, a JSON text field. Defaults are filled in,
// required fields are marked and enforced.

import { h, json, uid } from "./dom.js";

/** primaryType returns a schema's type, ignoring "null" in a type list. */
function primaryType(s) {
  if (Array.isArray(s?.type)) return s.type.find((t) => t !== "null");
  if (s?.type) return s.type;
  if (Array.isArray(s?.enum)) return typeof s.enum[0] === "number" ? "number" : "string";
  if (Array.isArray(s?.oneOf) && s.oneOf.every((o) => o && "const" in o)) return "string";
  return undefined;
}

/** constOptions returns [{value, label}] for a list of {const, title} schemas, or null. */
function constOptions(alts) {
  if (!Array.isArray(alts) || !alts.length || !alts.every((o) => o && typeof o === "object" && "const" in o)) return null;
  return alts.map((o) => ({ value: o.const, label: String(o.title ?? o.const) }));
}

/** enumOptions returns [{value, label}] for a single-select enum, or null. */
function enumOptions(s) {
  if (Array.isArray(s?.enum)) {
    const names = Array.isArray(s.enumNames) ? s.enumNames : [];
    return s.enum.map((v, i) => ({ value: v, label: String(names[i] ?? v) }));
  }
  return constOptions(s?.oneOf);
}

/** multiOptions returns [{value, label}] for a multi-select enum array, or null. */
function multiOptions(s) {
  if (primaryType(s) !== "array" || !s.items || typeof s.items !== "object") return null;
  if (Array.isArray(s.items.enum)) return s.items.enum.map((v) => ({ value: v, label: String(v) }));
  return constOptions(s.items.anyOf ?? s.items.oneOf);
}

const inputTypes = { email: "email", uri: "url", date: "date", "date-time": "datetime-local" };

/** constraintHint describes a property's constraints in words. */
function constraintHint(s, type) {
  const parts = [];
  if (type === "integer") parts.push("whole number");
  if (s.minimum !== undefined) parts.push(`≥ ${s.minimum}`);
  if (s.maximum !== undefined) parts.push(`≤ ${s.maximum}`);
  if (s.minLength !== undefined) parts.push(`at least ${s.minLength} characters`);
  if (s.maxLength !== undefined) parts.push(`at most ${s.maxLength} characters`);
  if (s.format) parts.push(s.format);
  if (s.minItems !== undefined) parts.push(`pick at least ${s.minItems}`);
  if (s.maxItems !== undefined) parts.push(`pick at most ${s.maxItems}`);
  return parts.join(", ");
}

/**
 * schemaForm builds the fields of an object schema.
 * Returns {element, read(), empty}: read() validates and returns
 * {ok: true, value} or {ok: false, errors: [..]} (marking the fields);
 * empty is true when the schema has no properties.
 */
export function schemaForm(schema, { idPrefix = uid("f") } = {}) {
  const props = schema && typeof schema === "object" && schema.properties && typeof schema.properties === "object" ? schema.properties : {};
  const required = new Set(Array.isArray(schema?.required) ? schema.required : []);
  const fields = Object.entries(props).map(([name, prop]) => field(name, prop && typeof prop === "object" ? prop : {}, required.has(name), `${idPrefix}-${name}`));
  const element = h("div", { class: "schema-form" }, fields.map((f) => f.row));
  return {
    element,
    empty: fields.length === 0,
    read() {
      const value = {};
      const errors = [];
      for (const f of fields) {
        const r = f.read();
        if (r.error) errors.push(`${f.label}: ${r.error}`);
        else if (r.set) value[f.name] = r.value;
      }
      return errors.length ? { ok: false, errors } : { ok: true, value };
    },
  };
}

function field(name, s, isRequired, id) {
  const type = primaryType(s);
  const label = s.title ? String(s.title) : name;
  const hintId = `${id}-hint`;
  const errId = `${id}-err`;
  const hintText = [s.description ? String(s.description) : "", constraintHint(s, type)].filter(Boolean).join(" — ");
  const err = h("div", { class: "field-error", id: errId, role: "alert", hidden: true });
  const describedBy = [hintText && hintId, errId].filter(Boolean).join(" ");
  // The required mark is drawn by CSS (.required::after) so it is not part
  // of the label's text; the control's required attribute tells assistive
  // technology.
  const labelEl = (forId) => h("label", { for: forId, class: ["field-label", isRequired && "required"] }, label,
    label !== name ? h("code", { class: "field-name" }, name) : null);
  const hint = hintText ? h("div", { class: "field-hint", id: hintId }, hintText) : null;
  const showError = (msg, control) => {
    err.textContent = msg || "";
    err.hidden = !msg;
    control?.setAttribute("aria-invalid", msg ? "true" : "false");
  };
  const hasDefault = s.default !== undefined;

  // Multi-select enum: a group of checkboxes.
  const multi = multiOptions(s);
  if (multi) {
    const defaults = Array.isArray(s.default) ? s.default : [];
    const boxes = multi.map((o, i) => {
      const cid = `${id}-${i}`;
      const box = h("input", { type: "checkbox", id: cid, checked: defaults.includes(o.value) });
      return { o, box, el: h("label", { for: cid, class: "check" }, box, " ", o.label) };
    });
    const group = h("fieldset", { class: "field multi", "aria-describedby": describedBy },
      h("legend", { class: ["field-label", isRequired && "required"] }, label),
      h("div", { class: "checks" }, boxes.map((b) => b.el)), hint, err);
    return {
      name, label, row: group,
      read() {
        const picked = boxes.filter((b) => b.box.checked).map((b) => b.o.value);
        let msg = "";
        if (isRequired && picked.length === 0) msg = "pick at least one";
        else if (s.minItems !== undefined && picked.length < s.minItems) msg = `pick at least ${s.minItems}`;
        else if (s.maxItems !== undefined && picked.length > s.maxItems) msg = `pick at most ${s.maxItems}`;
        showError(msg, group);
        if (msg) return { error: msg };
        return picked.length || isRequired || hasDefault ? { set: true, value: picked } : { set: false };
      },
    };
  }

  // Single-select enum: a select.
  const opts = enumOptions(s);
  if (opts) {
    const sel = h("select", { id, required: isRequired, "aria-describedby": describedBy },
      !isRequired || !hasDefault ? h("option", { value: "" }, isRequired ? "— choose —" : "— none —") : null,
      opts.map((o, i) => h("option", { value: String(i), selected: hasDefault && o.value === s.default }, o.label)));
    return {
      name, label, row: h("div", { class: "field" }, labelEl(id), sel, hint, err),
      read() {
        if (sel.value === "") {
          const msg = isRequired ? "choose a value" : "";
          showError(msg, sel);
          return msg ? { error: msg } : { set: false };
        }
        showError("", sel);
        return { set: true, value: opts[Number(sel.value)].value };
      },
    };
  }

  if (type === "boolean") {
    const box = h("input", { type: "checkbox", id, checked: s.default === true, "aria-describedby": describedBy });
    return {
      name, label,
      row: h("div", { class: "field bool" }, h("label", { for: id, class: ["check", isRequired && "required"] }, box, " ", label), hint, err),
      read() { return { set: true, value: box.checked }; },
    };
  }

  if (type === "string" || type === "number" || type === "integer") {
    const numeric = type !== "string";
    const long = !numeric && !s.format && !s.pattern && (s.maxLength === undefined || s.maxLength > 120) && /text|body|content|prompt|message|description/i.test(name);
    const attrs = {
      id, name, required: isRequired, "aria-describedby": describedBy,
      placeholder: s.examples?.[0] !== undefined ? String(s.examples[0]) : undefined,
    };
    let input;
    if (numeric) {
      input = h("input", { ...attrs, type: "number", step: type === "integer" ? "1" : "any", min: s.minimum, max: s.maximum, inputmode: type === "integer" ? "numeric" : "decimal" });
    } else if (long) {
      input = h("textarea", { ...attrs, rows: 3, minlength: s.minLength, maxlength: s.maxLength });
    } else {
      input = h("input", { ...attrs, type: inputTypes[s.format] || "text", minlength: s.minLength, maxlength: s.maxLength, pattern: s.pattern });
    }
    if (hasDefault) input.value = s.format === "date-time" ? String(s.default).slice(0, 16) : String(s.default);
    return {
      name, label, row: h("div", { class: "field" }, labelEl(id), input, hint, err),
      read() {
        const raw = input.value;
        if (raw.trim() === "") {
          const msg = isRequired ? "required" : "";
          showError(msg, input);
          return msg ? { error: msg } : { set: false };
        }
        if (!input.checkValidity()) {
          showError(input.validationMessage || "invalid value", input);
          return { error: input.validationMessage || "invalid value" };
        }
        let value = raw;
        if (numeric) {
          value = Number(raw);
          if (!Number.isFinite(value) || (type === "integer" && !Number.isInteger(value))) {
            const msg = type === "integer" ? "enter a whole number" : "enter a number";
            showError(msg, input);
            return { error: msg };
          }
        } else if (s.format === "date-time") {
          const d = new Date(raw);
          if (!Number.isNaN(d.getTime())) value = d.toISOString();
        }
        showError("", input);
        return { set: true, value };
      },
    };
  }

  // Anything else (objects, arrays of objects, unions): JSON text.
  const ta = h("textarea", { id, rows: 3, class: "json", spellcheck: "false", required: isRequired, "aria-describedby": describedBy,
    placeholder: type === "array" ? "[ … ] (JSON)" : type === "object" ? "{ … } (JSON)" : "JSON value" });
  if (hasDefault) ta.value = json(s.default);
  return {
    name, label, row: h("div", { class: "field" }, labelEl(id), ta, hint, err),
    read() {
      if (ta.value.trim() === "") {
        const msg = isRequired ? "required" : "";
        showError(msg, ta);
        return msg ? { error: msg } : { set: false };
      }
      try {
        const value = JSON.parse(ta.value);
        showError("", ta);
        return { set: true, value };
      } catch (e) {
        const msg = `not valid JSON (${e.message})`;
        showError(msg, ta);
        return { error: msg };
      }
    },
  };
}
