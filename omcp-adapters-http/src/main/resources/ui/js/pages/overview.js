// Overview: what runs (GET /api/info: version, MCP revisions, governance) and the counts the caller may see
// (GET /api/health with a session: sources by state; GET /api/inspect/mode: observed tool calls).

import { api } from '../api.js';
import { h, facts, table, badge } from '../dom.js';
import { title, part, onOff } from './parts.js';

const GOVERNANCE = [
  ['authMode', 'Management login'],
  ['authSecretEphemeral', 'Sessions end at restart (per-process secret)'],
  ['auditPersisted', 'Audit log written to a file'],
  ['catalogConfigured', 'Service catalog loaded'],
  ['redaction', 'Log redaction'],
  ['trustProxy', 'Forwarded headers trusted'],
  ['toolRatePerMin', 'Default tool rate per minute'],
  ['anomalyHistoryActive', 'Anomaly history sent to remote write'],
  ['tracesCapabilityCount', 'Sources that answer query_traces'],
];

export const overview = {
  id: 'overview',
  title: 'Overview',
  needs: null,
  async render(view, { me, can }) {
    view.append(title('Overview'));
    view.append(part('Gateway', async () => {
      const info = (await api('GET', '/api/info')).data;
      const rows = GOVERNANCE.filter(([key]) => key in info.governance)
        .map(([key, label]) => ({ label, value: onOff(info.governance[key]) }));
      return [
        facts([
          ['Name', info.name],
          ['Version', h('span', { id: 'overview-version' }, info.version)],
          ['MCP revisions', (info.protocolRevisions || []).join(', ')],
          ['Signed in as', (me.name || me.sub) + (me.tenant ? ' (tenant ' + me.tenant + ')' : '')],
          ['Roles', (me.roles || []).join(', ') || 'none'],
        ]),
        h('h3', {}, 'Governance'),
        table([{ label: 'Layer', value: r => r.label }, { label: 'State', value: r => r.value }], rows, 'No governance block.',
          'overview-governance'),
      ];
    }, 'overview-gateway'));
    view.append(part('Sources', async () => {
      const health = (await api('GET', '/api/health')).data;
      const counts = health.counts || {};
      return [
        h('p', {}, 'Gateway status: ', badge(health.status)),
        health.counts
          ? facts(Object.entries(counts).map(([name, count]) => [name, count]))
          : h('p', { class: 'muted' }, 'Source counts need the permission health:read.'),
      ];
    }, 'overview-sources'));
    if (can('inspection:read')) {
      view.append(part('Inspect', async () => {
        const mode = (await api('GET', '/api/inspect/mode')).data;
        return facts([
          ['Mode', badge(mode.mode)],
          ['Tool calls observed', mode.counts ? mode.counts.observed : ''],
          ['Dropped', mode.counts ? mode.counts.dropped : ''],
        ]);
      }, 'overview-inspect'));
    }
  },
};
