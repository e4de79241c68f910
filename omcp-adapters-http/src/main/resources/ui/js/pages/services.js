// Services and health: the gateway's source status (GET /api/health), the services the caller's sources know
// (GET /api/services, list_services) and each one's health (GET /api/health/<service>, get_service_health), coloured
// by status. Health needs health:read; each service is judged by its own call, a few at a time.

import { api, query, slashedPath } from '../api.js';
import { h, replace, table, badge, errorBox, time, field, values } from '../dom.js';
import { title, part, fill } from './parts.js';

/** Health calls at once: each runs a tool against the backends, so a long list must not flood them. */
const AT_ONCE = 4;

export const services = {
  id: 'services',
  title: 'Services',
  needs: 'services:read',
  async render(view, { can }) {
    view.append(title('Services and health'));
    view.append(part('Sources', sourceHealth, 'services-sources'));
    const list = h('div');
    const form = h('form', { class: 'inline', id: 'services-filter' },
      field('Name contains', { id: 'services-filter-text', name: 'filter', type: 'text' }),
      h('button', { type: 'submit' }, 'List'));
    form.addEventListener('submit', event => {
      event.preventDefault();
      fill(list, () => serviceTable(values(form).filter, can('health:read')));
    });
    view.append(h('section', {}, h('h2', {}, 'Services'), form, list));
    await fill(list, () => serviceTable('', can('health:read')));
  },
};

async function sourceHealth() {
  const health = (await api('GET', '/api/health')).data;
  return [
    h('p', {}, 'Gateway status: ', badge(health.status)),
    health.sourcesFile && health.sourcesFile.readable === false
      ? h('p', { class: 'error', role: 'alert' }, 'The sources file could not be read: ' + health.sourcesFile.problem) : null,
    health.sources ? table([
      { label: 'Source', value: s => s.name },
      { label: 'Type', value: s => s.type },
      { label: 'Status', value: s => badge(s.status) },
      { label: 'Last answer', value: s => time(s.lastAnswerAt) },
      { label: 'Last failure', value: s => (s.lastFailure ? s.lastFailure + ' ' : '') },
      { label: 'Failures in a row', value: s => s.consecutiveFailures || '' },
      { label: 'Problem', value: s => s.problem || '', wrap: true },
    ], health.sources, 'No sources.') : h('p', { class: 'muted' }, 'Source details need the permission health:read.'),
  ];
}

async function serviceTable(filter, healthReadable) {
  const answer = (await api('GET', '/api/services' + query({ filter }))).data;
  const listed = answer.services || [];
  const cells = new Map();
  const columns = [
    { label: 'Service', value: s => s.name, wrap: true },
    { label: 'Sources', value: s => (s.sources || []).join(', ') },
  ];
  if (healthReadable) {
    columns.push({ label: 'Health', value: s => cell(cells, s.name, 'status') });
    columns.push({ label: 'Score', value: s => cell(cells, s.name, 'score') });
    columns.push({ label: 'Why', value: s => cell(cells, s.name, 'why'), wrap: true });
    columns.push({
      label: 'Check',
      value: s => h('button', { type: 'button', class: 'secondary', on: { click: () => judge(cells, s.name) } }, 'Check again'),
    });
  }
  const notes = [];
  if (answer.truncated) {
    notes.push(h('p', { class: 'muted' }, 'Showing ' + listed.length + ' of ' + answer.total + ' services; narrow the list.'));
  }
  if (answer.partial) {
    notes.push(h('p', { class: 'error', role: 'alert' }, 'Some sources did not answer; the list may be incomplete.'
      + (answer.note ? ' ' + answer.note : '')));
  }
  const shown = table(columns, listed, 'No services: the sources know none, or none matches.', 'services-table');
  if (healthReadable) {
    judgeAll(cells, listed.map(s => s.name));
  }
  return [notes, shown];
}

function cell(cells, name, key) {
  if (!cells.has(name)) {
    cells.set(name, { status: h('span', {}, '…'), score: h('span'), why: h('span') });
  }
  return cells.get(name)[key];
}

async function judgeAll(cells, names) {
  const queue = names.slice();
  const worker = async () => {
    while (queue.length > 0) {
      await judge(cells, queue.shift());
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, names.length) }, worker));
}

async function judge(cells, name) {
  const target = cells.get(name);
  replace(target.status, '…');
  replace(target.score);
  replace(target.why);
  try {
    const report = (await api('GET', '/api/health/' + slashedPath(name))).data;
    replace(target.status, badge(report.status));
    replace(target.score, report.score === undefined ? '' : String(report.score));
    replace(target.why, (report.drivers || []).join('; '));
  } catch (error) {
    replace(target.status, badge('unknown'));
    replace(target.why, errorBox(error));
  }
}
