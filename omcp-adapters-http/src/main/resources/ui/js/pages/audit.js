// Audit (GET /api/audit, permission audit:read): the hash-chained log of management changes, newest first, filtered
// by time, actor and action and paged by sequence number. The gateway has no route that verifies the chain; the page
// shows the tip to anchor `omcp audit verify --expect SEQ:HASH` on the file.

import { api, query } from '../api.js';
import { h, table, badge, facts, time, field, values } from '../dom.js';
import { title, fill } from './parts.js';

const PAGE_SIZE = 50;

export const audit = {
  id: 'audit',
  title: 'Audit',
  needs: 'audit:read',
  async render(view) {
    const results = h('div');
    const form = h('form', { class: 'inline', id: 'audit-filter' },
      field('From', { id: 'audit-from', name: 'from', type: 'text', placeholder: '2026-03-01T00:00:00Z' }),
      field('To', { id: 'audit-to', name: 'to', type: 'text', placeholder: 'ISO-8601' }),
      field('Actor', { id: 'audit-actor', name: 'actor', type: 'text' }),
      field('Action', { id: 'audit-action', name: 'action', type: 'text', placeholder: 'login, write, delete…' }),
      field('Per page', { id: 'audit-limit', name: 'limit', type: 'number', min: 1, max: 1000, value: PAGE_SIZE }),
      h('button', { type: 'submit', id: 'audit-search' }, 'Search'));
    const search = beforeSeq => fill(results, () => entries({ ...values(form), beforeSeq }, search));
    form.addEventListener('submit', event => {
      event.preventDefault();
      search(null);
    });
    view.append(title('Audit'), form, results);
    await search(null);
  },
};

async function entries(filters, search) {
  const page = (await api('GET', '/api/audit' + query(filters))).data;
  const rows = table([
    { label: 'Seq', value: e => e.seq },
    { label: 'Time', value: e => time(e.ts) },
    { label: 'Actor', value: e => e.actor },
    { label: 'Tenant', value: e => e.tenant },
    { label: 'Action', value: e => e.action },
    { label: 'Resource', value: e => e.resource },
    { label: 'Target', value: e => e.target, wrap: true },
    { label: 'Request', value: e => e.method + ' ' + e.path, wrap: true },
    { label: 'Status', value: e => e.status },
    { label: 'Address', value: e => e.ip },
  ], page.entries, 'No entries match.', 'audit-table');
  const paging = h('div', { class: 'actions' },
    filters.beforeSeq ? h('button', { type: 'button', class: 'secondary', on: { click: () => search(null) } }, 'Newest') : null,
    page.nextBeforeSeq !== null && page.nextBeforeSeq !== undefined
      ? h('button', { type: 'button', id: 'audit-older', on: { click: () => search(page.nextBeforeSeq) } }, 'Older entries')
      : null);
  return [
    facts([
      ['Recording', badge(page.recording === 'ok' ? 'ok' : page.recording)],
      ['Kept in a file', page.persisted ? 'yes' : 'no (memory only; OMCP_MGMT_AUDIT_FILE is unset)'],
      ['Chain tip', page.tipSeq ? page.tipSeq + ' ' + page.tipHash : 'no entry yet'],
    ]),
    page.persisted && page.tipSeq
      ? h('p', { class: 'hint' }, 'To verify the chain up to here, run on the gateway\'s host: ',
        h('code', {}, 'omcp audit verify --expect ' + page.tipSeq + ':' + page.tipHash))
      : null,
    page.searchComplete === false
      ? h('p', { class: 'hint' }, 'The search stopped at its work budget before filling the page; "Older entries" goes on.')
      : null,
    sinks(page.sinks),
    rows,
    paging,
  ];
}

function sinks(list) {
  if (!list || list.length === 0) {
    return null;
  }
  return [h('h2', {}, 'Delivery to other sinks'), table([
    { label: 'Sink', value: s => s.name },
    { label: 'Queued', value: s => s.queued },
    { label: 'Delivered', value: s => s.delivered },
    { label: 'Dead-lettered', value: s => s.deadLettered },
    { label: 'Overflowed', value: s => s.overflowed },
    { label: 'Lost', value: s => s.lost },
    { label: 'Failing since', value: s => time(s.failingSince) },
    { label: 'Last failure', value: s => s.lastFailure || '', wrap: true },
  ], list)];
}
