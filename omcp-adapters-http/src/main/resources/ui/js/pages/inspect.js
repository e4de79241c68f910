// Inspect (spec 2.14, docs/inspect.md): the mode with its switch (inspection:write), the observed tool calls, and the
// behaviour profile: rules with their provenance, derived on demand and accepted or rejected one by one, the calls
// outside the profile and the flows from identities to tools to backends. Reads need inspection:read. A gateway whose
// version has no profile yet answers 404 on those routes, which shows as "not available in this version".

import { api, query, ApiError } from '../api.js';
import { h, replace, table, badge, facts, errorBox, done, time, field, values, text } from '../dom.js';
import { title, fill } from './parts.js';

const MODES = ['off', 'observe', 'dryrun', 'enforce'];

export const inspect = {
  id: 'inspect',
  title: 'Inspect',
  needs: 'inspection:read',
  async render(view, { can }) {
    const writable = can('inspection:write');
    const mode = h('div');
    const events = h('div');
    const profile = h('div');
    const deviations = h('div');
    const flows = h('div');
    const showMode = () => fill(mode, () => modePart(writable, showMode));
    view.append(title('Inspect'),
      h('section', { id: 'inspect-mode' }, h('h2', {}, 'Mode'), mode),
      h('section', { id: 'inspect-events' }, h('h2', {}, 'Observed tool calls'), eventFilter(events), events),
      h('section', { id: 'inspect-profile' }, h('h2', {}, 'Profile'), profile),
      h('section', { id: 'inspect-deviations' }, h('h2', {}, 'Deviations'), deviations),
      h('section', { id: 'inspect-flows' }, h('h2', {}, 'Flows'), flows));
    const showProfile = () => fill(profile, () => optional(() => profilePart(writable, showProfile)));
    await Promise.all([
      showMode(),
      fill(events, () => eventTable({})),
      showProfile(),
      fill(deviations, () => optional(deviationPart)),
      fill(flows, () => optional(flowPart)),
    ]);
  },
};

/** A part whose route a gateway of an older version does not have: its 404 says so instead of failing. */
async function optional(work) {
  try {
    return await work();
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) {
      return h('p', { class: 'muted' }, 'Not available in this version of the gateway.');
    }
    throw error;
  }
}

async function modePart(writable, showMode) {
  const state = (await api('GET', '/api/inspect/mode')).data;
  const shown = [
    facts([
      ['Mode', h('span', { id: 'inspect-mode-current' }, state.mode)],
      ['Tool calls observed', state.counts ? state.counts.observed : ''],
      ['Dropped', state.counts ? state.counts.dropped : ''],
      ['Kept in', state.storage],
      ['Window', state.windowSeconds === undefined ? '' : state.windowSeconds + ' s'],
    ]),
  ];
  if (writable) {
    const status = h('div', { 'aria-live': 'polite' });
    const form = h('form', { class: 'inline', id: 'inspect-mode-form' },
      field('Switch to', { tag: 'select', id: 'inspect-mode-select', name: 'mode', options: MODES.map(m => [m, m]) }),
      h('button', { type: 'submit', id: 'inspect-mode-apply' }, 'Switch mode'));
    form.elements.mode.value = state.mode;
    form.addEventListener('submit', async event => {
      event.preventDefault();
      const wanted = form.elements.mode.value;
      try {
        const changed = (await api('PUT', '/api/inspect/mode', { mode: wanted })).data;
        await showMode();
        // after the refresh, which replaced this part: the confirmation goes into the new one
        const now = document.getElementById('inspect-mode-status');
        if (now) {
          replace(now, done('Mode switched from ' + changed.previous + ' to ' + changed.mode + '.'));
        }
      } catch (error) {
        replace(status, errorBox(error));
      }
    });
    status.id = 'inspect-mode-status';
    shown.push(form, status);
  }
  return shown;
}

function eventFilter(target) {
  const form = h('form', { class: 'inline', id: 'inspect-events-filter' },
    field('Principal', { id: 'inspect-principal', name: 'principal', type: 'text' }),
    field('Tool', { id: 'inspect-tool', name: 'tool', type: 'text' }),
    field('Outcome', { tag: 'select', id: 'inspect-outcome', name: 'outcome', options: [['', 'any'], ['ok', 'ok'],
      ['error', 'error']] }),
    field('Decision', { tag: 'select', id: 'inspect-decision', name: 'decision', options: [['', 'any'], ['allow', 'allow'],
      ['would-block', 'would-block'], ['blocked', 'blocked']] }),
    field('At most', { id: 'inspect-limit', name: 'limit', type: 'number', min: 1, max: 1000, value: 100 }),
    h('button', { type: 'submit' }, 'Show'));
  form.addEventListener('submit', event => {
    event.preventDefault();
    fill(target, () => eventTable(values(form)));
  });
  return form;
}

