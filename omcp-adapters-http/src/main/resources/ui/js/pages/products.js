// Products (docs/products.md): curated tool bundles each served at /mcp/v/<id>. Listing needs products:read, creating
// or replacing one products:write (PUT /api/products/{id}), deleting one products:delete.

import { api } from '../api.js';
import { h, replace, table, badge, errorBox, done, field, confirmButton, values } from '../dom.js';
import { title, fill } from './parts.js';

export const products = {
  id: 'products',
  title: 'Products',
  needs: 'products:read',
  async render(view, { can }) {
    const status = h('div', { 'aria-live': 'polite' });
    const list = h('div');
    const form = can('products:write') ? productForm(status, () => reload()) : null;
    const reload = () => fill(list, () => productTable(can, status, reload, form));
    view.append(title('Products'), status, list);
    if (form) {
      view.append(h('h2', {}, 'Create or replace a Product'), form);
    }
    await reload();
  },
};

async function productTable(can, status, reload, form) {
  const answer = (await api('GET', '/api/products')).data;
  const columns = [
    { label: 'Id', value: p => p.id },
    { label: 'Name', value: p => p.name },
    { label: 'Description', value: p => p.description || '', wrap: true },
    { label: 'Status', value: p => badge(p.status) },
    { label: 'Tools', value: p => (p.tools || []).join(', '), wrap: true },
    { label: 'Tenant', value: p => p.tenant || 'all tenants' },
    { label: 'Endpoint', value: p => p.endpoint },
  ];
  if (form) {
    columns.push({
      label: 'Edit',
      value: p => h('button', { type: 'button', class: 'secondary', on: { click: () => edit(form, p) } }, 'Edit'),
    });
  }
  if (can('products:delete')) {
    columns.push({
      label: 'Delete',
      value: p => confirmButton('Delete', 'Delete ' + p.id, async () => {
        try {
          await api('DELETE', '/api/products/' + encodeURIComponent(p.id));
          replace(status, done('Product ' + p.id + ' deleted; its endpoint answers 404 from now on.'));
          reload();
        } catch (error) {
          replace(status, errorBox(error));
        }
      }),
    });
  }
  return [
    answer.storage ? h('p', { class: 'hint' }, 'Kept in: ' + answer.storage) : null,
    table(columns, answer.products, 'No Products.', 'products-table'),
  ];
}

function edit(form, product) {
  form.elements.id.value = product.id;
  form.elements.name.value = product.name;
  form.elements.description.value = product.description || '';
  form.elements.status.value = product.status;
  form.elements.tools.value = (product.tools || []).join(', ');
  form.elements.tenant.value = product.tenant || '';
  form.elements.id.focus();
}

function productForm(status, reload) {
  const form = h('form', { class: 'panel', id: 'product-form', novalidate: true },
    field('Id', { id: 'product-id', name: 'id', type: 'text', required: true }),
    field('Name', { id: 'product-name', name: 'name', type: 'text', required: true }),
    field('Description', { id: 'product-description', name: 'description', type: 'text' }),
    field('Status', { tag: 'select', id: 'product-status', name: 'status', options: [['published', 'published'],
      ['staging', 'staging']] }),
    field('Tools', { id: 'product-tools', name: 'tools', type: 'text' }, 'tool names, separated by commas'),
    field('Tenant', { id: 'product-tenant', name: 'tenant', type: 'text' }, 'empty: every tenant'),
    h('button', { type: 'submit', id: 'product-submit' }, 'Save Product'));
  form.addEventListener('submit', async event => {
    event.preventDefault();
    const entered = values(form);
    const body = {
      id: entered.id,
      name: entered.name,
      status: entered.status,
      tools: entered.tools === '' ? [] : entered.tools.split(',').map(t => t.trim()).filter(t => t !== ''),
    };
    if (entered.description !== '') {
      body.description = entered.description;
    }
    if (entered.tenant !== '') {
      body.tenant = entered.tenant;
    }
    try {
      const answer = await api('PUT', '/api/products/' + encodeURIComponent(entered.id), body);
      replace(status, done('Product ' + entered.id + (answer.status === 201 ? ' created.' : ' replaced.')));
      form.reset();
      reload();
    } catch (error) {
      replace(status, errorBox(error));
    }
  });
  return form;
}
