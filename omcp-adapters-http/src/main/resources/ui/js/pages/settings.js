// Settings (GET/PUT /api/settings): what the environment fixed at start (read only) and what may change at run time.
// Changing needs settings:write (and health:write for healthThresholds); the change is sent with the ETag of what was
// read, so a change someone else made meanwhile is refused (412) rather than overwritten.

import { api } from '../api.js';
import { h, replace, table, facts, errorBox, done, text } from '../dom.js';
import { title, fill } from './parts.js';

export const settings = {
  id: 'settings',
  title: 'Settings',
  needs: 'settings:read',
  async render(view, { can }) {
    const body = h('div');
    const show = message => fill(body, () => current(can('settings:write'), show, message));
    view.append(title('Settings'), body);
    await show(null);
  },
};

async function current(writable, show, message) {
  const answer = await api('GET', '/api/settings');
  const state = answer.data;
  const version = answer.headers.get('ETag');
  const editor = h('textarea', {
    id: 'settings-changeable',
    rows: 18,
    readOnly: !writable,
    'aria-describedby': 'settings-changeable-hint',
  });
  editor.value = JSON.stringify(state.changeable, null, 2);
  const status = h('div', { 'aria-live': 'polite' }, message ? done(message) : null);
  const save = writable ? h('button', {
    type: 'button',
    id: 'settings-save',
    on: {
      click: async () => {
        let change;
        try {
          change = JSON.parse(editor.value);
        } catch (e) {
          replace(status, h('div', { class: 'error', role: 'alert' }, 'Not JSON: ' + e.message));
          return;
        }
        try {
          const saved = (await api('PUT', '/api/settings', change, version ? { 'If-Match': version } : {})).data;
          show('Saved: ' + ((saved.changed || []).join(', ') || 'nothing changed')
            + (saved.persisted ? '' : ' (kept until restart: no sources file)') + '.');
        } catch (error) {
          replace(status, errorBox(error));
        }
      },
    },
  }, 'Save changes') : null;
  return [
    facts([['Changes kept', state.persisted ? 'yes' : 'no, until restart'], ['Note', state.note || '']]),
    h('h2', {}, 'Changeable at run time'),
    h('label', { for: 'settings-changeable' }, 'Settings (JSON)'),
    h('p', { class: 'hint', id: 'settings-changeable-hint' }, writable
      ? 'Edit and save; healthThresholds also needs the permission health:write.'
      : 'You may read these; changing them needs the permission settings:write.'),
    editor,
    h('div', { class: 'actions' }, save),
    status,
    h('h2', {}, 'Fixed at start'),
    table([
      { label: 'Setting', value: row => row[0] },
      { label: 'Value', value: row => text(row[1]), wrap: true },
    ], Object.entries(state.fixed || {}), 'Nothing fixed.', 'settings-fixed'),
  ];
}