async function eventTable(filters) {
  const answer = (await api('GET', '/api/inspect/events' + query(filters))).data;
  return table([
    { label: 'Time', value: e => time(e.ts) },
    { label: 'Principal', value: e => e.principal },
    { label: 'Tenant', value: e => e.tenant },
    { label: 'Tool', value: e => e.tool },
    { label: 'Outcome', value: e => badge(e.outcome) },
    { label: 'Decision', value: e => badge(e.decision) },
    { label: 'Latency (ms)', value: e => e.latencyMs },
    { label: 'Resources', value: e => text(e.resources), wrap: true },
    { label: 'Arguments', value: e => text(e.args), wrap: true },
  ], answer.events, 'No tool calls observed (in mode off nothing is recorded).', 'inspect-events-table');
}

async function profilePart(writable, showProfile) {
  const profile = (await api('GET', '/api/inspect/profile')).data;
  const status = h('div', { 'aria-live': 'polite' });
  const act = async (work, message) => {
    try {
      await work();
      await showProfile();
    } catch (error) {
      replace(status, errorBox(error));
      return;
    }
    const now = document.getElementById('inspect-profile-status');
    if (now) {
      replace(now, done(message));
    }
  };
  status.id = 'inspect-profile-status';
  const counts = profile.counts || {};
  const columns = [
    { label: 'Rule', value: r => r.id, wrap: true },
    { label: 'Subject', value: r => r.subject },
    { label: 'Tool', value: r => r.tool },
    { label: 'Resources', value: r => dimensions(r.resources), wrap: true },
    { label: 'Arguments', value: r => dimensions(r.args), wrap: true },
    { label: 'Learned from', value: r => provenance(r.provenance), wrap: true },
    { label: 'Status', value: r => badge(r.status) },
  ];
  if (writable) {
    columns.push({
      label: 'Decide',
      value: r => h('span', { class: 'actions' },
        r.status === 'accepted' ? null : h('button', { type: 'button', on: { click: () => act(
          () => api('PATCH', '/api/inspect/profile/rules/' + encodeURIComponent(r.id), { status: 'accepted' }),
          'Rule ' + r.id + ' accepted.') } }, 'Accept'),
        r.status === 'rejected' ? null : h('button', { type: 'button', class: 'secondary', on: { click: () => act(
          () => api('PATCH', '/api/inspect/profile/rules/' + encodeURIComponent(r.id), { status: 'rejected' }),
          'Rule ' + r.id + ' rejected.') } }, 'Reject')),
    });
  }
  return [
    facts([['Accepted', counts.accepted || 0], ['Suggested', counts.suggested || 0], ['Rejected', counts.rejected || 0]]),
    writable ? h('div', { class: 'actions' }, h('button', {
      type: 'button',
      id: 'inspect-derive',
      on: { click: () => act(() => api('POST', '/api/inspect/profile/derive', {}), 'Suggested rules derived from the window.') },
    }, 'Derive')) : null,
    status,
    table(columns, profile.rules, 'No rules yet: observe tool calls, then derive suggestions.', 'inspect-rules-table'),
  ];
}

/** {dimension: [values]} as "dimension: a, b; other: c". */
function dimensions(map) {
  if (!map || typeof map !== 'object') {
    return '';
  }
  return Object.entries(map).map(([name, list]) => name + ': ' + (Array.isArray(list) ? list.join(', ') : text(list))).join('; ');
}

function provenance(p) {
  if (!p) {
    return '';
  }
  const window = p.window ? ' from ' + text(p.window.from) + ' to ' + text(p.window.to) : '';
  const confidence = p.confidence === undefined ? '' : ', confidence ' + text(p.confidence);
  return text(p.learnedFrom) + window + confidence;
}

async function deviationPart() {
  const answer = (await api('GET', '/api/inspect/deviations')).data;
  return [
    facts([['Total', answer.total === undefined ? (answer.deviations || []).length : answer.total]]),
    answer.byKind && Object.keys(answer.byKind).length > 0
      ? table([{ label: 'Kind', value: k => k[0] }, { label: 'Calls', value: k => k[1] }], Object.entries(answer.byKind))
      : null,
    table([
      { label: 'Kind', value: d => d.kind },
      { label: 'Detail', value: d => d.detail, wrap: true },
      { label: 'Time', value: d => time(d.event && d.event.ts) },
      { label: 'Principal', value: d => d.event && d.event.principal },
      { label: 'Tool', value: d => d.event && d.event.tool },
    ], answer.deviations, 'No calls outside the profile.', 'inspect-deviations-table'),
  ];
}

async function flowPart() {
  const graph = (await api('GET', '/api/inspect/flows')).data;
  return [
    h('h3', {}, 'Nodes'),
    table([
      { label: 'Node', value: n => n.id, wrap: true },
      { label: 'Kind', value: n => n.kind },
      { label: 'Name', value: n => n.label },
      { label: 'Calls', value: n => n.calls },
    ], graph.nodes, 'No flows observed.', 'inspect-nodes-table'),
    h('h3', {}, 'Edges'),
    table([
      { label: 'From', value: e => e.from, wrap: true },
      { label: 'To', value: e => e.to, wrap: true },
      { label: 'Calls', value: e => e.calls },
      { label: 'Errors', value: e => e.errors },
      { label: 'Would block', value: e => e.wouldBlock },
      { label: 'Blocked', value: e => e.blocked },
    ], graph.edges, 'No flows observed.', 'inspect-edges-table'),
  ];
}
