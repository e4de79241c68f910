// The Web UI's entry point: asks GET /api/me who is signed in, shows the login of the gateway's mode when nobody is
// (spec 5.1: the UI shows the login on the first 401), and otherwise the pages the caller may read. The server checks
// every request regardless; hiding a control only spares the user a 403 (spec 5.5).

import { api, onSessionEnded } from './api.js';
import { h, replace, errorBox } from './dom.js';
import { showLogin } from './login.js';
import { overview } from './pages/overview.js';
import { sources } from './pages/sources.js';
import { services } from './pages/services.js';
import { audit } from './pages/audit.js';
import { inspect } from './pages/inspect.js';
import { products } from './pages/products.js';
import { postmortems } from './pages/postmortems.js';
import { settings } from './pages/settings.js';
import { usage } from './pages/usage.js';

const PAGES = [overview, sources, services, audit, inspect, products, postmortems, settings, usage];
const main = document.getElementById('main');
const nav = document.getElementById('nav');
const who = document.getElementById('who');
const whoName = document.getElementById('who-name');
const logoutButton = document.getElementById('logout');
const notice = document.getElementById('notice');

let me = null;
let shown = 0;

/** Whether the signed-in caller holds `permission` ("resource:action"). */
function can(permission) {
  return me !== null && Array.isArray(me.permissions) && me.permissions.includes(permission);
}

function say(message) {
  if (message) {
    replace(notice, message);
    notice.hidden = false;
  } else {
    replace(notice);
    notice.hidden = true;
  }
}

/** The page and its argument named by the location's hash, #/page/argument. */
function route() {
  const hash = window.location.hash.replace(/^#\/?/, '');
  const slash = hash.indexOf('/');
  const id = slash < 0 ? hash : hash.slice(0, slash);
  const argument = slash < 0 ? '' : decoded(hash.slice(slash + 1));
  const page = PAGES.find(p => p.id === id) || overview;
  return { page, argument };
}

/** A percent-encoded part of the hash; one that does not decode is taken as written (the API then refuses it). */
function decoded(part) {
  try {
    return decodeURIComponent(part);
  } catch (e) {
    return part;
  }
}

function renderNav(current) {
  replace(nav, PAGES.filter(p => p.needs === null || can(p.needs)).map(p => h('a', {
    href: '#/' + p.id,
    id: 'nav-' + p.id,
    'aria-current': p === current ? 'page' : false,
  }, p.title)));
}

async function show() {
  if (me === null) {
    return;
  }
  const { page, argument } = route();
  const mine = ++shown;
  renderNav(page);
  const view = h('section', { 'aria-labelledby': 'page-title' });
  replace(main, view);
  main.focus();
  if (page.needs !== null && !can(page.needs)) {
    replace(view, h('h1', { id: 'page-title' }, page.title),
      h('p', { class: 'error', role: 'alert' }, 'This page needs the permission ' + page.needs
        + ', which you do not hold; ask an administrator to grant it.'));
    return;
  }
  try {
    await page.render(view, { me, can, argument, go: hash => { window.location.hash = hash; } });
  } catch (error) {
    // a page that could not be drawn at all still says why, in its own place
    if (mine === shown) {
      view.appendChild(errorBox(error));
    }
  }
}

function signedIn(identity) {
  me = identity;
  const tenant = identity.tenant ? ' (tenant ' + identity.tenant + ')' : '';
  const roles = identity.roles && identity.roles.length > 0 ? ' · ' + identity.roles.join(', ') : '';
  whoName.textContent = (identity.name || identity.sub) + tenant + roles;
  // anonymous mode has no session to end
  logoutButton.hidden = !identity.sid;
  who.hidden = false;
  nav.hidden = false;
  show();
}

function signedOut(mode, message) {
  me = null;
  who.hidden = true;
  nav.hidden = true;
  replace(nav);
  showLogin(main, mode, message, start);
}

/** Asks who is signed in and shows the app or the login. */
async function start() {
  say(null);
  try {
    const answer = await api('GET', '/api/me');
    signedIn(answer.data);
  } catch (error) {
    if (error.status === 401) {
      signedOut(error.body && error.body.mode, null);
      return;
    }
    replace(main, h('h1', { id: 'page-title' }, 'OMCP gateway'), errorBox(error),
      h('button', { type: 'button', on: { click: start } }, 'Try again'));
  }
}

logoutButton.addEventListener('click', async () => {
  logoutButton.disabled = true;
  let message = 'You are logged out.';
  try {
    await api('POST', '/api/auth/logout');
  } catch (error) {
    // the cookies are cleared either way (spec 4.2); what the server could not do is said, not hidden
    message = 'Logged out in this browser, but: ' + error.message;
  } finally {
    logoutButton.disabled = false;
  }
  me = null;
  try {
    await api('GET', '/api/me');
    // a gateway without login (anonymous mode) is still open: show it again
    start();
  } catch (error) {
    signedOut(error.body && error.body.mode, message);
  }
});

onSessionEnded(error => {
  if (me !== null) {
    signedOut(error.body && error.body.mode, 'Your session has ended; sign in again. (' + error.message + ')');
  }
});

window.addEventListener('hashchange', show);
start();
