// Builds the page from values without ever parsing them as HTML: text goes in through text nodes only, so a source
// name, an audit target or a tool argument shows as written, whatever characters it holds.

/**
 * An element: `props` sets attributes (`class`, `id`, `for`, `type`, ...; `false`/null leave one out, `true` sets it
 * empty), `on` event handlers and `text` its text; `children` are nodes, strings (as text) or arrays of them.
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (name === 'on') {
      for (const [event, handler] of Object.entries(value)) {
        element.addEventListener(event, handler);
      }
    } else if (name === 'text') {
      element.textContent = value === null || value === undefined ? '' : String(value);
    } else if (name === 'value') {
      element.value = value === null || value === undefined ? '' : String(value);
    } else if (name === 'checked' || name === 'disabled' || name === 'readOnly' || name === 'hidden' || name === 'selected') {
      element[name] = Boolean(value);
    } else if (value !== false && value !== null && value !== undefined) {
      element.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(element, children);
  return element;
}

function append(element, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) {
      continue;
    }
    if (Array.isArray(child)) {
      append(element, child);
    } else if (child instanceof Node) {
      element.appendChild(child);
    } else {
      element.appendChild(document.createTextNode(String(child)));
    }
  }
}

/** Removes every child of `element`, then appends `children`. */
export function replace(element, ...children) {
  while (element.firstChild) {
    element.removeChild(element.firstChild);
  }
  append(element, children);
  return element;
}

/** A value as text: objects and arrays as compact JSON, null and undefined as an empty string. */
export function text(value) {
  if (value === null || value === undefined) {
    return '';
  }
  if (typeof value === 'object') {
    return JSON.stringify(value);
  }
  return String(value);
}

/**
 * A table: `columns` are {label, value: row => string | Node}; `rows` the values. An empty list shows `empty` instead.
 */
export function table(columns, rows, empty = 'Nothing to show.', id = null) {
  if (!rows || rows.length === 0) {
    return h('p', { class: 'muted', id: id }, empty);
  }
  const head = h('tr', {}, columns.map(column => h('th', { scope: 'col' }, column.label)));
  const body = rows.map(row => h('tr', {}, columns.map(column => {
    const value = column.value(row);
    return h('td', { class: column.wrap ? 'wrap' : false }, value instanceof Node ? value : text(value));
  })));
  return h('table', { id: id }, h('thead', {}, head), h('tbody', {}, body));
}

/** A definition list of [term, value] pairs. */
export function facts(pairs) {
  return h('dl', { class: 'facts' }, pairs.flatMap(([term, value]) => [
    h('dt', {}, term),
    h('dd', {}, value instanceof Node ? value : text(value)),
  ]));
}

/** JSON, indented, as preformatted text. */
export function json(value) {
  return h('pre', {}, JSON.stringify(value, null, 2));
}

const TONE = {
  ok: 'ok', healthy: 'ok', connected: 'ok', allow: 'ok', accepted: 'ok', published: 'ok', loaded: 'ok', true: 'ok',
  observe: 'ok', dryrun: 'warn', enforce: 'bad',
  degraded: 'warn', failing: 'warn', 'would-block': 'warn', suggested: 'warn', staging: 'warn', starting: 'warn',
  critical: 'bad', failed: 'bad', error: 'bad', blocked: 'bad', rejected: 'bad', stopped: 'bad', skipped: 'bad',
  unknown: 'off', disabled: 'off', off: 'off', false: 'off',
};

/** A status as a coloured badge; the word is always written out, the colour only repeats it. */
export function badge(status) {
  const word = text(status);
  const tone = TONE[word.toLowerCase()] || 'off';
  return h('span', { class: 'badge badge-' + tone }, word === '' ? 'n/a' : word);
}

/** How an API refusal shows: the server's message, its code, each listed problem, and when to retry. */
export function errorBox(error, id = null) {
  const lines = [];
  const code = error && error.code ? ' (' + error.code + ')' : '';
  lines.push(h('div', {}, (error && error.message ? error.message : String(error)) + code));
  if (error && error.problems && error.problems.length > 0) {
    lines.push(h('ul', {}, error.problems.map(problem => h('li', {}, problem))));
  }
  if (error && error.retryAfter) {
    lines.push(h('div', {}, 'Try again in ' + error.retryAfter + ' seconds.'));
  }
  return h('div', { class: 'error', role: 'alert', id: id }, lines);
}

/** A one-line confirmation that something was done. */
export function done(message, id = null) {
  return h('div', { class: 'success', role: 'status', id: id }, message);
}

/** A labelled input: `props` go to the input (id required, so the label can name it). */
export function field(label, props, hint = null) {
  const tag = props.tag || 'input';
  const inputProps = { ...props };
  delete inputProps.tag;
  delete inputProps.options;
  if (hint) {
    // read out with the field by screen readers
    inputProps['aria-describedby'] = props.id + '-hint';
  }
  const input = tag === 'select'
    ? h('select', inputProps, (props.options || []).map(([value, labelText]) => h('option', { value }, labelText)))
    : h(tag, inputProps);
  return h('div', { class: 'field' },
    h('label', { for: props.id }, label),
    input,
    hint ? h('span', { class: 'muted', id: props.id + '-hint' }, hint) : null);
}

/**
 * A button that asks once more before it acts: the first click shows "Confirm" and "Cancel" in its place, so a
 * removal is never one slip of the mouse away (and no browser dialog interrupts the page).
 */
export function confirmButton(label, confirmLabel, act, id = null) {
  const holder = h('span', { class: 'actions' });
  const ask = () => {
    replace(holder,
      h('button', { type: 'button', class: 'danger', id: id ? id + '-confirm' : false, on: { click: act } }, confirmLabel),
      h('button', { type: 'button', class: 'secondary', on: { click: reset } }, 'Cancel'));
  };
  const reset = () => {
    replace(holder, h('button', { type: 'button', class: 'secondary', id: id, on: { click: ask } }, label));
  };
  reset();
  return holder;
}

/** A timestamp in the reader's locale, with the ISO form as the tooltip; anything else as it came. */
export function time(iso) {
  if (typeof iso !== 'string' || iso === '') {
    return text(iso);
  }
  const parsed = new Date(iso);
  if (Number.isNaN(parsed.getTime())) {
    return iso;
  }
  return h('time', { datetime: iso, title: iso }, parsed.toLocaleString());
}

/** The values of a form's named inputs, trimmed. */
export function values(form) {
  const result = {};
  for (const element of form.elements) {
    if (element.name) {
      result[element.name] = element.type === 'checkbox' ? element.checked : element.value.trim();
    }
  }
  return result;
}
