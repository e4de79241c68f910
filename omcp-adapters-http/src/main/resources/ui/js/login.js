// The login of the gateway's mode (spec 5.1): a password form in basic mode (POST /api/auth/login), a single sign-on
// button in oidc mode (GET /api/auth/oidc/login, which comes back to /ui/). A refusal shows the server's own message:
// invalid credentials, a locked account or too many attempts with when to try again.

import { api } from './api.js';
import { h, replace, errorBox, field } from './dom.js';

const SSO_START = '/api/auth/oidc/login?returnTo=' + encodeURIComponent('/ui/');

/** Shows the login in `main`; `signedIn` is called once a session exists. `message` says why it is shown again. */
export function showLogin(main, mode, message, signedIn) {
  const section = h('section', { id: 'login', 'aria-labelledby': 'page-title' }, h('h1', { id: 'page-title' }, 'Sign in'));
  if (message) {
    section.appendChild(h('p', { class: 'notice', role: 'status', id: 'login-message' }, message));
  }
  if (mode === 'basic') {
    section.appendChild(passwordForm(signedIn));
  } else if (mode === 'oidc') {
    section.appendChild(h('p', {}, 'This gateway signs you in through your organisation\'s identity provider.'));
    section.appendChild(h('button', {
      type: 'button',
      id: 'login-sso',
      on: { click: () => window.location.assign(SSO_START) },
    }, 'Sign in with single sign-on'));
  } else {
    section.appendChild(h('p', { class: 'error', role: 'alert' }, 'The gateway asks for a session but names no login mode it'
      + ' knows (' + String(mode) + '); reload the page, and check OMCP_AUTH if this stays.'));
  }
  replace(main, section);
  const first = section.querySelector('input, button');
  if (first) {
    first.focus();
  }
}

function passwordForm(signedIn) {
  const status = h('div', { 'aria-live': 'polite' });
  const submit = h('button', { type: 'submit', id: 'login-submit' }, 'Sign in');
  const form = h('form', { id: 'login-form', novalidate: true },
    field('Username', { id: 'login-username', name: 'username', type: 'text', autocomplete: 'username', required: true }),
    field('Password', { id: 'login-password', name: 'password', type: 'password', autocomplete: 'current-password',
      required: true }),
    submit,
    status);
  form.addEventListener('submit', async event => {
    event.preventDefault();
    const username = form.elements.username.value;
    const password = form.elements.password.value;
    if (username.trim() === '' || password === '') {
      replace(status, h('p', { class: 'error', role: 'alert', id: 'login-error' }, 'Enter your username and password.'));
      return;
    }
    submit.disabled = true;
    replace(status, h('p', { class: 'muted' }, 'Signing in…'));
    try {
      await api('POST', '/api/auth/login', { username, password });
      await signedIn();
    } catch (error) {
      form.elements.password.value = '';
      replace(status, errorBox(error, 'login-error'));
      form.elements.password.focus();
    } finally {
      submit.disabled = false;
    }
  });
  return form;
}
