// Talks to the management API (docs/management-api.md). Every answer that is not 2xx becomes an ApiError carrying the
// server's own message ({code, error}), so no page fails silently; a 401 for want of a session also tells the app,
// which then shows the login again.

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// docs/access-control.md, CSRF: over HTTPS the cookie is __Host-omcp-csrf, over plain HTTP omcp-csrf
const CSRF_COOKIES = ['__Host-omcp-csrf', 'omcp-csrf'];
const CSRF_HEADER = 'X-CSRF-Token';

let sessionEnded = () => {};

/** An answer of the gateway that is not a success, or no answer at all (status 0). */
export class ApiError extends Error {
  constructor(status, code, message, body, retryAfter) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
    this.retryAfter = retryAfter;
  }

  /** Each problem of a validation refusal ({errors: [...]}), when the server listed them. */
  get problems() {
    return this.body && Array.isArray(this.body.errors) ? this.body.errors.map(String) : [];
  }
}

/** Called with the ApiError when a request is refused for want of a session (the session expired or was revoked). */
export function onSessionEnded(handler) {
  sessionEnded = handler;
}

/** The CSRF token the gateway set for this page, or null. */
export function csrfToken() {
  const jar = new Map();
  for (const pair of document.cookie.split(';')) {
    const at = pair.indexOf('=');
    if (at > 0) {
      jar.set(pair.slice(0, at).trim(), pair.slice(at + 1).trim());
    }
  }
  for (const name of CSRF_COOKIES) {
    if (jar.has(name) && jar.get(name) !== '') {
      return jar.get(name);
    }
  }
  return null;
}

/**
 * Sends one request. `body` (optional) is sent as JSON; `headers` adds headers (If-Match). Answers {status, data,
 * headers} for a 2xx; throws ApiError otherwise.
 */
export async function api(method, path, body, headers = {}) {
  const init = { method, credentials: 'same-origin', headers: { Accept: 'application/json', ...headers } };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  if (MUTATING.has(method)) {
    const token = csrfToken();
    if (token !== null) {
      init.headers[CSRF_HEADER] = token;
    }
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, 'OMCP_UNREACHABLE', 'the gateway did not answer (' + e.message + '); check that it runs and try again',
      null, null);
  }
  const text = await response.text();
  let data = null;
  if (text !== '') {
    try {
      data = JSON.parse(text);
    } catch (e) {
      data = null;
    }
  }
  if (!response.ok) {
    const error = refusal(response, data);
    if (response.status === 401 && error.code === 'OMCP_AUTH_REQUIRED') {
      sessionEnded(error);
    }
    throw error;
  }
  return { status: response.status, data, headers: response.headers };
}

function refusal(response, data) {
  const retryAfter = response.headers.get('Retry-After');
  let message;
  if (data && typeof data.error === 'string' && data.error !== '') {
    message = data.error;
  } else if (data && typeof data.reason === 'string' && data.reason !== '') {
    message = data.reason;
  } else {
    message = 'the gateway answered ' + response.status + (response.statusText ? ' ' + response.statusText : '')
      + ' without saying why';
  }
  const code = data && typeof data.code === 'string' ? data.code : '';
  return new ApiError(response.status, code, message, data, retryAfter);
}

/** A query string of the non-empty values of `params`, with its leading '?' (or ''). */
export function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && String(value).trim() !== '') {
      search.append(name, String(value).trim());
    }
  }
  const text = search.toString();
  return text === '' ? '' : '?' + text;
}

/** A path segment per part of a name that may contain slashes (a service name, spec 1.9). */
export function slashedPath(name) {
  return name.split('/').map(encodeURIComponent).join('/');
}
