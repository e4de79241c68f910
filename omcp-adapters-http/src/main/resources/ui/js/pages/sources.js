// Sources (GET/POST /api/sources, POST /api/sources/test, DELETE /api/sources/{name}): the backends the tools query.
// Adding and testing need sources:write, removing sources:delete; a caller bound to a tenant sees, adds and removes its
// tenant's sources only, and the server refuses the rest (OMCP_SOURCE_GATEWAY_WIDE) with a message shown here.

import { api } from '../api.js';
import { h, replace, table, badge, errorBox, done, field, confirmButton, values } from '../dom.js';
import { title, fill } from './parts.js';

export const sources = {
  id: 'sources',
  title: 'Sources',
  needs: 'sources:read',
  async render(view, { can }) {
    const status = h('div', { 'aria-live': 'polite' });
    const list = h('div');
    const reload = () => fill(list, () => sourceTable(can, status, reload));
    view.append(title('Sources'), status, list);
    if (can('sources:write')) {
      view.append(h('h2', {}, 'Add a source'), addForm(can, status, reload));
    }
    await reload();
  },
};

async function sourceTable(can, status, reload) {
  const listed = (await api('GET', '/api/sources')).data.sources || [];
  const columns = [
    { label: 'Name', value: s => s.name },
    { label: 'Type', value: s => s.type },
    { label: 'Endpoint', value: s => s.endpoint, wrap: true },
    { label: 'Tenant', value: s => s.tenant || 'all tenants' },
    { label: 'Enabled', value: s => (s.enabled ? 'yes' : 'no') },
    { label: 'Status', value: s => badge(s.status) },
    { label: 'Problem', value: s => s.problem || '', wrap: true },
    { label: 'Capabilities', value: s => (s.capabilities || []).join(', ') },
    { label: 'From', value: s => s.origin },
  ];
  if (can('sources:delete')) {
    columns.push({
      label: 'Remove',
      value: s => confirmButton('Remove', 'Remove ' + s.name, async () => {
        try {
          await api('DELETE', '/api/sources/' + encodeURIComponent(s.name));
          replace(status, done('Source ' + s.name + ' removed.'));
          reload();
        } catch (error) {
          replace(status, errorBox(error));
        }
      }, 'source-remove-' + s.name),
    });
  }
  return table(columns, listed, 'No sources: the tools have nothing to query yet.', 'sources-table');
}

function addForm(can, status, reload) {
  const typeList = h('datalist', { id: 'source-types' });
  if (can('connectors:read')) {
    // the connector types this gateway has, as suggestions; any name may still be typed
    api('GET', '/api/connectors').then(answer => {
      replace(typeList, (answer.data.connectors || []).map(c => h('option', { value: c.name })));
    }, error => replace(status, errorBox(error)));
  }
  const form = h('form', { class: 'panel', id: 'source-add', novalidate: true },
    field('Name', { id: 'source-name', name: 'name', type: 'text', required: true },
      '1-63 of a-z 0-9 . _ -, starting with a letter or digit'),
    field('Type', { id: 'source-type', name: 'type', type: 'text', list: 'source-types', required: true },
      'the connector: prometheus, loki, kubernetes or a plugin\'s name'),
    typeList,
    field('URL', { id: 'source-url', name: 'url', type: 'text', placeholder: 'scheme://host:port/path' }),
    field('Tenant', { id: 'source-tenant', name: 'tenant', type: 'text' }, 'empty: the source serves every tenant'),
    h('div', { class: 'check' },
      h('input', { id: 'source-enabled', name: 'enabled', type: 'checkbox', checked: true }),
      h('label', { for: 'source-enabled' }, 'Enabled')),
    field('Settings (JSON object)', { tag: 'textarea', id: 'source-settings', name: 'settings', rows: 4,
      placeholder: '{}' }, 'as the connector\'s configSchema describes them; empty for none'),
    h('div', { class: 'actions' },
      h('button', { type: 'button', id: 'source-test', class: 'secondary', on: { click: () => send('/api/sources/test') } },
        'Test connection'),
      h('button', { type: 'submit', id: 'source-submit' }, 'Add source')));

  async function send(path) {
    const body = draft(form, status);
    if (body === null) {
      return;
    }
    try {
      const answer = await api('POST', path, body);
      if (path.endsWith('/test')) {
        const check = answer.data;
        replace(status, check.ok
          ? done('The backend answered in ' + check.latencyMs + ' ms: ' + (check.message || 'ok'))
          : h('div', { class: 'error', role: 'alert' }, 'The backend did not answer (' + check.stage + '): ' + check.message));
      } else {
        replace(status, done('Source ' + body.name + ' added.'));
        form.reset();
        reload();
      }
    } catch (error) {
      replace(status, errorBox(error));
    }
  }
  form.addEventListener('submit', event => {
    event.preventDefault();
    send('/api/sources');
  });
  return form;
}

/** The body of the form, or null (with the problem shown) when the settings are not a JSON object. */
function draft(form, status) {
  const entered = values(form);
  const body = { name: entered.name, type: entered.type, enabled: entered.enabled };
  if (entered.url !== '') {
    body.url = entered.url;
  }
  if (entered.tenant !== '') {
    body.tenant = entered.tenant;
  }
  if (entered.settings !== '') {
    let settings;
    try {
      settings = JSON.parse(entered.settings);
    } catch (e) {
      replace(status, h('div', { class: 'error', role: 'alert' }, 'Settings are not JSON: ' + e.message));
      return null;
    }
    if (settings === null || typeof settings !== 'object' || Array.isArray(settings)) {
      replace(status, h('div', { class: 'error', role: 'alert' }, 'Settings must be a JSON object, such as {}.'));
      return null;
    }
    body.settings = settings;
  }
  return body;
}
