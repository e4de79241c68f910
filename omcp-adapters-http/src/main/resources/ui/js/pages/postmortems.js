// Post-mortems (spec 4.3, docs/management-api.md "Stored post-mortems"): the stored reports of the caller's tenant,
// newest first, one report in full, generating one (postmortems:write) and deleting one (postmortems:delete).

import { api, query } from '../api.js';
import { h, replace, table, facts, errorBox, time, field, values, json, confirmButton } from '../dom.js';
import { title, fill } from './parts.js';

const PAGE_SIZE = 20;

export const postmortems = {
  id: 'postmortems',
  title: 'Post-mortems',
  needs: 'postmortems:read',
  async render(view, context) {
    if (context.argument !== '') {
      await one(view, context);
      return;
    }
    const status = h('div', { 'aria-live': 'polite' });
    const list = h('div');
    const show = before => fill(list, () => listed(before, show));
    view.append(title('Post-mortems'), status);
    if (context.can('postmortems:write')) {
      view.append(generateForm(status, context.go));
    }
    view.append(list);
    await show(null);
  },
};

async function listed(before, show) {
  const answer = (await api('GET', '/api/postmortems' + query({ limit: PAGE_SIZE, before }))).data;
  return [
    (answer.warnings || []).map(warning => h('p', { class: 'error', role: 'alert' }, warning)),
    table([
      { label: 'Report', value: p => h('a', { href: '#/postmortems/' + encodeURIComponent(p.id) }, p.id) },
      { label: 'Service', value: p => p.service, wrap: true },
      { label: 'Window', value: p => p.duration },
      { label: 'Created', value: p => time(p.createdAt) },
      { label: 'By', value: p => p.createdBy },
      { label: 'Tenant', value: p => p.tenant },
    ], answer.postmortems, 'No stored post-mortems.', 'postmortems-table'),
    h('div', { class: 'actions' },
      before ? h('button', { type: 'button', class: 'secondary', on: { click: () => show(null) } }, 'Newest') : null,
      answer.nextBefore ? h('button', { type: 'button', on: { click: () => show(answer.nextBefore) } }, 'Older reports') : null),
  ];
}

function generateForm(status, go) {
  const submit = h('button', { type: 'submit', id: 'postmortem-generate' }, 'Generate and store');
  const form = h('form', { class: 'inline', id: 'postmortem-form', novalidate: true },
    field('Service', { id: 'postmortem-service', name: 'service', type: 'text', required: true }),
    field('Window', { id: 'postmortem-duration', name: 'duration', type: 'text', placeholder: '1h' }),
    submit);
  form.addEventListener('submit', async event => {
    event.preventDefault();
    const entered = values(form);
    const body = { service: entered.service };
    if (entered.duration !== '') {
      body.duration = entered.duration;
    }
    submit.disabled = true;
    replace(status, h('p', { class: 'muted' }, 'Generating… (the tool queries the backends)'));
    try {
      const stored = (await api('POST', '/api/postmortems', body)).data;
      go('#/postmortems/' + encodeURIComponent(stored.id));
    } catch (error) {
      replace(status, errorBox(error));
    } finally {
      submit.disabled = false;
    }
  });
  return h('section', {}, h('h2', {}, 'Generate a post-mortem'), form);
}

async function one(view, { argument, can, go }) {
  view.append(title('Post-mortem ' + argument),
    h('p', {}, h('a', { href: '#/postmortems' }, 'All post-mortems')));
  const status = h('div', { 'aria-live': 'polite' });
  const body = h('div');
  view.append(status, body);
  await fill(body, async () => {
    const entry = (await api('GET', '/api/postmortems/' + encodeURIComponent(argument))).data;
    return [
      facts([
        ['Service', entry.service],
        ['Window', entry.duration],
        ['Created', time(entry.createdAt)],
        ['By', entry.createdBy],
        ['Tenant', entry.tenant || 'none'],
      ]),
      can('postmortems:delete') ? confirmButton('Delete', 'Delete this report', async () => {
        try {
          await api('DELETE', '/api/postmortems/' + encodeURIComponent(argument));
          go('#/postmortems');
        } catch (error) {
          replace(status, errorBox(error));
        }
      }) : null,
      h('h2', {}, 'Report'),
      json(entry.report),
    ];
  });
}
