// Pieces every page uses: a titled section that loads on its own and says why when it cannot.

import { h, replace, errorBox } from '../dom.js';

/** The page's heading (there is one per page, for screen readers and the tests alike). */
export function title(text) {
  return h('h1', { id: 'page-title' }, text);
}

/**
 * Fills `target` with what `work` returns (a node or an array of nodes), showing "Loading…" meanwhile and the server's
 * message when it fails; a part of a page that fails does not blank the rest.
 */
export async function fill(target, work) {
  replace(target, h('p', { class: 'muted' }, 'Loading…'));
  try {
    const content = await work();
    replace(target, content);
  } catch (error) {
    replace(target, errorBox(error));
  }
}

/** A section with a heading and a body that `work` fills; answers the section. */
export function part(heading, work, id = null) {
  const body = h('div');
  const section = h('section', { id: id }, h('h2', {}, heading), body);
  fill(body, work);
  return section;
}

/** "on"/"off" for booleans, the value otherwise ("none" for null). */
export function onOff(value) {
  if (value === true) {
    return 'on';
  }
  if (value === false) {
    return 'off';
  }
  return value === null || value === undefined ? 'none' : value;
}
