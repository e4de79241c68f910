// Usage (GET /api/usage, permission audit:read, spec 2.9): each agent credential's requests within the rate limit's
// window and, while a token budget is in force, its tokens; counted by the replica that answers.

import { api, query } from '../api.js';
import { h, table, facts, field, values } from '../dom.js';
import { title, fill, onOff } from './parts.js';

export const usage = {
  id: 'usage',
  title: 'Usage',
  needs: 'audit:read',
  async render(view) {
    const body = h('div');
    const form = h('form', { class: 'inline', id: 'usage-filter' },
      field('Identity', { id: 'usage-actor', name: 'actor', type: 'text', placeholder: 'key:ci' }),
      h('button', { type: 'submit' }, 'Show'));
    form.addEventListener('submit', event => {
      event.preventDefault();
      fill(body, () => counts(values(form).actor));
    });
    view.append(title('Usage'), form, body);
    await fill(body, () => counts(''));
  },
};

async function counts(actor) {
  const answer = (await api('GET', '/api/usage' + query({ actor }))).data;
  const tokens = answer.tokens || {};
  return [
    facts([
      ['Default requests per window', onOff(answer.defaultLimit)],
      ['Window', answer.windowMs / 1000 + ' s'],
      ['Daily token cap', tokens.defaultLimit === null ? 'uncapped' : tokens.defaultLimit],
    ]),
    table([
      { label: 'Identity', value: i => i.actor },
      { label: 'Requests', value: i => i.count },
      { label: 'Limit', value: i => (i.limit === null ? 'no limit' : i.limit) },
      { label: 'Tokens used', value: i => (i.tokens ? i.tokens.used : '') },
      { label: 'Token limit', value: i => (i.tokens ? (i.tokens.limit === null ? 'uncapped' : i.tokens.limit) : '') },
    ], answer.identities, 'No API keys: anonymous traffic on /mcp is not counted.', 'usage-table'),
  ];
}
